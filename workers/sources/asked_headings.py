"""A title or heading written in the question's own words, the words of how it asks included.

A search drops the words of how people ask (:data:`~workers.sources.stopwords.FILLER_WORDS`):
"What are the *known* limitations of gnuplot?" searches "limitations" and "gnuplot", "What is
zsh *good* at?" searches "zsh" alone. But a page titled "Known limitations", or an FAQ's "1.3:
What is it good at?", is that question's answer in the document's own words, and neither was
found (trial 115, F2b, F2c: "Undefined: If an integer arithmetic expression overflows ..." and
a list of zsh's modules answered). A search looks those words up among the headings
(:func:`fts_asked_headings`), and a heading that says the question ranks first
(:func:`heading_asks`).

This module imports only the standard library and the sources' word modules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workers.sources.fts_clauses import fts_asked_headings
from workers.sources.query import query_terms, shares_form

__all__ = ["ASKED_HEADING_BOOST", "fts_asked_headings", "heading_asks"]

ASKED_HEADING_BOOST = 2.0
"""How much a heading in the question's own words raises a passage: x3. Such a page seldom
repeats the subject's name ("Known limitations" never says "gnuplot"), so it keeps little of
its score for the question's words it lacks (:func:`~workers.sources.ranking.rank_score`)."""

_NUMBERING = re.compile(r"^\s*(?:[A-Z]?\d+(?:\.\d+)*\.?:?|[A-Z][.:])\s+")
"""A heading's number: "1.3:", "15.6", "A.2."."""
_PRONOUNS = frozenset("it its they them their this these that".split())
_WORDS = re.compile(r"\w+")


def heading_asks(heading: str, question: str, said: Sequence[str], terms: Sequence[str]) -> bool:
    """Whether ``heading`` (a title or a section's heading) says what the ``question`` asks, in
    its words, the words of how it asks included (``said``: the question's words but its
    stopwords; ``terms``: those a search ranks by): every word of the heading is one of the
    question's, one of them a word of how it asks, and the heading lacks one of the ``terms``
    at most (the subject, which a page of its manual need not name). A heading of one such
    word is not enough ("Meaning", for "What does X mean?"), unless it asks the question
    itself, a pronoun for the subject ("1.3: What is it good at?" for "What is zsh good at?").

    Example:
        >>> said, terms = ["known", "limitations", "gnuplot"], ["limitations", "gnuplot"]
        >>> q = "What are the known limitations of gnuplot?"
        >>> heading_asks("Known limitations", q, said, terms), heading_asks("Limitations", q,
        ...     said, terms), heading_asks("Known bugs", q, said, terms)
        (True, False, False)
        >>> heading_asks("1.3: What is it good at?", "What is zsh good at?", ["zsh", "good"],
        ...              ["zsh"]), heading_asks("Good", "What is zsh good at?", ["zsh", "good"],
        ...              ["zsh"])
        (True, False)
    """
    words = query_terms(_NUMBERING.sub("", heading))
    if not words or len(words) > len(said) or not all(shares_form(w, said) for w in words):
        return False
    if not any(not shares_form(w, terms) for w in words):  # no word of how it asks
        return False
    missing = [t for t in terms if not shares_form(t, words)]
    if len(missing) > 1:
        return False
    return len(words) > 1 or _same_question(heading, question, missing)


def _same_question(heading: str, question: str, missing: Sequence[str]) -> bool:
    """Whether a heading asking a question asks ``question``, a pronoun standing for its
    ``missing`` word ("What is it good at?", "What is zsh good at?")."""
    if not heading.rstrip().endswith("?"):
        return False
    asked = [w for w in _WORDS.findall(_NUMBERING.sub("", heading).lower()) if w not in _PRONOUNS]
    gone = {m.lower() for m in missing}
    own = [w for w in _WORDS.findall(question.lower()) if w not in gone and w not in _PRONOUNS]
    return asked == own
