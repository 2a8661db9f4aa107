"""A page that gathers other pages' text is not indexed beside them, only what it alone holds:
Node.js's ``all.html`` is its whole manual on one page.

Indexed with the module pages, it held 48% of the folder's passages, every section twice; it
outranked the page that answered (one long page names every word), and three answers cited
it alone, titled "Node.js v18.20.4 Documentation", so the reader could not tell which module to
open. Such a file is found by its long paragraphs (those on a few files only: a navigation
line or a copyright on every page says nothing of a page's text): most of them are also in
other files, it holds at least ``MIN_GATHERED`` smaller pages whole, and no file holds as
much as ``MAX_ONE_SOURCE`` of it outside those pages. A page whose text a larger page includes
(fs.html inside all.html; SQLite's release notes, each inside ``changes.html``) stays; so do a
page whose text others include (a syntax diagram shown on many pages) and a page that shares
includes with others (git's ``git-log.html`` and ``git-show.html`` repeat the same option
lists). Gathering pages may gather the same pages: FFmpeg's ``ffmpeg-all.html``,
``ffplay-all.html`` and ``ffprobe-all.html`` each hold the library pages, the filters page
alone over half of each (when any file holding half of a page kept it, all three were kept,
and their copies made each filter's description a paragraph repeated on four pages, stripped
from all of them as a navigation bar is). What the gathering page alone holds is indexed
(SQLite's ``changes.html`` has the notes of the releases older than any ``releaselog`` page:
left out whole, "Which version fixed a naming conflict between sqlite.h and sqlite3.h?" got
another release's note).

This module imports only the standard library and the sources' own helpers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from workers.sources.base import RawDoc
from workers.sources.chunks import PARA_SPLIT
from workers.sources.documents import file_of
from workers.sources.text import plural, safe_name

__all__ = ["GATHERED_SHARE", "MAX_COPIES", "MAX_ONE_SOURCE", "MIN_GATHERED",
           "MIN_PARAGRAPH_CHARS", "WHOLE_SHARE", "without_gathering_pages"]

MIN_PARAGRAPH_CHARS = 80
"""Only paragraphs this long count: headings and short lines repeat for other reasons ..."""

MAX_COPIES = 8
"""... and only those on at most this many files: one on more is the site's furniture (a
navigation line, a copyright) or an include many pages repeat, not one page's text."""

GATHERED_SHARE = 0.8
"""A file gathers others when at least this share of its long paragraphs are also in other
files ..."""

WHOLE_SHARE = 0.95
"""... it holds at least this share of each of ``MIN_GATHERED`` smaller files' long paragraphs
(the pages it gathers; pages of the same text count once: CMake's ``IMPORTED_*_CONFIG``
property pages repeat the same two paragraphs) ..."""

MIN_GATHERED = 3
"""(one page held whole would make it a copy or an excerpt: :mod:`workers.sources.copies` and
:mod:`workers.sources.boilerplate` see to those) ..."""

MAX_ONE_SOURCE = 0.5
"""... and no file holds this share of its long paragraphs or more outside the pages it gathers
(a page gathering the same pages, FFmpeg's ``ffplay-all.html`` for ``ffmpeg-all.html``, holds
them through those pages)."""


def _paragraphs(doc: RawDoc) -> list[str]:
    texts = [t for _h, t in doc.sections] if doc.sections else [doc.text]
    return [q for text in texts for p in PARA_SPLIT.split(text) if (q := p.strip())]


