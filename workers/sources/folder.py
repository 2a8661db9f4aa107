"""The folder source (``--corpus DIR``): the user's own documents.

Indexed: the ``.md``/``.markdown``, ``.txt``, ``.rst``, ``.py`` and ``.html``/``.htm`` files under
the folder (not hidden: hidden files and files of other types are named in the notes; at most
``MAX_FILE_BYTES``, and not binary: no NUL byte, and little undecodable text in any stretch), the
files without a type (``README``, ``upstream``, ``README.Debian``) whose content is text (one that
is not is named, as a ``.txt``: :mod:`workers.sources.filekinds`), each of these gzip-compressed too
(``changelog.gz``, ``x.html.gz``: decompressed at most to its size limit,
:mod:`workers.sources.fileread`), and the ``.pdf`` (one document per page, cited
``report.pdf:p3#0``) and ``.docx`` files (at most ``MAX_DOCUMENT_BYTES``; see
:mod:`workers.sources.documents`). An encrypted or broken PDF or .docx is skipped with a note
(``Corpus.notes``), never a crash. A file name that is not valid UTF-8 is indexed under an escaped
ref (``b"n\\xe9e.md"`` is cited as ``n\\xe9e.md#0``). When nothing is left, the ``CorpusError``
says why (too large, binary, other types...). A manual shipped in several languages is indexed
in one (:mod:`workers.sources.languages`). The fingerprint covers the folder's files (paths,
sizes, mtimes): a change rebuilds the index, unless the files' bytes hash as the index's did
(rewritten the same).

This module imports only the standard library and this package; a file is read by
:mod:`workers.sources.fileread` (HTML with lxml, Markdown with markdown-it, PDF and .docx by
:mod:`workers.sources.documents`, each imported only when a file of its kind is read).
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from workers.sources import documents, skip_reasons
from workers.sources.base import CorpusError, RawDoc
from workers.sources.copies import copies_once
from workers.sources.downloads import without_shown_downloads
from workers.sources.filekinds import (
    FOLDER_EXTENSIONS,
    GZIP_SUFFIX,
    HTML_EXTENSIONS,
    TEXT_EXTENSIONS,
    file_kind,
    head_bytes,
    inner_name,
    type_label,
    unknown_suffix,
)
from workers.sources.fileread import (
    NESTED,
    PLAIN_KINDS,
    GzipBudget,
    file_docs,
    not_text,
)
from workers.sources.includes import without_included
from workers.sources.languages import one_language
from workers.sources.metadata_only import metadata_only
from workers.sources.page_pool import HELPERS, MIN_PARALLEL_PAGES, PagePool
from workers.sources.pdf_samples import Sampled, judged_samples
from workers.sources.sitepages import without_site_pages
from workers.sources.skip_reasons import INDEXABLE, nothing_indexable
from workers.sources.text import plural, raw, safe_name, size_label, unsafe_name
from workers.sources.vanished import gone_since_listed
from workers.sources.walk import (
    links_outside,
    once_each,
    own_output,
    passed_over,
    rendered_once,
    shown_path,
    unreadable_why,
    walk_folders,
)

__all__ = ["FOLDER_EXTENSIONS", "HELPERS", "INDEXABLE", "MAX_DOCUMENT_BYTES", "MAX_FILE_BYTES",
           "MIN_PARALLEL_PAGES", "Progress", "TEXT_EXTENSIONS", "counted_files", "files_of",
           "folder_docs", "folder_files", "nothing_indexable"]

MAX_FILE_BYTES = skip_reasons.MAX_FILE_BYTES
"""Larger text files are skipped (PDF, .docx: ``MAX_DOCUMENT_BYTES``): one-page manuals pass."""

MAX_DOCUMENT_BYTES = documents.MAX_DOCUMENT_BYTES

Progress = Callable[[int, int, str], None]
"""``progress(files_done, files_total, reading)`` as a folder's files are read, ``reading`` the
ref path of the file read next (``""``: none; the last event is ``(total, total, "")``), for a
display to name a file that takes long (a 261-page PDF read for 27 s, trial 124, FA2);
``progress(0, 0, "")`` first when this process waits for another's build of the index."""

