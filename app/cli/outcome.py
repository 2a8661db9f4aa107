"""The one owner of a command's ``--json`` object: every way a command ends with ``--json``
prints one JSON object on one line of stdout, and each carries the same four keys, whatever else
it holds (a run's summary, a review pause, ``inspect``'s thread, ``prune``'s result, or nothing
more when the command stopped on an error):

* ``status``: ``ok``, ``awaiting_review``, ``bad_input``, ``failed``, ``try_later``,
  ``interrupted`` or ``terminated`` (:data:`STATUS`, by exit code, unless the command names one);
* ``exit_code``: the process's exit code (:mod:`app.cli.exit_codes`);
* ``error``: the line printed on stderr (without ``error: ``), or null;
* ``thread_id``: the thread the command ran or was given (its argument or ``--thread-id``), or
  null when it named none.

(``threads --json`` prints its list of threads; it ends with an error object like every command.)
"""

from __future__ import annotations

import json
from typing import Any

from app.cli.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_TRY_LATER,
)
from app.cli.signals import silence_stdout

__all__ = ["KEYS", "STATUS", "exit_object", "json_line", "print_exit_object"]

STATUS = {EXIT_OK: "ok", EXIT_FAILED: "failed", EXIT_BAD_INPUT: "bad_input",
          EXIT_TRY_LATER: "try_later", EXIT_INTERRUPTED: "interrupted",
          EXIT_TERMINATED: "terminated"}
"""The ``status`` of a ``--json`` object, by exit code."""

KEYS = ("status", "exit_code", "error", "thread_id")
"""The keys every ``--json`` object has."""


def exit_object(code: int, *, thread_id: str | None, error: str | None = None,
                body: dict[str, Any] | None = None, status: str | None = None
                ) -> dict[str, Any]:
    """The ``--json`` object of a command that ends with exit ``code``: :data:`KEYS` first,
    then ``body``'s other keys (its own ``status``, ``error`` or ``thread_id`` are replaced).

    Args:
        code: the exit code.
        thread_id: the thread ran or named, or None.
        error: the error line (an ``error: `` prefix is dropped), or None.
        body: what the command reports (a summary, a thread's inspection), or None.
        status: overrides :data:`STATUS`'s (e.g. ``awaiting_review``).
    """
    head = {"status": status or STATUS.get(code, "failed"), "exit_code": code,
            "error": error.removeprefix("error: ") if error else None, "thread_id": thread_id}
    rest = {k: v for k, v in (body or {}).items() if k not in head}
    return {**head, **rest}


def json_line(value: Any) -> str:
    """``value`` as one line of JSON (non-ASCII text as it is, anything else by ``str``): every
    ``--json`` value is printed so, success and error alike, so a script reads one value per
    line (a run's summary was once indented over many lines, its errors on one).

    Example:
        >>> json_line({"status": "ok", "notes": ["a\\nb"], "topic": "café"})
        '{"status": "ok", "notes": ["a\\\\nb"], "topic": "café"}'
    """
    return json.dumps(value, ensure_ascii=False, default=str)


def print_exit_object(code: int, *, thread_id: str | None, error: str | None = None,
                      body: dict[str, Any] | None = None, status: str | None = None) -> None:
    """Print :func:`exit_object` on stdout, on one line (:func:`json_line`; a reader that left
    is no error)."""
    out = exit_object(code, thread_id=thread_id, error=error, body=body, status=status)
    try:
        print(json_line(out), flush=True)
    except BrokenPipeError:
        silence_stdout()
