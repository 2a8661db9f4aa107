"""How a run stops on a signal: Ctrl-C (SIGINT) and SIGTERM (``kill``, ``docker stop``,
systemd) stop it the same way.

While a run streams, :func:`stop_on_signals` turns either signal into a request, never into an
exception raised at whatever line the main thread happens to be on: the handler sets the run's
stop signal (so workers still queued for a slot, or waiting out a provider's ``Retry-After``,
give up instead of running) and notes which signal came (:class:`Received`). The code that
consumes the stream then stops at its next safe point and raises ``KeyboardInterrupt`` (SIGINT)
or :class:`Terminated` (SIGTERM, a ``KeyboardInterrupt``); the run is recorded as
``interrupted`` and the same command resumes it. A second signal of either kind is ignored, so
the cleanup finishes.

Why not raise from the handler, as Python does for SIGINT: an exception raised inside
``concurrent.futures`` machinery (LangGraph runs the map step's tasks on a thread pool) can
leave a future's lock held, and the run then hangs for good (seen about once in twenty
interrupted runs under load). Before any run exists (``stop`` None: the CLI's start-up,
indexing the corpus, opening the databases) the handler raises at once, as Python's own would
for SIGINT. :func:`app.cli.main` installs it on its first line, for both signals (SIGTERM's
default would kill the process without a word), and ``python -m app`` holds both signals
(:func:`hold_signals`) while it imports the CLI, so none is lost or fatal before that.

Source of the idea: Python's ``signal`` docs ("Python signal handlers are always executed in the
main Python thread ... between bytecode instructions") and the ``concurrent.futures`` caveat that
follows from it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["Received", "Terminated", "hold_signals", "ignore_signals", "raise_unseen",
           "release_signals", "signal_seen", "stop_on_signals"]

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM received during a run: stopped the way Ctrl-C stops it (exit code 143)."""


class _Stop(Protocol):
    def set(self, cause: BaseException | None = None) -> None: ...


@dataclass
class Received:
    """Which stop signal arrived while :func:`stop_on_signals` was active (None: none)."""

    signum: int | None = None

    def exception(self) -> KeyboardInterrupt:
        """What to raise for it: :class:`Terminated` for SIGTERM, else ``KeyboardInterrupt``."""
        return Terminated() if self.signum == signal.SIGTERM else KeyboardInterrupt()


def ignore_signals() -> None:
    """Ignore further SIGINT and SIGTERM (main thread only): the run is already stopping, and
    ``uv run`` forwards the terminal's Ctrl-C to the process a second time. By a handler that
    does nothing, not ``SIG_IGN``: a signal that arrived while the first one's handler ran is
    still pending, and Python, finding it ignored, printed "OSError: Signal 15 ignored due to
    race condition" with a traceback (Ctrl-C, Ctrl-C and SIGTERM within 50 ms, trial 83, F2)."""
    if threading.current_thread() is threading.main_thread():
        for signum in _SIGNALS:
            signal.signal(signum, _ignored)


def _ignored(signum: int, frame: Any) -> None:
    """A stop signal's handler once the run is stopping: nothing to do."""


def hold_signals() -> None:
    """Block SIGINT and SIGTERM (POSIX threads' signal mask; elsewhere nothing) until
    :func:`release_signals`: one that arrives meanwhile stays pending instead of killing the
    process (SIGTERM's default) or raising wherever an import happens to be (SIGINT's).
    ``python -m app`` holds them while it imports the CLI, whose :func:`app.cli.main` releases
    them once its handlers are in place (else SIGTERM in the first seconds of a run killed it
    without a line or a JSON object, where Ctrl-C got both)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)


def release_signals() -> None:
    """Unblock SIGINT and SIGTERM: one held by :func:`hold_signals` is delivered now, to the
    handlers in place (it raises at the caller's next line). Harmless when none was held."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)


_unseen: list[Received] = []
"""The signal whose exception a handler raised with no run yet, until :func:`app.cli.main`
catches it (:func:`signal_seen`)."""


def raise_unseen() -> None:
    """Raise again the stop a handler raised where Python drops exceptions, if it did: in a
    weakref callback or a ``__del__`` (importlib's module-lock callback, during the lazy
    imports) Python prints "Exception ignored in ..." and goes on, and the signals were
    already ignored, so the run finished with exit 0 and no later SIGTERM stopped it (trial
    50, F6). Called as each :func:`stop_on_signals` block starts: a safe point."""
    if _unseen:
        raise _unseen[0].exception()


def signal_seen() -> None:
    """The stop raised by a handler was caught (:func:`app.cli.main`), or a new command starts."""
    _unseen.clear()


@contextmanager
def stop_on_signals(stop: _Stop | None = None) -> Iterator[Received]:
    """While the block runs, SIGINT and SIGTERM stop the run.

    Args:
        stop: the run's stop signal (``workers.base.Cancellation``): the handler sets it and
            records the signal in the :class:`Received` it yields; the block checks it and
            raises ``received.exception()`` at a safe point. None (no run yet): the handler
            raises ``KeyboardInterrupt`` or :class:`Terminated` at once.

    Nested blocks are fine: each restores the handlers it found. Outside the main thread it
    does nothing (Python delivers signals to the main thread only).
    """
    received = Received()
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    previous = {signum: signal.getsignal(signum) for signum in _SIGNALS}

    def on_signal(signum: int, frame: Any) -> None:
        ignore_signals()
        received.signum = signum
        if stop is None:
            _unseen[:] = [received]  # until main() catches it: see raise_unseen
            raise received.exception()
        stop.set()

    raise_unseen()
    for signum in _SIGNALS:
        signal.signal(signum, on_signal)
    try:
        yield received
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
