"""The page cache of every SQLite connection a run keeps open (the corpus's pool, the
checkpoint saver's, the results database's, a reader's) is bounded
(:mod:`workers.sources.page_cache`). SQLite's default lets each grow to 2,000 KiB, a copy of
pages the operating system's file cache holds anyway: at 1,200 tasks SQLite's own heap peaked at
10.2 MB, 7.3 MB once bounded (issue 21, item 13)."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor

from app.storage import open_storage
from workers.sources.corpus import Corpus
from workers.sources.page_cache import PAGE_CACHE_KIB


def _recording(monkeypatch) -> list[sqlite3.Connection]:
    opened: list[sqlite3.Connection] = []
    real = sqlite3.connect

    def connect(*args, **kwargs):
        con = real(*args, **kwargs)
        opened.append(con)
        return con

    monkeypatch.setattr(sqlite3, "connect", connect)
    return opened


def _cache_kib(con: sqlite3.Connection) -> float | None:
    """The most page memory ``con`` keeps, in KiB; None when it is closed."""
    try:
        size = con.execute("PRAGMA cache_size").fetchone()[0]
        page = con.execute("PRAGMA page_size").fetchone()[0]
    except sqlite3.ProgrammingError:  # closed: an index build's or a meta read's
        return None
    return -size if size < 0 else size * page / 1024


def test_every_connection_a_run_keeps_open_bounds_its_page_cache(tmp_path, monkeypatch,
                                                                  make_corpus) -> None:
    folder = make_corpus({"herons.md": "# Herons\n\nHerons wade in shallow water and catch "
                          "fish with their long bills.\n"}, name="page-cache-herons")
    opened = _recording(monkeypatch)
    storage = open_storage(tmp_path / "data")
    with (Corpus.open(tmp_path / "data", folder) as corpus, storage.checkpointer(),
          storage.results() as store, storage.results(read_only=True)):
        with ThreadPoolExecutor(4) as pool:  # searches at once, each on a pooled connection
            found = list(pool.map(lambda q: corpus.search(q), [f"herons fish {i}" for i in
                                                                range(8)]))
        assert found[0] and "herons.md" in found[0][0].source, found[0]
        store.count(thread_id="t1")
        caches = [kib for con in opened if (kib := _cache_kib(con)) is not None]
    assert len(caches) >= 4, caches  # the corpus's, the saver's, the results' writer and reader
    assert all(0 < kib <= PAGE_CACHE_KIB for kib in caches), caches
