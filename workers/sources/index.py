"""The on-disk index every local source is served from: SQLite FTS5, built once, atomically.

The index lives in the data dir as ``corpus-<kind>-<fingerprint>.sqlite``. A build writes a
temporary file and ``os.replace``-s it into place, so a crash never leaves half an index and two
processes building at once both end up with a complete one; builds of one source take an advisory
lock, and the temp files of killed builds are removed by the next build
(:func:`remove_orphan_temps`).

Each document is cut into passages by :func:`workers.sources.chunks.chunk_text`; each passage gets
its ref from :meth:`Passage.make_ref`; a document with sections (``RawDoc.sections``: an HTML
page's headings, a PDF page's outline entries) is cut section by section. FTS5's ``porter
unicode61`` tokenizer indexes five columns: the name of the API symbol the document documents
(:func:`workers.sources.query.symbol_terms`, empty for other documents), its title with
identifiers split into words (:func:`workers.sources.query.title_terms`), the heading of the
passage's section, the passage text, and the symbol's name as one token
(:func:`workers.sources.names.symbol_key`: ``retrypolicy``), which a search matches only
whole; search weights them by ``workers.sources.corpus.COLUMN_WEIGHTS``. Each passage also
keeps its document's link share and kind (``RawDoc.link_share``, ``.kind``): search ranks by them.
This module imports only the standard library.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from workers.sources.base import CorpusError, IndexVanished, NoText, Passage, RawDoc
from workers.sources.checked import checked_once, forget, passed
from workers.sources.chunks import chunk_text
from workers.sources.compound_forms import compound_clauses
from workers.sources.fts_clauses import fts_or
from workers.sources.names import symbol_key
from workers.sources.note_groups import one_line_each
from workers.sources.query import symbol_terms, title_terms
from workers.sources.text import raw, safe_name, short_title

__all__ = [
    "SCHEMA_VERSION", "STALE_TMP_SECONDS", "build", "build_lock", "build_locked", "current_notes",
    "passage_frequencies", "read_meta", "remove_orphan_temps", "remove_stale", "same_content",
    "tree_signature",
]

# 68: dl terms; 67-65: long <pre>; 64: gathering pages; 63: site pages; 62: indextable; 61:
# Texinfo category; 60: comments; 59: latex2html; 58: FAQ titles, stop words; 57: contents; 56:
# _sources; 55-49: reST, <br>, sidebar, titles cut; 50: nav; 43: 2^10; 42-13: bars, PDF, ...
SCHEMA_VERSION = "141"
"""Bump when the index layout or the extraction rules change: every index is rebuilt."""

STALE_TMP_SECONDS = 15 * 60
"""A build's temp file this old (or whose builder process is gone) is an orphan of a killed build
and is removed by the next build."""


def tree_signature(paths: Iterable[tuple[str, os.stat_result]]) -> str:
    """Hash of ``(relative name, stat)`` pairs: names, sizes and mtimes."""
    h = hashlib.blake2b(digest_size=16)
    for rel, st in paths:
        h.update(raw(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n"))
    return h.hexdigest()


DDL = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE docs (
    doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, source TEXT NOT NULL, n_passages INTEGER NOT NULL
);
CREATE TABLE passages (
    id INTEGER PRIMARY KEY, ref TEXT NOT NULL UNIQUE, doc_id TEXT NOT NULL, seq INTEGER NOT NULL,
    title TEXT NOT NULL, source TEXT NOT NULL, text TEXT NOT NULL, terms TEXT NOT NULL,
    name TEXT NOT NULL, heading TEXT NOT NULL, links REAL NOT NULL, namekey TEXT NOT NULL,
    kind TEXT NOT NULL
);
CREATE INDEX passages_doc ON passages (doc_id, seq);
CREATE VIRTUAL TABLE passages_fts USING fts5(
    name, terms, heading, text, namekey, content='passages', content_rowid='id',
    tokenize='porter unicode61'
);
"""

_FTS_AUTOMERGE = "INSERT INTO passages_fts (passages_fts, rank) VALUES ('automerge', ?)"
_FTS_DEFAULT_AUTOMERGE = 4


