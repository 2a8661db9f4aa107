"""How well the run's evidence backs each document it retrieved: what lets the report cite
fewer, better sources (issue 19, "a report that cites fewer, better sources").

Two measures, from the rows alone (pure, no I/O):

* :func:`retrieval`: each document's best passage score in a search, as a share of that
  search's best (a row's own best: a corpus search and a web search score on different
  scales). A document far below the best one for a sub-question is a side hit of its words.
* :func:`strength`: a document's best retrieval share over the run, times ``log2(2 + n)`` for
  the ``n`` findings the workers drew from it: the document the search ranks high *and* the
  readers of the passages quote most. On SQLite's manual, opening the answer with the
  strongest document's finding made the first finding come from a gold page in 0.67 of the
  questions, not 0.60 (the asymptote manuals: 0.58, not 0.53).

And one rule on them: :func:`settled`, the documents a report needs when its strongest
document answers the whole topic.

A document whose items carry no score (a row written by hand, a tool without scores) is not
judged: it is never left out for its retrieval.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.llm.offline.relevance import KINDS
from app.llm.offline.words import stem
from app.research.facets import part_of
from app.research.relevance import mentioned, topic_terms
from app.research.rows import ok_items
from workers.sources import Passage

__all__ = ["COVERED_SHARE", "SETTLED_SHARE", "coverage", "document_of", "entry_pages",
           "only_documents",
           "retrieval", "settled", "strength", "thinly_covered", "topic_strength",
           "used_documents"]


def document_of(item: Mapping[str, Any]) -> str:
    """The document an item cites (:attr:`workers.sources.Passage.document_key`: its ref
    without the ``#<n>`` passage suffix; a web page's URL)."""
    passage = Passage.from_dict({**item, "text": item.get("text") or "-"})
    return passage.document_key if passage else str(item.get("ref"))


def retrieval(rows: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Each scored document of ``rows``: its best passage score as a share of its row's best
    (1.0 when a row's scores are all 0), the best share over the rows.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "passage", "ref": "a.html#0", "text": "x", "score": 8.0},
        ...     {"kind": "passage", "ref": "b.html#3", "text": "y", "score": 2.0}]}}]
        >>> retrieval(rows)
        {'a.html': 1.0, 'b.html': 0.25}
    """
    out: dict[str, float] = {}
    for row in rows:
        scored = [(document_of(item), float(item["score"])) for _row, item in ok_items([row])
                  if isinstance(item, dict) and item.get("kind") == "passage"
                  and item.get("ref") and isinstance(item.get("score"), int | float)]
        best = max((score for _doc, score in scored), default=0.0)
        for doc, score in scored:
            share = score / best if best > 0 else 1.0
            out[doc] = max(out.get(doc, 0.0), share)
    return out


def _findings_per_document(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for _row, item in ok_items(rows):
        if isinstance(item, dict) and item.get("kind") == "finding" and item.get("ref"):
            doc = document_of(item)
            counts[doc] = counts.get(doc, 0) + 1
    return counts


def strength(rows: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Each document's :func:`retrieval` share over the whole run times ``log2(2 + n)``, ``n``
    the findings drawn from it; a document no scored passage came from counts a share of 1.0
    (not judged on retrieval).

    Example:
        >>> item = lambda kind, ref, **kw: {"kind": kind, "ref": ref, "text": "t", **kw}
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     item("passage", "a#0", score=10.0), item("passage", "b#0", score=9.0)]}},
        ...     {"status": "ok", "structured": {"items": [
        ...     item("finding", "b#0"), item("finding", "b#1")]}}]
        >>> {doc: round(value, 2) for doc, value in strength(rows).items()}
        {'a': 1.0, 'b': 1.8}
    """
    rows = list(rows)
    shares = retrieval(rows)
    found = _findings_per_document(rows)
    docs = list(dict.fromkeys([*shares, *found]))
    return {doc: shares.get(doc, 1.0) * math.log2(2 + found.get(doc, 0)) for doc in docs}


