"""Text of the user's binary documents: PDF pages (with ``pypdf``) and Word files (with
``python-docx``).

A PDF page is a document of its own, so its passages cite the file *and* the page:
``report.pdf:p3#0``, shown as "report.pdf, page 3". When the file has an outline (bookmarks),
its entries are the pages' headings (issue 19: headings are indexed as fields): a page is cut
where an entry that starts on it is printed as a line of its own, and the text before the first
cut is headed by the entry in effect from earlier pages (see :func:`outline_sections`); a
heading line the outline does not list is a paragraph of its own
(:mod:`workers.sources.headings`). A
``.docx`` file is one document (its paragraphs, then its tables' rows as sentences), cited like
any other file (``notes.docx#0``).

Nothing here raises for a bad file: an encrypted PDF (one that does not open with the empty
password), a broken PDF or a broken ``.docx`` is skipped, counted in ``skipped`` and described in
``notes`` (one line each, e.g. ``"secret.pdf: skipped, encrypted"``), so one bad file never stops
the index of a folder. Source of the idea: pypdf's "Encryption and Decryption of PDFs" and
"Extract Text from a PDF" docs; python-docx's ``Document.paragraphs`` and ``Document.tables``.
"""

from __future__ import annotations

import logging
import re
import unicodedata
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from workers.sources.base import RawDoc
from workers.sources.headings import set_apart_headings
from workers.sources.hyphens import compounds, dehyphenated
from workers.sources.pagebreaks import stitched
from workers.sources.pdfspacing import respaced_contents, run_together
from workers.sources.running_lines import (
    printed_offset,
    running_lines,
    without_page_header,
    without_running_lines,
)
from workers.sources.tables import looks_like_header, table_lines

__all__ = ["DOCUMENT_EXTENSIONS", "MAX_DOCUMENT_BYTES", "MAX_DOCX_XML_BYTES", "compounds",
           "dehyphenated", "docx_docs", "docx_expanded_xml", "file_of", "outline_sections",
           "page_doc_id", "page_texts", "pdf_docs", "pdf_outline", "quiet_pypdf", "size_limit",
           "unligatured", "unligatured_doc", "without_leaders"]

DOCUMENT_EXTENSIONS: tuple[str, ...] = (".pdf", ".docx")
"""Binary document types read by a library rather than decoded as text."""

MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
"""PDF and .docx files larger than this are skipped (text files have their own, smaller limit)."""

MAX_DOCX_XML_BYTES = MAX_DOCUMENT_BYTES
"""A ``.docx`` whose XML parts expand to more than this is skipped before it is parsed: the file
limit is on the zipped bytes, and a 780 KB file expanding to 256 MB of XML took 3.4 GB of
memory and 3 minutes to index. 32 MB of XML is a document of thousands of pages.
(PDF streams have pypdf's own limits: ``pypdf.filters.ZLIB_MAX_OUTPUT_LENGTH``.)"""


def size_limit(filename: str, max_file_bytes: int) -> int:
    """The most bytes a folder's file may have to be indexed: ``max_file_bytes`` for a text
    file, :data:`MAX_DOCUMENT_BYTES` or ``max_file_bytes`` when larger for a PDF or .docx."""
    if filename.lower().endswith(DOCUMENT_EXTENSIONS):
        return max(MAX_DOCUMENT_BYTES, max_file_bytes)
    return max_file_bytes


def page_doc_id(rel: str, page: int) -> str:
    """The doc_id of page ``page`` (from 1) of the PDF at ``rel``: ``"report.pdf:p3"``."""
    return f"{rel}:p{page}"


def file_of(doc_id: str, rels: set[str]) -> str:
    """The file (one of ``rels``, the folder's ref paths) a document came from: ``doc_id``
    itself, or the PDF of a page (:func:`page_doc_id`). No indexable file's name ends in
    ``:p<n>``: its extension comes last.

    Example:
        >>> file_of("report.pdf:p3", {"report.pdf"}), file_of("a.md", {"a.md"})
        ('report.pdf', 'a.md')
    """
    return doc_id if doc_id in rels else doc_id.rpartition(":p")[0]


def quiet_pypdf() -> None:
    """pypdf's warnings silenced."""
    # pypdf logs a warning for every odd object of a damaged file; the skip note says enough.
    logging.getLogger("pypdf").setLevel(logging.ERROR)


