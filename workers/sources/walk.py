"""Which folders and files of a ``--corpus`` folder are walked: what the app writes is left out,
and a symlinked sub-folder is followed once.

* **The app's own output is never a source.** A report the app wrote (``--out`` inside the
  corpus folder, a data dir there, a report copied in) would be indexed by the next run and
  cited as its own source; the data dir holds those reports and the indexes. So the data dir's
  folder is not walked, and a text file that starts like the app's report (its title line, then
  its ``As of``, ``Model`` and ``Thread`` lines: :data:`REPORT_HEAD`) is skipped; each named in
  the notes. A report is recognised by its head, not by where it lies, since ``--out`` may be
  any path and reports are named after their thread; so is a ``--run-log`` file (its lines:
  :data:`RUN_LOG_LINE`), which a run inside the corpus folder would otherwise leave for the
  next run to index.
* **A symlinked sub-folder is followed**, as a symlinked file already is: the operator (never
  a served run's client) chose the folder and put the link there. A link back into the folder
  (its files are indexed under their own path) or to a folder walked already (a loop, or a
  second link) is not followed, and is named in the notes: no file is indexed twice, no walk
  loops. A link to a folder or file the walk passes over (hidden: ``notes -> .notes``) is how
  the user opts in to it: followed, indexed under the link's path, and named.
* **A link leading out of the folder** (to a folder or a file) is followed, and named in the
  notes: the run says what it read from elsewhere.
* **Each real file once**: a file reached by two names (a symlink to another file of the
  folder, a hard link) is indexed under its own name only (:func:`once_each`).
* **Each page once**: a markup source beside the HTML page made from it (git-doc's
  ``git-add.txt`` next to ``git-add.html``, Sphinx's ``_sources/cmd/intro.rst.txt`` for
  ``cmd/intro.html``), or its plain-text rendering (``changelog.gz``), is not indexed; the page
  is (:func:`rendered_once`). Standard library and this package's helpers; the folder source
(:mod:`workers.sources.folder`) calls it.
"""

from __future__ import annotations

import errno
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from workers.sources.filekinds import (
    GZIP_SUFFIX,
    TEXT_EXTENSIONS,
    file_kind,
    head_bytes,
    inner_name,
)
from workers.sources.left_out import drop_noted
from workers.sources.note_groups import named_list
from workers.sources.sitepages import sphinx_source
from workers.sources.text import plural, raw, safe_name
from workers.sources.vanished import gone_since_listed

__all__ = ["REPORT_HEAD", "RUN_LOG_LINE", "is_own_report", "is_run_log", "links_outside",
           "once_each", "own_output", "passed_over", "rendered_from", "rendered_once",
           "rendered_page", "shown_path", "unreadable_why", "walk_folders"]

_File = tuple[str, Path, os.stat_result]
"""``(ref, path, stat)`` of a file found (``workers.sources.folder.FolderFile``)."""

REPORT_HEAD = re.compile(
    r"# Research report: [^\n]*\n\n(?:- Topic: [^\n]*\n)?- As of: [^\n]*\n- Model: [^\n]*\n"
    r"- Thread: `")
"""How a report of this app begins (``app.research.report``'s header, with the ``Topic`` line
of a report on a plan replaced at review; a test renders both)."""

RUN_LOG_LINE = re.compile(r"[^\s:]+:\d{4}-\d{2}-\d{2}:[0-9a-f]{8,}\t\d+\t[a-z_]+\t\d+\n")
"""A line of a ``--run-log`` file (``app.runs.faults``): envelope id, attempt, status, pid."""

_HEAD_BYTES = 4096


def own_output(path: Path) -> str | None:
    """Why the text file ``path`` is the app's own output, never a source: a report it wrote
    (it begins with :data:`REPORT_HEAD`) or a run log (it begins with a :data:`RUN_LOG_LINE`);
    None for any other file, and when it cannot be read (the build names it). A file without
    a type is read too: ``--run-log`` may be any name, and such a file is indexed as text."""
    kind = file_kind(path.name)
    if kind not in (*TEXT_EXTENSIONS, "") or path.name.lower().endswith(GZIP_SUFFIX):
        return None
    if (start := head_bytes(path, _HEAD_BYTES)) is None:  # a regular file's: never a FIFO's
        return None
    head = start.decode("utf-8", errors="replace").replace("\r\n", "\n")
    if REPORT_HEAD.match(head):
        return "a report of this app (it would cite itself)"
    if RUN_LOG_LINE.match(head):
        return "a run log of this app (--run-log)"
    return None


