"""A whole-request deadline for a blocking call that a client's own timeouts do not bound.

HTTP clients (``httpx`` for the model, ``requests`` for the web search) time out per read: a
server that sends one byte a second never trips a 5 s read timeout, and held a run for as
long as it went on dripping. And a request in flight holds a Ctrl-C: the run's stop signal
ends every wait of :mod:`workers.waits`, but not a thread blocked in a socket read.

:func:`within` runs the call on a daemon thread and waits for it in short slices
(:func:`workers.waits.result_within`): the caller gets its result, or a ``TimeoutError`` once
the deadline passes, or :class:`workers.errors.RunCancelled` as soon as the run stops. The call
left behind ends on its own (its read timeout, the server closing); a daemon thread never holds
the process open at exit. Standard library only.

Source of the idea: ``concurrent.futures``' "the call cannot be cancelled once running" (so the
caller stops waiting instead), and ``httpx``'s timeouts doc (timeouts are per operation).
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

from workers.waits import result_within

__all__ = ["within"]

_Result = TypeVar("_Result")


def within(call: Callable[[], _Result], seconds: float, waiting_for: str) -> _Result:
    """``call()``, given at most ``seconds`` in all.

    Args:
        call: the blocking call (an HTTP request read to its end); it runs in this thread's
            context (``contextvars``) on a daemon thread of its own.
        seconds: the deadline for the whole call (> 0).
        waiting_for: what the caller waits for, for the line of a stopped run ("the model
            server's answer").

    Raises:
        TimeoutError: the call did not end within ``seconds``.
        workers.errors.RunCancelled: the run stopped while waiting (a Ctrl-C, a fatal error).
        BaseException: whatever ``call`` raised.

    Example:
        >>> within(lambda: 6 * 7, 1.0, "the answer")
        42
    """
    future: Future[_Result] = Future()
    context = contextvars.copy_context()

    def run() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(context.run(call))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller as it is
            future.set_exception(exc)

    threading.Thread(target=run, name="deadline-call", daemon=True).start()
    try:
        return result_within(future, seconds, waiting_for)
    except FutureTimeout:
        raise TimeoutError(f"no complete answer within {seconds:g} s") from None
