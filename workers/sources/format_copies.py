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

A plain-text rendering of the pages is a copy by the same share: the Debian Reference ships its
15 HTML chapters, its PDF and ``debian-reference.en.txt.gz``, the whole manual as text; indexed,
its 1,449 passages and the PDF's 1,004 outnumbered the chapters' 986, and the chapter that
answered went uncited in 6 of 12 reports (trial 124, M1-F1). Its drawn tables (cells between
``|``, wrapped within them) and its contents (lines that are another document's heading) are
not judged, as a PDF's contents pages are not; a text file is judged a copy only when its text
is in :data:`MIN_HOLDERS` files or more (a rendering of a manual's pages, not a changelog beside
its one HTML page). A table row the pages hold as the index writes it ("whois — popcon: V:28;
size: 380") is compared without its headings too, as a PDF or a text prints its cells.

This module imports only the standard library and the sources' own helpers.
"""

from __future__ import annotations

import re
import string
import zlib
from collections import Counter, defaultdict
from collections.abc import Container, Iterator, Sequence
from itertools import islice

from workers.sources.base import RawDoc
from workers.sources.documents import file_of
from workers.sources.text import safe_name

__all__ = ["COPY_SHARE", "MIN_HOLDERS", "MIN_PAGE_SAMPLE", "MIN_SAMPLE", "PAGE_SHARE",
           "SAMPLE_COPY_SHARE", "SAMPLE_EVERY", "SHINGLE_WORDS", "copy_by_sample",
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

SAMPLE_COPY_SHARE = 0.82
"""A long PDF read as a sample of its pages (:mod:`workers.sources.pdf_samples`) is a copy when
at least this share of the sample's runs are in the other documents: above :data:`COPY_SHARE`,
so that a PDF of its own near the bar is read whole and judged as any PDF, and under the copies
measured (a sample of 12 of the Debian Reference's pages held 85%, its whole text 87%; of
Asymptote's manual 95% and 95%: a sample's pages have no broken words joined across lines, and
share a little less); the documents of their own measured shared 69% and 74% (trial 124, FA1)."""

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

_NOT_WORD = bytes(c if chr(c) in string.ascii_lowercase + string.digits else 32 for c in range(256))
"""Bytes to spaces but a lower-case letter's or a digit's (:func:`_words`)."""

MIN_HOLDERS = 3
"""A plain-text file is judged a copy only when the other documents holding its sampled runs
are at least this many (trial 124, M1-F1: the Debian Reference's text, in 15 chapters): a
rendering of one page is named like it and left out before it is read
(:func:`~workers.sources.walk.rendered_once`: sqlite3-doc's ``changelog.gz``), and a text one
page quotes is a document of its own."""

MIN_PAGE_SAMPLE = 8
"""A page of a copy with fewer sampled runs than this (a few lines) is judged by all its runs,
and one too short for a run by its words: "Note for version 2.0: the daemon now listens on port
8731.", the last page of a copy, sampled none and was dropped (trial 113, F2)."""


def _words(text: str) -> list[str]:
    """``text``'s words, lower case, as runs are made of them: its runs of ``[a-z0-9]`` once
    lower-cased, each other character a space (in C: as ``re.findall``, it was a third of the
    folder's copy check, 0.3 of sqlite3-doc's 8 CPU s)."""
    return text.lower().encode("ascii", "replace").translate(_NOT_WORD).decode("ascii").split()


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


def _listing(text: str, last_page: int, vocabulary: Container[str] | None) -> bool:
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
               and (vocabulary is None  # None: may it be one, whatever the words held
                    or all(word in vocabulary for word in _words(found[1]) if not word.isdigit()))]
    return len(entries) * 2 >= len(lines)


def _asks_words(text: str, last_page: int, runs: set[int]) -> bool:
    """Whether judging a PDF's page may read the other documents' words: it may be a listing
    (:func:`_listing`) or has no run (:meth:`_Held.own`). None asks: the words are not
    gathered (sqlite3-doc's one-page PDF: a sixth of the copy check was their set)."""
    return not runs or _listing(text, last_page, None)


def _is_pdf(rel: str) -> bool:
    return rel.lower().endswith((".pdf", ".pdf.gz"))


_DRAWN = re.compile(r"^\s*(?:[|+].*[|+]|[-=+| ]{3,})\s*$")


def _prose(text: str, headings: Container[tuple[str, ...]]) -> str:
    """A plain text's lines but for those of a drawn table (``|mc |V:54, |1482 |A text-mode``,
    its rules; its cells wrap within it, so no run of its words is a run of a page's) and for
    those that are another document's heading (``headings``, as word tuples: a contents line,
    "10.3.1. Key management for GnuPG", that a contents page of a PDF would be).

    Example:
        >>> _prose("Contents\\n  1.2. Good password\\n|sudo |V:638,|5990 |A program|\\n"
        ...        "+-----+\\nChoose a good password.", {("1", "2", "good", "password")})
        'Contents\\nChoose a good password.'
    """
    return "\n".join(line for line in text.split("\n")
                     if not _DRAWN.match(line) and tuple(_words(line)) not in headings)


_ROW_HEADING = re.compile(r"(?<=[—;] )[^;:—\n]{1,40}?: ")


def _cells(text: str) -> str:
    """``text`` with the headings of its table rows as the index writes them
    (:func:`~workers.sources.tables.row_sentence`) left out: a PDF or a text prints the row's
    cells under headings printed once.

    Example:
        >>> _cells("whois — popcon: V:28; size: 380; function: crypt front end.")
        'whois — V:28; 380; crypt front end.'
    """
    return _ROW_HEADING.sub("", text) if "— " in text else text


def _holders(rels: list[str]) -> str:
    """The files that hold a PDF's text, as its note names them: ``nettle.html``, ``36 files
    of html/`` (one folder), else how many in each folder, most first: the first file's name
    and a count ("apa.en.html and 14 more", the Debian Reference's chapters) told a user
    little of what the copy repeats (trial 124, FA4).

    Example:
        >>> _holders(["ch01.html", "ch02.html"]), _holders(["a/x.html", "b/y.html", "b/z.html"])
        ("2 files at the folder's top level", '3 files: 2 of b/, 1 of a/')
    """
    if len(rels) == 1:
        return safe_name(rels[0])
    folders = Counter(rel.rpartition("/")[0] for rel in sorted(rels)).most_common()
    if len(folders) == 1:
        return f"{len(rels)} files {_folder(folders[0][0])}"
    more = f" and {len(folders) - 3} more folders" if len(folders) > 3 else ""
    return (f"{len(rels)} files: "
            + ", ".join(f"{count} {_folder(folder)}" for folder, count in folders[:3]) + more)


def _folder(folder: str) -> str:
    """Where a folder's files are, as :func:`_holders` says it: ``of html/``, ``at the
    folder's top level``."""
    return f"of {safe_name(folder)}/" if folder else "at the folder's top level"


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
    """The runs of :data:`SHINGLE_WORDS` of ``words``, as tuples, in order (each word list
    walked in place, not copied once per offset: a tenth of the folder's copy check)."""
    return zip(*(islice(words, at, None) for at in range(SHINGLE_WORDS)), strict=False)


class _Held:
    """What the folder's other documents hold of its PDFs' pages (``shingles``, the runs of
    their words): the sampled runs (and the file of each), every run of the short
    pages' ``wanted`` they hold, and their ``words`` (else no vocabulary: :func:`_asks_words`)."""

    def __init__(self, pages: dict[str, list[RawDoc]], wanted: set[int],
                 shingles: set[tuple[str, ...]], words: bool = True) -> None:
        self.runs: dict[int, str] = {}
        self.wanted: set[int] = set()
        self.vocabulary: set[str] = set()
        for rel, parts in pages.items():
            if _is_pdf(rel):
                continue
            for doc in parts:
                said = _words(doc.text)
                if words:
                    self.vocabulary.update(said, _words(doc.title))
                cells = _cells(doc.text)
                crcs = _runs_among(said, shingles)
                if cells != doc.text:  # a table row's cells as a PDF prints them, too
                    crcs = {*crcs, *_runs_among(_words(cells), shingles)}
                for crc in crcs:
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


def _headings(pages: dict[str, list[RawDoc]]) -> set[tuple[str, ...]]:
    """The titles and section headings of the documents but PDFs, as word tuples."""
    return {tuple(_words(heading)) for rel, parts in pages.items() if not _is_pdf(rel)
            for doc in parts for heading in (doc.title, *dict(doc.sections))}


def _share(sample: set[int], held: _Held) -> tuple[Counter[str], float]:
    """How many of ``sample``'s runs each other document holds (each run counted for the first
    that holds it), and the share of ``sample`` they hold."""
    found = Counter(held.runs[crc] for crc in sample if crc in held.runs)
    return found, sum(found.values()) / len(sample) if sample else 0.0


def without_format_copies(docs: Sequence[RawDoc], rels: set[str],
                          notes: list[str]) -> list[RawDoc]:
    """``docs`` without the pages of each PDF whose text the folder's other documents hold
    (the rule above), each such PDF named in ``notes`` with the files that hold it:
    ``"valgrind_manual.pdf.gz: skipped, a PDF of pages indexed (98% of its text is in 36 files
    of html/)"``. Of such a PDF, a page of text of its own (an appendix the pages lack, a section
    a newer edition rewrote: :data:`PAGE_SHARE`) is kept, and the note says how many were. A
    plain-text file whose text they hold (:func:`_prose` of it; :data:`MIN_HOLDERS`) goes
    whole: ``"manual.txt.gz: skipped, a text copy of pages indexed (95% of its text is in
    ch01.html and 14 more)"``.

    Args:
        docs: the folder's documents, as read (a PDF's pages are documents of one file).
        rels: the folder's ref paths (:func:`~workers.sources.documents.file_of` groups a
            file's documents by them).
        notes: the corpus notes, appended to.
    """
    pages: dict[str, list[RawDoc]] = defaultdict(list)
    plain: dict[str, list[RawDoc]] = defaultdict(list)
    for doc in docs:
        (plain if doc.plain_text else pages)[file_of(doc.doc_id, rels)].append(doc)
    pdfs = [rel for rel in pages if _is_pdf(rel)]
    if len(pdfs) == len(pages) or not (pdfs or plain):
        return list(docs)
    headings = _headings(pages) if plain else set()
    texts = {doc.doc_id: _body(doc.text) for rel in pdfs for doc in pages[rel]}
    texts |= {doc.doc_id: _prose(doc.text, headings) for parts in plain.values() for doc in parts}
    words = {doc_id: _words(text) for doc_id, text in texts.items()}
    runs = {doc_id: set(_runs(said)) for doc_id, said in words.items()}
    held = _Held(pages, {crc for rel in pdfs for doc in pages[rel]  # a short page's every run
                         if len(_sample(crcs := runs[doc.doc_id])) < MIN_PAGE_SAMPLE
                         for crc in crcs},
                 {run for said in words.values() for run in _shingles(said)},
                 words=any(_asks_words(texts[doc.doc_id], _last_page(pages[rel]),
                                       runs[doc.doc_id]) for rel in pdfs for doc in pages[rel]))
    gone: set[str] = set()
    for rel in pdfs:
        gone |= _pdf_copy(rel, pages[rel], texts, runs, held, notes)
    for rel, parts in plain.items():
        sample = set().union(*(_sample(runs[doc.doc_id]) for doc in parts))
        found, share = _share(sample, held)
        if len(sample) >= MIN_SAMPLE and share >= COPY_SHARE and len(found) >= MIN_HOLDERS:
            gone.update(doc.doc_id for doc in parts)
            notes.append(f"{safe_name(rel)}: skipped, a text copy of pages indexed ({share:.0%} "
                         f"of its text is in {_holders(list(found))})")
    return [doc for doc in docs if doc.doc_id not in gone] if gone else list(docs)


def copy_by_sample(rel: str, sample: Sequence[RawDoc], count: int, docs: Sequence[RawDoc],
                   rels: set[str]) -> str | None:
    """The note of a long PDF (``rel``, of ``count`` pages) that the pages of ``sample`` say is
    a copy of the folder's other documents read (``docs``: its pages, not plain text; files of
    ``rels``), as :func:`_pdf_copy` judges a whole PDF but by :data:`SAMPLE_COPY_SHARE`; None
    when the sample is no clear copy, and the file is to be read whole: ``"manual.pdf: skipped,
    a PDF of pages indexed (87% of the text of 12 of its 261 pages read is in ...)"``."""
    pages: dict[str, list[RawDoc]] = defaultdict(list)
    for doc in docs:
        if not doc.plain_text and not _is_pdf(held_in := file_of(doc.doc_id, rels)):
            pages[held_in].append(doc)
    texts = {doc.doc_id: _body(doc.text) for doc in sample}
    words = {doc_id: _words(text) for doc_id, text in texts.items()}
    held = _Held(pages, set(), {run for said in words.values() for run in _shingles(said)})
    runs = set().union(*(_sample(set(_runs(words[doc_id]))) for doc_id in texts
                         if not _listing(texts[doc_id], count, held.vocabulary)))
    found, share = _share(runs, held)
    if len(runs) < MIN_SAMPLE or share < SAMPLE_COPY_SHARE:
        return None
    return (f"{safe_name(rel)}: skipped, a PDF of pages indexed ({share:.0%} of the text of "
            f"{len(sample)} of its {count} pages read is in {_holders(list(found))})")


def _pdf_copy(rel: str, parts: list[RawDoc], texts: dict[str, str], runs: dict[str, set[int]],
              held: _Held, notes: list[str]) -> set[str]:
    """The doc ids of the pages (``parts``) of the PDF ``rel`` to leave out: none when it is no
    copy (:data:`COPY_SHARE`), else all but its pages of text of its own; a copy is named in
    ``notes``."""
    last = _last_page(parts)
    judged = [doc.doc_id for doc in parts  # contents and index pages left out
              if not _listing(texts[doc.doc_id], last, held.vocabulary)]
    sample = set().union(*(_sample(runs[doc_id]) for doc_id in judged))
    found, share = _share(sample, held)
    if len(sample) < MIN_SAMPLE or share < COPY_SHARE:
        return set()
    own = {doc_id for doc_id in judged if held.own(runs[doc_id], texts[doc_id])}
    kept = (f"; {len(own)} of its {len(parts)} pages, text of its own, indexed"
            if own else "")
    shown = min(share, 0.99) if own else share  # "100%" of a copy with a page of its own
    notes.append(f"{safe_name(rel)}: skipped, a PDF of pages indexed ({shown:.0%} of its "
                 f"text is in {_holders(list(found))}{kept})")
    return {doc.doc_id for doc in parts if doc.doc_id not in own}
