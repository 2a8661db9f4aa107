"""MCP tools for the agent workers: one session per server, held on a private event-loop thread.

``langchain-mcp-adapters`` turns an MCP server's tools into LangChain tools, but they are async
only (``.invoke`` raises ``NotImplementedError``) and ``MultiServerMCPClient.get_tools()`` opens
a new session for each call: for a stdio server, a new server process per call. The workers run
in LangGraph's worker threads, synchronously. So :class:`McpHub` opens one session per server
(``MultiServerMCPClient.session``) inside a long-lived task of its own event loop, on its own
thread, and :func:`make_mcp_tools` wraps each server tool as a *sync* ``StructuredTool`` whose
``func`` runs the call on that loop (``asyncio.run_coroutine_threadsafe``) and waits at most the
hub's timeout.

Each answer is a passage in ``search_corpus``'s shape (``{"results": [passage]}``), cited as
``mcp:NAME/TOOL`` (ref ``mcp:NAME/TOOL#<hash of the arguments>``), and is recorded in
:class:`workers.mcp_record.McpResults` (``mcp.sqlite`` in the data dir) under ``(server, tool,
arguments)`` before it is returned: a retry, a resume or a rerun asks the record, never the
server. That record is also
the :class:`~workers.sources.Source` that resolves those refs for the claim check
(``CombinedSource``). A failure, a timeout or an answer with no text (only an image) is not
recorded: the agent gets it as the call's error result and goes on with its other tools (one
optional server must not fail every agent task); the worker notes it for the report. Which
tools are offered, under which name, and what of an answer the agents read:
:mod:`workers.mcp_offer` (a tool it leaves out is named in :attr:`McpHub.notes`).

Source: ``langchain_mcp_adapters.client.MultiServerMCPClient.session`` and
``langchain_mcp_adapters.tools.load_mcp_tools`` (langchain-mcp-adapters README, "Stateful
sessions"); ``asyncio.run_coroutine_threadsafe``.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Collection
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool, ToolException

from workers.errors import RunCancelled, one_line
from workers.mcp_exits import closed_by_server, exit_of, install, watching
from workers.mcp_exits import root_error as _root
from workers.mcp_logs import MCP_LOGS
from workers.mcp_offer import (
    MAX_DESCRIPTION,
    MAX_TOOLS,
    NAMING,
    answer_parts,
    offered_name,
    schema_problem,
)
from workers.mcp_record import McpResults, args_passage
from workers.sources.web_answer import clip
from workers.tools import READ_TOOL, SEARCH_TOOL, WEB_TOOL
from workers.waits import result_within

__all__ = ["McpError", "McpHub", "make_mcp_tools"]

_GONE_CHECK = 0.5
"""Seconds between two looks, while a call waits, at whether its server's session ended."""
CLOSE_WAIT = 8.0
"""Seconds :meth:`McpHub.close` waits for the sessions to end: a stdio server gets 2 s to exit
once its stdin is closed, then 2 s after SIGTERM before SIGKILL (``mcp.client.stdio``)."""


class McpError(RuntimeError):
    """An MCP server could not be started or reached, or a tool answered with an error. The
    message is one line naming the server (and the tool)."""


def _logged() -> str:
    """``"; <gist>"`` of what the MCP SDK logged meanwhile (:mod:`workers.mcp_logs`), or ""."""
    last = MCP_LOGS.take()
    return f"; {last}" if last else ""