def build(
    path: Path, docs: Iterable[RawDoc], meta: dict[str, str], notes: list[str] | None = None,
    describe: Callable[[], str] | None = None,
) -> dict[str, str]:
    """Write a complete index to ``path`` atomically (temp file + ``os.replace``).

    Args:
        path: the index file to create (replaced when it exists).
        docs: the documents; a repeated doc_id and a blank document are left out.
        meta: the meta table's first entries (fingerprint, description, kind).
        notes: filled while ``docs`` is consumed (skipped files); stored as the ``notes`` meta
            entry, one line each.
        describe: called once ``docs`` is consumed: the description (instead of
            ``meta["description"]``), for one that counts what was indexed.

    Returns:
        The meta table as written.

    Raises:
        NoText: no document had any text.
        OSError, sqlite3.Error: the file cannot be written.
    """
    started = time.perf_counter()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        con = sqlite3.connect(tmp)
        try:
            con.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + DDL)
            # the temp file exists while ``docs`` is consumed (parsing is most of a build): a
            # build killed meanwhile leaves it for the next build to remove (remove_orphan_temps)
            doc_rows, passage_rows = _rows_of(docs)
            with con:
                _insert_rows(con, doc_rows, passage_rows)
                meta = {
                    **meta,
                    "schema": SCHEMA_VERSION,
                    "passages": str(len(passage_rows)),
                    "documents": str(len(doc_rows)),
                    "build_seconds": f"{time.perf_counter() - started:.3f}",
                    "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "notes": "\n".join(one_line_each(notes or [])),  # all: grouped when read
                }
                head = describe() if describe is not None else meta["description"]
                count = f"{len(passage_rows):,} passage{'' if len(passage_rows) == 1 else 's'}"
                meta["description"] = f"{head} ({count})"
                con.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        finally:
            con.close()
        os.replace(tmp, path)
    finally:
        with suppress(FileNotFoundError):
            tmp.unlink()
    return meta


_DocRow = tuple[str, str, str, int]
_PassageRow = tuple[int, str, str, int, str, str, str, str, str, str, float, str, str]


def _rows_of(docs: Iterable[RawDoc]) -> tuple[list[_DocRow], list[_PassageRow]]:
    """The ``docs`` and ``passages`` table rows of ``docs``, consumed once: a repeated doc_id
    and a document with no text are left out; passages are the documents' sections cut by
    :func:`chunk_text`, numbered from 1 in order.

    Raises:
        NoText: no document had any text.
    """
    doc_rows: list[_DocRow] = []
    passage_rows: list[_PassageRow] = []
    seen_ids: set[str] = set()
    for doc in docs:
        if doc.doc_id in seen_ids:
            continue
        sections = [(h, c) for h, t in doc.sections or (("", doc.text),) for c in chunk_text(t)]
        if not sections:
            continue
        seen_ids.add(doc.doc_id)
        title = short_title(doc.title)  # a label: a <title> of 1 MB was one
        doc_rows.append((doc.doc_id, title, doc.source, len(sections)))
        terms, name, key = title_terms(title), symbol_terms(doc.symbol), symbol_key(doc.symbol)
        for seq, (heading, chunk) in enumerate(sections):
            if doc.section_symbols:  # a Python file's section: its own symbol ("" the module's)
                name, key = symbol_terms(heading), symbol_key(heading)
            passage_rows.append((len(passage_rows) + 1, Passage.make_ref(doc.doc_id, seq),
                                 doc.doc_id, seq, title, doc.source, chunk, terms, name,
                                 _heading(heading), float(doc.link_share), key, doc.kind))
    if not passage_rows:
        raise NoText("no indexable text found")
    return doc_rows, passage_rows


def _heading(heading: str) -> str:
    """A passage's heading as indexed: as written, or cut (:func:`short_title`) past 64 KB, as
    each passage of its section repeats it (a 1 MB heading took 91 s to index; SQLite's keyword
    index heads its page with 61 KB, which the ranking was measured with)."""
    return heading if len(heading) <= 65536 else short_title(heading)


