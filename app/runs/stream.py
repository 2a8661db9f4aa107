"""Stream a run's graph: progress events from its ``custom`` stream, signals, and the run's end
when its storage goes away.

Part of the CLI's run (``app/runs/run.py``). The nodes write progress to LangGraph's ``custom``
stream (``runtime.stream_writer``); :func:`stream_run` turns it into the ``on_event`` callback's
events, stops on Ctrl-C or SIGTERM, and records how the run ended in the results database.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from langgraph.runtime import RunControl

from app.graph.resources import Resources
from app.runs.stop import Received, ignore_signals, stop_on_signals
from app.settings.config import Settings
from app.storage import Storage, StorageLost, StorageVanished
from workers.waits import stop_waiting_when

__all__ = ["Event", "stream_run", "what_was_saved"]

Event = Callable[[str, dict[str, Any]], None]
"""Progress callback: ``on_event(kind, data)`` with kind ``indexing`` (``{"thread_id", "done",
"total", "reading"}``, files, and the one read next, while a folder is indexed), ``start``,
``planned``, ``envelope``, ``retry``, ``persisted`` or ``report``."""


class _CallbacksAfterShutdown(logging.Filter):
    """Drops ``concurrent.futures``' "exception calling callback" record (a whole traceback on
    stderr, through logging's last-resort handler) when the callback failed only because the
    executor was already shut down: a task that raised ends LangGraph's step and shuts its
    executor down while sibling tasks still finish, and their done-callbacks (saving their
    writes) can no longer schedule anything. That task's own error is the one reported (one
    line, by the CLI); the siblings' writes are not saved either way."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not (str(record.msg).startswith("exception calling callback")
                    and isinstance(exc, RuntimeError)
                    and str(exc).startswith("cannot schedule new futures after"))


_futures_log = logging.getLogger("concurrent.futures")
if not any(isinstance(f, _CallbacksAfterShutdown) for f in _futures_log.filters):
    _futures_log.addFilter(_CallbacksAfterShutdown())


def stream_run(graph: Any, graph_input: Any, config: dict[str, Any], settings: Settings,
               resources: Resources, storage: Storage, restored: set[str], total: int,
               emit: Event, written: dict[str, dict[str, Any]]) -> str | None:
    """Stream ``graph`` on ``config``'s thread to its end (or a review pause); return the note
    for a crash point the run never reached (``--crash-at``), or None.

    Args:
        graph_input: see :class:`app.runs.resume.Start`.
        restored: envelope ids a resume restores (counted as done).
        total: the ``[done/total]`` count to start from.
        emit: the progress callback.
        written: the run's last ``persisted`` and ``report`` events, by kind (the callback
            keeps them), for the line of a run whose database went away.

    Raises:
        app.storage.StorageLost: the database went away (the run is recorded ``error`` if it
            can be reached again).
        app.storage.StorageVanished: the data dir was deleted under the run.
        KeyboardInterrupt: Ctrl-C or SIGTERM (the run is recorded ``interrupted``).
    """
    thread_id = config["configurable"]["thread_id"]
    control = RunControl()  # identifies this run's per-run objects (app.graph.resources)
    try:
        _stream(graph, graph_input, config, settings, control, resources, restored, total,
                emit)
    except BaseException as exc:
        if (gone := storage.went_away(exc)) is not None:
            _record_failure(storage, thread_id)
            raise StorageLost(what_was_saved(gone, written)) from exc
        if isinstance(exc, StorageVanished):  # recording it would make the data dir again
            raise
        if (vanished := storage.vanished()) is not None:  # what a node raised after it: the
            raise StorageVanished(vanished) from exc  # deletion is the cause, said as one line
        with storage.results() as store:
            status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "error"
            store.finish_run(thread_id, status=status)
        raise
    finally:
        # Alive here with a crash point set: the run never reached it.
        unreached = resources.run_for(control, settings.context()).faults.unreached()
        resources.release(control)
    return unreached