def is_own_report(path: Path) -> bool:
    """Whether the text file ``path`` is a report this app wrote (it begins with
    :data:`REPORT_HEAD`); False when it cannot be read (the build names it)."""
    return (own_output(path) or "").startswith("a report")


def is_run_log(path: Path) -> bool:
    """Whether the file ``path`` (whatever its name) is a ``--run-log`` file of this app: every
    whole line of its first 4 KB is one of its lines (:data:`_ANY_RUN_LOG_LINE`), which a run
    may append to; False when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False
    lines = head.replace("\r\n", "\n").split("\n")[:-1]  # whole lines only
    return bool(lines) and all(_ANY_RUN_LOG_LINE.fullmatch(line) for line in lines)


_ANY_RUN_LOG_LINE = re.compile(r"[^\s:]+:\d{4}-\d{2}-\d{2}(?::[^\s]*)?\t\d+\t[a-z_]+\t\d+")
"""A run log's line: an envelope id (``worker:as_of``, then the id's own part: a forker's
worker may make its own), attempt, status and pid, tab-separated; a user's TSV whose columns
happen to be text, numbers, a word and a number is none."""


def unreadable_why(exc: OSError) -> str:
    """Why a file or folder that could not be read is skipped, for its note: ``"unreadable
    (Permission denied)"``, or, for a path longer than the system allows (``ENAMETOOLONG``: a
    tree of archives or ``node_modules`` can be deeper than 4096 bytes of path), ``"its path is
    longer than the system allows (4096 bytes)"`` (once said nowhere, then "File name too
    long" of a short name)."""
    if exc.errno != errno.ENAMETOOLONG:
        return f"unreadable ({exc.strerror or type(exc).__name__})"
    try:
        limit = f" ({os.pathconf('/', 'PC_PATH_MAX')} bytes)"
    except (OSError, ValueError, AttributeError):  # not POSIX, or no such limit
        limit = ""
    return f"its path is longer than the system allows{limit}"


_SHOWN_PATH = 160
"""A path relative to the corpus folder longer than this is shown with its middle folders cut."""


def shown_path(rel: str) -> str:
    """``rel`` (a ``/`` path relative to the corpus folder) for a note: printable
    (:func:`safe_name`), its middle folders replaced by a count when it is longer than
    :data:`_SHOWN_PATH` characters (a path deeper than the system allows is 4 KB).

    Example:
        >>> shown_path("a/b.md")
        'a/b.md'
        >>> shown_path("/".join(f"level{i:03d}" for i in range(30)) + "/deep.md")
        'level000/…(27 folders)…/level028/level029/deep.md'
    """
    parts = rel.split("/")
    if len(rel) <= _SHOWN_PATH or len(parts) < 5:
        return safe_name(rel)
    kept = parts[-3:] if parts[-1] else parts[-4:]  # a folder's path ends in "/"
    cut = len(parts) - 1 - len(kept)
    return safe_name(f"{parts[0]}/…({cut} folders)…/{'/'.join(kept)}")


