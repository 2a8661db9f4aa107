"""Honest relevance: does anything the run retrieved talk about the topic at all?

bm25 ranks whatever shares a word with the query, and the offline plan's sub-questions wrap the
topic in template words ("What is the *mechanism* behind ...?"), so a topic the sources know
nothing about ("zebra marmalade") still retrieves passages: the ones that say "mechanism". This
module judges the *retrieved items* against the *topic's own* content words:

* :func:`topic_terms`: the topic's searchable words (the sources' parser,
  :func:`workers.sources.query_terms`) minus the plan's template words
  (:data:`app.research.plan.TEMPLATE_WORDS`);
* :func:`on_topic`: an item (passage, finding, caveat) mentions them, in its text or its title
  (:func:`workers.sources.query.mentions`: plurals and word stems count): one of one or two
  words, at least half of three or more ("sourdough starter hydration" is not covered by a
  passage that says "starter" and nothing else);
* :func:`relevance_warnings`: ``no_relevant_sources`` when the run has results and none of them
  is on topic. The report says so at its top and shows no finding from them; the ``--json``
  summary lists it under ``warnings``. The exit code does not change: it is a finding about the
  sources, not a failure.

A topic in another language than the sources gets the warning by the same rule (its words are
in none of the passages). Ranking (which passages come first) is not decided here: this only
tells whether any of them is about the topic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.research.plan import TEMPLATE_WORDS
from app.research.rows import ok_items
from workers.sources.query import mentions, query_terms, title_terms

__all__ = [
    "NO_RELEVANT_SOURCES",
    "Relevance",
    "RunWarning",
    "describe_terms",
    "judge",
    "needed",
    "on_topic",
    "relevance_warnings",
    "topic_terms",
]

NO_RELEVANT_SOURCES = "no_relevant_sources"
"""Warning code: no retrieved passage mentions any of the topic's own content words."""


@dataclass(frozen=True)
class RunWarning:
    """A warning about a finished run (``--json``: ``{"code": ..., "message": ...}``)."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The JSON shape of the summary's ``warnings`` list."""
        return {"code": self.code, "message": self.message}


def topic_terms(topic: str) -> list[str]:
    """The topic's own content words: its searchable words without the plan's template words
    (all of them when the topic is made only of template words).

    Example:
        >>> topic_terms("What is the mechanism behind zebra marmalade?")
        ['zebra', 'marmalade']
    """
    terms = query_terms(topic)
    own = [t for t in terms if t not in TEMPLATE_WORDS]
    return own or terms


def needed(terms: Sequence[str]) -> int:
    """How many of ``terms`` one item must mention to be on topic: half, rounded up.

    Example:
        >>> [needed(["a"] * n) for n in range(1, 6)]
        [1, 1, 2, 2, 3]
    """
    return (len(terms) + 1) // 2


def on_topic(item: Mapping[str, Any], terms: Sequence[str]) -> bool:
    """Whether an item's text or title mentions enough of ``terms`` (:func:`needed`); True when
    there are none: without content words there is nothing to judge by."""
    if not terms:
        return True
    text = f"{title_terms(str(item.get('title') or ''))} {item.get('text') or ''}"
    return len(mentions(terms, text)) >= needed(terms)


def describe_terms(terms: Sequence[str], at_least: int = 1) -> str:
    """``'"zebra" or "marmalade"'``; ``'2 of "a", "b" and "c"'`` when more than one is needed;
    ``""`` for no terms.

    Example:
        >>> describe_terms(["zebra", "marmalade"]), describe_terms([])
        ('"zebra" or "marmalade"', '')
    """
    quoted = [f'"{t}"' for t in terms]
    if not quoted:
        return ""
    if len(quoted) == 1:
        return quoted[0]
    if at_least <= 1:
        return f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"{at_least} of {', '.join(quoted[:-1])} and {quoted[-1]}"


@dataclass(frozen=True)
class Relevance:
    """The relevance verdict on a run's rows (:func:`judge`).

    Attributes:
        wanted: what an item must mention to be on topic, for a sentence: ``'"zebra" or
            "marmalade"'`` (:func:`describe_terms`).
        warnings: ``[RunWarning("no_relevant_sources", ...)]`` when the run has at least one
            finished row and no retrieved item is :func:`on_topic`, else ``[]``.
    """

    wanted: str
    warnings: list[RunWarning]


def judge(topic: str, rows: Iterable[Mapping[str, Any]]) -> Relevance:
    """Judge the retrieved items of ``rows`` against ``topic``'s own words, once: the report
    takes both its banner's wording and the verdict from here.

    Args:
        topic: the research topic as the user gave it.
        rows: the run's results-database rows (``structured`` decoded), as the report reads them.
    """
    rows = list(rows)
    terms = topic_terms(topic)
    wanted = describe_terms(terms, needed(terms))
    if not terms or not any(r.get("status") == "ok" for r in rows):
        return Relevance(wanted, [])
    if any(on_topic(item, terms) for _row, item in ok_items(rows) if item.get("ref")):
        return Relevance(wanted, [])
    shown = " ".join(str(topic).split())[:200]
    return Relevance(wanted, [RunWarning(
        NO_RELEVANT_SOURCES,
        f"the sources say nothing about \"{shown}\": no retrieved passage mentions {wanted}",
    )])


def relevance_warnings(topic: str, rows: Iterable[Mapping[str, Any]]) -> list[RunWarning]:
    """The warnings of :func:`judge`: ``[RunWarning("no_relevant_sources", ...)]`` when the run
    has at least one finished row and no retrieved item is :func:`on_topic`, else ``[]``.

    Args:
        topic: the research topic as the user gave it.
        rows: the run's results-database rows (``structured`` decoded), as the report reads them.
    """
    return judge(topic, rows).warnings
