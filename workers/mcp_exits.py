"""How a stdio MCP server that ended at start-up ended: its exit status, for the one line that
names it ("MCP server 'x' exited with status 3 at start-up"; without it the line said only
"failed to start: BrokenResourceError: (no message)" or "McpError: Connection closed").

The ``mcp`` SDK's ``stdio_client`` spawns the server (``mcp.client.stdio.
_create_platform_compatible_process``) and keeps the process to itself; it waits for it when
the session ends, so once the session failed its ``returncode`` is known. :func:`watching`
records the processes spawned inside it (a ``ContextVar``: the session's task and the tasks it
starts), by wrapping that function once (:func:`install`). Should a later ``mcp`` release rename
it, nothing breaks: the line just has no status.
"""

from __future__ import annotations

import logging
import signal
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from workers.waits import pause

__all__ = ["exit_of", "install", "returncode", "root_error", "watching"]

_SPAWNED: ContextVar[list[Any] | None] = ContextVar("research_mcp_spawned", default=None)


def install() -> None:
    """Wrap the SDK's process creation once so that :func:`watching` sees each process."""
    try:
        import mcp.client.stdio as stdio
    except ImportError:  # pragma: no cover - the mcp extra is part of the project
        return
    create = getattr(stdio, "_create_platform_compatible_process", None)
    if create is None or getattr(create, "_research_watched", False):
        return

    async def spawn(*args: Any, **kwargs: Any) -> Any:
        process = await create(*args, **kwargs)
        if (spawned := _SPAWNED.get()) is not None:
            spawned.append(process)
            if (popen := _popen(process)) is not None:  # the transport lets go of it at exit
                _POPENS[process] = popen
        return process

    spawn._research_watched = True  # type: ignore[attr-defined]
    stdio._create_platform_compatible_process = spawn
    logging.getLogger("asyncio").addFilter(_ReapedChild())


@contextmanager
def watching() -> Iterator[list[Any]]:
    """A list that gets every server process spawned in this context (this task and the tasks
    it starts)."""
    spawned: list[Any] = []
    token = _SPAWNED.set(spawned)
    try:
        yield spawned
    finally:
        _SPAWNED.reset(token)


EXIT_WAIT = 1.0
"""Seconds :func:`exit_of` waits for the end of a server whose stdout closed (the event loop
learns of a child's exit a moment after its last output)."""

_OURS = {signal.SIGTERM, signal.SIGKILL}
"""The signals the SDK ends a server with when its session closes: such an end says nothing
of why the session failed."""


def exit_of(spawned: list[Any], error: BaseException, *, at_start: bool = False) -> str | None:
    """How the last process of ``spawned`` ended, for the line of ``error`` (its session's
    failure): ``"exited with status 3"``, ``"was killed by SIGSEGV"``. None when it says
    nothing of that failure: no process spawned or not ended, a session that failed on
    something other than the server closing it (a server that answered wrongly exits once
    its stdin closes), or an end by the SDK's own SIGTERM or SIGKILL. At start-up
    (``at_start``) a SIGKILL is named too: the SDK sends one only to a server that outlived
    its SIGTERM, and the likelier sender is the kernel's out-of-memory killer (trial 50, F7:
    "failed to start: McpError: Connection closed" said nothing of it).

    Example:
        >>> class P:
        ...     returncode = -11
        >>> exit_of([P()], EOFError()), exit_of([P()], ValueError()), exit_of([], EOFError())
        ('was killed by SIGSEGV', None, None)
    """
    if not spawned or not closed_by_server(error):
        return None
    deadline = time.monotonic() + EXIT_WAIT  # its stdout closed: its end is a moment away
    while (code := returncode(spawned[-1])) is None:
        if time.monotonic() >= deadline:
            return None
        pause(0.05, "an MCP server's exit status")
    if code >= 0:
        return f"exited with status {code}"
    try:
        name = signal.Signals(-code)
    except ValueError:
        return f"was killed by signal {-code}"
    if name == signal.SIGKILL and at_start:
        return "was killed by SIGKILL (the out-of-memory killer? see dmesg)"
    return None if name in _OURS else f"was killed by {name.name}"


def returncode(process: Any) -> int | None:
    """``process``'s exit status (an anyio ``Process``), or None while it runs.

    Two readers race to reap a child on Python 3.11, and the loser reads a false status:
    asyncio's child watcher reports 255 when the transport's ``close()`` polled the
    ``subprocess.Popen`` and reaped it first (CI: a server exiting with status 3 named as 255;
    cpython#86276, cpython#127049), and the Popen says 0 when the watcher reaped it first
    (``Popen._internal_poll`` sets 0 on ``ECHILD``, bpo-15756; CI: status 5 named as 0). So the
    watcher's status is read, and the Popen's only in place of a 255.

    Example:
        >>> from types import SimpleNamespace as NS
        >>> def process(watcher, popen):
        ...     transport = NS(_proc=NS(returncode=popen))
        ...     return NS(returncode=watcher, _process=NS(_transport=transport))
        >>> returncode(process(255, 3)), returncode(process(5, 0)), returncode(process(None, 0))
        (3, 5, None)
    """
    try:
        popen = _POPENS.get(process) or _popen(process)
    except TypeError:  # no weak reference to it: not a process spawn() saw
        popen = _popen(process)
    code = getattr(process, "returncode", None)
    polled = getattr(popen, "returncode", None)
    return polled if code == 255 and polled is not None else code


_POPENS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
"""The ``Popen`` under each process :func:`watching` saw, kept at its spawn: once the child has
exited, asyncio's transport drops it (``_call_connection_lost`` sets ``_proc`` to None), and a
status read after that was the watcher's 255 (CI, 2026-12-06: a server exiting with status 3
named as 255 again)."""


def _popen(process: Any) -> Any:
    inner = getattr(process, "_process", process)
    return getattr(getattr(inner, "_transport", None), "_proc", None)


class _ReapedChild(logging.Filter):
    """Drops asyncio's warning of a child another poll reaped first: :func:`returncode` reads
    the true status, so the line on stderr would be a stray one."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        return not (msg.startswith("Unknown child process pid")
                    or msg.startswith("child process pid %d exit status already read"))


def closed_by_server(error: BaseException) -> bool:
    """Whether ``error`` is the session's end from the server's side (its stdout closed):
    anyio's ``BrokenResourceError``/``ClosedResourceError``/``EndOfStream``, an ``EOFError``, or
    the SDK's ``McpError("Connection closed")``."""
    error = root_error(error)
    names = {"BrokenResourceError", "ClosedResourceError", "EndOfStream", "EOFError"}
    return type(error).__name__ in names or "Connection closed" in str(error)


def root_error(exc: BaseException) -> BaseException:
    """The first leaf of an exception group (anyio wraps a session's failure in one)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc
