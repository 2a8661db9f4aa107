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
changelogs and READMEs are no manual) also hold, contents and index pages left out (their
headings and terms, and page numbers; not a table of values: trial 113, F2): at least
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
from collections.abc import Container, Iterator, Sequence

from workers.sources.base import RawDoc
from workers.sources.documents import file_of
from workers.sources.text import safe_name

__all__ = ["COPY_SHARE", "MIN_PAGE_SAMPLE", "MIN_SAMPLE", "PAGE_SHARE", "SAMPLE_EVERY",
           "SHINGLE_WORDS", "without_format_copies"]

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
contents or index page, most of whose lines are a heading or term the other documents hold and
a page number (:func:`_listing`), which count for nothing; a short page (:data:`MIN_PAGE_SAMPLE`)
by all its runs. A sentence a newer edition changed on a page it copies goes with it."""

_WORDS = re.compile(r"[a-z0-9]+")

MIN_PAGE_SAMPLE = 8
"""A page of a copy with fewer sampled runs than this (a few lines) is judged by all its runs,
and one too short for a run by its words: "Note for version 2.0: the daemon now listens on port
8731.", the last page of a copy, sampled none and was dropped (trial 113, F2)."""


def _words(text: str) -> list[str]:
    """``text``'s words, lower case, as runs are made of them."""
    return _WORDS.findall(text.lower())


def _runs(words: Sequence[str]) -> Iterator[int]:
    """The checksum of each run of :data:`SHINGLE_WORDS` of ``words``."""
    for at in range(len(words) - SHINGLE_WORDS + 1):
        yield zlib.crc32(" ".join(words[at:at + SHINGLE_WORDS]).encode())


_PAGE_NUMBER = re.compile(r"\s*(?:\d+|[ivxlc]+)\s*$")


def _body(text: str) -> str:
    """A page's lines, but for blank ones and its page number ("clxiv", "23"): a running line,
    not its text, that made a short contents page ("Table of Contents", two entries) look like
    a page of its own.

    Example:
        >>> _body("GNU Licenses\\n\\n1. The GNU General Public License 1\\nclxiv")
        'GNU Licenses\\n1. The GNU General Public License 1'
    """
    return "\n".join(line.strip() for line in text.split("\n")
                     if line.strip() and not _PAGE_NUMBER.match(line))


_NUMBERED_LINE = re.compile(r"(\S.*?)[\s,]+(\d+|[ivxlc]+)\s*$")


def _listing(text: str, last_page: int, vocabulary: Container[str]) -> bool:
    """Whether a page is a contents or index page: half its lines or more (its page number not
    counted: :func:`_body`) are an entry whose every word the other documents hold (a heading,
    a term: "7.6.2 PBKDF2 69", "aes_decrypt 23, 41") and a page number of the PDF (at most
    ``last_page``, or roman). A copy's, not text of its own; a table of values (an appendix's
    "Retries after a dropped connection 5", a changelog's bug numbers) is neither, and was
    dropped as one (trial 113, F2; Valgrind's "GNU Licenses" contents, two entries of four
    lines, is one).

    Example:
        >>> held = {"function", "index", "aes", "decrypt", "encrypt"}
        >>> _listing("Function Index\\naes_decrypt 23\\naes_encrypt 23, 41", 90, held), _listing(
        ...     "Limits\\nRetries after a dropped connection 5\\nPort 8730", 90, held | {"port"})
        (True, False)
    """
    lines = _body(text).split("\n")
    entries = [found for line in lines if (found := _NUMBERED_LINE.match(line))
               and (not found[2].isdigit() or int(found[2]) <= last_page)
               and all(word in vocabulary for word in _words(found[1]) if not word.isdigit())]
    return len(entries) * 2 >= len(lines)


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


def _runs_among(words: Sequence[str], shingles: set[tuple[str, ...]]) -> Iterator[int]:
    """The :func:`_runs` of ``words`` that are among ``shingles`` (the PDFs' runs, as tuples of
    words): no other run can be a PDF's. A folder of 764 HTML pages beside one PDF of a page
    (sqlite3-doc's copyright release) checksummed all its 1.1 million runs, a third of the
    index build; tuples of words are compared in C, and only a PDF's runs are checksummed.

    Example:
        >>> words = "a b c d e f x a b c d e f".split()
        >>> list(_runs_among(words, {tuple("abcdef")})) == [zlib.crc32(b"a b c d e f")] * 2
        True
    """
    for run in filter(shingles.__contains__, _shingles(words)):
        yield zlib.crc32(" ".join(run).encode())