def pdf_docs(path: Path | BinaryIO, rel: str, skipped: Counter[str], notes: list[str]
             ) -> Iterator[RawDoc]:
    """One document per PDF page that has text, but for a page whose words pypdf read run
    together (:func:`~workers.sources.pdfspacing.run_together`), named in ``notes``.

    Args:
        path: the file to read, or its bytes (a ``.pdf.gz`` decompressed).
        rel: its name relative to the folder (``"docs/report.pdf"``), the start of its refs.
        skipped: counts ``encrypted``, ``unreadable`` and ``blank`` files.
        notes: gets one line per skipped file (and per file with unreadable or run-together
            pages).
    """
    from pypdf import PdfReader

    quiet_pypdf()
    name = rel.rsplit("/", 1)[-1]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(path)
            if reader.is_encrypted:
                try:
                    opened = reader.decrypt("")  # owner-password-only files open like this
                except Exception:  # noqa: BLE001 - missing crypto support, a bad key length...
                    opened = 0
                if not opened:
                    skipped["encrypted"] += 1
                    notes.append(f"{rel}: skipped, encrypted (needs a password)")
                    return
            pages = list(reader.pages)
            starts = pdf_outline(reader)
    except Exception as exc:  # noqa: BLE001 - PdfReadError, or anything a damaged file raises
        skipped["unreadable"] += 1
        notes.append(f"{rel}: skipped, not a readable PDF ({type(exc).__name__})")
        return
    texts, bad = page_texts(pages, reader)
    whole = compounds(text for text in texts if text is not None)
    found = glued = 0
    current = ""  # the outline entry in effect: the last one that starts on an earlier page
    for number, text in enumerate(_bare_pages(texts, starts), 1):
        starting = starts.get(number - 1, [])
        heading, current = current, (starting[-1] if starting else current)
        text = set_apart_headings(dehyphenated(text, whole))
        if text.strip() and run_together(text):  # no prose to search or quote (trial 124)
            glued += 1
        elif text.strip():
            found += 1
            sections = outline_sections(text, starting, heading) if starts else ()
            yield RawDoc(page_doc_id(rel, number), name, f"{rel}, page {number}", text,
                         sections=sections)
    if bad:
        notes.append(f"{rel}: {bad} of {len(pages)} pages could not be read")
    if glued:
        notes.append(f"{rel}: {glued} of {len(pages)} pages not indexed, their words run "
                     "together (its text has no spaces between them)")
    if not found:
        skipped["blank"] += 1
        if not bad and not glued:
            notes.append(f"{rel}: skipped, no extractable text (a scan?)")


def _bare_pages(texts: list[str | None], starts: dict[int, list[str]]) -> list[str]:
    """A file's page texts (None: a page not read) without their furniture: the lines running
    at the top or bottom of most pages; with an outline to head the passages, a header bearing
    the page's printed number, a chapter's running title too ("Chapter 5: Shell Variables 90"
    labelled a TMOUT passage of Bash's manual, trial 95, F5; without one its words stay); and
    each sentence a page break cut made whole on the page it starts on."""
    running = running_lines([text for text in texts if text is not None])
    bare = [without_running_lines(text or "", running) for text in texts]
    if (offset := printed_offset(texts) if starts else None) is not None:
        bare = [without_page_header(text, index + offset, starts.get(index, ()))
                for index, text in enumerate(bare)]
    return stitched(bare, starts)


_LIGATURES = str.maketrans({chr(c): unicodedata.normalize("NFKC", chr(c))
                            for c in range(0xFB00, 0xFB07)})


def unligatured(text: str) -> str:
    """``text`` with Unicode's Latin compatibility ligatures (U+FB00 to U+FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ)
    as the letters a reader reads (their NFKC form). A PDF whose font names its glyph ``fi``
    gives U+FB01 (pypdf maps glyph names through the Adobe Glyph List): Bash's man page was
    quoted "ﬁles", and a search for "files" found none of its 992 ligatures (SQLite's
    tokenizer does not decompose them). Only these: NFKC would also turn "x²" into "x2".

    Example:
        >>> unligatured("ﬁnd the ﬂow of ﬃx")
        'find the flow of ffix'
    """
    # str.translate looks up every character; a page with no ligature (most) is returned as
    # it is after a scan in C (0.68 s of git-doc's 3.4 s single-thread build before): none in
    # an ASCII or Latin-1 text (a flag), else one find per ligature (faster than a pattern)
    if text.isascii() or not any(ligature in text for ligature in _LIGATURE_CHARS):
        return text
    return text.translate(_LIGATURES)