class McpHub:
    """One MCP session per server, opened on a private event-loop thread and kept until
    :meth:`close`.

    Args:
        connections: ``{name: connection}`` in ``MultiServerMCPClient``'s shape (every
            connection has its ``transport``).
        timeout: seconds a server may take to start, and one tool call to answer.
    """

    def __init__(self, connections: dict[str, dict[str, Any]], timeout: float = 30.0) -> None:
        self.connections = dict(connections)
        self.timeout = timeout
        self.tools: dict[str, list[BaseTool]] = {}
        self._sessions: dict[str, Any] = {}
        self._spawned: dict[str, list[Any]] = {}  # each stdio server's process (mcp_exits)
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._tasks: dict[str, asyncio.Task] = {}
        self._gone: dict[str, str] = {}  # a server whose session ended mid-run: why
        self.notes: list[str] = []
        """The run's notes about the servers' tools: those left out (:func:`make_mcp_tools`)."""
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-sessions",
                                        daemon=True)
        self._thread.start()

    def _submit(self, coro: Any, timeout: float, what: str, server: str | None = None) -> Any:
        """Run ``coro`` on the hub's loop; its result within ``timeout`` seconds. A wait gives
        up once the run stops, and once ``server``'s session is known to have ended (another
        call found it): a call in flight on a dead session waited out the whole timeout."""
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        deadline = time.monotonic() + timeout
        try:
            while True:
                if server is not None and (gone := self._gone.get(server)) is not None:
                    raise McpError(f"{what} failed: {gone}")
                left = deadline - time.monotonic()
                try:  # gives up once the run stops
                    return result_within(future, max(0.0, min(left, _GONE_CHECK)), what)
                except FutureTimeout:
                    if left <= _GONE_CHECK:
                        raise TimeoutError(f"{what}: no answer within {timeout:g} s") from None
        except (TimeoutError, RunCancelled, McpError):
            future.cancel()
            raise

    def start(self) -> None:
        """Open every server's session and list its tools (the check at run start). On any
        failure (a server that errs or misses the timeout, Ctrl-C) the hub is closed before
        the error propagates: no server process outlives it.

        Raises:
            McpError: one line naming the first server that did not start or answer.
        """
        from langchain_mcp_adapters.client import MultiServerMCPClient

        install()  # a stdio server that ends at start-up: its exit status for the line
        client = MultiServerMCPClient(self.connections)
        try:
            for name in self.connections:
                ready: Future = Future()
                asyncio.run_coroutine_threadsafe(self._hold(client, name, ready), self._loop)
                self.tools[name] = self._started(name, ready)
        except BaseException:
            self.close()
            raise

    def _started(self, name: str, ready: Future) -> list[BaseTool]:
        MCP_LOGS.take()  # what the SDK logs from here on is about this server
        try:
            return ready.result(self.timeout)
        except FutureTimeout:
            raise McpError(f"MCP server {name!r} did not start within {self.timeout:g} s "
                           f"(RESEARCH_MCP_TIMEOUT){_logged()}") from None
        except Exception as exc:
            cause, ended = one_line(_root(exc), 200), exit_of(self._spawned.get(name, []), exc,
                                                          at_start=True)
            why = f"{ended} at start-up" if ended else f"failed to start: {cause}"  # not the pipe
            raise McpError(f"MCP server {name!r} {why}{_logged()}") from None

    async def _hold(self, client: Any, name: str, ready: Future) -> None:
        """Open ``name``'s session, hand its tools over, and keep it open until close (the
        session's context is entered and left in this one task, as anyio requires)."""
        from langchain_mcp_adapters.tools import load_mcp_tools

        self._tasks[name] = asyncio.current_task()  # type: ignore[assignment]
        try:
            with watching() as self._spawned[name]:
                async with client.session(name) as session:
                    tools = await load_mcp_tools(session, server_name=name,
                                                 handle_tool_errors=False)
                    self._sessions[name] = session
                    ready.set_result(tools)
                    await self._stop.wait()
        except BaseException as exc:  # noqa: BLE001 - reported to start(), then ended
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(exc))
            if not isinstance(exc, Exception):
                raise

    def check(self) -> None:
        """Ping every server once (a run's start, when the hub is already open).

        Raises:
            McpError: one line naming the first server that does not answer.
        """
        if not self._thread.is_alive():
            raise McpError("MCP sessions are closed")
        for name, why in self._gone.items():
            raise McpError(f"MCP server {name!r} does not answer: {why}")
        for name, session in self._sessions.items():
            try:
                self._submit(session.send_ping(), self.timeout, f"MCP server {name!r}")
            except Exception as exc:
                why = exit_of(self._spawned.get(name, []), exc) or "does not answer"
                raise McpError(f"MCP server {name!r} {why}: {one_line(_root(exc), 200)}"
                               ) from None

    def call(self, server: str, tool: BaseTool, args: dict[str, Any]) -> tuple[str, list[str]]:
        """Call one (async) MCP tool on the hub's loop: its answer's text, and what else the
        answer held, named (``["an image (image/png)"]``: :func:`workers.mcp_offer.answer_parts`).

        Raises:
            TimeoutError: no answer within the hub's timeout.
            McpError: the tool answered with an error, or with no text (nothing, or only an
                image, a file...: nothing the agents can read or cite), or the session is gone.
        """
        what = f"MCP tool {tool.name} of server {server!r}"
        if (gone := self._gone.get(server)) is not None:  # no wait on a session that ended
            raise McpError(f"{what} failed: {gone}")
        try:
            content = self._submit(tool.ainvoke(args), self.timeout, what, server)
        except (TimeoutError, RunCancelled, McpError):
            raise
        except Exception as exc:
            root = _root(exc)  # the server's own error result: its message says it all
            detail = (one_line(root, 200).split(": ", 1)[1] if isinstance(root, ToolException)
                      else one_line(root, 200))
            if ended := exit_of(self._spawned.get(server, []), exc):  # the server is gone
                detail = f"the server {ended} ({detail})"
            if ended or closed_by_server(exc):  # every call it hits fails at once, alike,
                # so the notes name it once with a count (not once per cause the SDK raised)
                detail = self._gone.setdefault(server, f"its session ended: {detail}")
            raise McpError(f"{what} failed: {detail}") from exc
        text, others = answer_parts(content)
        if not text.strip():  # recorded as "", it was never asked again
            raise McpError(f"{what} answered no text, only {', '.join(others)}: the agents "
                           "read text only" if others else f"{what} answered nothing (no content)")
        return text, others

    def close(self) -> None:
        """Close every session and stop the loop thread, waiting (at most
        :data:`CLOSE_WAIT` s) for each session's own shutdown: a stdio server's stdin is
        closed, then it gets SIGTERM, then SIGKILL (the ``mcp`` SDK's ``stdio_client``). A
        server still starting is cancelled the same way. Stopping the loop before that ends
        would leave the server running, holding the caller's stdout and stderr."""
        if not self._thread.is_alive():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(CLOSE_WAIT)
        except Exception:  # noqa: BLE001, S110 - closing: what could be ended was
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(CLOSE_WAIT)
        if not self._thread.is_alive():
            self._loop.close()

    async def _shutdown(self) -> None:
        """Let every session end (``_stop``), cancel those still starting, and wait for all."""
        self._stop.set()
        tasks = [t for t in self._tasks.values() if not t.done()]
        for name, task in self._tasks.items():
            if name not in self._sessions:
                task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_WAIT - 1)


