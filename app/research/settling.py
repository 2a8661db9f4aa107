"""Which documents a report cites when its strongest document answers the whole topic (issue
19, "a report that cites fewer, better sources"), and which of its sections that leaves empty.
Pure: reads the rows it is given."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import TYPE_CHECKING

from app.research.answer import entry_answers
from app.research.evidence import (
    document_of,
    entry_pages,
    only_documents,
    settled,
    strength,
    thinly_covered,
)
from app.research.relevance import Relevance, name_terms, topic_terms
from app.research.rows import ok_items
from app.research.subject_words import subject_terms
from app.research.topics import topic_kind

if TYPE_CHECKING:
    from app.research.report import ReportInput

__all__ = ["settle", "settled_note", "trim_side_documents"]


def settle(data: ReportInput, relevance: Relevance) -> ReportInput:
    """``data`` citing only the documents it needs when its strongest document answers the
    whole topic (:func:`app.research.evidence.settled`; those the model's summary cites too,
    the question's own reference entry's (:func:`app.research.answer.entry_answers`), and,
    for a comparison, each sub-question's own strongest, :func:`_own_best`), with a note
    saying how many others were left out, and the sub-questions left with nothing
    (``settled_out``: not shown, never "No sourced answer was found in the corpus");
    ``data`` itself otherwise."""
    first = data.rows_of(data.sub_questions[0]) if data.sub_questions else []
    keep = settled(data.rows, first, topic_terms(data.asked), name_terms(data.asked))
    if keep is None:
        return data
    keep |= {document_of({"ref": ref}) for _sentence, refs in data.summary for ref in refs}
    # the entry the Answer leads with: "What is the default value of shared_buffers?" kept
    # only a page naming shared_buffers beside block_size's default, and dropped the
    # setting's own entry ("The default is typically 128 megabytes")
    keep |= {document_of(entry) for entry in entry_answers(data, topic_kind(data.asked))[:1]}
    keep |= entry_pages(data.rows, subject_terms(data.asked, data.rows))  # the thing's own
    if topic_kind(data.asked) == "compare":
        keep |= _own_best(data)
    left = _documents(data) - keep
    if not left:
        return data
    strong = strength(data.rows)
    best = max(strong, key=lambda doc: strong[doc])
    return dataclasses.replace(_without(data, left, settled_note(left, best, _named(data, left))),
                               relevance=relevance)


def settled_note(left: Collection[str], best: str, named: str) -> str:
    """The Notes' line on the documents :func:`settle` leaves out (``left``; ``named``: the
    strongest of them by name, :func:`_named`), beside ``best``, the strongest document, which
    names every word of the topic. It says they were found and may still answer: "2 other
    document(s) the search found are not cited: the strongest one names every word of the
    topic, and they are weaker (change.html, options.html)" was hard to read, and Vim's
    options.html, which defines the option asked about, was one of them (trial 126).

    Example:
        >>> settled_note({"b.html"}, "a.html", "b.html")
        '1 more document the search found is not cited: b.html. a.html names every word of the \
topic, and this one ranked below it (by search score and the sentences quoted from it), so the \
report leaves it out; it may still answer the question'
    """
    one = len(left) == 1
    it, these = ("it", "this one") if one else ("them", "these")
    return (f"{_more(len(left))} the search found {'is' if one else 'are'} not cited: {named}. "
            f"{best} names every word of the topic, and {these} ranked below it (by search "
            f"score and the sentences quoted from {it}), so the report leaves {it} out; "
            f"{'it' if one else 'they'} may still answer the question")


def _more(count: int) -> str:
    """``"1 more document"``, ``"2 more documents"``."""
    return f"{count} more document{'' if count == 1 else 's'}"


def trim_side_documents(data: ReportInput, cited: set[str]) -> ReportInput:
    """``data`` without the documents that name too little of the topic beside the others
    (:func:`app.research.evidence.thinly_covered`), but those the Answer cites (``cited``) and
    the source of the first sub-question's first finding (its reader's first pick, as
    :func:`app.research.evidence.settled` keeps it) and, for a comparison, each
    sub-question's strongest document (:func:`_own_best`), with a note saying how many were left
    out; ``data`` itself when none is."""
    first = data.rows_of(data.sub_questions[0]) if data.sub_questions else []
    picked = next((document_of(item) for _row, item in ok_items(first)
                   if isinstance(item, dict) and item.get("kind") == "finding"
                   and item.get("ref")), None)
    keep = cited | ({picked} if picked else set())
    if topic_kind(data.asked) == "compare":  # each side keeps its own evidence
        keep |= _own_best(data)
    thin = thinly_covered(data.rows, topic_terms(data.asked), keep, name_terms(data.asked))
    if not thin:
        return data
    one = len(thin) == 1
    note = (f"{_more(len(thin))} the search found {'is' if one else 'are'} not cited: "
            f"{_named(data, thin)}. {'It names' if one else 'Each names'} much less of the "
            "topic's words than the sources cited, so the report leaves "
            f"{'it' if one else 'them'} out")
    return _without(data, thin, note)


NAMED = 3
"""How many of the documents a note leaves out it names, the strongest first."""


def _named(data: ReportInput, left: set[str]) -> str:
    """The documents ``left`` out, the :data:`NAMED` strongest
    (:func:`app.research.evidence.strength`) by name and how many more: a note that only
    counted them left a user no way back to the one that answered (trial 123, F1: "1 other
    document(s) ... are not cited" was pytest's "Registering marks" page).

    Example:
        >>> from types import SimpleNamespace
        >>> _named(SimpleNamespace(rows=[]), {"c.html", "a.html", "d.html", "b.html"})
        'a.html, b.html, c.html and 1 more'
    """
    strong = strength(data.rows)
    ordered = sorted(left, key=lambda doc: (-strong.get(doc, 0.0), doc))
    more = len(ordered) - NAMED
    return ", ".join(ordered[:NAMED]) + (f" and {more} more" if more > 0 else "")


def _documents(data: ReportInput) -> set[str]:
    return {document_of(item) for _row, item in ok_items(data.rows)
            if isinstance(item, dict) and item.get("ref")}


def _without(data: ReportInput, left: set[str], note: str) -> ReportInput:
    """``data`` with the items of the documents ``left`` taken out of its rows, ``note`` added,
    and the sub-questions left with nothing in ``settled_out`` (not shown, never "No sourced
    answer was found in the corpus")."""
    rows = only_documents(data.rows, _documents(data) - left)
    kept = {row.get("task_key") for row, item in ok_items(rows) if isinstance(item, dict)}
    emptied = tuple(q for q in data.sub_questions if q not in kept and data.rows_of(q))
    return dataclasses.replace(data, rows=rows, notes=[*data.notes, note],
                               settled_out=tuple(dict.fromkeys([*data.settled_out, *emptied])))


def _own_best(data: ReportInput) -> set[str]:
    """The strongest document (:func:`app.research.evidence.strength`) of each sub-question's
    own rows: each side of a comparison keeps its own evidence when the report cites only the
    documents the topic needs. "StateGraph vs MessageGraph" kept MessageGraph's docstring (it
    names both words) and "What is StateGraph?" said "No sourced answer was found in the
    corpus" with StateGraph's own docstring in it."""
    out: set[str] = set()
    for question in data.sub_questions:
        strong = strength(data.rows_of(question))
        if strong:
            out.add(max(strong, key=lambda doc: strong[doc]))
    return out