def walk_folders(folder: Path, skipped: Counter[str], notes: list[str],
                 data_dir: Path | None = None) -> Iterator[tuple[str, list[str]]]:
    """``(dirpath, sorted file names)`` of each folder under ``folder`` to index, top-down.

    Hidden folders (counted ``hidden``, named in ``notes``) and
    ``__pycache__`` are left out; so is ``data_dir`` and any link into it
    (counted ``own``, named in ``notes``). A symlinked folder is followed unless it leads back
    to a folder of ``folder`` walked under its own path or to a folder walked already (a loop,
    or a second link to it): those are counted ``link`` and named. A link to a folder the walk
    passes over (hidden, or inside a hidden folder) is followed, its files indexed under the
    link's path, and named (it was once skipped as "indexed under its own
    path", which it was not). A folder that
    cannot be listed (no permission) is counted ``unreadable`` and named, as an unreadable file
    is (``os.walk`` passes over it without a word, and every file in it with it)."""
    own = os.path.realpath(data_dir) if data_dir is not None else None
    root = os.path.realpath(folder)
    seen: set[str] = set()

    def unreadable(error: OSError) -> None:
        if gone_since_listed(error, error.filename or folder):  # deleted since listed
            return
        skipped["unreadable"] += 1
        where = Path(error.filename or folder)
        rel = where.relative_to(folder).as_posix() if where.is_relative_to(folder) else str(where)
        notes.append(f"{shown_path(rel + '/')}: skipped, {unreadable_why(error)}")

    for dirpath, dirnames, filenames in os.walk(folder, onerror=unreadable, followlinks=True):
        seen.add(os.path.realpath(dirpath))
        kept = []
        for d in sorted(dirnames):
            path = os.path.join(dirpath, d)
            real = os.path.realpath(path)
            rel = Path(path).relative_to(folder).as_posix()
            if d.startswith("."):  # named: a vault's ".notes/" holds what was asked about
                skipped["hidden"] += 1
                notes.append(f"{shown_path(rel + '/')}: passed over, a hidden folder")
            elif d == "__pycache__":
                continue
            elif own is not None and (real == own or _outside(root, own)
                                      and not _outside(real, own)):
                skipped["own"] += 1
                what = "the data dir" if real == own else "a link into the data dir"
                notes.append(f"{rel}/: skipped, {what} of this app (its reports and "
                             "indexes are not sources)")
            elif os.path.islink(path) and (why := _link_skipped(real, root, seen)):
                skipped["link"] += 1
                notes.append(f"{rel}/: skipped, a link to {why}")
            else:
                seen.add(real)  # a second link to it, in this folder too, is not followed
                kept.append(d)
                if os.path.islink(path) and (where := _link_target(real, root)):
                    notes.append(f"{shown_path(rel + '/')}: a link to {where}: followed"
                                 + ("" if _outside(real, root) else
                                    f", its files indexed under {shown_path(rel + '/')}"))
        dirnames[:] = kept
        yield dirpath, sorted(filenames)


def _outside(real: str, root: str) -> bool:
    return real != root and not real.startswith(root + os.sep)


def _passed_over(real: str, root: str) -> str | None:
    """The part of the path ``real`` (inside ``root``) for which the walk passes it over: its
    first hidden or ``__pycache__`` folder (or, for a file, its hidden name), as a ``/``
    path relative to ``root``; None when the walk reaches ``real`` under its own path."""
    parts = Path(os.path.relpath(real, root)).parts
    for i, part in enumerate(parts):
        if part.startswith(".") and part not in (".", "..") or part == "__pycache__":
            return "/".join(parts[:i + 1])
    return None


def _link_target(real: str, root: str, folder: bool = True) -> str | None:
    """How a note names the target ``real`` of a followed link, or None when the link needs
    no note (it leads to a folder or file of the corpus walked under its own path): a path
    outside the folder, or one the walk passes over (hidden: a visible
    link to an Obsidian-style ``.notes/`` is how a user opts in to it, as a file link to a
    hidden file is)."""
    if _outside(real, root):
        return f"{safe_name(real)}, outside the folder"
    hidden = _passed_over(real, root)
    if hidden is None:
        return None
    target = os.path.relpath(real, root).replace(os.sep, "/") + ("/" if folder else "")
    label = "hidden " if hidden.rsplit("/", 1)[-1].startswith(".") else ""
    if target.rstrip("/") == hidden:
        return f"the {label}{'folder' if folder else 'file'} {shown_path(target)}"
    return f"{shown_path(target)}, in the {label}folder {shown_path(hidden + '/')}"