def _insert_rows(con: sqlite3.Connection, doc_rows: list[_DocRow],
                 passage_rows: list[_PassageRow]) -> None:
    """Insert the rows and build the FTS5 index over them, in the caller's transaction.

    One merge at the end ('optimize') instead of FTS5's incremental merges while the rows go
    in: a quarter less of the insert's CPU, the same index (FTS5 docs, "The 'automerge'
    Configuration Option"); the default is set back afterwards."""
    con.execute(_FTS_AUTOMERGE, (0,))
    con.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)", doc_rows)
    con.executemany(f"INSERT INTO passages VALUES ({', '.join('?' * 13)})", passage_rows)
    con.execute("INSERT INTO passages_fts (rowid, name, terms, heading, text, namekey) "
                "SELECT id, name, terms, heading, text, namekey FROM passages ORDER BY id")
    con.execute("INSERT INTO passages_fts (passages_fts) VALUES ('optimize')")
    con.execute(_FTS_AUTOMERGE, (_FTS_DEFAULT_AUTOMERGE,))

def current_notes(meta: dict[str, str], listed: list[str]) -> dict[str, str]:
    """``meta`` of a reused index with the notes of the folder's listing (``listed``: files
    skipped before reading, e.g. too large, or a report of the app) replaced by this listing's:
    they change without changing the fingerprint (skipped files are not in it). The build's
    own notes (binary, encrypted...) follow the ``listed_notes`` the build stored."""
    if "listed_notes" not in meta:  # an index built before listed_notes was stored
        return meta
    stored = [line for line in meta.get("notes", "").split("\n") if line]
    built = stored[int(meta["listed_notes"]):]
    return {**meta, "notes": "\n".join(one_line_each([*listed, *built]))}


def same_content(data_dir: Path, kind: str, content: str) -> tuple[Path, dict[str, str]] | None:
    """``(path, meta)`` of an index of the source ``kind`` in ``data_dir`` built from the folder
    content ``content`` (its ``content`` meta entry: names and bytes), or None. Files rewritten
    with the same bytes (a ``sed -i`` that matched nothing, a checkout) change the stat
    fingerprint, not the index (such a run built it again); hashing the
    files costs a hundredth of a build (0.05 s for the Apache manual's 6 MB, 5 s to index)."""
    for path in sorted(data_dir.glob(f"corpus-{kind}-*.sqlite")):
        meta = read_meta(path)
        if meta is not None and meta.get("content") == content:
            return path, meta
    return None


def read_meta(path: Path) -> dict[str, str] | None:
    """The meta table of a finished index, or None when the file is missing, not an index, or
    damaged: SQLite's ``quick_check``, once per version of the file (:mod:`.checked`), finds
    fault with it, so it is built again (it is derived data; found by a new-user trial:
    garbage written inside it failed every search of every rerun)."""
    if not path.is_file():
        return None
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
            whole = checked_once(path, lambda: con.execute("PRAGMA quick_check(1)").fetchone()
                                 == ("ok",))
            return meta if whole else None
        finally:
            con.close()
    except sqlite3.Error:
        return None


@contextmanager
def build_lock(lock_path: Path, waiting: Callable[[], None] | None = None) -> Iterator[bool]:
    """An advisory inter-process lock so concurrent openers build once (without ``fcntl`` both
    build; the atomic replace keeps the index whole). Yields whether it is held; ``waiting()``
    is called before waiting for another holder."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX
        yield False
        return
    with open(lock_path, "a+b") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


_TMP_NAME = re.compile(
    r"\.corpus-(?P<kind>[a-z]+-[0-9a-f]+)-[0-9a-f]+\.sqlite\.(?P<pid>[0-9]+)\.[0-9a-f]+\.tmp"
)


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs on this host (True when it cannot be told)."""
    if pid <= 0:
        return False
    if pid == os.getpid() or os.name != "posix":  # os.kill(pid, 0) terminates it on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. PermissionError: it exists, owned by someone else
        return True
    return True


