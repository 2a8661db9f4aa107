"""``Corpus``: the :class:`~workers.sources.base.Source` over a local index (package docs or a
folder), read-only and thread-safe. Search turns any text into quoted word tokens
(:func:`workers.sources.query.search_query`), so no input can be an FTS5 syntax error; FTS5's
``bm25`` over the passages' text, headings and their document's title and symbol picks the
candidates, :func:`~workers.sources.ranking.rank_score` orders them and
:func:`~workers.sources.leads.with_leads` shows a titled page's lead. Readers open the index
file read-only, from a pool of connections that threads share. Standard library only."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from workers.sources import folder as folder_source
from workers.sources import index
from workers.sources.base import CorpusError, Document, NoText, Passage, RawDoc
from workers.sources.boilerplate import keep_each_file, strip_repeated
from workers.sources.chunks import passage_window
from workers.sources.compound_forms import compound_clauses
from workers.sources.damage import damaged, is_damage
from workers.sources.fingerprint import content_fingerprint, folder_fingerprint
from workers.sources.format_copies import without_format_copies
from workers.sources.gathered import without_gathering_pages
from workers.sources.leads import lead_passage, with_leads
from workers.sources.memo import Memo
from workers.sources.note_groups import shown_notes
from workers.sources.packages import DEFAULT_PACKAGES, package_docs, package_fingerprint
from workers.sources.page_cache import bound_page_cache
from workers.sources.query import search_query
from workers.sources.ranking import ranked
from workers.sources.site_titles import without_site_name
from workers.sources.text import raw, safe_name

__all__ = ["CANDIDATES", "COLUMN_WEIGHTS", "MAX_K", "MAX_PER_DOCUMENT", "RELEVANCE_FLOOR",
           "Corpus"]

MAX_K = 50
"""``search`` returns at most this many passages whatever ``k`` asks for."""

COLUMN_WEIGHTS = (10.0, 2.0, 1.5, 1.0, 5.0)
"""bm25 weights of the index's columns: the symbol's name, the title words, the section heading,
the passage text, the symbol's name key (:func:`~workers.sources.names.symbol_key`: only for a
symbol the question names, "retry policy": ``RetryPolicy``). Title and heading weigh little, as
:func:`~workers.sources.ranking.rank_score` boosts their words again: weighted 5 and 3, a common
word in many pages' titles ("database") outranked the page whose text answers."""

CANDIDATES = 200
"""A search re-ranks this many of FTS5's best passages (more when ``8 * k`` is more)."""

MAX_PER_DOCUMENT = 2
"""A search returns at most this many passages of one document."""

RELEVANCE_FLOOR = 0.5
"""With a focus, passages scoring under this share of the best one's bm25 are left out."""

SEARCHES_KEPT = 32
"""An open corpus keeps its last this many searches' answers (a sub-question's come together)."""

_WEIGHTS = ", ".join(str(float(w)) for w in COLUMN_WEIGHTS)
_PLAIN_WEIGHTS = ", ".join(str(float(w)) for w in (*COLUMN_WEIGHTS[:-1], 0.0))
_PASSAGE_COLS = "p.ref, p.doc_id, p.title, p.source, p.text"
_DOC_SQL = "SELECT doc_id, title, source FROM docs WHERE doc_id = ?"