def links_outside(folder: Path, found: list[_File]) -> list[str]:
    """One note per file of ``found`` (``(ref, path, stat)``) that a symlink leads to from
    outside ``folder``, e.g. ``"passwd.txt: a link to /etc/passwd, outside the folder:
    indexed"``, or from a path the walk passes over (``"seals.md: a link to the hidden file
    .seals.md: indexed"``): what the folder's owner linked in is read, as a linked folder is,
    and the run says so (links to ``/etc/passwd`` and ``/etc/shadow`` were once indexed
    and quoted without a word)."""
    root = os.path.realpath(folder)
    notes = []
    for rel, path, _st in found:
        if path.is_symlink() and (where := _link_target(os.path.realpath(path), root, False)):
            notes.append(f"{safe_name(rel)}: a link to {where}: indexed")
    return notes


def _link_skipped(real: str, root: str, seen: set[str]) -> str | None:
    """Why a symlinked folder whose target is ``real`` is not followed, or None."""
    if not _outside(real, root) and _passed_over(real, root) is None:
        if real == root:
            return "the corpus folder itself (a loop)"
        target = shown_path(os.path.relpath(real, root).replace(os.sep, "/") + "/")
        if not os.access(real, os.R_OK | os.X_OK):  # the walk names it unreadable too
            return f"{target}, a folder of the corpus that cannot be read"
        return f"{target}, a folder of the corpus, indexed under its own path"
    if real in seen or any(s.startswith(real + os.sep) for s in seen):
        return "a folder indexed already (a loop, or a second link to it)"
    return None


def once_each(found: list[_File], skipped: Counter[str], notes: list[str] | None
              ) -> list[_File]:
    """``found`` (``(ref, path, stat)``, sorted) with each real file once (a
    symlinked file pointing at another file of the folder was indexed twice, two refs citing
    the same text). The file is known by its device and inode (``stat`` follows links); it
    keeps its own name, not a link's (else the first name in sorted order); every other name
    is counted ``link`` and named."""
    names: dict[tuple[int, int], list[_File]] = {}
    for entry in found:
        if entry[2].st_ino:  # 0: a file system without inode numbers; each name counts
            names.setdefault((entry[2].st_dev, entry[2].st_ino), []).append(entry)
    dropped: dict[str, str] = {}
    for entries in names.values():
        if len(entries) < 2:
            continue
        kept = min(entries, key=lambda e: (e[1].is_symlink(), raw(e[0])))
        dropped.update((rel, f"the same file as {safe_name(kept[0])} (a link to it), indexed "
                             "once") for rel, _path, _st in entries if rel != kept[0])
    return drop_noted(found, dropped, skipped, notes, "link")


_MARKUP_SOURCES = (".txt", ".md", ".markdown", ".rst")
"""Suffixes of the markup sources documentation tools render to HTML (AsciiDoc's ``.txt``)."""


def rendered_page(ref: str) -> str | None:
    """The ref of the HTML page a markup source ``ref`` would be rendered to, or None; a text
    file without a type (``.gz`` or not) may be the text of the page named like it (Debian's
    dh_installchangelogs puts ``changelog.gz`` beside the ``changelog.html.gz`` it renders).

    Example:
        >>> rendered_page("api/_sources/intro.rst.txt"), rendered_page("_sources/a/b.rst.txt")
        ('api/intro.html', 'a/b.html')
        >>> rendered_page("git-add.txt"), rendered_page("doc/changelog.gz")
        ('git-add.html', 'doc/changelog.html')
    """
    folder, _, name = ref.rpartition("/")
    name = inner_name(name)
    stem, dot, suffix = name.rpartition(".")
    if file_kind(name) == "":
        stem = name
    elif not dot or f".{suffix.lower()}" not in _MARKUP_SOURCES:
        return None
    above, sources, below = f"/{folder}/".rpartition("/_sources/")
    if sources:  # Sphinx: _sources/NAME.rst.txt, _sources/command/NAME.rst.txt
        folder = f"{above}/{below}".strip("/")
        head, dot, inner = stem.rpartition(".")  # only a source's own suffix: v1.2.txt is v1.2
        stem = head if dot and f".{inner.lower()}" in _MARKUP_SOURCES else stem
    return f"{folder}/{stem}.html" if folder else f"{stem}.html"


_WORD = re.compile(rb"[a-z]{4,}")
_SOURCE_BYTES, _PAGE_BYTES, _SAMPLE_WORDS = 4 * 1024, 64 * 1024, 60


