"""The page cache of the project's own SQLite connections, bounded.

SQLite gives each connection a page cache of its own, 2,000 KiB by default
(https://sqlite.org/pragma.html#pragma_cache_size), filled as pages are read and kept until the
connection closes. A run holds several: one per corpus search at once (the corpus pool), the
checkpoint saver's, the results database's; each caches pages the operating system's file cache
already holds, so the copy saves a ``read`` call, not a disk access. At 1,200 tasks SQLite's own
heap peaked at 10 MB (``sqlite3_memory_highwater``), most of it these caches (issue 21, item 13).
"""

from __future__ import annotations

import sqlite3

__all__ = ["PAGE_CACHE_KIB", "bound_page_cache"]

PAGE_CACHE_KIB = 256
"""The most page memory one of the project's connections keeps, in KiB (SQLite's default 2,000)."""


def bound_page_cache(con: sqlite3.Connection) -> sqlite3.Connection:
    """Bound ``con``'s page cache to :data:`PAGE_CACHE_KIB` and return it (a connection just
    opened, before its first query). A transaction larger than the cache still commits: SQLite
    spills its dirty pages to the journal or the WAL early.

    Raises:
        sqlite3.Error: the connection is closed or unusable.

    Example:
        >>> con = bound_page_cache(sqlite3.connect(":memory:"))
        >>> con.execute("PRAGMA cache_size").fetchone()[0]
        -256
    """
    con.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
    return con