class Corpus:
    """A read-only, thread-safe full-text index over package docs or a folder: :meth:`open`
    it, :meth:`search`, resolve citations with :meth:`passage` and :meth:`read`, :meth:`close`
    it (or use it as a context manager). Threads share a pool of read-only connections."""

    def __init__(self, path: Path, meta: dict[str, str], *, built: bool) -> None:
        """Use :meth:`Corpus.open`; this wraps an existing, complete index file."""
        self._path, self._meta, self._built = Path(path), dict(meta), built
        self._uri = f"{self._path.resolve().as_uri()}?mode=ro&immutable=1"
        self._cond = threading.Condition()
        self._free: list[sqlite3.Connection] = []
        self._all: list[sqlite3.Connection] = []
        self._closed = False
        self._searches: Memo[list[Passage]] = Memo(SEARCHES_KEPT)
        # one connection open for its lifetime: threads share it if a newer build removes the file
        self._release(self._connect())

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def open(cls, data_dir: Path, folder: Path | None = None,
             packages: Sequence[str] = DEFAULT_PACKAGES, *,
             max_file_bytes: int = folder_source.MAX_FILE_BYTES, language: str | None = None,
             progress: folder_source.Progress | None = None,
             before_build: Callable[[str, str], None] | None = None) -> Corpus:
        """Open the cached index in ``data_dir``, building it first if missing or stale.

        Args:
            data_dir: directory for the cache (created if missing). The index lives in
                ``data_dir/corpus-<kind>-<fingerprint>.sqlite``.
            folder: index the ``.md/.txt/.rst/.py/.html/.pdf/.docx`` files (and typeless text,
                each also ``.gz``) under this directory instead of the package docs.
            packages: top-level import names whose docstrings to index (package mode only);
                Python's pydoc topics are always added.
            max_file_bytes: folder mode: text files larger than this (a ``.gz`` once
                decompressed) are skipped, and named in ``notes`` (default ``MAX_FILE_BYTES``).
            language: folder mode: a translated manual's language to index (None: English,
                else the most-paged; :mod:`workers.sources.languages`).
            progress: folder mode: ``progress(files_done, files_total, reading)`` from the
                opening thread as each file is read for a build (``reading``: the file read
                next, or ""; ``(0, 0, "")`` first while another process builds it; never for a
                cached index): :data:`~workers.sources.folder.Progress`.
            before_build: ``before_build(content_fingerprint, fingerprint)`` before a build; it
                may raise to refuse it, so that a refusal never comes after the build.

        Returns:
            An open Corpus; ``corpus.built`` says whether this call built the index.

        Raises:
            CorpusError: the folder is missing, is not a directory or holds no indexable text; a
                package is not installed; the data dir cannot be written.
            IndexVanished: the data dir, or the index being built in it, was deleted meanwhile.
        """
        data_dir = Path(data_dir).expanduser()
        made = not data_dir.exists()
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CorpusError(f"cannot create data dir {safe_name(str(data_dir))}: "
                              f"{exc.strerror or exc}") from None
        for _attempt in range(3):
            try:
                return cls._open_once(data_dir, folder, packages, (max_file_bytes, language),
                                      progress, before_build)
            except NoText:  # bad input writes nothing: the data dir goes if it was made here
                if made:
                    with suppress(OSError):
                        data_dir.rmdir()  # only if empty: another run may have written since
                raise
            except sqlite3.Error:
                # gone since its check: a newer build (the folder changed) removed it; again
                continue
        shown = safe_name(str(data_dir))
        raise CorpusError(f"corpus index in {shown} keeps changing while being opened")

    @classmethod
    def _open_once(cls, data_dir: Path, folder: Path | None, packages: Sequence[str],
                   limits: tuple[int, str | None], progress: folder_source.Progress | None,
                   before_build: Callable[[str, str], None] | None) -> Corpus:
        (max_file_bytes, language), skipped, notes, shown = limits, Counter(), [], ""
        describe: Callable[[], str] | None = None  # folder mode: counts the files indexed
        if folder is not None:
            folder, shown, files = folder_source.corpus_folder(
                folder, skipped, max_file_bytes=max_file_bytes, notes=notes, data_dir=data_dir,
                language=language)
            fingerprint = folder_fingerprint(folder, files, max_file_bytes)
            kind = "dir-" + hashlib.blake2b(raw(str(folder)), digest_size=4).hexdigest()
            indexed: set[str] = set()
            description = f"folder corpus: {shown}"

            def describe() -> str:
                # the files that gave passages: a binary, blank or broken one is only in notes
                return f"{description} ({folder_source.counted_files(len(indexed), len(files))})"

            def docs_factory() -> Iterator[RawDoc]:
                # PDF copies of pages, gathering pages, the site's name in titles, repeated bars
                # go first (a generator: nothing read before the temp file); each doc held once
                read = list(folder_source.folder_docs(files, skipped, notes, progress,
                                                      max_file_bytes))
                rels = {rel for rel, _p, _st in files}
                read = without_gathering_pages(without_format_copies(read, rels, notes), rels,
                                               notes)
                read = without_site_name(read, rels)
                docs, read[:] = keep_each_file(read, strip_repeated(read), rels, notes), ()
                yield from folder_source.files_of(docs, files, indexed)
        else:
            packages = tuple(dict.fromkeys(packages))
            fingerprint, description = package_fingerprint(packages)
            kind = "pkg-" + hashlib.blake2b(repr(packages).encode(), digest_size=4).hexdigest()
            docs_factory = lambda: package_docs(packages)  # noqa: E731

        path = data_dir / f"corpus-{kind}-{fingerprint[:20]}.sqlite"
        meta = index.read_meta(path)
        if meta is not None and meta.get("fingerprint") == fingerprint:
            return cls(path, index.current_notes(meta, notes), built=False)
        head = {"fingerprint": fingerprint, "description": description, "kind": kind,
                "listed_notes": str(len(notes))}
        if folder is not None:  # read only for a build, which reads every file anyway
            head["content"] = content_fingerprint(folder, files, max_file_bytes)
            if same := index.same_content(data_dir, kind, head["content"]):  # rewritten as was
                return cls(same[0], index.current_notes(same[1], notes), built=False)
        if before_build is not None:
            before_build(head.get("content") or fingerprint, fingerprint)
        try:
            meta, built = index.build_locked(data_dir, path, head, docs_factory, notes, describe,
                                             progress and (lambda: progress(0, 0, "")))
        except NoText as exc:
            if folder is None:
                raise NoText(str(exc)) from None
            why = folder_source.nothing_indexable(shown, "text", skipped, max_file_bytes, notes)
            raise NoText(why) from None
        return cls(path, meta, built=built)

    # -- connections -------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        con = bound_page_cache(sqlite3.connect(self._uri, uri=True, check_same_thread=False))
        self._all.append(con)
        return con

    def _release(self, con: sqlite3.Connection) -> None:
        with self._cond:
            if self._closed:
                con.close()
            else:
                self._free.append(con)
                self._cond.notify()

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._cond:
            if self._closed:
                raise CorpusError("corpus is closed")
            if self._free:
                con = self._free.pop()
            else:
                try:
                    con = self._connect()
                except sqlite3.Error:
                    # The file is gone (replaced by a newer build): share the live connections.
                    while not self._free:
                        self._cond.wait()
                        if self._closed:
                            raise CorpusError("corpus is closed") from None
                    con = self._free.pop()
        try:
            yield con
        except sqlite3.DatabaseError as exc:  # damaged: every search fails the same way
            if is_damage(exc):
                raise damaged(self._path, exc, what="corpus index", derived=True) from None
            raise
        finally:
            self._release(con)

    # -- queries -----------------------------------------------------------------------------

    def search(self, query: str, k: int = 5, *, focus: str | None = None) -> list[Passage]:
        """The ``k`` passages that best match ``query``, best first (``score`` never increases
        down the list).

        The words searched are the question's content words
        (:func:`~workers.sources.query.search_query`: stop and filler words dropped; with a
        ``focus``, the run's topic, only the words the topic has too), OR-ed: no word is
        required; adjacent words that may name an API symbol ("retry policy") are searched as
        its whole name too. FTS5's ``bm25`` over the columns of ``COLUMN_WEIGHTS`` picks
        ``CANDIDATES`` passages; :func:`~workers.sources.ranking.rank_score` then re-ranks
        them, boosting those that have more of the words, the words as a phrase, or the words
        in the document's title or the passage's heading, and ranking a page made of links (an
        index, a site map) below the pages it links to (issue 19).

        * At most ``MAX_PER_DOCUMENT`` passages of one document are returned, so a long
          document never fills the list; :func:`~workers.sources.base.group_by_document` groups
          them for a report that cites each document once.
        * With a ``focus``, passages scoring under ``RELEVANCE_FLOOR`` of the best one are left
          out: the plan's template words and passages that share one word with the topic never
          fill the list.

        Any text is accepted (FTS5 operators, quotes or SQL are just words). Returns ``[]`` when
        nothing searchable is left or ``k < 1``; ``k`` is capped at ``MAX_K``. A passage whose
        text repeats a better-ranked one word for word (sync/async twins) is left out."""
        query, k = query if isinstance(query, str) else str(query), min(int(k), MAX_K)
        if self._closed:  # a kept answer is no answer of a closed corpus
            raise CorpusError("corpus is closed")
        # a round's workers search the same sub-question at once: one search serves them all
        return list(self._searches.get((query, k, focus), lambda: self._search(query, k, focus)))

    def _search(self, query: str, k: int, focus: str | None) -> list[Passage]:
        parsed = search_query(query, focus)
        if parsed is None or k < 1:
            return []
        sql = (
            f"SELECT {_PASSAGE_COLS}, bm25(passages_fts, {_WEIGHTS}) AS rank, bm25(passages_fts, "
            f"{_PLAIN_WEIGHTS}), p.terms, p.name, p.heading, p.links, p.kind FROM passages_fts "
            "JOIN passages p ON p.id = passages_fts.rowid "
            "WHERE passages_fts MATCH ? ORDER BY rank, p.id LIMIT ?"
        )
        with self._connection() as con:  # a closed word's "time-out" too (compound_forms)
            fts = parsed.fts + compound_clauses(con, parsed.terms)
            rows = con.execute(sql, (fts, max(CANDIDATES, 8 * k))).fetchall()
        out: list[Passage] = []
        seen: set[str] = set()
        per_doc: Counter[str] = Counter()
        for score, row in ranked(parsed, rows):
            if row[4] in seen or per_doc[row[1]] >= MAX_PER_DOCUMENT:
                continue
            seen.add(row[4])
            per_doc[row[1]] += 1
            out.append(Passage(*row[:5], score=score + 0.0, heading=row[9]))
            if len(out) == k:
                break
        out = with_leads(parsed, out, lambda d: lead_passage(self._connection, d, parsed))
        if focus and out:
            out = [p for p in out if p.score >= RELEVANCE_FLOOR * out[0].score]
        return out

    def passage(self, ref: str) -> Passage | None:
        """The passage with this ref (``"<doc_id>#<n>"``), or None."""
        with self._connection() as con:
            row = con.execute(f"SELECT {_PASSAGE_COLS}, p.heading FROM passages p WHERE p.ref = ?",
                              (str(ref).strip(),)).fetchone()
        return Passage(*row[:5], heading=row[5]) if row else None

    def read(self, ref_or_doc_id: str, max_chars: int = 6000) -> Document | None:
        """The document a passage ref (``"x#2"``) or a doc_id (``"x"``) belongs to, or None.

        The text is the document's passages joined by blank lines. When it is longer than
        ``max_chars`` it is cut to a window of whole passages (at least the first) that starts
        at the requested passage (for a ref) or the start (for a doc_id), widened backwards when
        room is left; each cut is marked ``[…]``.
        """
        key = str(ref_or_doc_id).strip()
        with self._connection() as con:
            doc = con.execute(_DOC_SQL, (key,)).fetchone()
            focus = 0
            if doc is None:
                hit = con.execute("SELECT doc_id, seq FROM passages WHERE ref = ?",
                                  (key,)).fetchone()
                if hit is None:
                    return None
                focus, doc = hit[1], con.execute(_DOC_SQL, (hit[0],)).fetchone()
            texts = [t for (t,) in con.execute(
                "SELECT text FROM passages WHERE doc_id = ? ORDER BY seq", (doc[0],))]
        return Document(doc[0], doc[1], doc[2], passage_window(texts, focus, max_chars))

    def term_frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        """How many passages match each term, as a search matches it
        (:func:`~workers.sources.index.passage_frequencies`): the relevance judge's statistics."""
        with self._connection() as con:
            return index.passage_frequencies(con, terms)

    def passage_count(self) -> int:
        """How many passages the index holds."""
        with self._connection() as con:
            return int(con.execute("SELECT count(*) FROM passages").fetchone()[0])

    def close(self) -> None:
        """Close every connection; later calls raise CorpusError. Idempotent."""
        with self._cond:
            self._closed = True
            conns, self._all, self._free = self._all, [], []
            self._cond.notify_all()
        for con in conns:
            with suppress(sqlite3.Error):
                con.close()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Corpus({self.description!r})"

    @property
    def description(self) -> str:
        """One line, e.g. ``"package docs: langgraph 1.2.24, ... (12,345 passages)"``."""
        return self._meta.get("description", str(self._path))

    @property
    def notes(self) -> list[str]:
        """One line per file skipped or read in part (``"x.pdf: skipped, encrypted (needs a
        password)"``), many of one reason in one line (:mod:`~workers.sources.note_groups`)."""
        return shown_notes(self._meta.get("notes", "").split("\n"))

    @property
    def fingerprint(self) -> str:
        """Hash of the inputs the index was built from; it changes when they change."""
        return self._meta["fingerprint"]

    @property
    def content_fingerprint(self) -> str:
        """Hash of what the index was built from by content: a folder's file names and bytes
        (a ``touch`` leaves it), else :attr:`fingerprint` (package versions; an index built
        before it was kept)."""
        return self._meta.get("content") or self._meta["fingerprint"]

    @property
    def path(self) -> Path:
        """The index file."""
        return self._path

    @property
    def built(self) -> bool:
        """True when this ``open`` built the index, False when it reused the cached one."""
        return self._built

    @property
    def meta(self) -> dict[str, str]:
        """The index's meta table (fingerprint, description, passages, build_seconds, ...)."""
        return dict(self._meta)
