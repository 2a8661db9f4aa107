"""One file of a ``--corpus`` folder read: its bytes, whether a file without a type is text, and
the documents it gives (what it is read as: :mod:`workers.sources.filekinds`).

* **A file without a type** (``README``, ``upstream``) is plain text when its content is
  (:func:`not_text`: the test that finds a binary ``.txt``, no NUL byte and little
  undecodable text), and skipped and named with the reason when it is not, as a ``.txt`` is:
  no text, binary, not a readable gzip file, a gzip file inside a gzip file (each
  was counted as "(no extension)" among the types not indexed, unnamed, and the refusal
  of a folder of them said to rename them ``.txt``). Plain text (it, and a ``.txt``) is cut
  at the headings :mod:`workers.sources.textsections` finds: a changelog's version lines, a
  NEWS file's releases, underlined titles. One that is a man page's troff source
  (``ls.1``, ``Tcl_LinkVar.3tcl.gz``: :func:`workers.sources.manpage.is_man_page`) is read as
  Markdown (:func:`workers.sources.manpage.man_markdown`): titled by its NAME line, cut at its
  sections; so is a BSD page's mdoc(7) source (``ssh_config.5``:
  :func:`workers.sources.mdocpage.mdoc_markdown`).
* **Gzip-compressed files** (``name.gz``) are what the name inside says: ``x.html.gz`` is an
  HTML page, ``changelog.gz`` and ``NEWS.gz`` text without a type, ``x.pdf.gz`` a PDF. They are
  decompressed as a stream, at most the file's size limit (``--max-file-bytes`` for text, the
  PDF/.docx limit for those) and one piece more: a gzip bomb never takes more memory than the
  limit (:func:`read_bounded`), and a folder's ``.gz`` files at most
  :data:`MAX_FOLDER_GZIP_BYTES` in all (:class:`GzipBudget`). A corrupt or truncated one is
  skipped and named; it is cited by its own name (``changelog.gz#3``). Source of the idea:
  ``zless``, and Debian's ``/usr/share/doc`` (Debian Policy 12.3: files there over 4 KB are
  compressed with ``gzip -9``), which is documentation as installed.

Standard library and this package; HTML is read by :mod:`workers.sources.htmlpage` (lxml),
Markdown by :mod:`workers.sources.markdownpage`, PDF and .docx by
:mod:`workers.sources.documents`, each imported only when a file of its kind is read.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections import Counter
from collections.abc import Collection, Iterator
from pathlib import Path

from workers.sources import documents
from workers.sources.base import RawDoc
from workers.sources.catalogues import catalogue_kind
from workers.sources.comments import SHELL_SUFFIXES, comment_prose, script_comments
from workers.sources.contents_lines import without_numbered_contents
from workers.sources.filekinds import (
    DOCUMENT_EXTENSIONS,
    GZIP_SUFFIX,
    HTML_EXTENSIONS,
    MARKDOWN_EXTENSIONS,
    NotRegular,
    file_kind,
    head_bytes,
    inner_name,
    open_regular,
)
from workers.sources.manpage import is_man_page, man_markdown, so_target
from workers.sources.mdocpage import is_mdoc_page, mdoc_markdown
from workers.sources.numberdata import NUMBER_DATA, is_number_data
from workers.sources.pdf_samples import Sampled, pdf_sample
from workers.sources.pyfile import python_file_sections
from workers.sources.redirects import redirect_of
from workers.sources.rsttext import rst_text
from workers.sources.text import (
    SNIFF_BYTES,
    declared_encoding,
    decode_file,
    encoding_note,
    size_label,
)
from workers.sources.textsections import opening_heading, text_sections, text_title
from workers.sources.walk import shown_path, unreadable_why

__all__ = ["GZIP_MAGIC", "MAX_FOLDER_GZIP_BYTES", "PLAIN_KINDS", "PLAIN_TEXT", "EmptyGzip",
           "GzipBudget", "TooLarge", "file_docs", "not_text", "read_bounded"]

_CHUNK = 64 * 1024
PLAIN_TEXT = (".txt", "")
"""The kinds read as plain text: cut at the headings :mod:`workers.sources.textsections`
finds (a changelog's version lines, underlined titles)."""


MAX_FOLDER_GZIP_BYTES = 128 * 1024 * 1024
"""What a folder's ``.gz`` files may decompress to in all (or its text files' size limit, when
that is more). The build holds every document of a folder at once (boilerplate is found across
them), so sixty small gzip bombs just under the 8 MB limit, 3.3 MB on disk, took 1.26 GB.
Every installed package's docs on a Debian machine, ``/usr/share/doc`` whole,
decompress to 91 MB once each text is counted once."""


class GzipBudget:
    """What is left of a folder's :data:`MAX_FOLDER_GZIP_BYTES` (``total``) while its files are
    read in order: a ``.gz`` past it is skipped and named, the ones before it indexed."""

    def __init__(self, max_file_bytes: int) -> None:
        self.total = self.left = max(MAX_FOLDER_GZIP_BYTES, max_file_bytes)


PLAIN_KINDS = (*PLAIN_TEXT, ".conf", ".cfg", ".ini")
"""The kinds read as text without markup: no paragraph of them is boilerplate
(:attr:`workers.sources.base.RawDoc.plain_text`); nor of a man page among them, read as
Markdown: a page has no navigation, and what others share with it is content (an argument's
description)."""


GZIP_MAGIC = b"\x1f\x8b"
"""How a gzip file begins (RFC 1952 2.3.1): inside a ``.gz``, it was compressed twice."""

NESTED = "a gzip file inside a gzip file"


class EmptyGzip(gzip.BadGzipFile):
    """A ``.gz`` of no bytes: ``gunzip`` finds no gzip header ("unexpected end of file");
    Python's :mod:`gzip` reads it as empty."""


class TooLarge(ValueError):
    """A file holds (or decompresses to) more bytes than its limit; ``size``: how many, when
    known (a file's own size; None: it grew while read, or a ``.gz``)."""

    def __init__(self, name: str, size: int | None = None) -> None:
        super().__init__(name)
        self.size = size


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of the file ``path``, decompressed when its name ends in ``.gz``, read through
    one handle checked to be a regular file (:func:`~workers.sources.filekinds.open_regular`)
    and never more than ``limit + 1`` bytes: a ``.gz`` as a stream in 64 KB pieces (a gzip bomb
    takes no more memory than the limit: ``gzip.decompress`` would hold all of it), any file as
    the handle finds it, whatever the listing found there (a file swapped for
    ``/dev/zero`` after the listing took 5 GB, a FIFO blocked the run, a 300 MB file was read
    past an 8 MB limit: ``tests/workers/sources/test_folder_swaps.py``).

    Raises:
        TooLarge: it holds, or decompresses to, more than ``limit`` bytes.
        NotRegular: it is no regular file (now).
        OSError: it cannot be read; ``gzip.BadGzipFile`` (an ``OSError``), ``EOFError``
            (truncated) or ``zlib.error``: it is no readable gzip file.
    """
    with open_regular(path) as fh:
        if not path.name.lower().endswith(GZIP_SUFFIX):
            if (size := os.fstat(fh.fileno()).st_size) > limit:
                raise TooLarge(path.name, size)
            data = fh.read(limit + 1)  # it may have grown since
            if len(data) > limit:
                raise TooLarge(path.name)
            return data
        if os.fstat(fh.fileno()).st_size == 0:
            raise EmptyGzip("empty")
        out = bytearray()
        with gzip.GzipFile(fileobj=fh, mode="rb") as packed:
            while chunk := packed.read(min(_CHUNK, limit + 1 - len(out))):
                out += chunk
    if len(out) > limit:
        raise TooLarge(path.name)
    return bytes(out)


def not_text(path: Path) -> tuple[str, str] | None:
    """Why a file without a type is not read as text, by its first ``SNIFF_BYTES`` bytes, as
    ``(reason key, note)``: ``("blank", "no text")`` (a file of only blanks), ``("nested",
    NESTED)``, ``("binary", "binary (not text)")`` (:func:`workers.sources.text.decode_file`,
    which finds a binary ``.txt``: a NUL byte, or mostly undecodable text); None when it may
    be text, or cannot be read (the build reads it whole, and names it)."""
    head = head_bytes(path, SNIFF_BYTES)
    if head is None:
        return None
    if path.name.lower().endswith(GZIP_SUFFIX) and head.startswith(GZIP_MAGIC):
        return "nested", NESTED
    if not head.strip():  # blank as far as it was read: the build reads the rest
        return ("blank", "no text") if len(head) < SNIFF_BYTES else None
    return None if decode_file(head).text is not None else ("binary", "binary (not text)")


def _skip(skipped: Counter[str], notes: list[str], name: str, key: str, why: str) -> None:
    skipped[key] += 1
    notes.append(f"{name}: skipped, {why}")


def file_docs(rel: str, path: Path, skipped: Counter[str], notes: list[str],
              max_file_bytes: int, budget: GzipBudget | None = None,
              rels: Collection[str] | None = None, later: dict[str, Sampled] | None = None
              ) -> Iterator[RawDoc]:
    """The documents of one file of a folder (``rel``: its ref path, ``path``: where it is):
    a PDF's pages, a .docx, an HTML page or a Markdown file cut at its headings, a Python file's
    docstrings, or plain text, its ligatures as letters
    (:func:`workers.sources.documents.unligatured`). A file that cannot be read, is binary, or
    holds no text gives none: counted in ``skipped`` and named in ``notes`` (one line each), as
    is an HTML page that only redirects to another (:mod:`workers.sources.redirects`); so
    is a ``.gz`` that is corrupt or decompresses past its limit (``max_file_bytes`` for text;
    PDF and .docx: :func:`workers.sources.documents.size_limit`) or past what is left of the
    folder's ``budget``, which it then spends; and, as a damaged PDF is, a file its reader
    fails on (``"page.html: skipped, its reader failed (AssertionError)"``: lxml raised
    on a page its furniture tests found a bar in twice, and the whole run ended). ``rels``, the
    folder's ref paths, tell an HTML page's links to its files from the rest (a page of links
    is one of links to them: :mod:`workers.sources.linkpages`, trial 119, F2). With ``later``,
    a long PDF gives none: its sample (:func:`~workers.sources.pdf_samples.pdf_sample`) and how
    to read it whole go there, under its ref path, for the caller to judge (trial 124, FA1)."""
    kind = file_kind(path.name) or ""
    limit = documents.size_limit(inner_name(path.name), max_file_bytes)
    packed = budget is not None and path.name.lower().endswith(GZIP_SUFFIX)
    cap = min(limit, budget.left) if packed else limit
    try:
        data = read_bounded(path, cap)
    except TooLarge as exc:
        if cap < limit:
            _skip(skipped, notes, shown_path(rel), "budget", f"past the {size_label(budget.total)}"
                  " the folder's .gz files may decompress to in all (those before it are read)")
        else:
            key = "gz_size" if path.name.lower().endswith(GZIP_SUFFIX) else "size"
            _skip(skipped, notes, shown_path(rel), key, _too_large(exc, limit))
        return
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        why = ("truncated" if isinstance(exc, EOFError) else "empty"
               if isinstance(exc, EmptyGzip) else type(exc).__name__)
        _skip(skipped, notes, shown_path(rel), "corrupt", f"not a readable gzip file ({why})")
        return
    except NotRegular:  # swapped since the listing: a FIFO, a link to a device
        _skip(skipped, notes, shown_path(rel), "special", "not a regular file")
        return
    except OSError as exc:
        _skip(skipped, notes, shown_path(rel), "unreadable", unreadable_why(exc))
        return
    if packed:
        budget.left -= len(data)
    if data.startswith(GZIP_MAGIC) and path.name.lower().endswith(GZIP_SUFFIX):
        _skip(skipped, notes, shown_path(rel), "nested", NESTED)
        return
    if kind in DOCUMENT_EXTENSIONS:  # a PDF or .docx (.gz or not): read from memory
        yield from _document_docs(rel, kind, data, skipped, notes, later)
        return
    try:  # one document at most: read whole, so a reader's fault skips the file, not the run
        docs = list(_text_docs(rel, kind, data, skipped, notes, rels))
    except Exception as exc:  # noqa: BLE001 - a fault of lxml's, markdown-it's or this reader's
        said = f"{type(exc).__name__}: {exc}"[:160] if str(exc) else type(exc).__name__
        _skip(skipped, notes, shown_path(rel), "unreadable", f"its reader failed ({said})")
        return
    yield from map(documents.unligatured_doc, docs)


def _document_docs(rel: str, kind: str, data: bytes, skipped: Counter[str], notes: list[str],
                   later: dict[str, Sampled] | None) -> Iterator[RawDoc]:
    """A PDF's or a .docx's documents, read from its bytes ``data``; of a long PDF, with
    ``later``, none: its sample and how to read it whole go there (see :func:`file_docs`)."""
    read = documents.pdf_docs if kind == ".pdf" else documents.docx_docs
    if kind == ".pdf" and later is not None and (sampled := pdf_sample(data, rel)):
        later[rel] = Sampled([*map(documents.unligatured_doc, sampled[0])], sampled[1],
                             lambda: [*map(documents.unligatured_doc,
                                           read(io.BytesIO(data), rel, skipped, notes))])
        return
    yield from map(documents.unligatured_doc, read(io.BytesIO(data), rel, skipped, notes))


def _too_large(exc: TooLarge, limit: int) -> str:
    """Why a file read past its limit is skipped, as the listing says it (``"too large (50 MB >
    8 MB)"``), or ``"too large (decompresses to more than 8 MB)"`` for a ``.gz``."""
    if exc.size is not None:
        return f"too large ({size_label(exc.size, exact=False)} > {size_label(limit, exact=False)})"
    if str(exc).lower().endswith(GZIP_SUFFIX):
        return f"too large (decompresses to more than {size_label(limit)})"
    return f"too large (more than {size_label(limit)})"


def _text_docs(rel: str, kind: str, data: bytes, skipped: Counter[str],
               notes: list[str], rels: Collection[str] | None = None) -> Iterator[RawDoc]:
    """The document of a text file's bytes ``data`` read as ``kind`` (see :func:`file_docs`)."""
    declared = declared_encoding(data, kind)
    text, encoding, replaced = decode_file(data, declared)
    if text is None:
        _skip(skipped, notes, rel, "binary", "binary (not text)")
        return
    if (said := encoding_note(rel, declared, encoding, replaced)) is not None:
        notes.append(said)
    if kind in PLAIN_TEXT and is_number_data(text):  # a plot's data (trial 115, F12)
        _skip(skipped, notes, rel, "data", NUMBER_DATA)
        return
    name, source = rel.rsplit("/", 1)[-1], text
    title, sections, links, man, mdoc, paged = name, (), 0.0, False, False, False
    if kind in HTML_EXTENSIONS:
        from workers.sources.htmlpage import CUT, html_page  # lxml: only for HTML files
        from workers.sources.linkpages import in_folder

        page = html_page(text, None if rels is None else in_folder(rel, rels))
        title, sections, text = page.title or name, page.sections, page.text
        links, paged = page.link_share, page.link_page
        if page.cut:
            notes.append(f"{rel}: {CUT}")
    elif kind in MARKDOWN_EXTENSIONS or (man := kind in PLAIN_TEXT and is_man_page(text)) or (
            mdoc := kind in PLAIN_TEXT and is_mdoc_page(text)):
        from workers.sources.markdownpage import markdown_page  # markdown-it: only for Markdown

        # a man page (man(7) or mdoc(7)): its Markdown
        page = markdown_page(man_markdown(text) if man else mdoc_markdown(text) if mdoc else text)
        title, sections, text = page.title or name, page.sections, page.text
    elif kind == ".py":
        sections = python_file_sections(text, rel)
        text = "\n\n".join(t for _h, t in sections) or text
    elif kind in PLAIN_TEXT:  # cut at its version lines or titles, if it has them
        text, sections, title = _plain_text(text, name)
    elif kind == ".rst":  # its markup as the words it shows, titled and cut at its titles
        text = without_numbered_contents(rst_text(text))
        sections, title = text_sections(text), opening_heading(text) or name
        text = "\n\n".join(t for _h, t in sections) or text
    if kind in HTML_EXTENSIONS and (to := redirect_of(source, text, name)) is not None:
        _skip(skipped, notes, rel, "redirect", f"a page that only redirects to {to}")
    elif text.strip():
        linked = kind in (*HTML_EXTENSIONS, *MARKDOWN_EXTENSIONS, ".rst")  # a catalogue's kinds
        yield RawDoc(rel, title, rel, text, sections=sections, link_share=links,
                     section_symbols=kind == ".py", plain_text=kind in PLAIN_KINDS,
                     kind=catalogue_kind(source, text, kind in HTML_EXTENSIONS) if linked else "")
    elif paged:  # a table of contents, an index (trial 115, F4)
        from workers.sources.linkpages import LINK_PAGE

        _skip(skipped, notes, rel, "link_page", LINK_PAGE)
    elif kind == "" and inner_name(name).lower().endswith(SHELL_SUFFIXES):
        _skip(skipped, notes, rel, "blank", "a script without comments (a script is read as "
              "its comments)")
    elif man and (target := so_target(source)):  # init.1: ".so man1/systemd.1"
        _skip(skipped, notes, rel, "blank", f"a link to another man page ({target})")
    else:
        _skip(skipped, notes, rel, "blank", "no text")


def _plain_text(text: str, name: str) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """``(text, sections, title)`` of a plain-text file ``name``: an annotated example's
    comments as sentences (a shell script's alone: trial 125, F8), its contents' numbered titles
    left out, cut at its version lines or titles if it has them."""
    script = inner_name(name).lower().endswith(SHELL_SUFFIXES)
    text = without_numbered_contents(script_comments(text) if script else comment_prose(text))
    sections = text_sections(text)
    return "\n\n".join(t for _h, t in sections) or text, sections, text_title(text) or name
