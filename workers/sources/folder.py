"""The folder source (``--corpus DIR``): the user's own documents.

Indexed: the ``.md``, ``.txt``, ``.rst``, ``.py`` and ``.html`` files under the folder (not hidden,
at most ``MAX_FILE_BYTES``, and not binary: no NUL byte and little undecodable text at the start),
and the ``.pdf`` (one document per page, cited ``report.pdf:p3#0``) and ``.docx`` files (at most
``MAX_DOCUMENT_BYTES``; see :mod:`workers.sources.documents`). An encrypted or broken PDF or
.docx is skipped with a note (``Corpus.notes``), never a crash.
A file name that is not valid UTF-8 is indexed under an escaped ref (``b"n\\xe9e.md"`` is cited as
``n\\xe9e.md#0``). When nothing is left, the ``CorpusError`` says why (too large, binary, other
types...). The fingerprint covers the folder's files (paths, sizes, mtimes), so a change rebuilds
the index.

This module imports only the standard library (PDF and .docx reading is in
:mod:`workers.sources.documents`).
"""

from __future__ import annotations

import ast
import hashlib
import os
import stat
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from workers.sources import documents
from workers.sources.base import CorpusError, RawDoc
from workers.sources.index import SCHEMA_VERSION, tree_signature
from workers.sources.packages import docstrings
from workers.sources.text import (
    MAX_PASSAGE_CHARS,
    decode_text,
    html_to_text,
    plural,
    raw,
    safe_name,
    unsafe_name,
)

__all__ = [
    "FOLDER_EXTENSIONS",
    "MAX_DOCUMENT_BYTES",
    "MAX_FILE_BYTES",
    "TEXT_EXTENSIONS",
    "folder_docs",
    "folder_files",
    "folder_fingerprint",
    "nothing_indexable",
]

TEXT_EXTENSIONS: tuple[str, ...] = (".md", ".txt", ".rst", ".py", ".html")
"""Text file types indexed in folder mode (matched case-insensitively)."""

FOLDER_EXTENSIONS: tuple[str, ...] = (*TEXT_EXTENSIONS, *documents.DOCUMENT_EXTENSIONS)
"""Every file type indexed in folder mode (matched case-insensitively)."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""Text files larger than this are skipped (PDF and .docx: ``MAX_DOCUMENT_BYTES``)."""

MAX_DOCUMENT_BYTES = documents.MAX_DOCUMENT_BYTES

FolderFile = tuple[str, Path, os.stat_result]
"""``(ref_path, path, stat)`` of one indexable file."""


def _indexable(folder: Path, skipped: Counter[str]) -> Iterator[tuple[Path, os.stat_result]]:
    """The indexable files under ``folder`` as they are found (walk order), counting the
    skipped ones in ``skipped``: see :func:`folder_files`."""
    for dirpath, dirnames, filenames in os.walk(folder):
        kept = []
        for d in sorted(dirnames):
            if d.startswith("."):
                skipped["hidden"] += 1
            elif d != "__pycache__":
                kept.append(d)
        dirnames[:] = kept
        for filename in sorted(filenames):
            if filename.startswith("."):
                skipped["hidden"] += 1
                continue
            if not filename.lower().endswith(FOLDER_EXTENSIONS):
                skipped["type"] += 1
                continue
            path = Path(dirpath) / filename
            try:
                st = path.stat()
            except OSError:
                skipped["unreadable"] += 1
                continue
            if not stat.S_ISREG(st.st_mode):
                skipped["special"] += 1
            elif st.st_size > _size_limit(filename):
                skipped["size"] += 1
            else:
                yield path, st


def folder_files(
    folder: Path, skipped: Counter[str] | None = None
) -> list[FolderFile]:
    """``(ref_path, path, stat)`` of the indexable files under ``folder``, sorted.

    ``ref_path`` is the relative POSIX path, made safe by :func:`_safe_name` when the name is
    not valid UTF-8 (and suffixed ``~2``, ``~3``... should that collide with another file's), so
    refs stay unique and printable. Hidden files and directories, other file types, special files
    and files over their size limit are skipped and counted in ``skipped`` (keys ``hidden``,
    ``type``, ``special``, ``size``, ``unreadable``)."""
    if skipped is None:
        skipped = Counter()
    found = [(path.relative_to(folder).as_posix(), path, st)
             for path, st in _indexable(folder, skipped)]
    found.sort(key=lambda item: raw(item[0]))
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