FolderFile = tuple[str, Path, os.stat_result]
"""``(ref_path, path, stat)`` of one indexable file."""


def _indexable(
    folder: Path, skipped: Counter[str], max_file_bytes: int = MAX_FILE_BYTES,
    notes: list[str] | None = None, data_dir: Path | None = None,
) -> Iterator[tuple[Path, os.stat_result]]:
    """The indexable files under ``folder`` as they are found (walk order), counting the
    skipped ones in ``skipped`` (and naming the too large, unreadable, special and the app's
    own ones in ``notes``): see :func:`folder_files` and :mod:`workers.sources.walk`."""
    notes = [] if notes is None else notes
    hidden: list[str] = []
    other: Counter[str] = Counter()
    for dirpath, filenames in walk_folders(folder, skipped, notes, data_dir):
        for filename in filenames:
            if filename.startswith("."):
                skipped["hidden"] += 1
                hidden.append(shown_path(os.path.relpath(os.path.join(dirpath, filename),
                                                         folder)))
                continue
            kind = file_kind(filename)
            if kind is None and inner_name(filename).lower().endswith(GZIP_SUFFIX):
                skipped["nested"] += 1  # x.gz.gz: not a type, a file compressed twice
                _note(notes, folder, Path(dirpath) / filename, NESTED)
                continue
            if kind is None:
                skipped["type"] += 1
                other[type_label(filename)] += 1
                continue
            path = Path(dirpath) / filename
            try:
                st = path.stat()
            except OSError as exc:
                if not gone_since_listed(exc, path):  # deleted since listed: no file of it
                    skipped["unreadable"] += 1
                    _note(notes, folder, path, unreadable_why(exc))
                continue
            limit = documents.size_limit(inner_name(filename), max_file_bytes)
            if not stat.S_ISREG(st.st_mode):
                skipped["special"] += 1
                _note(notes, folder, path, "not a regular file")
            elif kind == "" and (why := not_text(path)) is not None:  # as a .txt would be
                if why[0] == "binary" and unknown_suffix(inner_name(filename)):
                    skipped["type"] += 1  # x.vsd: a type the app does not know (trial 125, F8)
                    other[type_label(filename)] += 1
                    continue
                skipped[why[0]] += 1
                _note(notes, folder, path, why[1])
            elif st.st_size > limit:
                skipped["size"] += 1
                _note(notes, folder, path,
                      f"too large ({size_label(st.st_size, exact=False)} > "
                      f"{size_label(limit, exact=False)})")  # one unit: "34.1 MB > 32.4 MB"
            elif why := own_output(path):
                skipped["own"] += 1
                _note(notes, folder, path, why)
            else:
                yield path, st
    notes.extend(passed_over(hidden, other))


def _note(notes: list[str], folder: Path, path: Path, why: str) -> None:
    """Name a skipped file and why, as ``"big.txt: skipped, too large (50 MB > 8 MB)"``."""
    try:
        rel = path.relative_to(folder).as_posix()
    except ValueError:
        rel = str(path)
    notes.append(f"{shown_path(rel)}: skipped, {why}")


