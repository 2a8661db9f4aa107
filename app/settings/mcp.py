"""The MCP config file (``--mcp-config FILE`` / ``RESEARCH_MCP_CONFIG``): which MCP servers' tools
the agent workers are offered.

The file is JSON in the shape Claude Desktop and Cursor use::

    {"mcpServers": {
        "notes": {"command": "python", "args": ["notes_server.py"], "env": {"KEY": "v"}},
        "search": {"url": "http://127.0.0.1:8000/mcp", "transport": "streamable_http"}}}

An entry with ``command`` is a stdio server (started by the run, one process per run); a ``url``
entry names its ``transport`` (``streamable_http`` or ``sse``). ``MultiServerMCPClient`` needs a
``transport`` key on every connection: :func:`load_mcp_config` fills in ``"stdio"``.

It is the operator's setting only: a config a client could set would run any command on the
server (remote code execution, gpt-researcher#1694), so a served run's context naming
``mcp_config`` is refused (:mod:`app.settings.client`).

Source: langchain-mcp-adapters' ``MultiServerMCPClient`` connection types
(``langchain_mcp_adapters.sessions``), and the ``mcpServers`` file of Claude Desktop.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

from app.settings.spec import ConfigError

__all__ = ["URL_TRANSPORTS", "load_mcp_config"]

URL_TRANSPORTS = ("streamable_http", "sse")
MAX_CONFIG_BYTES = 1 << 20
"""The largest MCP config file read (1 MB: a config of a thousand servers is about 200 KB)."""
_NAME = re.compile(r"[A-Za-z0-9_-]{1,48}")


def load_mcp_config(path: str, set_by: str = "--mcp-config") -> dict[str, dict[str, Any]]:
    """The servers of an MCP config file as ``MultiServerMCPClient`` connections.

    Args:
        path: the JSON file (``~`` expanded).
        set_by: what set it, as each refusal names it: ``--mcp-config`` (the CLI, whose flag
            or ``RESEARCH_MCP_CONFIG`` sets it), or ``RESEARCH_MCP_CONFIG`` on LangGraph
            Server, which has no flags (a served run's line named ``--mcp-config``).

    Returns:
        ``{name: {"transport": "stdio", "command", "args", "env"?} | {"transport", "url",
        "headers"?}}``, in the file's order.

    Raises:
        ConfigError: one line naming the file (and the server) when the file cannot be read,
            is no regular file or past :data:`MAX_CONFIG_BYTES`, is not JSON of that shape, or
            an entry has neither ``command`` nor ``url``.
    """
    where = f"{set_by} {path}"
    try:
        raw = json.loads(_read_file(Path(path).expanduser(), where))
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read it ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{where}: not JSON ({exc})") from None
    servers = raw.get("mcpServers") if isinstance(raw, dict) else None
    if not isinstance(servers, dict) or not servers:
        raise ConfigError(f'{where}: expected {{"mcpServers": {{NAME: {{...}}}}}} with at least '
                          "one server")
    return {name: _connection(where, name, entry) for name, entry in servers.items()}


def _read_file(file: Path, where: str) -> str:
    """The text of ``file``, a regular file of at most :data:`MAX_CONFIG_BYTES`: a FIFO hung the
    run before its first line and ``/dev/zero`` took the machine's memory, SIGTERM unheard.

    Raises:
        ConfigError: no regular file, or too large. OSError: it cannot be read.
        UnicodeDecodeError: not UTF-8.
    """
    if not stat.S_ISREG(file.stat().st_mode):
        raise ConfigError(f"{where}: not a regular file; it takes a JSON file")
    with file.open("rb") as stream:  # a file that grew since the check is cut at the bound
        data = stream.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{where}: larger than {MAX_CONFIG_BYTES // 1024} KB; an MCP config "
                          "is a small JSON file")
    return data.decode("utf-8")


def _connection(where: str, name: str, entry: Any) -> dict[str, Any]:
    if not _NAME.fullmatch(name):
        raise ConfigError(f"{where}: server name {name!r}: use letters, digits, - or _ "
                          "(at most 48)")
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: server {name!r}: expected an object")
    if isinstance(entry.get("command"), str) and entry["command"].strip():
        args, env = entry.get("args", []), entry.get("env")
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise ConfigError(f"{where}: server {name!r}: args must be a list of strings")
        if env is not None and not (isinstance(env, dict) and all(
                isinstance(v, str) for v in env.values())):
            raise ConfigError(f"{where}: server {name!r}: env must map names to strings")
        connection: dict[str, Any] = {"transport": "stdio", "command": entry["command"],
                                      "args": args}
        if env:
            connection["env"] = env
        if isinstance(entry.get("cwd"), str):
            connection["cwd"] = entry["cwd"]
        return connection
    if isinstance(entry.get("url"), str) and entry["url"].strip():
        transport = entry.get("transport") or entry.get("type") or "streamable_http"
        transport = {"http": "streamable_http", "streamable-http": "streamable_http"}.get(
            transport, transport)
        if transport not in URL_TRANSPORTS:
            raise ConfigError(f"{where}: server {name!r}: transport {transport!r} is not one "
                              f"of {', '.join(URL_TRANSPORTS)}")
        connection = {"transport": transport, "url": entry["url"]}
        if isinstance(entry.get("headers"), dict):
            connection["headers"] = entry["headers"]
        return connection
    raise ConfigError(f"{where}: server {name!r}: needs a command (stdio) or a url")
