"""How a search orders its candidates (issue 19): FTS5's bm25 picks them, these boosts put the
passage that answers first: more of the question's words, the words as a phrase, the words in
the title or heading.

This module imports only the standard library.
"""

from __future__ import annotations

from workers.sources.query import SearchQuery, term_matches

__all__ = ["COVERAGE_FLOOR", "COVERAGE_POWER", "rank_score"]

COVERAGE_POWER = 2.0
COVERAGE_FLOOR = 0.25
"""The least share of its bm25 a passage keeps for its coverage (see :func:`rank_score`)."""


def rank_score(query: SearchQuery, bm25: float, text: str, title: str) -> float:
    """A passage's score: its bm25 (negated, so higher is better) times boosts for

    * coverage: the share ``c`` of the query's words it has (text, title or heading) gives
      ``COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * c**2``, so one rare word repeated never beats
      a passage with every word;
    * phrase: up to x1.5 as the words stand side by side in the question's order;
    * title or heading: up to x1.5 as the words are in the document's title, the symbol's name
      or the passage's section heading;
    * the focus's other words (``query.context``): up to x1.25.

    Args:
        query: the parsed query (:func:`~workers.sources.query.search_query`).
        bm25: FTS5's ``-bm25`` of the passage (> 0).
        text: the passage text; ``title``: its title words, symbol name and heading.
    """
    terms = query.terms
    in_text, pairs = term_matches(terms, text)
    in_title, title_pairs = term_matches(terms, title)
    n = len(terms)
    coverage = len(in_text | in_title) / n
    score = bm25 * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage**COVERAGE_POWER)
    if n > 1:
        score *= 1 + 0.5 * max(pairs, title_pairs) / (n - 1)
    score *= 1 + 0.5 * len(in_title) / n
    if query.context:
        found, _ = term_matches(query.context, f"{title} {text}")
        score *= 1 + 0.25 * len(found) / len(query.context)
    return score