def remove_orphan_temps(data_dir: Path, kind: str, locked: bool) -> None:
    """Best effort: delete the temp files that killed builds (SIGKILL, power cut) left behind.

    Builds of one source run under its lock, so while we hold it a temp file of the same source
    belongs to a dead builder: it goes when its pid is gone or it is older than
    ``STALE_TMP_SECONDS`` (the pid may have been reused). A temp file of another source may be
    a live build's (its lock is not ours, or the data dir is shared with another host): it goes
    only when its pid is gone *and* it is that old."""
    now = time.time()
    try:
        candidates = [p for p in data_dir.iterdir() if p.name.endswith(".tmp")]
    except OSError:
        return
    for tmp in candidates:
        match = _TMP_NAME.fullmatch(tmp.name)
        if match is None:
            continue
        try:
            old = now - tmp.stat().st_mtime > STALE_TMP_SECONDS
        except OSError:
            continue
        dead = not pid_alive(int(match["pid"]))
        if (locked and match["kind"] == kind and (dead or old)) or (dead and old):
            with suppress(OSError):
                tmp.unlink()


def remove_stale(data_dir: Path, kind: str, keep: Path) -> None:
    """Best effort: delete older indexes of the same source (open handles keep working)."""
    for old in data_dir.glob(f"corpus-{kind}-*.sqlite"):
        if old != keep:
            with suppress(OSError):
                old.unlink()
                forget(old)


def build_locked(
    data_dir: Path, path: Path, head: dict[str, str], docs: Callable[[], Iterable[RawDoc]],
    notes: list[str], describe: Callable[[], str] | None,
    waiting: Callable[[], None] | None = None,
) -> tuple[dict[str, str], bool]:
    """The index at ``path`` as ``(meta, built)``: built from ``docs()`` under its source's
    build lock, unless another process built it while this one waited (``waiting()`` first).

    Raises:
        NoText: no document had any text.
        IndexVanished: the data dir, or the index being built in it, was deleted meanwhile.
        CorpusError: the index cannot be written.
    """
    kind = head["kind"]
    lock = data_dir / f".corpus-{kind}.lock"
    try:
        with build_lock(lock, waiting) as locked:
            meta = read_meta(path)  # another process may have built it while we waited
            if meta is not None and meta.get("fingerprint") == head["fingerprint"]:
                return meta, False
            remove_orphan_temps(data_dir, kind, locked)
            try:
                meta = build(path, docs(), head, notes=notes, describe=describe)
            except NoText:  # bad input (exit 2) leaves nothing behind, not even the lock file
                lock.unlink(missing_ok=True)
                raise
    except (OSError, sqlite3.Error) as exc:
        raise _build_failed(data_dir, path, exc) from None
    passed(path)
    remove_stale(data_dir, kind, keep=path)
    return meta, True


def _build_failed(data_dir: Path, path: Path, exc: BaseException) -> CorpusError | IndexVanished:
    """The one-line error of an index build that failed with ``exc``: the data dir deleted under
    it (SQLite writes on to the unlinked temp file, then its rename fails with a raw errno
    line; a new user's trial), or the index file unwritable."""
    shown = safe_name(str(data_dir))
    again = "nothing was indexed; the same command again starts over"
    if not data_dir.is_dir():
        return IndexVanished(f"the data dir {shown} was deleted while the corpus index was "
                             f"being built in it: {again}")
    if isinstance(exc, FileNotFoundError):  # the temp file went, the folder is there (again)
        return IndexVanished(f"the corpus index being built in the data dir {shown} was deleted "
                             f"(or the data dir was deleted and made again): {again}")
    return CorpusError(f"cannot build corpus index {safe_name(str(path))}: {exc}")


def passage_frequencies(con: sqlite3.Connection, terms: Iterable[str]) -> dict[str, int]:
    """How many passages of an open index match each term, as a search matches it (any column,
    ``porter`` stems: "windows" counts the passages of "window"; its other spellings and an
    irregular past's base too, :func:`~workers.sources.query.spelled_terms`): the document
    frequency a relevance judge weighs words by (issue 19). Read-only; one count per term.

    Args:
        con: a connection to an index :func:`build` wrote.
        terms: words as :func:`workers.sources.query.query_terms` gives them; any text is
            quoted as one FTS5 string (a term with no searchable token matches nothing: 0).

    Raises:
        sqlite3.Error: the index cannot be read.
    """
    out: dict[str, int] = {}
    for term in dict.fromkeys(str(t) for t in terms):
        if not re.search(r"\w", term):
            out[term] = 0
            continue
        (count,) = con.execute(
            "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?",
            (fts_or([term], bases=True) + compound_clauses(con, [term]),),
        ).fetchone()
        out[term] = int(count)
    return out