_LIGATURE_CHARS = tuple(map(chr, range(0xFB00, 0xFB07)))


_LEADER = re.compile(r"[ \t]*(?:\.[ \t]?){4,}(?=[ \t]*(?:(?:\[?\d+\]?|[ivxlcdm]+)(?!\S)|$))",
                     re.MULTILINE)


def without_leaders(text: str) -> str:
    """``text`` (a PDF page's) without its dot leaders, the runs of four dots or more that join
    a contents line to its page number (a number, in brackets or not, or a roman one, or the
    line's end):
    "there should be none. ....................... [3]" was a finding of Valgrind's manual
    (trial 106, F7). An ellipsis ("...") stays, and so do dots before anything else: the
    pattern ``^....$`` was read "^ $" (trial 113, F8).

    Example:
        >>> without_leaders("1.2 Installing ............ 5\\nWait... then go. . . . . 7")
        '1.2 Installing 5\\nWait... then go. 7'
        >>> without_leaders("The pattern ^....$ matches a....b lines. Preface ..... iv")
        'The pattern ^....$ matches a....b lines. Preface iv'
    """
    if "...." not in text and ". . . ." not in text:
        return text  # a sentence's own full stop before the leader stays
    return _LEADER.sub(lambda run: ". " if run.group().startswith(". ") else " ", text)


def unligatured_doc(doc: RawDoc) -> RawDoc:
    """``doc`` with its title, text and sections :func:`unligatured`: every file of a folder
    is read so (a ``.docx`` or HTML page pasted from a PDF holds them too)."""
    return replace(doc, title=unligatured(doc.title), text=unligatured(doc.text),
                   sections=tuple((unligatured(h), unligatured(t)) for h, t in doc.sections))


def page_texts(pages: list, reader: object) -> tuple[list[str | None], int]:
    """Each page's extracted text, its character and word spacing read as the glyphs' positions
    (:mod:`workers.sources.pdfspacing`), its ligatures as letters (before its broken words
    are joined: "speci-" / "ﬁed") and its dot leaders gone (:func:`without_leaders`); None for
    a page whose content stream is broken (it fails that page, not the file); and how many
    failed."""
    from pypdf.generic import NameObject

    texts: list[str | None] = []
    for page in pages:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                respaced = respaced_contents(page, reader)
                if respaced is not None:
                    page[NameObject("/Contents")] = respaced
                texts.append(without_leaders(unligatured(page.extract_text() or "")))
        except Exception:  # noqa: BLE001 - a broken content stream fails one page, not the file
            texts.append(None)
    return texts, texts.count(None)


def pdf_outline(reader: object) -> dict[int, list[str]]:
    """The titles of a PDF's outline entries by the page (from 0) they start on, in outline
    order (whitespace collapsed); ``{}`` when it has no outline or it cannot be read. Entries
    without a title or a page are left out. Source: pypdf's ``PdfReader.outline`` and
    ``get_destination_page_number`` ("Reading PDF outlines" in its docs)."""
    starts: dict[int, list[str]] = {}

    def walk(items: object, depth: int) -> None:
        for item in items if isinstance(items, list) and depth < 32 else ():
            if isinstance(item, list):
                walk(item, depth + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)  # type: ignore[attr-defined]
                title = " ".join(str(item.title or "").split())
            except Exception:  # noqa: BLE001 - a broken entry is skipped, not the file
                continue
            if title and page is not None and page >= 0:
                starts.setdefault(page, []).append(title)

    try:
        walk(reader.outline, 0)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a broken outline leaves the pages without headings
        return {}
    return starts


def _title_line(title: str) -> re.Pattern[str]:
    # the title as a line of its own, perhaps after its number ("3.4 Labels", "A.2 Options")
    words = r"\s+".join(re.escape(w) for w in title.split())
    return re.compile(rf"^[ \t]*(?:(?:[0-9]+|[A-Z])(?:\.[0-9]+)*\.?[ \t]+)?{words}[ \t]*$",
                      re.M)