def used_documents(rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """The documents a finding or a caveat of ``rows`` was drawn from: those a reader of the
    passages quoted, not only retrieved."""
    return {document_of(item) for _row, item in ok_items(rows)
            if isinstance(item, dict) and item.get("kind") in ("finding", "caveat")
            and item.get("ref")}


SETTLED_SHARE = 0.8
"""A document at least this share of the strongest one's :func:`strength` is cited beside it
when the strongest answers the whole topic (:func:`settled`)."""


def _findings(rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [item for _row, item in ok_items(rows)
            if isinstance(item, dict) and item.get("kind") == "finding" and item.get("ref")]


def settled(rows: Sequence[Mapping[str, Any]], first: Sequence[Mapping[str, Any]],
            terms: Sequence[str], names: Iterable[str] = ()) -> set[str] | None:
    """The documents a report cites when its strongest document (:func:`strength`) answers the
    whole topic: its findings name every one of the topic's ``terms``
    (:func:`app.research.relevance.mentioned`). Then a side document is another source to read
    that adds no word of the topic, and it is cited only when it earns it: it is the strongest
    one's family (a member, its class: :func:`app.research.facets.part_of`), the source of the
    first finding of the first sub-question's rows ``first`` (its reader's first pick), or at
    least :data:`SETTLED_SHARE` as strong. None (every document may be cited) when the
    strongest does not name the whole topic: a paraphrased question's words are not the
    documents', and its answer may lie in any of them. Issue 19: of the sources cited by
    questions in the documents' own words, gold pages were 0.39 on SQLite's manual, 0.70 so
    (Asymptote's manuals 0.55 -> 0.67, the package docs' eval 0.71 -> 0.92), no gold page lost.

    Example:
        >>> item = lambda ref, text, **kw: {"kind": "finding", "ref": ref, "text": text, **kw}
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "passage", "ref": "a#0", "text": "x", "score": 9.0},
        ...     {"kind": "passage", "ref": "b#0", "text": "x", "score": 6.0},
        ...     item("a#0", "Copper relays hum."), item("b#0", "Relays hum.")]}}]
        >>> sorted(settled(rows, rows, ["copper", "relay"]))
        ['a']
        >>> settled(rows, rows, ["copper", "relay", "tin"]) is None
        True
    """
    strong = strength(rows)
    if not strong or not terms:
        return None
    best = max(strong, key=lambda doc: strong[doc])
    named: set[str] = set()
    for item in _findings(rows):
        if document_of(item) == best:
            named |= mentioned(terms, str(item.get("text") or ""), names)
    if not set(terms) <= named:
        return None
    picked = _findings(first)[:1]
    return ({doc for doc, value in strong.items()
             if value >= SETTLED_SHARE * strong[best] or part_of(doc, best)}
            | {document_of(item) for item in picked}
            | {document_of(item) for item in whole_sayers(_findings(rows), strong, terms, names)})


def whole_sayers(findings: Sequence[Mapping[str, Any]], strong: Mapping[str, float],
                 terms: Sequence[str], names: Iterable[str] = (),
                 sections: Mapping[str, str] | None = None) -> list[Mapping[str, Any]]:
    """The ``findings`` that name every one of the topic's ``terms`` (two or more) by
    themselves, when none of the strongest document's (:func:`strength`, ``strong``) does:
    each says the whole topic in one sentence, where the strongest names its words only
    between its sentences, if at all; [] otherwise. Asked "What are the new features in
    bash-5.2?", NEWS.gz's "This is a terse description of the new features added to bash-5.2
    since the release of bash-5.1." was left out of the report for CHANGES.gz, whose "configure
    has a new option ..." and "... bash-5.2-release ..." named the words between them, and the
    Answer quoted the manual's "Bash contains features that appear in other popular shells
    ..." (trial 125, F3). With ``sections`` (a finding's ref: the heading of the section its
    passage lies in), a sentence under the section of a thing the topic names says the whole
    topic when it names the rest of it, the kinds of thing aside (:func:`_said_whole`).

    Example:
        >>> item = lambda ref, text: {"kind": "finding", "ref": ref, "text": text}
        >>> found = [item("a#0", "Copper hums."), item("a#1", "Relays click."),
        ...          item("b#0", "Copper relays hum.")]
        >>> [f["ref"] for f in whole_sayers(found, {"a": 2.0, "b": 1.0}, ["copper", "relay"])]
        ['b#0']
        >>> whole_sayers(found, {"a": 1.0, "b": 2.0}, ["copper", "relay"])
        []
    """
    names = frozenset(names)
    if len(set(terms)) < 2 or not strong:
        return []
    best = max(strong, key=lambda doc: strong[doc])
    whole = [item for item in findings if _said_whole(
        item, terms, names, (sections or {}).get(str(item.get("ref") or ""), ""))]
    return [] if any(document_of(item) == best for item in whole) else whole


def _said_whole(item: Mapping[str, Any], terms: Sequence[str], names: frozenset[str],
                section: str) -> bool:
    """Whether the finding ``item`` names every one of ``terms``, or, under a ``section`` whose
    heading names one of them (an entry, ``.. toctree::``), names the others but the kinds of
    thing, the topic naming one (:data:`~app.llm.offline.relevance.KINDS`): asked "What does
    the maxdepth option of the toctree directive do?", the directive's own "A numeric maxdepth
    option may be given ..." under ``.. toctree::`` says it as the quick start's "The maxdepth
    is such an option for the toctree directive." does (trial 125, leftover 1).

    Example:
        >>> terms = ["maxdepth", "option", "toctree", "directive"]
        >>> text = {"text": "A numeric maxdepth option may be given."}
        >>> _said_whole(text, terms, frozenset(), ".. toctree::")
        True
        >>> _said_whole(text, terms, frozenset(), "Options"), _said_whole(text, terms,
        ...                                                             frozenset(), "")
        (False, False)
    """
    said = mentioned(terms, str(item.get("text") or ""), names)
    if set(terms) <= said or not section:
        return set(terms) <= said
    held = {term for term in mentioned(terms, section, names) if stem(term) not in KINDS}
    rest = {term for term in terms if term not in held and stem(term) not in KINDS}
    # one name heads the section (an entry's), and the topic names a kind of thing
    return (len(held) == 1 and any(stem(term) in KINDS for term in terms) and bool(rest)
            and rest <= said)


def coverage(rows: Iterable[Mapping[str, Any]], terms: Sequence[str],
             names: Iterable[str] = ()) -> dict[str, float]:
    """Each cited document of ``rows``: the largest share of ``terms`` one of its items (a
    passage, finding or caveat) names in its title and text
    (:func:`app.research.relevance.mentioned`), 0.0 to 1.0; every document 1.0 when there are
    no ``terms``.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "finding", "ref": "a#0", "text": "Copper relays hum."},
        ...     {"kind": "passage", "ref": "b#1", "text": "Relays click.", "score": 1.0}]}}]
        >>> coverage(rows, ["copper", "relay"])
        {'a': 1.0, 'b': 0.5}
    """
    names = frozenset(names)
    out: dict[str, float] = {}
    for _row, item in ok_items(rows):
        if not (isinstance(item, dict) and item.get("ref")):
            continue
        doc = document_of(item)
        text = f"{item.get('title') or ''} {item.get('text') or ''}"
        share = len(mentioned(terms, text, names)) / len(terms) if terms else 1.0
        out[doc] = max(out.get(doc, 0.0), share)
    return out


_NUMBERING = re.compile(r"^\s*(?:(?:chapter|section|part|appendix)\s+(?:\d+|[ivxlc]+|[a-z])\b"
                        r"|\d+(?:\.\d+)*\b)\.?\s*(?:[-\u2013\u2014:.]\s+)?", re.IGNORECASE)
"""A title's numbering: "Chapter 16 - ", "11.44 ", "Appendix B: "."""


def entry_pages(rows: Iterable[Mapping[str, Any]], subject: Sequence[str]) -> set[str]:
    """The documents of ``rows`` titled by what the topic is about: the content words of an
    item's title (before a site's name after " — " or " | ") are the ``subject``'s
    (:func:`app.research.subject_words.subject_terms`: "gprintf" of "What does the gprintf
    function do?" is gnuplot's page "Gprintf"), its numbering aside (Exim's "Chapter 16 - The
    accept router", trial 73, F3). Such a page is the thing's own entry.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "passage", "ref": "n303#0", "title": "Gprintf", "text": "x"},
        ...     {"kind": "passage", "ref": "n89#0", "title": "String functions", "text": "x"},
        ...     {"kind": "passage", "ref": "c#1", "title": "Chapter 6 - Gprintf", "text": "x"}]}}]
        >>> sorted(entry_pages(rows, ["gprintf"]))
        ['c', 'n303']
    """
    wanted = {t.casefold() for t in subject}
    if not wanted:
        return set()
    found = set()
    for _row, item in ok_items(rows):
        if isinstance(item, dict) and item.get("ref") and isinstance(item.get("title"), str):
            title = _NUMBERING.sub("", item["title"].split(" \u2014 ")[0].split(" | ")[0])
            if {t.casefold() for t in topic_terms(title)} == wanted:
                found.add(document_of(item))
    return found


def topic_strength(rows: Sequence[Mapping[str, Any]], terms: Sequence[str],
                   names: Iterable[str] = (), subject: Sequence[str] = ()) -> dict[str, float]:
    """Each document's :func:`strength` times its :func:`coverage` of the topic's ``terms``:
    the best source for the topic itself is one the search ranks high, the readers quote
    most, *and* whose evidence names most of what was asked, not a page that one reader
    quoted often for a word or two of it; a page titled by the ``subject`` (:func:`entry_pages`)
    counts stronger than any other (gnuplot's list page "String functions", quoted three
    times, once for gprintf, outweighed the page "Gprintf", quoted once, trial 65, F7). Issue
    19 (answers12): the report's first finding came from a gold page of Asymptote's manuals
    for 0.65 of the questions, not 0.64; SQLite's and the package docs' unchanged.

    Example:
        >>> item = lambda kind, ref, text, **kw: {"kind": kind, "ref": ref, "text": text, **kw}
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     item("passage", "a#0", "Copper relays hum.", score=9.0),
        ...     item("passage", "b#0", "Relays click.", score=10.0),
        ...     item("finding", "b#0", "Relays click.")]}}]
        >>> {d: round(v, 2) for d, v in strength(rows).items()}
        {'a': 0.9, 'b': 1.58}
        >>> {d: round(v, 2) for d, v in topic_strength(rows, ["copper", "relay"]).items()}
        {'a': 0.9, 'b': 0.79}
    """
    covered = coverage(rows, terms, names)
    out = {doc: value * covered.get(doc, 1.0) for doc, value in strength(rows).items()}
    top = max(out.values(), default=0.0)
    for doc in entry_pages(rows, subject) & out.keys():
        out[doc] = top + 1.0  # the thing's own page: stronger than any other (trial 65, F7)
    return out


COVERED_SHARE = 0.7
"""A document the Answer does not cite is cited below it only when one of its items names at
least this share of the topic's words that the best-covering document's items name
(:func:`thinly_covered`)."""


def thinly_covered(rows: Iterable[Mapping[str, Any]], terms: Sequence[str],
                   keep: Iterable[str] = (), names: Iterable[str] = ()) -> set[str]:
    """The documents of ``rows`` whose best item names fewer of the topic's ``terms`` than
    :data:`COVERED_SHARE` of the best-covering document's (:func:`coverage`), but those in
    ``keep`` (the documents the Answer cites) and their family (a member, its class:
    :func:`app.research.facets.part_of`). Such a document is a side hit: it shares a word or
    two with the question where another document names much more of it. Issue 19: cited
    sources on target rose from 0.38 to 0.42 on Asymptote's manuals (paraphrased questions
    0.22 -> 0.25) and from 0.39 to 0.40 on SQLite's (0.24 -> 0.25), no gold page lost, the
    package docs' eval unchanged; at 0.8 a gold page was lost on both manuals. The rule
    compares documents of one run with each other, so it holds for any corpus and wording.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "finding", "ref": "a#0", "text": "Copper relays hum loudly."},
        ...     {"kind": "finding", "ref": "b#0", "text": "Relays hum in copper."},
        ...     {"kind": "finding", "ref": "c#0", "text": "Copper is red."}]}}]
        >>> sorted(thinly_covered(rows, ["copper", "relay", "hum"]))
        ['c']
        >>> sorted(thinly_covered(rows, ["copper", "relay", "hum"], keep={"c"}))
        []
    """
    covered = coverage(rows, terms, names)
    best = max(covered.values(), default=0.0)
    keep = set(keep)
    return {doc for doc, share in covered.items()
            if share < COVERED_SHARE * best and doc not in keep
            and not any(part_of(doc, kept) for kept in keep)}


def only_documents(rows: Iterable[Mapping[str, Any]], keep: set[str]) -> list[dict[str, Any]]:
    """``rows`` with the items citing a document outside ``keep`` left out (an item without a
    ref is kept); the rows themselves are not changed."""
    out = []
    for row in rows:
        structured = row.get("structured")
        if row.get("status") == "ok" and isinstance(structured, dict):
            items = [item for item in structured.get("items") or []
                     if not (isinstance(item, dict) and item.get("ref"))
                     or document_of(item) in keep]
            row = {**row, "structured": {**structured, "items": items}}
        out.append(dict(row))
    return out
