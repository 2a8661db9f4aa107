"""How the CLI stops quietly when its reader leaves (a broken pipe). Signals:
:mod:`app.runs.stop`."""

from __future__ import annotations

import os
import sys


def silence_stdout() -> None:
    """Point stdout at /dev/null after a broken pipe, so the interpreter's final flush does not
    print a second error (the recipe in Python's ``signal`` module docs, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