def folder_files(
    folder: Path, skipped: Counter[str] | None = None, *, max_file_bytes: int = MAX_FILE_BYTES,
    notes: list[str] | None = None, data_dir: Path | None = None, language: str | None = None,
) -> list[FolderFile]:
    """``(ref_path, path, stat)`` of the indexable files under ``folder``, sorted.

    ``ref_path`` is the relative POSIX path, made safe by :func:`_safe_name` when the name is
    not valid UTF-8 (and suffixed ``~2``, ``~3``... should that collide with another file's), so
    refs stay unique and printable. Hidden files and directories, other file types, special files
    and files over their size limit are skipped and counted in ``skipped`` (keys ``hidden``,
    ``type``, ``special``, ``size``, ``unreadable``); the too large, special and unreadable
    ones are also named, with why, in ``notes``. ``max_file_bytes`` is the text files' limit
    (PDF and .docx: ``MAX_DOCUMENT_BYTES``, or ``max_file_bytes`` when that is larger). A file
    reached by two names (a symlink to another file of the folder, a hard link) is listed once
    (``walk.once_each``), a page translated into other languages once, in ``language`` or
    English (``languages.one_language``; CorpusError: no page is in ``language``), a page's
    markup source beside it not at all (``walk.rendered_once``), nor the fragments that source
    includes (``includes.without_included``), nor a Sphinx site's own pages
    (``sitepages.without_site_pages``);
    one reached by a link leading out of the folder is listed and named (``walk.links_outside``);
    a copy of another file of the folder (the same content, ``.gz`` or not) is not
    (``copies.copies_once``)."""
    if skipped is None:
        skipped = Counter()
    found = [(path.relative_to(folder).as_posix(), path, st)
             for path, st in _indexable(folder, skipped, max_file_bytes, notes, data_dir)]
    found.sort(key=lambda item: raw(item[0]))
    sources: list[tuple[str, Path, str]] = []
    found = one_language(once_each(found, skipped, notes), language, skipped, notes)
    found = rendered_once(found, skipped, notes, sources)
    found = without_site_pages(found, skipped, notes)  # Sphinx's search, indexes, not found
    found = without_shown_downloads(found, skipped, notes)  # what a page shows (trial 125)
    found = without_included(found, sources, skipped, notes)  # what those sources include
    found = copies_once(found, skipped, notes, max_file_bytes)
    if notes is not None:
        notes += links_outside(folder, found) + metadata_only(folder, found)
    if not any(unsafe_name(rel) for rel, _p, _st in found):
        return found
    # Names that need escaping come second: a file really named like an escaped one keeps its
    # name, the escaped one takes the next free "~n"; the order is sorted, so refs are stable.
    taken = {rel for rel, _p, _st in found if not unsafe_name(rel)}
    out = []
    for rel, path, st in found:
        if unsafe_name(rel):
            base = shown = safe_name(rel)
            n = 1
            while shown in taken:
                n += 1
                shown = f"{base}~{n}"
            taken.add(shown)
            rel = shown
        out.append((rel, path, st))
    return out


def folder_docs(
    files: list[FolderFile],
    skipped: Counter[str] | None = None,
    notes: list[str] | None = None,
    progress: Progress | None = None,
    max_file_bytes: int = MAX_FILE_BYTES,
    *,
    helpers: int | None = None,
) -> Iterator[RawDoc]:
    """The documents of ``files``; unreadable, binary, encrypted and blank files are left out,
    counted in ``skipped`` (keys ``unreadable``, ``binary``, ``encrypted``, ``blank``) and named
    with why in ``notes`` (one line each, e.g. ``"blob.txt: skipped, binary"``). An HTML page is
    titled by its ``<title>``, a Markdown file by its front matter's ``title:`` or first ``h1``
    (:mod:`workers.sources.markdownpage`; either by its file name when it has none), and both
    are cut at their ``h1``-``h3``; a Python file at its docstrings' qualified names.

    ``progress(0, total, first)`` is called first, then ``progress(done, total, next)`` after
    each file (``total = len(files)``; ``next``: the file read next, ``""`` after the last),
    from the thread that consumes the iterator (a CLI's progress); a long PDF beside pages is
    read and counted last, when not judged a copy by a sample (:func:`_read`).

    ``helpers`` (default ``HELPERS``: one per other core) processes parse the HTML pages from
    the last while the consuming thread reads the files from the first, when there are at
    least ``MIN_PARALLEL_PAGES`` pages (:mod:`workers.sources.page_pool`; issue 19: >= 10 MB/s
    of HTML). The documents, counts and notes are the same, in the same order, whatever the
    number of helpers; other file types, and every ``.gz``, are read by the consuming thread.
    ``max_file_bytes`` bounds what a ``.gz`` text file may decompress to, and the folder's
    ``.gz`` files decompress to ``MAX_FOLDER_GZIP_BYTES`` in all (in the files' order:
    :class:`GzipBudget`).
    """
    if skipped is None:
        skipped = Counter()
    if notes is None:
        notes = []
    budget = GzipBudget(max_file_bytes)
    pages = [i for i, (_rel, path, _st) in enumerate(files)
             if file_kind(path.name) in HTML_EXTENSIONS and path.suffix.lower() != ".gz"]
    rels = frozenset(rel for rel, _p, _st in files)  # a page's links to them (trial 119, F2)
    with PagePool(files, pages, max_file_bytes, rels,
                  HELPERS if helpers is None else helpers) as ahead:
        yield from _read(files, ahead, skipped, notes, (max_file_bytes, budget, rels), progress)