def _shingles(words: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """The runs of :data:`SHINGLE_WORDS` of ``words``, as tuples, in order."""
    return zip(*(words[at:] for at in range(SHINGLE_WORDS)), strict=False)


class _Held:
    """What the folder's other documents hold of its PDFs' pages (``shingles``, the runs of
    their words): the sampled runs (and the file of each), every run of the short
    pages' ``wanted`` they hold, and their words."""

    def __init__(self, pages: dict[str, list[RawDoc]], wanted: set[int],
                 shingles: set[tuple[str, ...]]) -> None:
        self.runs: dict[int, str] = {}
        self.wanted: set[int] = set()
        self.vocabulary: set[str] = set()
        for rel, parts in pages.items():
            if _is_pdf(rel):
                continue
            for doc in parts:
                words = _words(doc.text)
                self.vocabulary.update(words, _words(doc.title))
                for crc in _runs_among(words, shingles):
                    if crc % SAMPLE_EVERY == 0:
                        self.runs.setdefault(crc, rel)
                    if crc in wanted:
                        self.wanted.add(crc)

    def own(self, runs: set[int], text: str) -> bool:
        """Whether a page (its ``runs``, its ``text``) is text of its own (:data:`PAGE_SHARE`):
        judged by its sampled runs, by all of them when they are few (:data:`MIN_PAGE_SAMPLE`),
        by its words (one the others lack, "8731", beside one with a letter) when too short for
        a run."""
        if not runs:
            words = _words(text)
            return (any(word not in self.vocabulary for word in words)
                    and any(not word.isdigit() for word in words))
        sample = _sample(runs)
        if len(sample) < MIN_PAGE_SAMPLE:
            return len(runs - self.wanted) > (1 - PAGE_SHARE) * len(runs)
        return len(sample - self.runs.keys()) > (1 - PAGE_SHARE) * len(sample)


def _sample(runs: set[int]) -> set[int]:
    """The runs compared (:data:`SAMPLE_EVERY`)."""
    return {crc for crc in runs if crc % SAMPLE_EVERY == 0}


def _last_page(parts: Sequence[RawDoc]) -> int:
    """The number of a PDF's last page with text (its doc_id's, ``"a.pdf:p396"``)."""
    return max(int(tail) if (tail := doc.doc_id.rpartition(":p")[2]).isdigit() else len(parts)
               for doc in parts)


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
    texts = {doc.doc_id: _body(doc.text) for rel in pdfs for doc in pages[rel]}
    words = {doc_id: _words(text) for doc_id, text in texts.items()}
    runs = {doc_id: set(_runs(said)) for doc_id, said in words.items()}
    held = _Held(pages, {crc for crcs in runs.values() if len(_sample(crcs)) < MIN_PAGE_SAMPLE
                         for crc in crcs},  # a short page's every run
                 {run for said in words.values() for run in _shingles(said)})
    gone: set[str] = set()
    for rel in pdfs:
        last = _last_page(pages[rel])
        judged = [doc.doc_id for doc in pages[rel]  # contents and index pages left out
                  if not _listing(texts[doc.doc_id], last, held.vocabulary)]
        sample = set().union(*(_sample(runs[doc_id]) for doc_id in judged))
        found = Counter(held.runs[crc] for crc in sample if crc in held.runs)
        share = sum(found.values()) / len(sample) if sample else 0.0
        if len(sample) < MIN_SAMPLE or share < COPY_SHARE:
            continue
        own = {doc_id for doc_id in judged if held.own(runs[doc_id], texts[doc_id])}
        gone.update(doc.doc_id for doc in pages[rel] if doc.doc_id not in own)
        kept = (f"; {len(own)} of its {len(pages[rel])} pages, text of its own, indexed"
                if own else "")
        shown = min(share, 0.99) if own else share  # "100%" of a copy with a page of its own
        notes.append(f"{safe_name(rel)}: skipped, a PDF of pages indexed ({shown:.0%} of its "
                     f"text is in {_holders(list(found))}{kept})")
    return [doc for doc in docs if doc.doc_id not in gone] if gone else list(docs)