def outline_sections(
    text: str, starting: list[str], heading: str
) -> tuple[tuple[str, str], ...]:
    """A PDF page's text as ``(heading, text)`` sections: cut where each outline entry that
    starts on the page (``starting``, in order) is printed as a line of its own; the text before
    the first cut is headed ``heading`` (the entry in effect from earlier pages, or ``""``). An
    entry whose title is not found on the page does not cut it."""
    sections: list[tuple[str, str]] = []
    pos = 0
    for title in starting:
        match = _title_line(title).search(text, pos)
        if match is None:
            continue
        sections.append((heading, text[pos:match.start()]))
        heading, pos = title, match.start()
    sections.append((heading, text[pos:]))
    return tuple((h, _set_apart(t.strip(), h)) for h, t in sections if t.strip())


def _set_apart(text: str, heading: str) -> str:
    """``text`` with its first line, when it is ``heading``'s title line, made a paragraph of
    its own: run into the sentence under it, the title read as that sentence's first words
    ("Fit The fit command fits ...")."""
    first, sep, rest = text.partition("\n")
    if sep and heading and _title_line(heading).fullmatch(first):
        return f"{first}\n\n{rest.lstrip()}"
    return text


def docx_expanded_xml(path: Path | BinaryIO) -> int:
    """Bytes the XML parts of the ``.docx`` (a zip) at ``path`` expand to, as its directory
    declares them (``zipfile`` refuses to read a member past its declared size).

    Raises:
        zipfile.BadZipFile, OSError: not a zip, or unreadable.
    """
    import zipfile

    with zipfile.ZipFile(path) as archive:
        return sum(info.file_size for info in archive.infolist()
                   if info.filename.lower().endswith((".xml", ".rels")))


def docx_docs(path: Path | BinaryIO, rel: str, skipped: Counter[str], notes: list[str]
              ) -> Iterator[RawDoc]:
    """The text of a ``.docx`` file (paragraphs, then each table row as a sentence under its
    headings: :mod:`workers.sources.tables`), as one document.

    Args: as :func:`pdf_docs` (``skipped`` counts ``unreadable``, ``blank``, and ``expands``
    for a file whose XML expands past :data:`MAX_DOCX_XML_BYTES`).
    """
    import docx

    try:
        expanded = docx_expanded_xml(path)
        if expanded > MAX_DOCX_XML_BYTES:
            skipped["expands"] += 1
            notes.append(f"{rel}: skipped, expands to {-(-expanded // 2**20)} MB of XML (more "
                         f"than {MAX_DOCX_XML_BYTES // 2**20} MB)")
            return
        document = docx.Document(str(path) if isinstance(path, Path) else path)
        parts = [p.text for p in document.paragraphs]
        for table in document.tables:  # each row a sentence under its headings
            rows = [[c.text for c in row.cells] for row in table.rows]
            header = rows[0] if len(rows) > 1 and (
                looks_like_header(rows[0]) or _marked_heading_row(table.rows[0])) else None
            parts.extend(table_lines(rows[1:] if header else rows, header))
    except Exception as exc:  # noqa: BLE001 - BadZipFile, PackageNotFoundError, lxml errors...
        skipped["unreadable"] += 1
        notes.append(f"{rel}: skipped, not a readable .docx ({type(exc).__name__})")
        return
    text = "\n\n".join(p.strip() for p in parts if p.strip())
    if not text:
        skipped["blank"] += 1
        notes.append(f"{rel}: skipped, no text")  # as a blank text file is
        return
    yield RawDoc(rel, rel.rsplit("/", 1)[-1], rel, text)


def _marked_heading_row(row: object) -> bool:
    """Whether Word marks a table's first row (a python-docx ``_Row``) as its heading row:
    "Repeat as header row" (``<w:tblHeader/>``) or all of its text in bold runs. The sibling
    of an HTML ``<thead>`` or bold heading row: headings of more than
    four words or years ("2024") do not look like a header (:func:`looks_like_header`)."""
    from docx.oxml.ns import qn

    tr_pr = row._tr.trPr  # type: ignore[attr-defined]
    flag = tr_pr.find(qn("w:tblHeader")) if tr_pr is not None else None
    if flag is not None and flag.get(qn("w:val"), "true") not in ("0", "false", "off"):
        return True
    runs = [run for cell in row.cells for para in cell.paragraphs  # type: ignore[attr-defined]
            for run in para.runs if run.text.strip()]
    return bool(runs) and all(run.bold for run in runs)

