"""The report's ``## Answer``: a short, cited answer to the topic itself, before the sections
(issue 19, section 3)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from app.research.citations import Citations, claim_key, excerpt, items
from app.research.evidence import document_of, strength
from app.research.relevance import needed, topic_terms
from app.research.text import clip
from app.research.topics import topic_kind
from workers.sources.query import mentions

if TYPE_CHECKING:
    from app.research.report import ReportInput

__all__ = ["answer_lines"]

_LINE = 400
"""The most characters of an answer bullet (as the report's other bullets)."""
_DEFINITION = re.compile(
    r"^[^.;:]{0,80}?\b(?:is|are|means|refers\s+to|represents|stands\s+for|is\s+called)\s+"
    r"(?:an?|the|one|used|how|what)\b",
    re.IGNORECASE,
)
"""A sentence that says what something is ("X is a ...", "An X is the ...")."""
_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|can|cannot|may|might|will|would|should|must|means|"
    r"refers|returns|does|do|sets|gets|makes|causes|uses|allows|lets|controls)\b",
    re.IGNORECASE,
)
"""The first verb of a sentence ends its subject ("The default cache size *is* -2000")."""
_ANSWER_SENTENCES = 2


def _subject_of(sentence: str) -> str:
    """The words before a sentence's first verb: what the sentence is about ("The TEMP
    database" of "The TEMP database has a default cache size of 0 pages"); "" when no verb is
    found (a heading or a fragment, "Partial Sorting Using An Index (a.k.a.", states nothing)."""
    match = _VERB.search(sentence)
    return sentence[:match.start()] if match else ""


def _ordered(ranked: list[tuple[tuple[int, bool, bool, int], dict[str, Any]]],
             strong: dict[str, float]) -> list[dict[str, Any]]:
    """The answer's candidate findings in order: by sub-question; within one, those of its
    strongest document (:func:`app.research.evidence.strength`) first; then by the rest of
    their key."""
    best: dict[int, float] = {}
    for (order, *_), finding in ranked:
        best[order] = max(best.get(order, 0.0), strong.get(document_of(finding), 0.0))

    def key(pair: tuple[tuple[int, bool, bool, int], dict[str, Any]]) -> tuple:
        (order, *rest), finding = pair
        return (order, strong.get(document_of(finding), 0.0) < best[order], *rest)

    return [finding for _, finding in sorted(ranked, key=key)]


def answer_lines(data: ReportInput, cites: Citations, summary: list[tuple[str, list[str]]],
                  by_ref: dict[str, dict[str, Any]]) -> list[str]:
    """The ``## Answer`` section: a short, cited answer to the topic itself (issue 19).

    A model's summary when there is one; else findings that name at least half the topic's
    words in the sentence itself (:func:`app.research.relevance.needed`), the first
    sub-question's (it asks the topic itself) before the others', and within them: those of
    the sub-question's strongest document first (:func:`app.research.evidence.strength`: the
    search ranks it high and the workers quote it most), then a sentence whose own subject
    names the topic before one about a neighbour ("The TEMP database has a default cache size
    ..."), a definition first for a "what is" question, then in rank order; else the first
    sub-question's top passage."""
    lines = ["## Answer", ""]
    if summary:
        for sentence, refs in summary:
            marks = "".join(f"[{cites.cite(by_ref[r])}]" for r in refs)
            lines.append(f"- {clip(sentence, _LINE)} {marks}")
        return [*lines, ""]
    terms = topic_terms(data.topic)
    define = topic_kind(data.topic) in ("what", "topic")
    ranked: list[tuple[tuple[int, bool, bool, int], dict[str, Any]]] = []
    strong = strength(data.rows)
    seen: set[tuple[str, str]] = set()
    for order, question in enumerate(data.sub_questions):
        for position, finding in enumerate(items(data.rows_of(question), question, "finding")):
            if claim_key(finding) in seen:
                continue
            seen.add(claim_key(finding))
            text = str(finding["text"])
            named = len(mentions(terms, text)) if terms else 1
            if named < needed(terms):
                continue
            # the sentence's own subject names the topic: "The default cache size is -2000",
            # not "The TEMP database has a default cache size of 0 pages" (a neighbour's)
            about = len(mentions(terms, _subject_of(text))) if terms else 0
            definition = bool(define and _DEFINITION.match(text))
            # the first sub-question (the topic itself) first, in its evidence's rank order:
            # on SQLite's docs, ranking by words named put a side page first more often
            ranked.append(((order, not about, not definition, position), finding))
    chosen = _ordered(ranked, strong)[:_ANSWER_SENTENCES]
    if chosen:
        lines += [f"- {clip(f['text'], _LINE)} [{cites.cite(f)}]" for f in chosen]
        return [*lines, ""]
    first = data.sub_questions[0] if data.sub_questions else None
    passages = items(data.rows_of(first), first, "passage") if first else []
    if passages:
        top = passages[0]
        lines.append(f"- {top['title']}: {excerpt(top['text'])} [{cites.cite(top)}]")
    else:
        lines.append("- No sourced answer was found in the corpus.")
    return [*lines, ""]
