"""The MCP SDK's own log lines, kept off the terminal and kept for the one line that names the
server.

A server that prints something other than JSON-RPC on stdout made the ``mcp`` package log a
whole traceback ("Failed to parse JSONRPC message from server", ``mcp.client.stdio``), and one
that answers with a malformed request 56 lines of pydantic errors through the *root* logger
(``logging.warning`` in ``mcp/shared/session.py``), before the run's one ``error:`` line.
:data:`MCP_LOGS` drops those records and keeps the last one's gist, which
:class:`workers.mcp_tools.McpHub` adds to its error: "MCP server 'x' did not start within 5 s
(...); the MCP client read a line that is not JSON-RPC: 'garbage'".

Standard library only.
"""

from __future__ import annotations

import logging
import os

__all__ = ["MCP_LOGS", "McpLogs"]

_PACKAGE = f"{os.sep}mcp{os.sep}"


class McpLogs(logging.Handler):
    """Where the ``mcp`` package's log records go instead of the terminal: it keeps the gist of
    the last one in :attr:`last`. It is the ``mcp`` logger's one handler (that logger no longer
    propagates), and a filter on the root logger hands it the records the package logs there."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.last: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING:
            self.last = gist(record)

    def take(self) -> str | None:
        """The gist of the last warning or error since the last call, or None."""
        last, self.last = self.last, None
        return last

    def from_root(self, record: logging.LogRecord) -> bool:
        """Filter for the root logger: False (dropped, kept here) for a record the ``mcp``
        package logged through ``logging.warning()``."""
        if _PACKAGE not in (record.pathname or ""):
            return True
        self.handle(record)
        return False


def gist(record: logging.LogRecord) -> str:
    """One short line for a dropped record: the line a server printed that is not JSON-RPC, or
    the record's first line.

    Example:
        >>> gist(logging.makeLogRecord({"msg": "Failed to validate request: 18 errors\\nx"}))
        'Failed to validate request: 18 errors'
    """
    exc = record.exc_info[1] if record.exc_info else None
    errors = getattr(exc, "errors", None)
    if callable(errors):  # pydantic's ValidationError: the input it could not parse
        try:
            seen = errors()[0].get("input")
        except Exception:  # noqa: BLE001 - a shape this gist does not know: say less
            seen = None
        if isinstance(seen, str):
            return f"the MCP client read a line that is not JSON-RPC: {seen[:80]!r}"
    return record.getMessage().splitlines()[0][:200] if record.getMessage() else record.name


MCP_LOGS = McpLogs()
"""The one handler (installed on import)."""

_mcp_logger = logging.getLogger("mcp")
if not any(isinstance(h, McpLogs) for h in _mcp_logger.handlers):
    _mcp_logger.addHandler(MCP_LOGS)
    _mcp_logger.propagate = False
    logging.getLogger().addFilter(MCP_LOGS.from_root)