def without_gathering_pages(docs: Sequence[RawDoc], rels: set[str],
                            notes: list[str]) -> list[RawDoc]:
    """``docs`` with the text each file that gathers other files' text (the rule above) shares
    with the files kept left out, each such file named in ``notes``; what it alone holds stays
    (SQLite's ``changes.html`` holds the notes of the releases older than any
    ``releaselog`` page), and a file left with nothing but headings goes. Files are judged
    largest first, against the files kept so far, so pages that share text with one another
    (a call-out on five sibling pages) never all go. Plain-text files are never judged (what
    they share with others is content: a changelog's entries in every package's copy).

    Args:
        docs: the folder's documents, as read (a PDF's pages are documents of one file).
        rels: the folder's ref paths (:func:`~workers.sources.documents.file_of` groups a
            file's documents by them).
        notes: the corpus notes, appended to.
    """
    files: dict[str, set[str]] = defaultdict(set)
    for doc in docs:
        if not doc.plain_text:
            files[file_of(doc.doc_id, rels)].update(_paragraphs(doc))
    if len(files) <= MIN_GATHERED:
        return list(docs)
    holders: dict[str, set[str]] = defaultdict(set)
    for rel, paragraphs in files.items():
        for paragraph in paragraphs:
            holders[paragraph].add(rel)
    gathering = _gathering(files, holders)
    if not gathering:
        return list(docs)
    kept = [_remainder(doc, holders, gathering) if file_of(doc.doc_id, rels) in gathering
            else doc for doc in docs]
    left = {file_of(doc.doc_id, rels) for doc in kept if doc is not None}
    notes.extend(f"{safe_name(rel)}: {'indexed in part' if rel in left else 'not indexed'}, "
                 f"its text is that of {plural(count, 'other file')} of the folder (a page "
                 "gathering them)" for rel, count in sorted(gathering.items()))
    return [doc for doc in kept if doc is not None]


def _gathering(files: dict[str, set[str]], holders: dict[str, set[str]]) -> dict[str, int]:
    """The files that gather others' text, each with how many pages it gathers: judged largest
    first, the text of a file already judged gathering counted as no other's."""
    def judged(paragraphs: set[str]) -> list[str]:
        return [p for p in paragraphs
                if len(p) >= MIN_PARAGRAPH_CHARS and len(holders[p]) <= MAX_COPIES]

    judged_of = {rel: judged(paragraphs) for rel, paragraphs in files.items()}  # once each
    longs = {rel: len(paragraphs) for rel, paragraphs in judged_of.items()}
    ranked = sorted(files, key=lambda r: (-len(files[r]), r))
    rank = {rel: n for n, rel in enumerate(ranked)}
    gathering: dict[str, int] = {}
    for rel in ranked:
        paragraphs = judged_of[rel]
        held: dict[str, set[str]] = defaultdict(set)  # another file -> the paragraphs it holds
        for p in paragraphs:
            for other in holders[p] - {rel} - gathering.keys():
                held[other].add(p)
        shared = set().union(*held.values())
        pages = {h for h, ps in held.items()
                 if rank[h] > rank[rel] and len(ps) >= WHOLE_SHARE * longs[h]}
        taken = set().union(*(held[h] for h in pages))
        rest = max((len(ps - taken) for ps in held.values()), default=0)
        if (paragraphs and len(shared) >= GATHERED_SHARE * len(paragraphs)
                and len({frozenset(held[h]) for h in pages}) >= MIN_GATHERED
                and rest < MAX_ONE_SOURCE * len(paragraphs)):
            gathering[rel] = len(pages)
    return gathering


def _remainder(doc: RawDoc, holders: dict[str, set[str]],
               gathering: dict[str, int]) -> RawDoc | None:
    """A gathering file's document without the paragraphs a kept file holds too; None when no
    more than its headings is left."""
    def own(text: str, heading: str = "") -> str:
        return "\n\n".join(p.strip() for p in PARA_SPLIT.split(text)
                            if p.strip() and (p.strip() == heading
                                              or not holders[p.strip()] - gathering.keys()))
    if doc.sections:
        sections = tuple((h, body) for h, t in doc.sections if (body := own(t, h)) not in ("", h))
        if not sections:
            return None
        return replace(doc, text="\n\n".join(t for _h, t in sections), sections=sections)
    text = own(doc.text)
    return replace(doc, text=text) if text else None
