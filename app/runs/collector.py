"""The cyclic garbage collector while ``python -m app`` imports: paused, then everything the
imports made frozen (issue 21, item 12: the command line's fixed cost).

Importing LangGraph, LangChain and pydantic allocates about half a million objects, and the
collector scans them again and again as they arrive: two full collections and some 300 young
ones, about 0.1 s of a warm run's 0.9 s, for almost no garbage (modules, classes and functions
live as long as the process). :func:`pause` (``python -m app``'s first line) stops automatic
collection; :func:`imports_done` (once a command has imported what it needs) moves every object
alive to the permanent generation, which later collections skip (``gc.freeze``), and resumes
collection, so the run's own garbage is collected as usual. What cycles the imports left stay
until exit: at most a few hundred KB.

In-process callers of :func:`app.cli.main` (the tests) never call :func:`pause`, and
:func:`imports_done` then changes nothing. Source: the Python docs of ``gc.freeze`` ("disable
garbage collection early ... and freeze" to keep a process's start-up objects out of later
collections).
"""

from __future__ import annotations

import gc

__all__ = ["imports_done", "pause"]

_paused = False


def pause() -> None:
    """Stop automatic collection until :func:`imports_done` (``python -m app`` only)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def imports_done() -> None:
    """Freeze what is alive and resume automatic collection, if :func:`pause` stopped it; else
    nothing. Idempotent."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