def rendered_from(page: Path, source: Path) -> bool:
    """Whether the HTML ``page`` holds the text of ``source``: at least half of the first 60
    distinct words (of four letters or more) of the source are in the page's first 64 KB. A
    ``redirect.txt`` of release notes beside a ``redirect.html`` that only redirects is no
    source of it (taken for one, both were left out, the notes' answer with them). Read on every
    run's walk, so it stops as soon as the count decides. A ``.gz`` is read decompressed."""
    source_head, page_head = head_bytes(source, _SOURCE_BYTES), head_bytes(page, _PAGE_BYTES)
    if source_head is None or page_head is None:
        return False
    said = list(dict.fromkeys(_WORD.findall(source_head.lower())))[:_SAMPLE_WORDS]
    shown = page_head.lower()
    needed, found, left = (len(said) + 1) // 2, 0, len(said)
    for word in said:
        found, left = found + (word in shown), left - 1
        if found >= needed or found + left < needed:
            break
    return bool(said) and found >= needed


def rendered_once(found: list[_File], skipped: Counter[str], notes: list[str] | None,
                  sources: list[tuple[str, Path, str]] | None = None) -> list[_File]:
    """``found`` (``(ref, path, stat)``) without the markup sources whose HTML page (``.html``
    or ``.htm``, :func:`rendered_page`) is in ``found`` too and holds their text
    (:func:`rendered_from`): the same text indexed twice was cited twice, with each sentence
    said twice, and the source's markup (``linkgit:git-add[1]``) quoted (git-doc ships every
    page beside its AsciiDoc source). So are the plain-text renderings of a page (a typeless
    ``changelog.gz`` beside ``changelog.html.gz``). A Sphinx build's ``_sources/`` file is one
    by its path (:func:`~workers.sources.sitepages.sphinx_source`; trial 106, F1). Each is counted
    ``rendered`` and named
    (``"git-add.txt: skipped, the source of a page indexed (git-add.html)"``); ``sources`` gets
    each one's ``(ref, path, page)``."""
    paths = {ref: path for ref, path, _st in found}
    kept = []
    for entry in found:
        page = rendered_page(entry[0]) or ""
        twin = next((p for p in (page, page[:-1], f"{page}.gz", f"{page[:-1]}.gz")  # .htm
                     if page and p in paths), None)
        if twin is None or not (sphinx_source(entry[1], paths[twin])  # by Sphinx's layout
                                or rendered_from(paths[twin], entry[1])):
            kept.append(entry)
            continue
        skipped["rendered"] += 1
        if sources is not None:
            sources.append((entry[0], entry[1], twin))
        if notes is not None:
            what = "text" if file_kind(entry[1].name) == "" else "source"
            notes.append(f"{safe_name(entry[0])}: skipped, the {what} of a page indexed "
                         f"({safe_name(twin)})")
    return kept


def passed_over(hidden: list[str], other: Counter[str], shown: int = 3) -> list[str]:
    """The notes naming the files a folder's walk passed over without reading them: hidden
    files (the first ``shown`` of them named) and files of types not indexed (by extension,
    most common first). Unnamed, a hidden ``.notes/`` folder, ``.htm`` and
    ``.markdown`` files were passed over without a word, and the report said the sources
    say nothing (``tests/workers/sources/test_passed_over.py``).

    Example:
        >>> passed_over([".seals.md"], Counter({".png": 3, ".csv": 1}))
        ['.seals.md: passed over, a hidden file', '4 files passed over, of types not indexed \
(.png x3, .csv x1)']
    """
    notes = []
    if hidden:
        what = "a hidden file" if len(hidden) == 1 else "hidden files"
        notes.append(f"{named_list(hidden, shown)}: passed over, {what}")
    if other:
        counted = max(other.values()) > 1  # then every type's count ("..., .gif" read as cut)
        kinds = ", ".join(f"{ext} x{n}" if counted else ext for ext, n in other.most_common())
        notes.append(f"{plural(sum(other.values()), 'file')} passed over, of types not indexed "
                     f"({kinds})")
    return notes
