"""A page that gathers other pages' text is not indexed beside them: Node.js's ``all.html`` is
its whole manual on one page.

Indexed with the module pages, it held 48% of the folder's passages, every section twice; it
outranked the page that answered (one long page names every word), and three answers cited
it alone, titled "Node.js v18.20.4 Documentation", so the reader could not tell which module to
open. Such a file is found by its paragraphs: most of its long ones are also in other files,
taken from at least ``MIN_GATHERED`` of them, and no one of them holds as much as
``MAX_ONE_SOURCE`` of it. A page whose text another page includes (fs.html inside all.html;
SQLite's release notes, each inside ``changes.html``) has most of its text in that one page,
and stays; so does a page whose text others include (a syntax diagram shown on many pages).

This module imports only the standard library and the sources' own helpers.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from workers.sources.base import RawDoc
from workers.sources.documents import file_of
from workers.sources.text import plural, safe_name

__all__ = ["GATHERED_SHARE", "MIN_GATHERED", "MAX_ONE_SOURCE", "MIN_PARAGRAPH_CHARS",
           "without_gathering_pages"]

MIN_PARAGRAPH_CHARS = 80
"""Only paragraphs this long count: headings and short lines repeat for other reasons."""

GATHERED_SHARE = 0.8
"""A file gathers others when at least this share of its long paragraphs are theirs ..."""

MIN_GATHERED = 3
"""... taken from at least this many other files (one other file would make it a copy or an
excerpt: :mod:`workers.sources.copies` and :mod:`workers.sources.boilerplate` see to those)."""

MAX_ONE_SOURCE = 0.5
"""... and no one other file holds this share of its long paragraphs or more."""

_PARA_SPLIT = re.compile(r"\n[ \t]*\n+")


def _long_paragraphs(doc: RawDoc) -> set[str]:
    texts = [t for _h, t in doc.sections] if doc.sections else [doc.text]
    return {p.strip() for text in texts for p in _PARA_SPLIT.split(text)
            if len(p.strip()) >= MIN_PARAGRAPH_CHARS}


def without_gathering_pages(docs: Sequence[RawDoc], rels: set[str],
                            notes: list[str]) -> list[RawDoc]:
    """``docs`` without the documents of each file that gathers other files' text (the rule
    above), each such file named in ``notes``. Plain-text files are never judged (what they
    share with others is content: a changelog's entries in every package's copy).

    Args:
        docs: the folder's documents, as read (a PDF's pages are documents of one file).
        rels: the folder's ref paths (:func:`~workers.sources.documents.file_of` groups a
            file's documents by them).
        notes: the corpus notes, appended to.
    """
    files: dict[str, set[str]] = defaultdict(set)
    for doc in docs:
        if not doc.plain_text:
            files[file_of(doc.doc_id, rels)] |= _long_paragraphs(doc)
    if len(files) <= MIN_GATHERED:
        return list(docs)
    holders: dict[str, list[str]] = defaultdict(list)
    for rel, paragraphs in files.items():
        for paragraph in paragraphs:
            holders[paragraph].append(rel)
    gathering: dict[str, int] = {}
    for rel, paragraphs in files.items():
        shared = [others for p in paragraphs if (others := [h for h in holders[p] if h != rel])]
        held = Counter(h for others in shared for h in others)
        if (paragraphs and len(shared) >= GATHERED_SHARE * len(paragraphs)
                and len(held) >= MIN_GATHERED
                and max(held.values()) < MAX_ONE_SOURCE * len(paragraphs)):
            gathering[rel] = len(held)
    notes.extend(f"{safe_name(rel)}: not indexed, its text is that of "
                 f"{plural(count, 'other file')} of the folder (a page gathering them)"
                 for rel, count in sorted(gathering.items()))
    return [doc for doc in docs if file_of(doc.doc_id, rels) not in gathering]
