"""The record of answered MCP tool calls: ``mcp.sqlite`` in the data dir (or PostgreSQL,
``app.storage.mcp_results``), keyed by ``(server, tool, arguments)``, and the
:class:`~workers.sources.Source` that resolves their refs (``mcp:SERVER/TOOL#<hash>``) for the
claim check. The sessions and tools that fill it: :mod:`workers.mcp_tools`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import threading
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from workers.sources.base import Document, Passage
from workers.sources.recording import KeyedLocks, refuse_foreign, sqlite_transaction
from workers.sources.web_answer import clip

__all__ = ["MAX_TEXT", "MCP_CACHE", "MCP_DDL", "McpResults", "args_passage", "mcp_ref"]

MCP_CACHE = "mcp.sqlite"
"""The record of answered MCP tool calls, in the data dir."""

MAX_TEXT = 6000
"""Characters of a tool's answer kept, in the record and as its passage (the rest is cut at a
space, marked […]: :func:`workers.sources.web_answer.clip`)."""


def _args_key(args: dict[str, Any]) -> str:
    return json.dumps(args, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def mcp_ref(server: str, tool: str, args: dict[str, Any]) -> str:
    """The ref of one tool answer: ``mcp:SERVER/TOOL#<12 hex digits of the arguments' hash>``.

    Example:
        >>> mcp_ref("notes", "lookup", {"query": "x"})
        'mcp:notes/lookup#3b7b5a17b634'
    """
    digest = hashlib.sha256(_args_key(args).encode()).hexdigest()[:12]
    return Passage.make_ref(f"mcp:{server}/{tool}", digest)


MCP_DDL = (
    """CREATE TABLE IF NOT EXISTS mcp_calls (
    server TEXT NOT NULL, tool TEXT NOT NULL, args TEXT NOT NULL, ref TEXT NOT NULL,
    text TEXT NOT NULL, fetched_at TEXT NOT NULL,
    PRIMARY KEY (server, tool, args))""",
    "CREATE INDEX IF NOT EXISTS mcp_calls_ref ON mcp_calls (ref)",
)
"""The record's table (portable SQL: SQLite and PostgreSQL)."""
_UPSERT = ("INSERT INTO mcp_calls VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (server, tool, args) "
           "DO UPDATE SET ref = excluded.ref, text = excluded.text, "
           "fetched_at = excluded.fetched_at")


class McpResults:
    """The record of answered MCP tool calls (``mcp.sqlite`` in ``data_dir``), and the
    :class:`~workers.sources.Source` of their passages (``search`` finds nothing: a tool is
    asked through the agent, not searched).

    The SQL is portable (``ON CONFLICT ... DO UPDATE``): a subclass that overrides :meth:`_db`
    (a DB-API connection, committed on exit) and :attr:`placeholder` keeps the record elsewhere
    (``app.storage.mcp_results.PostgresMcpResults``).

    Args:
        data_dir: the data dir (created if missing).
    """

    description = "MCP tool answers"
    placeholder = "?"
    """The DB-API parameter marker of the connection :meth:`_db` opens."""

    def __init__(self, data_dir: Path) -> None:
        self._path = Path(data_dir).expanduser() / MCP_CACHE
        self._path.parent.mkdir(parents=True, exist_ok=True)
        # another program's file is never adopted; "calls": this record's first layout
        refuse_foreign(self._path, ("mcp_calls", "calls"), "MCP tool record")
        self._setup()

    def _setup(self) -> None:
        """Create the table (idempotent) and the per-key locks."""
        self._locks = KeyedLocks()
        with self._db() as con:
            for statement in MCP_DDL:
                con.execute(statement)

    def _db(self) -> AbstractContextManager[Any]:
        return sqlite_transaction(self._path, "MCP tool record")

    def _one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self._db() as con:
            return con.execute(sql.replace("?", self.placeholder), params).fetchone()

    def lock(self, server: str, tool: str, args: dict[str, Any]) -> threading.Lock:
        """The lock of one key: two tasks asking the same call wait for the first answer."""
        return self._locks((server, tool, _args_key(args)))

    def get(self, server: str, tool: str, args: dict[str, Any]) -> str | None:
        """The recorded answer of this call, or None."""
        row = self._one("SELECT text FROM mcp_calls WHERE server = ? AND tool = ? AND args = ?",
                        (server, tool, _args_key(args)))
        return row[0] if row else None

    def put(self, server: str, tool: str, args: dict[str, Any], text: str) -> str:
        """Record a successful answer (committed before the tool returns it), cut to
        :data:`MAX_TEXT` characters, all its passage shows (a 20 MB answer was stored whole);
        the text recorded."""
        text = clip(text, MAX_TEXT)
        now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        with self._db() as con:
            con.execute(_UPSERT.replace("?", self.placeholder),
                        (server, tool, _args_key(args), mcp_ref(server, tool, args), text, now))
        return text

    # -- the Source protocol ---------------------------------------------------------------

    def search(self, query: str, k: int = 5, *, focus: str | None = None) -> list[Passage]:
        """Nothing: MCP answers are found by calling the tool."""
        return []

    def passage(self, ref: str) -> Passage | None:
        """The passage of a recorded answer (``mcp:SERVER/TOOL#hash``), or None."""
        if not str(ref).startswith("mcp:"):
            return None
        row = self._one("SELECT server, tool, args, text FROM mcp_calls WHERE ref = ?",
                        (str(ref).strip(),))
        return args_passage(row[0], row[1], json.loads(row[2]), row[3]) if row else None

    def read(self, ref_or_doc_id: str, max_chars: int = 6000) -> Document | None:
        """The recorded answer a ref names, as a document; None when unknown."""
        found = self.passage(ref_or_doc_id)
        if found is None:
            return None
        return Document(found.doc_id, found.title, found.source, found.text[:max_chars])


def args_passage(server: str, tool: str, args: dict[str, Any], text: str) -> Passage:
    """One call's answer as a passage of the document ``mcp:SERVER/TOOL``. Its title and source
    name the tool and the server only: the report cites the document once for all its calls,
    so one call's arguments would mislabel the others (the ref tells the calls apart)."""
    ref = mcp_ref(server, tool, args)
    doc_id = f"mcp:{server}/{tool}"
    text = clip(text, MAX_TEXT)
    name = f"tool {tool} of MCP server {server}"
    return Passage(ref, doc_id, name, name, text)