def _read(files: list[FolderFile], ahead: PagePool, skipped: Counter[str],
          notes: list[str], limits: tuple[int, GzipBudget, frozenset[str]],
          progress: Progress | None) -> Iterator[RawDoc]:
    """:func:`folder_docs`' documents, in order, the pages the helpers parsed taken from
    ``ahead``; ``limits``: the text files' size limit, the folder's gzip budget, its ref paths.
    When the folder holds pages and a PDF, a long PDF is read as a sample, judged once every
    file is read, and read whole only when it is no copy of the pages
    (:mod:`workers.sources.pdf_samples`): every document is held until then, and the PDF
    counted done last, after a ``progress(done, total, its ref path)``."""
    total, order = len(files), [rel for rel, _p, _st in files]
    tell = progress or (lambda _done, _total, _reading: None)
    tell(0, total, order[0] if order else "")  # a first file may take a while (a PDF)
    later: dict[str, Sampled] | None = {} if _pages_beside_pdf(files) else None
    held: list[list[RawDoc]] = []  # with later: every file's documents, until judged
    for done, (rel, path, _st) in enumerate(files, 1):
        helped = ahead.take(done - 1)
        if helped is None:
            docs = file_docs(rel, path, skipped, notes, *limits, later)
        else:
            docs, counts, lines = helped
            skipped.update(counts)
            notes.extend(lines)
        if later is None:
            yield from docs
        else:
            held.append(list(docs))
        tell(done - len(later or ()), total, order[done] if done < total else "")
    if later:
        told = iter(range(total - len(later), total + 1))
        yield from judged_samples(held, order, later, notes,
                                  lambda rel: tell(next(told) if rel else total, total, rel))
    else:
        yield from (doc for docs in held for doc in docs)


def _pages_beside_pdf(files: list[FolderFile]) -> bool:
    """Whether ``files`` hold a PDF and a page it may copy (HTML, Markdown, reST, a .docx: not
    plain text): a long PDF is then read as a sample first (:mod:`workers.sources.pdf_samples`)."""
    kinds = {file_kind(path.name) for _rel, path, _st in files}
    return ".pdf" in kinds and any(kind not in (*PLAIN_KINDS, ".pdf") for kind in kinds)


def files_of(docs: list[RawDoc], files: list[FolderFile], seen: set[str]) -> Iterator[RawDoc]:
    """``docs`` (of :func:`folder_docs`) passed through in order, the ref path of the file each
    came from added to ``seen``: what a folder corpus counts as its files (a binary, blank or
    encrypted file gives no document and is not counted). The list is emptied as it is read:
    a document the index has cut into passages is not held to the end of the build (each
    text was held twice, as a document and as passages)."""
    rels = {rel for rel, _p, _st in files}
    docs.reverse()
    while docs:
        doc = docs.pop()
        seen.add(documents.file_of(doc.doc_id, rels))
        yield doc


def counted_files(indexed: int, read: int) -> str:
    """The corpus line's count of a folder's files: those ``indexed`` (that gave passages), and
    how many more of the ``read`` ones (the count the build's progress prints) were not. "read
    162 file(s)" was followed by "(161 files)", a text copy of pages left out (trial 126).

    Example:
        >>> counted_files(161, 161), counted_files(161, 162)
        ('161 files', '161 files indexed, 1 more read but not indexed: see the notes')
    """
    if read <= indexed:
        return plural(indexed, "file")
    return (f"{plural(indexed, 'file')} indexed, {read - indexed} more read but not indexed: see "
            "the notes")


