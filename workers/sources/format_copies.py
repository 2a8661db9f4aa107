"""A PDF of the manual the folder's pages already hold is not indexed beside them.

Debian's documentation packages often ship one manual twice: Valgrind's ``html/`` pages and
``valgrind_manual.pdf.gz`` (396 pages, 1,796 passages, most of a 7.6 s build), Nettle's
``nettle.html`` and ``nettle.pdf.gz``, Bash's ``bashref.html`` and ``bashref.pdf``. Indexed
twice, the PDF's page was cited where the HTML page was the one to open (its sections,
anchors and headings; a PDF page has none of them), one entry was cited from both copies, and
the sentences a page break cut were the PDF's (trial 106, F4, F5; trial 105, F4; trial 97).

The copy is told by its text, not its name: a sample of the PDF's runs of
:data:`SHINGLE_WORDS` words (those whose checksum falls in one bucket of
:data:`SAMPLE_EVERY`, so every file is sampled alike; CRC-32, so every run alike) and the
share of them that the folder's other documents (HTML, Markdown, reST; not plain text, whose
changelogs and READMEs are no manual) also hold: at least :data:`COPY_SHARE`. A PDF whose text
is its own (a paper, a reference card) stays, and so does every PDF when no other document
holds the manual. What the HTML copy is read from is named in the note.

This module imports only the standard library and the sources' own helpers.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from workers.sources.base import RawDoc
from workers.sources.documents import file_of
from workers.sources.text import safe_name

__all__ = ["COPY_SHARE", "MIN_SAMPLE", "SAMPLE_EVERY", "SHINGLE_WORDS", "without_format_copies"]

SHINGLE_WORDS = 6
"""The words of one run compared (a PDF's line breaks, hyphens and page headers change few
runs of six words of a paragraph)."""

SAMPLE_EVERY = 4
"""One run in this many is compared (by its checksum): the same runs in every file."""

COPY_SHARE = 0.6
"""A PDF is a copy when at least this share of its sampled runs are in the other documents."""

MIN_SAMPLE = 40
"""A PDF with fewer sampled runs than this (a page or two) is never judged a copy."""

_WORDS = re.compile(r"[a-z0-9]+")


def _shingles(texts: Iterable[str]) -> set[int]:
    """The sampled checksums of ``texts``' runs of :data:`SHINGLE_WORDS` words (lower case)."""
    out: set[int] = set()
    for text in texts:
        words = _WORDS.findall(text.lower())
        for at in range(len(words) - SHINGLE_WORDS + 1):
            crc = zlib.crc32(" ".join(words[at:at + SHINGLE_WORDS]).encode())
            if crc % SAMPLE_EVERY == 0:
                out.add(crc)
    return out


def _is_pdf(rel: str) -> bool:
    return rel.lower().endswith((".pdf", ".pdf.gz"))


def _holders(rels: list[str]) -> str:
    """The files that hold a PDF's text, as its note names them: ``nettle.html``, ``36 files
    of html/`` (one folder), ``a.html and 2 more``."""
    if len(rels) == 1:
        return safe_name(rels[0])
    folders = {rel.rpartition("/")[0] for rel in rels}
    if len(folders) == 1 and (folder := folders.pop()):
        return f"{len(rels)} files of {safe_name(folder)}/"
    return f"{safe_name(sorted(rels)[0])} and {len(rels) - 1} more"


def without_format_copies(docs: Sequence[RawDoc], rels: set[str],
                          notes: list[str]) -> list[RawDoc]:
    """``docs`` without the pages of each PDF whose text the folder's other documents hold
    (the rule above), each such PDF named in ``notes`` with the files that hold it:
    ``"valgrind_manual.pdf.gz: skipped, a PDF of pages indexed (98% of its text is in 36 files
    of html/)"``.

    Args:
        docs: the folder's documents, as read (a PDF's pages are documents of one file).
        rels: the folder's ref paths (:func:`~workers.sources.documents.file_of` groups a
            file's documents by them).
        notes: the corpus notes, appended to.
    """
    texts: dict[str, list[str]] = defaultdict(list)
    for doc in docs:
        if not doc.plain_text:
            texts[file_of(doc.doc_id, rels)].append(doc.text)
    pdfs = [rel for rel in texts if _is_pdf(rel)]
    if not pdfs or len(pdfs) == len(texts):
        return list(docs)
    held: dict[int, str] = {}
    for rel, parts in texts.items():
        if not _is_pdf(rel):
            for crc in _shingles(parts):
                held.setdefault(crc, rel)
    gone: set[str] = set()
    for rel in pdfs:
        sample = _shingles(texts[rel])
        found = Counter(held[crc] for crc in sample if crc in held)
        share = sum(found.values()) / len(sample) if sample else 0.0
        if len(sample) < MIN_SAMPLE or share < COPY_SHARE:
            continue
        gone.add(rel)
        notes.append(f"{safe_name(rel)}: skipped, a PDF of pages indexed ({share:.0%} of its "
                     f"text is in {_holders(list(found))})")
    return [doc for doc in docs if file_of(doc.doc_id, rels) not in gone] if gone else list(docs)