def make_mcp_tools(hub: McpHub, results: McpResults,
                   reserved: Collection[str] = (SEARCH_TOOL, READ_TOOL, WEB_TOOL)
                   ) -> list[BaseTool]:
    """Sync LangChain tools over the tools of ``hub``'s servers, named ``SERVER_TOOL``
    (:func:`workers.mcp_offer.offered_name`).

    Each returns JSON ``{"results": [passage]}`` (see :meth:`Passage.to_dict`), the passage
    cited as ``mcp:SERVER/TOOL``, and ``"note"`` when the answer held what the agents cannot
    read beside its text (an image); an answer recorded in ``results`` is returned without
    calling the server. A failure, a timeout or an answer with no text is handed back to the
    agent as an error result (a ``ToolMessage`` with status ``"error"`` naming it; LangChain's
    ``handle_tool_error``), so the agent answers from its other tools; nothing is recorded, so a
    later task asks again.

    A tool whose ``inputSchema`` cannot be used, a second tool of one server under a name taken,
    and the tools past :data:`~workers.mcp_offer.MAX_TOOLS` are left out, each named in
    ``hub.notes`` (:mod:`workers.mcp_offer` says why these are left out, not refused).

    Raises:
        McpError: tools of two servers get one name (server ``a_b``'s tool ``c`` and server
            ``a``'s tool ``b_c``), or one gets a name in ``reserved``, the agents' own tools'
            (server ``search``'s tool ``corpus``): one line naming them and the way out (rename
            a server in the config). Every agent task failed on it at run time, was sent
            again, and the run ended ``partial``.
    """
    out: list[BaseTool] = []
    named: dict[str, tuple[str, str]] = {}
    left: list[str] = []  # a note per tool left out for its schema or its name
    past: list[str] = []  # the tools past MAX_TOOLS
    for server, tools in hub.tools.items():
        for tool in tools:
            if len(out) >= MAX_TOOLS:
                past.append(f"{server}/{tool.name}")
                continue
            name = offered_name(server, tool.name)
            if name in reserved:
                raise McpError(f"MCP server {server!r}'s tool {tool.name!r} would be offered as "
                               f"{name!r}, the name of one of the agents' own tools "
                               f"({NAMING}): rename the server in the MCP config")
            why = _left_out(named, server, tool, name) or schema_problem(tool)
            if why is not None:
                left.append(f"MCP server {server!r}'s tool {tool.name!r} is left out: {why}; "
                            "the agents are offered the other tools")
                continue
            named[name] = (server, tool.name)
            out.append(_sync_tool(hub, results, server, tool, name))
    hub.notes = _left_notes(left, past)
    return out


