"""How the CLI stops: SIGTERM like Ctrl-C, and quietly when its reader leaves (a broken pipe)."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM received during a run. A ``KeyboardInterrupt``, so the run stops the way Ctrl-C
    stops it: queued workers are cancelled, the run is recorded as ``interrupted``, and the same
    command resumes it."""


@contextmanager
def sigterm_stops_like_ctrl_c() -> Iterator[None]:
    """While the block runs, SIGTERM (``kill``, ``docker stop``, systemd) raises
    :class:`Terminated` in the main thread instead of ending the process on the spot, which left
    the run marked ``running`` with no word said. A second SIGTERM during the cleanup is ignored.

    Source of the idea: Python's ``signal`` docs (handlers run in the main thread, between
    bytecodes) and how the interpreter turns SIGINT into ``KeyboardInterrupt``.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # one is enough: let the cleanup finish
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def silence_stdout() -> None:
    """Point stdout at /dev/null after a broken pipe, so the interpreter's final flush does not
    print a second error (the recipe in Python's ``signal`` module docs, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