def python_file_text(source: str, rel: str) -> str:
    """The docstrings of a Python file (module first, then each public class/function headed by
    its name), or the file text when it has none or does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    module = Path(rel).stem
    sections = []
    for qual, kind, doc in docstrings(tree, module):
        if kind == "module":
            sections.append(doc.strip())
        else:
            name = qual.split(".", 1)[1]
            sections.append(f"{name}{'()' if kind == 'function' else ''}:\n{doc.strip()}")
    return "\n\n".join(s for s in sections if s) or source


def _size_limit(filename: str) -> int:
    is_document = filename.lower().endswith(documents.DOCUMENT_EXTENSIONS)
    return MAX_DOCUMENT_BYTES if is_document else MAX_FILE_BYTES


def folder_docs(
    files: list[FolderFile],
    skipped: Counter[str] | None = None,
    notes: list[str] | None = None,
) -> Iterator[RawDoc]:
    """The documents of ``files``; unreadable, binary, encrypted and blank files are left out and
    counted in ``skipped`` (keys ``unreadable``, ``binary``, ``encrypted``, ``blank``); a PDF or
    .docx left out (or partly unreadable) also gets a one-line note in ``notes``."""
    if skipped is None:
        skipped = Counter()
    if notes is None:
        notes = []
    for rel, path, _st in files:
        suffix = path.suffix.lower()
        if suffix == ".pdf":
            yield from documents.pdf_docs(path, rel, skipped, notes)
            continue
        if suffix == ".docx":
            yield from documents.docx_docs(path, rel, skipped, notes)
            continue
        try:
            data = path.read_bytes()
        except OSError:
            skipped["unreadable"] += 1
            continue
        text = decode_text(data)
        if text is None:
            skipped["binary"] += 1
            continue
        if suffix == ".html":
            text = html_to_text(text)
        elif suffix == ".py":
            text = python_file_text(text, rel)
        if text.strip():
            yield RawDoc(rel, rel.rsplit("/", 1)[-1], rel, text)
        else:
            skipped["blank"] += 1


def _size_label(n: int) -> str:
    for unit, size in (("MB", 1024 * 1024), ("KB", 1024)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


def corpus_folder(
    folder: Path | str, skipped: Counter[str] | None = None, *, probe: bool = False
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

    Raises:
        CorpusError: the folder does not exist, is not a directory, or holds nothing to index
            (the message says why each file was skipped).
    """
    skipped = Counter() if skipped is None else skipped
    folder = Path(folder).expanduser().resolve()
    shown = safe_name(str(folder))
    if not folder.exists():
        raise CorpusError(f"corpus folder not found: {shown}")
    if not folder.is_dir():
        raise CorpusError(f"corpus folder is not a directory: {shown}")
    if probe:
        found = next(_indexable(folder, skipped), None) is not None
        files: list[FolderFile] = []
    else:
        files = folder_files(folder, skipped)
        found = bool(files)
    if not found:
        raise CorpusError(nothing_indexable(shown, "files", skipped))
    return folder, shown, files


_SKIP_REASONS = (
    ("size", "{files} skipped as larger than {sizes}"),
    ("binary", "{files} skipped as binary"),
    ("encrypted", "{files} skipped as encrypted"),
    ("blank", "{files} without text"),
    ("unreadable", "{n} unreadable"),
    ("type", "{files} of other types"),
    ("special", "{n} not regular files"),
    ("hidden", "{n} hidden"),
)
"""How :func:`nothing_indexable` says each reason a file was skipped, in its order."""


def nothing_indexable(shown: str, what: str, skipped: Counter[str]) -> str:
    """One line saying why a folder gave no passages, e.g. ``"corpus folder /x contains no
    indexable files: 1 file skipped as larger than 2 MB; indexable: .md .txt .rst .py .html"``."""
    sizes = f"{_size_label(MAX_FILE_BYTES)} ({_size_label(MAX_DOCUMENT_BYTES)} for .pdf/.docx)"
    reasons = [template.format(files=plural(skipped[key], "file"), n=skipped[key], sizes=sizes)
               for key, template in _SKIP_REASONS if skipped[key]]
    why = ", ".join(reasons) or "the folder is empty"
    exts = " ".join(FOLDER_EXTENSIONS)
    return f"corpus folder {shown} contains no indexable {what}: {why}; indexable: {exts}"


def folder_fingerprint(folder: Path, files: list[FolderFile]) -> str:
    """Hash of the folder's indexable files (names, sizes, mtimes) and the extraction rules."""
    h = hashlib.blake2b(digest_size=16)
    h.update(raw(f"schema={SCHEMA_VERSION};max={MAX_PASSAGE_CHARS};folder={folder}\n"))
    # The real names (not the escaped refs), so renaming a file always rebuilds.
    tree = ((p.relative_to(folder).as_posix(), st) for _rel, p, st in files)
    h.update(tree_signature(tree).encode())
    return h.hexdigest()