def _left_notes(left: list[str], past: list[str], shown: int = 10) -> list[str]:
    """The run's notes of the tools left out: one each for the first ``shown`` (a hostile
    server may list thousands), then a count; and one for all the tools past
    :data:`~workers.mcp_offer.MAX_TOOLS`, three of them named.

    Example:
        >>> _left_notes(["a", "b", "c"], ["s/t1", "s/t2"], shown=2)  # doctest: +ELLIPSIS
        ['a', 'b', '1 more MCP tool(s) left out for such reasons', '2 MCP tool(s) past ...']
    """
    notes = left[:shown]
    if len(left) > shown:
        notes.append(f"{len(left) - shown} more MCP tool(s) left out for such reasons")
    if past:
        named = ", ".join(past[:3]) + (", ..." if len(past) > 3 else "")
        notes.append(f"{len(past)} MCP tool(s) past the first {MAX_TOOLS} are left out (the "
                     f"agents are offered {MAX_TOOLS} at most): {named}")
    return notes


def _left_out(named: dict[str, tuple[str, str]], server: str, tool: BaseTool,
              name: str) -> str | None:
    """Why ``tool`` cannot take ``name``: another tool of its server has it (said, for the
    note); None when it is free.

    Raises:
        McpError: another server's tool has it: renaming a server in the config mends that.
    """
    if name not in named:
        return None
    other_server, other = named[name]
    if other_server == server:  # the server's own names clash: the config cannot mend it
        return f"it would be offered as {name!r}, as its tool {other!r} is ({NAMING})"
    raise McpError(f"MCP server {server!r}'s tool {tool.name!r} and server {other_server!r}'s "
                   f"tool {other!r} would both be offered as {name!r} ({NAMING}): rename one "
                   "of the servers in the MCP config")


def _sync_tool(hub: McpHub, results: McpResults, server: str, tool: BaseTool,
               offered: str) -> BaseTool:
    name = tool.name

    def call(**args: Any) -> str:
        others: list[str] = []
        with results.lock(server, name, args):
            text = results.get(server, name, args)
            if text is None:
                try:
                    text, others = hub.call(server, tool, args)
                except (McpError, TimeoutError) as exc:  # to the agent, as an error result
                    raise ToolException(str(exc)) from exc  # one line, named, masked
                text = results.put(server, name, args, text)
        answer: dict[str, Any] = {"results": [args_passage(server, name, args, text).to_dict()]}
        if others:  # said in the run's notes (workers.agent)
            answer["note"] = (f"MCP tool {name} of server {server!r} answered "
                              f"{', '.join(others)} beside its text: the agents read its text "
                              "only")
        return json.dumps(answer, ensure_ascii=False)

    description = tool.description or f"MCP tool {name} of server {server}"
    return StructuredTool(
        name=offered,
        description=clip(description, MAX_DESCRIPTION) +
        f"\nAnswers are cited as mcp:{server}/{name}: cite the exact `ref` returned.",
        args_schema=tool.args_schema,
        func=call,
        handle_tool_error=True,  # a ToolMessage with status "error", its text the message
    )
