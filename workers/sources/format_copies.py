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
changelogs and READMEs are no manual) also hold, contents and index pages left out: at least
:data:`COPY_SHARE`. A PDF whose text
is its own (a paper, a reference card) stays, and so does every PDF when no other document
holds the manual. A copy's pages of text of its own (:data:`PAGE_SHARE`: an appendix, a
rewritten section) stay; the files the PDF's text is in are named in the note.

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

__all__ = ["COPY_SHARE", "MIN_SAMPLE", "PAGE_SHARE", "SAMPLE_EVERY", "SHINGLE_WORDS",
           "without_format_copies"]

SHINGLE_WORDS = 6
"""The words of one run compared (a PDF's line breaks, hyphens and page headers change few
runs of six words of a paragraph)."""

SAMPLE_EVERY = 4
"""One run in this many is compared (by its checksum): the same runs in every file."""

COPY_SHARE = 0.8
"""A PDF is a copy when at least this share of its sampled runs are in the other documents
(measured: Nettle's 88%, Bash's 90% and 99%, Valgrind's 98%; a paper whose notes quote two
thirds of it, 69%, and a newer edition, 74%, are documents of their own: trial 108, F2, F3)."""

MIN_SAMPLE = 40
"""A PDF with fewer sampled runs than this (a page or two) is never judged a copy."""

PAGE_SHARE = 0.5
"""Of a PDF judged a copy, a page is kept when less than this share of its sampled runs are
in the other documents: an appendix the HTML lacks, a section a newer edition rewrote (a copy
of 68% lost its appendix whole: trial 108, F1, F2), not a page of the copy whose line breaks,
hyphens and running heads differ (at 0.8, 17 of Bash's 196 copied pages were kept); never a
contents or index page, most of whose lines end with a page number (:func:`_listing`), which
count for nothing. A sentence a newer edition changed on a page it copies goes with it."""

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


_NUMBERED_LINE = re.compile(r"\S.*\s(?:\d+|[ivxlc]+)\s*$")


def _listing(text: str) -> bool:
    """Whether a page is a contents or index page: most of its lines end with a page number
    ("aes_decrypt 23", "7.6.2 PBKDF2 69"): a copy's, not text of its own.

    Example:
        >>> _listing("Function and Concept Index\\naes_decrypt 23\\naes_encrypt 23"), _listing(
        ...     "The census counts 23 herons.\\nIt runs each spring.")
        (True, False)
    """
    lines = [line for line in text.split("\n") if line.strip()]
    return sum(bool(_NUMBERED_LINE.match(line)) for line in lines) * 2 > len(lines)


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
    of html/)"``. Of such a PDF, a page of text of its own (an appendix the pages lack, a section
    a newer edition rewrote: :data:`PAGE_SHARE`) is kept, and the note says how many were.

    Args:
        docs: the folder's documents, as read (a PDF's pages are documents of one file).
        rels: the folder's ref paths (:func:`~workers.sources.documents.file_of` groups a
            file's documents by them).
        notes: the corpus notes, appended to.
    """
    pages: dict[str, list[RawDoc]] = defaultdict(list)
    for doc in docs:
        if not doc.plain_text:
            pages[file_of(doc.doc_id, rels)].append(doc)
    pdfs = [rel for rel in pages if _is_pdf(rel)]
    if not pdfs or len(pdfs) == len(pages):
        return list(docs)
    held: dict[int, str] = {}
    for rel, parts in pages.items():
        if not _is_pdf(rel):
            for crc in _shingles(doc.text for doc in parts):
                held.setdefault(crc, rel)
    gone: set[str] = set()
    for rel in pdfs:
        listings = {doc.doc_id for doc in pages[rel] if _listing(doc.text)}  # contents, index
        samples = {doc.doc_id: _shingles([doc.text]) for doc in pages[rel]}
        sample = set().union(*(crcs for doc_id, crcs in samples.items() if doc_id not in listings))
        found = Counter(held[crc] for crc in sample if crc in held)
        share = sum(found.values()) / len(sample) if sample else 0.0
        if len(sample) < MIN_SAMPLE or share < COPY_SHARE:
            continue
        own = [doc_id for doc_id, crcs in samples.items() if crcs and doc_id not in listings
               and len(crcs - held.keys()) > (1 - PAGE_SHARE) * len(crcs)]
        gone.update(set(samples) - set(own))
        kept = f"; {len(own)} of its {len(samples)} pages, text of its own, indexed" if own else ""
        notes.append(f"{safe_name(rel)}: skipped, a PDF of pages indexed ({share:.0%} of its "
                     f"text is in {_holders(list(found))}{kept})")
    return [doc for doc in docs if doc.doc_id not in gone] if gone else list(docs)
