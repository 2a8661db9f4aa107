"""Text repeated across a folder's pages (navigation bars, headers, footers) found and stripped
before the index is built (issue 19: "Prev Up Home Next" was indexed on every page of a manual,
and a fifth of the cited passages held it).

A paragraph is boilerplate when, word for word (outer blanks aside), it appears in at least
``REPEAT_SHARE`` of the folder's documents and in at least ``MIN_REPEATS`` of them, and it is
short (``MAX_BOILERPLATE_CHARS``): a page's own text is not copied onto a twentieth of the
other pages, its navigation is. Headings are kept (they are indexed as headings), so a section
titled "See also" on every page still reads as one.

A file of which nothing is left is named (:func:`note_stripped`).

This module imports only the standard library and the sources' own text helpers.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from workers.sources.base import RawDoc
from workers.sources.documents import file_of
from workers.sources.text import safe_name

__all__ = [
    "MAX_BOILERPLATE_CHARS",
    "MIN_REPEATS",
    "REPEAT_SHARE",
    "note_stripped",
    "repeated_paragraphs",
    "strip_repeated",
]

MIN_REPEATS = 4
"""A paragraph must appear in at least this many documents to be boilerplate."""

REPEAT_SHARE = 0.05
"""... and in at least this share of the documents."""

MAX_BOILERPLATE_CHARS = 300
"""Longer paragraphs are never boilerplate (navigation and footers are short)."""

_PARA_SPLIT = re.compile(r"\n[ \t]*\n+")


def _paragraphs(text: str) -> list[str]:
    return [p.strip() for p in _PARA_SPLIT.split(text)]


def _sections(doc: RawDoc) -> tuple[tuple[str, str], ...]:
    return doc.sections or (("", doc.text),)


def repeated_paragraphs(docs: Iterable[RawDoc]) -> set[str]:
    """The boilerplate paragraphs of ``docs`` (stripped), by the rule above."""
    docs = list(docs)
    counts: Counter[str] = Counter()
    for doc in docs:
        counts.update({p for _h, text in _sections(doc) for p in _paragraphs(text)
                       if p and len(p) <= MAX_BOILERPLATE_CHARS})
    need = max(MIN_REPEATS, math.ceil(REPEAT_SHARE * len(docs)))
    return {p for p, n in counts.items() if n >= need}


def strip_repeated(docs: Iterable[RawDoc]) -> list[RawDoc]:
    """``docs`` with their boilerplate paragraphs removed (headings kept). Reads them all first
    (two passes); a document left blank is dropped. Deterministic: same input, same output."""
    docs = list(docs)
    boiler = repeated_paragraphs(docs)
    if not boiler:
        return docs
    out = []
    for doc in docs:
        sections = []
        for heading, text in _sections(doc):
            kept = [p for p in _paragraphs(text) if p not in boiler or p == heading]
            body = "\n\n".join(kept).strip()
            if body or heading:
                sections.append((heading, body))
        text = "\n\n".join(t for _h, t in sections if t)
        if text.strip():
            out.append(replace(doc, text=text, sections=tuple(sections) if doc.sections else ()))
    return out


def note_stripped(read: list[RawDoc], kept: list[RawDoc], rels: set[str],
                  skipped: Counter[str], notes: list[str]) -> None:
    """Name each file of which :func:`strip_repeated` kept nothing (``read``: the documents
    before, ``kept``: after; ``rels``: the folder's ref paths), counted ``repeated`` in
    ``skipped``: trial 10's folder of PDFs repeating one page was refused as "the folder is
    empty", no file named."""
    left = {file_of(doc.doc_id, rels) for doc in kept}
    for rel in dict.fromkeys(file_of(doc.doc_id, rels) for doc in read):
        if rel not in left:
            skipped["repeated"] += 1
            notes.append(f"{safe_name(rel)}: skipped, all its text repeats in other documents "
                         "of the folder (dropped as headers and footers)")