def _has_text(path: Path, skipped: Counter[str]) -> bool:
    """Whether a file the probe finds may give text: not empty, nor (a text type) only
    whitespace in its first 64 KB (decompressed, for a ``.gz``); else counted ``blank`` (an
    empty .md passed the probe)."""
    head = head_bytes(path, 65536)
    if head is None:
        return True  # the build names the unreadable file
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16: its spaces are 2 bytes
        head = head.decode("utf-16", errors="ignore").encode()
    found = bool(head if file_kind(path.name) in documents.DOCUMENT_EXTENSIONS else head.strip())
    skipped["blank"] += not found
    return found


def corpus_folder(
    folder: Path | str, skipped: Counter[str] | None = None, *, max_file_bytes: int,
    probe: bool = False, notes: list[str] | None = None, data_dir: Path | str | None = None,
    language: str | None = None,
) -> tuple[Path, str, list[FolderFile]]:
    """Check a ``--corpus`` folder and list what it holds: ``(resolved folder, its printable
    name, its indexable files)``. The one check of a corpus folder: the CLI calls it with
    ``probe=True`` before anything is written (it stops at the first indexable file and lists
    none, so a large folder is walked in full only once, by the corpus), the corpus when it
    opens the folder.

    Args:
        folder: the folder as given (``~`` is expanded).
        skipped: counts the files left out, by reason (see :func:`folder_files`).
        probe: only check that something is indexable; the list returned is empty.
        max_file_bytes: text files larger than this are skipped: the run's setting, always
            passed (the CLI's check once refused a 3 MB file ``--max-file-bytes`` admits).
        notes: gets one line per file skipped as too large, special or unreadable, and per
            folder or file the app wrote (``data_dir``, its reports).
        data_dir: the app's data dir: never indexed, nor are the reports it writes anywhere.
        language: the language of a manual translated into several (None: English, else the
            most-paged; :mod:`workers.sources.languages`); a probe checks the folder holds it.

    Raises:
        CorpusError: the folder does not exist, is not a directory, cannot be listed, or holds
            nothing to index (the message says why each file was skipped).
    """
    skipped = Counter() if skipped is None else skipped
    folder = Path(folder).expanduser().resolve()
    shown = safe_name(str(folder))
    if not folder.exists():
        raise CorpusError(f"corpus folder not found: {shown}")
    if not folder.is_dir():
        raise CorpusError(f"corpus folder is not a directory: {shown}")
    try:  # the folder itself unlistable: said so ("1 unreadable" read as a file inside)
        os.scandir(folder).close()
    except OSError as exc:
        raise CorpusError(f"corpus folder {shown} cannot be read ({exc.strerror})") from None
    own = Path(data_dir).expanduser() if data_dir is not None else None
    if probe:  # the files skipped are named in a refusal (a folder of one binary file was
        notes = []  # "1 file skipped as binary", no name; trial 77, F6)
        found = any(_has_text(path, skipped) for path, _st in _indexable(
            folder, skipped, max_file_bytes, notes, data_dir=own))
        files: list[FolderFile] = []
        if found and language is not None:  # an unknown language: refused before the run
            listed = [(p.relative_to(folder).as_posix(), p, st) for p, st in _indexable(
                folder, Counter(), max_file_bytes, data_dir=own)]
            one_language(once_each(sorted(listed, key=lambda e: raw(e[0])), Counter(), None),
                         language, Counter(), None)
    else:
        files = folder_files(folder, skipped, max_file_bytes=max_file_bytes, notes=notes,
                             data_dir=own, language=language)
        found = bool(files)
    if not found:
        raise CorpusError(nothing_indexable(shown, "files", skipped, max_file_bytes, notes))
    return folder, shown, files
