"""What a thread's state and its ``runs`` row say of its run: work left
(:func:`is_unfinished` of its state, :data:`UNFINISHED_RUNS` of its row) and the status
``threads`` shows (:func:`thread_status`). Pure: no storage is read here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ROWS_ONLY", "ROWS_ONLY_WHY", "UNFINISHED_RUNS", "is_unfinished", "thread_status"]

ROWS_ONLY = "rows only"
"""The status of a thread with result rows but no checkpoint and no ``runs`` row in this
storage: a LangGraph Server run wrote its rows here, and its checkpoints are the server's
(without it, ``inspect`` said "None as of None" and advised a ``resume`` that refused it)."""

ROWS_ONLY_WHY = ("its result rows are here but not its checkpoints: a LangGraph Server run's "
                 "thread (continue it through the server, which keeps its checkpoints), or its "
                 "checkpoint database was removed")


def is_unfinished(snapshot: Any) -> bool:
    """Whether a thread's latest state (``graph.get_state``, a ``StateSnapshot``) has work
    left: tasks to run (``next``), or tasks that all finished with saved pending writes while
    the checkpoint closing their superstep was lost (a kill under ``durability="async"``:
    ``next`` is empty, ``tasks`` is not). Either way a resume continues from the checkpoint.

    Read through :func:`research_graph` with every worker: a graph without one drops its
    pending ``Send``s from ``next`` and ``tasks`` (langgraph ``pregel/_algo.py``: "Ignoring
    unknown node name").
    """
    return bool(snapshot.next or snapshot.tasks)


UNFINISHED_RUNS = frozenset({"running", "error", "interrupted", "awaiting_review"})
"""``runs`` statuses of a run that did not complete: killed or still running, stopped by an
exception (its checkpoint still has the failed tasks; ``threads`` shows it as ``failed``),
stopped by Ctrl-C, or paused for review. Such a thread resumes, so it never changes sources."""

_SHOWN = {"finished": "finished", "partial": "partial", "failed": "failed", "error": "failed",
          "running": "unfinished",
          "interrupted": "unfinished", "awaiting_review": "awaiting review"}


def thread_status(run_status: str | None, snapshot: Any = None,
                  running: bool = False) -> str:
    """What ``threads`` and ``inspect`` call a thread: ``finished``, ``partial`` (completed,
    some tasks failed for good: its ``outcome``), ``failed`` (completed with every task
    failed or rows missing, or stopped by an exception), ``running`` (a process runs it now),
    ``unfinished`` (killed or interrupted: resume it; or running, where the storage cannot
    tell), ``awaiting review`` or ``unknown``.

    Args:
        run_status: the ``status`` of its ``runs`` row (None: no row).
        snapshot: its latest state, if read: a run recorded ``finished`` whose state still has
            work (:func:`is_unfinished`) is ``unfinished``.
        running: a process holds its lock now (:meth:`app.storage.Storage.running_threads`).
    """
    status = _SHOWN.get(run_status or "", "unknown")
    if status == "finished" and snapshot is not None and is_unfinished(snapshot):
        status = "unfinished"
    return "running" if status == "unfinished" and running else status
