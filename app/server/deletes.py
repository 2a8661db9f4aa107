"""A served thread (or run) is not deleted while a run of it is in flight: the
``@auth.on.threads.delete`` hook of ``app/server/auth.py`` calls :func:`deletion_problem`.

``langgraph dev`` (``langgraph_runtime_inmem``'s ``Threads.delete``) drops a thread, its runs
and its checkpoints, but does not stop the run going on: that run called the model for every
task left, wrote its result rows and report for a thread that no longer existed, and went on
writing checkpoints under the deleted id. A thread created again with that id (by anyone:
``threads.create(thread_id=...)``) then found a checkpoint holding a plan, so its run took the
rows for its own and replaced them (trial S, H1: bob's 3 rows replaced alice's 9). Refused
here (409, one line naming the run and the way on: cancel it, then delete), nothing is deleted
and the run ends as it would have. A run's own record deleted mid-run
(``runs.delete``) would drop its checkpoints from under it the same way: refused the same.
``threads.prune`` names several threads: refused if any has a run in flight.

The runs are read with LangGraph's loopback client, which carries the caller's identity: a
thread the caller cannot see reads as none, and the server answers its own 404.

Source: LangGraph Server's auth guide (``@auth.on.threads.delete``,
``Auth.types.ThreadsDelete``: ``thread_id`` and, for a run's deletion, ``run_id``; a prune
sends ``thread_ids``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["IN_FLIGHT", "deletion_problem"]

IN_FLIGHT = ("running", "pending")
"""The statuses of a run that has not ended."""

_WAY_ON = ("cancel the run first (runs.cancel(thread_id, run_id)) or wait for it to end, "
           "then delete")


async def deletion_problem(value: Mapping[str, Any], client: Any) -> str | None:
    """Why the deletion ``value`` asks for is refused, or None.

    Args:
        value: ``Auth.types.ThreadsDelete`` (``thread_id``, and ``run_id`` for a run's
            deletion) or a prune's ``{"thread_ids": [...]}``.
        client: a ``langgraph_sdk`` async client of this server (the loopback one).

    Returns:
        one line naming the thread, its run in flight and the way on, or None.
    """
    thread_ids = value.get("thread_ids")
    if thread_ids is None:
        thread_ids = [value.get("thread_id")] if value.get("thread_id") is not None else []
    run_id = value.get("run_id")
    for thread_id in thread_ids:
        for run in await _in_flight(client, str(thread_id)):
            if run_id is not None and str(run["run_id"]) != str(run_id):
                continue
            if run_id is not None:
                return (f"run {run_id} of thread {str(thread_id)!r} is in flight "
                        f"({run['status']}): deleting it would drop its checkpoints, not stop "
                        f"it; {_WAY_ON}")
            return (f"thread {str(thread_id)!r} has a run in flight ({run['run_id']}, "
                    f"{run['status']}): deleting the thread would not stop it, and it would go "
                    f"on writing rows and a report for a thread that no longer exists; {_WAY_ON}")
    return None


async def _in_flight(client: Any, thread_id: str) -> list[dict[str, Any]]:
    """The runs of ``thread_id`` not yet ended, as the caller sees them (none: no such thread,
    or another user's)."""
    from langgraph_sdk.errors import NotFoundError

    found: list[dict[str, Any]] = []
    for status in IN_FLIGHT:
        try:
            found += await client.runs.list(thread_id, status=status, limit=100,
                                            select=["run_id", "status"])
        except NotFoundError:
            return []
    return found