def what_was_saved(gone: str, written: dict[str, dict[str, Any]],
                   ended: str | None = None) -> str:
    """The one line for a run whose database went away (``gone``, from
    :meth:`app.storage.Storage.went_away`): what of it was written, and how to go on.

    Args:
        gone: the cause, e.g. "the PostgreSQL database at URL went away during the run (...)".
        written: the run's last ``persisted`` (``{"count": N}``) and ``report``
            (``{"path": ...}``) progress events, by kind; either may be missing.
        ended: the thread id, when the graph had run to its end (its last checkpoint saved)
            and only reading its final state and summary failed.

    Example:
        >>> what_was_saved("gone", {"persisted": {"count": 3}}).split(":")[0]
        'gone; its 3 rows were written, but not the report nor the final checkpoint'
    """
    if ended is not None:
        return (f"{gone} after the run ended: its rows, report and last checkpoint were saved, "
                f"but its summary could not be read; `inspect {ended}` shows it once the "
                "database is back")
    again = "run the same command again once the database is back"
    if "persisted" not in written:
        return f"{gone}; {again} to resume from the last checkpoint that was saved"
    rows = f"its {written['persisted'].get('count', 0)} rows"
    if "report" in written:
        return (f"{gone}; {rows} and the report ({written['report'].get('path')}) were "
                "written, but the run's final checkpoint could not be saved: "
                f"{again} to record the thread as finished")
    return (f"{gone}; {rows} were written, but not the report nor the final checkpoint: "
            f"{again} to finish it")


def _record_failure(storage: Storage, thread_id: str) -> None:
    """Mark the run ``error`` in the results database if it is reachable again (a restarted
    server is, a stopped one is not: then the record says ``running`` until the next run)."""
    try:
        with storage.results() as store:
            store.finish_run(thread_id, status="error")
    except Exception:  # noqa: BLE001 - the database that went away is the error reported
        pass


def _stream(graph: Any, graph_input: Any, config: dict[str, Any], settings: Settings,
            control: RunControl, resources: Resources, restored: set[str], total: int,
            emit: Event) -> None:
    """Run the graph to its end (or a review pause), turning the events its nodes write to the
    ``custom`` stream (``runtime.stream_writer``) into progress events.

    Progress counts per map step: ``[done/total]`` of this step's tasks (the plan's for round
    1, the re-sent ones for a later round), the restored ones counted as done."""
    seen: set[str] = set(restored)
    context = settings.context()
    kwargs: dict[str, Any] = {"stream_mode": "custom", "context": context, "control": control}
    if settings.durability:
        kwargs["durability"] = settings.durability
    cancel = resources.run_for(control, context).scope.cancel
    # Every wait inside the run (a retry's backoff, a Retry-After) ends when it stops; LangGraph
    # copies this context into the threads that run its tasks.
    with stop_on_signals(cancel) as received, stop_waiting_when(cancel):
        _consume(graph.stream(graph_input, config, **kwargs), control, resources, context, seen,
                 total, emit, received, resources.storage())


def _consume(stream: Any, control: RunControl, resources: Resources, context: Any,
             seen: set[str], total: int, emit: Event, received: Received,
             storage: Storage | None = None) -> None:
    """Turn the stream's events into progress events. On Ctrl-C or SIGTERM (``received``, set
    by :func:`app.runs.stop.stop_on_signals`, which has already told the workers to stop), close the
    stream at the next event, or once the run's tasks give up, and raise the signal's
    ``KeyboardInterrupt``; a run that ended first (finished, or paused for review) stands.
    At each event, a data dir deleted under the run (``storage.vanished()``), or a thread lock
    this process no longer holds (``storage.lock_lost()``), stops it:
    :class:`app.storage.StorageVanished` (:class:`app.storage.ThreadLockLost`)."""
    try:
        for chunk in stream:
            if received.signum is not None:
                break
            if storage is not None and (lost := storage.lost()):
                resources.run_for(control, context).scope.cancel.set()  # queued workers give up
                stream.close()
                raise lost
            if not isinstance(chunk, dict):
                continue
            if "planned" in chunk:
                total, seen = chunk["planned"]["total"], set()
                emit("planned", chunk["planned"])
            elif "dispatched" in chunk:  # a later round, or tasks re-sent at review
                total, seen = chunk["dispatched"]["tasks"], set()
                emit("dispatched", chunk["dispatched"])
            elif "envelope" in chunk:
                envelope = chunk["envelope"]
                seen.add(envelope["envelope_id"])
                emit("envelope", {"envelope": envelope, "done": len(seen), "total": total})
            elif "retry" in chunk:
                emit("retry", chunk["retry"])
            elif "waiting" in chunk:  # a long wait, said once (workers.waits.announce_wait)
                emit("waiting", chunk["waiting"])
            elif "persisted" in chunk:
                emit("persisted", chunk["persisted"])
            elif "report" in chunk:
                emit("report", chunk["report"])
        else:
            return
    except Exception:
        if received.signum is None:
            raise  # the run failed on its own
        # the queued workers gave up (RunCancelled) because of the signal: report the signal
    except KeyboardInterrupt:  # Python's own handler (a signal outside stop_on_signals)
        resources.run_for(control, context).scope.cancel.set()
        ignore_signals()
        stream.close()
        raise
    stream.close()  # LangGraph waits for the running tasks, which stop at once
    raise received.exception()
