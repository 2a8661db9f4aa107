"""Where MCP tool answers are recorded: the data dir's ``mcp.sqlite``, or PostgreSQL's
``mcp_calls`` table when ``RESEARCH_DATABASE_URL`` is set (so replicas sharing the database
share the record, as they share the result rows).

The record and its Source protocol are :class:`workers.mcp_record.McpResults`; this module only
gives it a PostgreSQL connection: psycopg 3, ``autocommit=True, prepare_threshold=None`` (no
server-side prepared statement: safe through PgBouncer in transaction mode, see
:mod:`app.storage.postgres`), the table created under a transaction-level advisory lock (two
processes creating one table at once can fail even with ``IF NOT EXISTS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.storage.base import StorageError
from app.storage.postgres import redact_url
from workers.mcp_record import MCP_DDL, McpResults
from workers.sources.recording import KeyedLocks

__all__ = ["PostgresMcpResults", "mcp_results_of"]

_SETUP_LOCK = 0x6D637031  # "mcp1": the advisory lock of creating mcp_calls


class PostgresMcpResults(McpResults):
    """:class:`workers.mcp_record.McpResults` in PostgreSQL (table ``mcp_calls``).

    Args:
        url: the database URL (``postgresql://...``).
        direct_url: a URL that bypasses a pooler, for creating the table (default ``url``).

    Raises:
        app.storage.base.StorageError: the database cannot be reached (one line, no password).
    """

    placeholder = "%s"

    def __init__(self, url: str, direct_url: str | None = None) -> None:
        self._url = url
        self._setup_url = direct_url or url
        self._setup()

    def _setup(self) -> None:
        self._locks = KeyedLocks()
        with self._connect(self._setup_url) as con, con.transaction():
            con.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            for statement in MCP_DDL:
                con.execute(statement)

    def _connect(self, url: str) -> Any:
        import psycopg

        try:
            return psycopg.connect(url, autocommit=True, prepare_threshold=None,
                                   connect_timeout=10)
        except psycopg.OperationalError as exc:
            reason = " ".join(str(exc).split())
            raise StorageError(f"cannot connect to PostgreSQL at {redact_url(url)}: "
                               f"{reason}") from None

    @contextmanager
    def _db(self) -> Iterator[Any]:
        with self._connect(self._url) as con:
            yield con


def mcp_results_of(settings: Any) -> McpResults:
    """The MCP record of :class:`app.settings.config.Settings`: PostgreSQL when
    ``database_url`` is set, else ``mcp.sqlite`` in ``data_dir``."""
    if getattr(settings, "database_url", None):
        return PostgresMcpResults(settings.database_url,
                                  getattr(settings, "database_direct_url", None))
    return McpResults(Path(settings.data_dir))
