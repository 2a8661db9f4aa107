"""One research run, start to finish: find or resume the thread, stream the graph, summarize.

This is the CLI's composition root: it opens the checkpointer and the :class:`Resources` the
graph's nodes look their models and corpus up in, passes the run's settings as LangGraph's
runtime ``context``, and turns the graph's ``custom`` stream into progress events. The CLI parses
arguments and prints; this module does the work, so tests and scripts can call it in-process too.
Thread identity and locking are in ``app/runs/threads.py``, the summary in ``app/runs/summary.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from langgraph.runtime import RunControl

from app.errors import NothingToResume, NothingToReview, ThreadMismatch
from app.graph.build import worker_names
from app.graph.resources import Resources
from app.research.review import ReviewPause, awaiting, resume_command
from app.research.rounds import recursion_limit
from app.runs.stop import Received, ignore_signals, stop_on_signals
from app.runs.summary import RunSummary, summarize_run
from app.runs.threads import (
    ThreadBroken,
    check_thread,
    corpus_key,
    is_unfinished,
    recorded_run,
    research_graph,
    run_thread_id,
)
from app.settings.config import Settings
from app.storage import Storage, StorageLost, StorageVanished, ThreadBusy, storage_of
from workers.pacing import stop_waiting_when

__all__ = [
    "OpenGraph", "RunRequest", "RunSummary", "ThreadBusy", "ThreadMismatch", "open_graph",
    "run_research",
]

Event = Callable[[str, dict[str, Any]], None]
"""Progress callback: ``on_event(kind, data)`` with kind ``indexing`` (``{"thread_id", "done",
"total"}``, files, while a folder is indexed), ``start``, ``planned``, ``envelope``, ``retry``,
``persisted`` or ``report``."""


THREAD_POOL_SIZE = 128
"""LangGraph's ``max_concurrency``: more threads than tasks in any superstep, so the saving of
a finished task's pending writes never queues behind workers waiting to start."""


@dataclass
class RunRequest:
    """What to run (the run's settings, ``--out`` and fault flags included, are the
    :class:`app.settings.config.Settings` given to :func:`run_research`).

    Attributes:
        topic: the research topic (None: resume ``thread_id`` as it is).
        as_of: ``YYYY-MM-DD``.
        thread_id: None derives it from topic and as_of.
        fresh: start a new thread even if the derived one exists.
        review: the decision that continues a thread paused for review, the value passed as
            ``Command(resume=review)`` (see ``app/research/review.py``); None: none given. A thread
            paused for review is never continued without one.
    """

    topic: str | None
    as_of: str
    thread_id: str | None = None
    fresh: bool = False
    review: dict[str, Any] | None = None
    checkpoint_id: str | None = None
    """Time travel (``review --checkpoint``): fork the thread from this earlier review pause
    (a copy of it becomes the latest checkpoint, without the decision recorded there), then
    resume with ``review``. Resuming the old checkpoint directly would replay its old decision:
    LangGraph keeps a pause's resume value as a pending write of that checkpoint."""


class OpenGraph(NamedTuple):
    """What :func:`open_graph` yields."""

    graph: Any
    """The compiled research graph, with the storage's checkpointer (``SqliteSaver`` or
    ``PostgresSaver``)."""
    labels: dict[str, str]
    """``model`` and ``corpus`` descriptions for display."""
    resources: Resources
    """Where the graph's nodes look up models, corpus and per-run objects; invoking the graph
    with no ``context`` runs it with the settings given to :func:`open_graph`."""


@contextmanager
def open_graph(settings: Settings, resources: Resources | None = None) -> Iterator[OpenGraph]:
    """Build the models and open the corpus of ``settings`` (each once: the graph's nodes find
    them cached), and compile the graph (:func:`app.runs.threads.research_graph`, the web workers
    with ``settings.web``) with the storage's checkpointer (:mod:`app.storage`); yield an
    :class:`OpenGraph`. The resources (given, or made here) are closed on exit.

    Raises:
        workers.sources.CorpusError: the corpus folder has nothing to index.
        app.settings.config.ConfigError: a model spec cannot be used.
        app.storage.StorageError: the database is damaged or cannot be reached.
    """
    context = settings.context()
    resources = resources or Resources(settings)
    try:
        models = resources.models(context)
        corpus = resources.corpus(context)
        labels = {"model": models.label, "corpus": corpus.description}
        if (web := resources.web(context)) is not None:  # --web: fails early without a key
            labels["corpus"] += f" + {web.description}"
        if (mcp := resources.mcp()) is not None:  # the tools the agents are offered besides
            labels["corpus"] += f" + MCP tools of {', '.join(mcp[0].connections)}"
        with resources.storage().checkpointer() as saver:
            graph = research_graph(saver, web=context.web, resources=resources)
            yield OpenGraph(graph, labels, resources)
    finally:
        resources.close()


def run_research(request: RunRequest, settings: Settings, on_event: Event | None = None
                 ) -> RunSummary | ReviewPause:
    """Run (or resume) one research thread to its end, or to a review pause, and summarize it.

    If the thread's last run did not finish, it is resumed from its last checkpoint (input
    ``None``); if it finished, the topic runs again on the same thread and the same envelope ids
    update the same rows. One process at a time runs a given thread (the storage's thread
    lock); a second one is refused.

    Raises:
        ThreadMismatch: the thread belongs to another topic/as_of, or is unfinished on
            another corpus.
        ThreadBusy: another process is running this thread.
        ThreadBroken: the thread's checkpoint cannot be read back (the message names --fresh).
        app.errors.UnknownThread: ``topic`` is None and the thread does not exist.
        app.errors.NothingToResume: ``topic`` is None and the thread has nothing to resume.
        app.errors.NothingToReview: ``request.review`` given for a thread that awaits no review
            and has nothing left to run.
        app.settings.config.ConfigError: a model spec cannot be used (raised before anything is
            written).
        Exception: whatever a node raised that is not turned into an error envelope (a fatal
            model error, for one).
    """
    emit = on_event or (lambda kind, data: None)
    started = time.perf_counter()
    storage = storage_of(settings)
    thread_id = run_thread_id(request.topic, request.as_of, request.thread_id, request.fresh,
                              storage)
    recorded = recorded_run(storage, thread_id)
    settings = check_thread(request.topic, settings, thread_id, recorded)
    resources = Resources(settings)
    try:
        resources.models(settings.context())  # a bad model spec fails before any write
        resources.mcp()  # every MCP server starts (one session each for the run), or exit 2
        # A corpus with nothing to index fails before the thread lock creates ``locks/``. A
        # large folder takes a while to index: say which thread it is for, and how far it is.
        resources.corpus(settings.context(), progress=lambda done, total: emit(
            "indexing", {"thread_id": thread_id, "done": done, "total": total}))
    except BaseException:
        resources.close()
        raise
    config: dict[str, Any] = {
        "configurable": {"thread_id": thread_id},
        # Threads for LangGraph's pool, which also saves pending writes; how many workers
        # *work* at once is the limiter's job (see workers.base.RunScope.limiter).
        "max_concurrency": THREAD_POOL_SIZE,
        # Sized from the work (each round is two supersteps), so --rounds 50 fits.
        "recursion_limit": recursion_limit(settings.rounds),
    }
    with storage.thread_lock(thread_id), \
            open_graph(settings, resources=resources) as (graph, labels, resources):
        workers = worker_names(graph)  # the compiled graph says which workers it has
        if request.checkpoint_id is not None:
            old = {"configurable": {"thread_id": thread_id,
                                    "checkpoint_id": request.checkpoint_id}}
            graph.update_state(old, None, as_node="__copy__")  # LangGraph's fork by copy
        try:
            snapshot = graph.get_state(config)
        except Exception as exc:  # e.g. saved writes that LangGraph refuses to apply again
            from workers.errors import one_line

            raise ThreadBroken(f"thread {thread_id!r} cannot be resumed: {one_line(exc, 200)}; "
                               "start a new thread with --fresh") from exc
        values = snapshot.values or {}
        check_thread(request.topic, settings, thread_id, recorded, as_of=request.as_of,
                     state=values)
        state_topic = values.get("topic")
        resumed_from: int | None = None
        pending = awaiting(snapshot)
        if pending is not None and request.review is None:
            # Paused for review: only a decision continues it (``review THREAD_ID``); running
            # on would skip the review.
            return ReviewPause(thread_id, state_topic or request.topic or "",
                               values.get("as_of") or request.as_of, pending)
        if request.review is not None and pending is None and not is_unfinished(snapshot):
            raise NothingToReview(f"thread {thread_id!r} has nothing awaiting review")
        # Unfinished (``is_unfinished``: tasks left, or all finished with their writes saved
        # while the checkpoint after them was lost): resume from the checkpoint, never start
        # over. (A review decision given after the run went on, e.g. killed while persisting
        # an approved review, continues it the same way.)
        if is_unfinished(snapshot):
            resumed_from = (snapshot.metadata or {}).get("step", 0)
            graph_input = None if pending is None else resume_command(snapshot, request.review)
            topic = state_topic or request.topic or (recorded or {}).get("topic")
            as_of = values.get("as_of") or (recorded or {}).get("as_of") or request.as_of
        elif request.topic is None:
            # No checkpoint to continue, but the results DB may know the run: a hard kill under
            # durability="exit" leaves no checkpoint at all, and ``threads`` lists such a run as
            # unfinished. Resuming it means running its topic again on the same thread.
            if recorded is None or recorded["status"] == "finished" or values:
                raise NothingToResume(f"thread {thread_id!r} has nothing left to resume")
            topic, as_of = recorded["topic"], recorded["as_of"]
            graph_input = {"topic": topic, "as_of": as_of}
        else:
            topic, as_of = request.topic, request.as_of
            graph_input = {"topic": topic, "as_of": as_of}
        if topic is None:
            raise NothingToResume(f"thread {thread_id!r} has no recorded topic; start it again")

        with storage.results() as store:
            store.start_run(thread_id, topic=topic, as_of=as_of, model=labels["model"],
                            corpus=corpus_key(settings))
        # On resume, the tasks of the interrupted superstep whose pending writes were saved
        # are not run again (and write no progress event): count those, not the envelopes
        # already in state (a thread run again holds every envelope of its earlier run).
        restored: set[str] = set()
        step_tasks = 0
        if resumed_from is not None:
            restored = restored_envelope_ids(snapshot)
            step_tasks = sum(1 for t in snapshot.tasks if t.name in workers)
        emit("start", {"thread_id": thread_id, "resumed_from_step": resumed_from,
                       "rerun": bool(state_topic) and resumed_from is None,
                       "restored": len(restored), "step_tasks": step_tasks,
                       "at": sorted(set(snapshot.next or ())) if resumed_from is not None else [],
                       "review": pending is not None,
                       "topic": topic, "as_of": as_of, **labels})
        total = 0
        if resumed_from is not None and values.get("sub_questions"):
            total = len(values["sub_questions"]) * len(workers)
            if pending is None:  # a review decision: the plan was shown at the pause
                emit("planned", {"sub_questions": values["sub_questions"], "total": total})
        control = RunControl()  # identifies this run's per-run objects (app.graph.resources)
        written: dict[str, dict[str, Any]] = {}  # the last "persisted" and "report" events

        def noting(kind: str, data: dict[str, Any]) -> None:
            if kind in ("persisted", "report"):
                written[kind] = data
            emit(kind, data)

        try:
            _stream(graph, graph_input, config, settings, control, resources, restored,
                    step_tasks or total, noting)
        except BaseException as exc:
            if (gone := storage.went_away(exc)) is not None:
                _record_failure(storage, thread_id)
                raise StorageLost(what_was_saved(gone, written)) from exc
            if not isinstance(exc, StorageVanished):  # else it would make the data dir again
                with storage.results() as store:
                    status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "error"
                    store.finish_run(thread_id, status=status)
            raise
        finally:
            # Alive here with a crash point set: the run never reached it.
            unreached = resources.run_for(control, settings.context()).faults.unreached()
            resources.release(control)
        try:
            final = graph.get_state(config)
            pause = awaiting(final)
            if pause is not None:
                with storage.results() as store:
                    store.finish_run(thread_id, status="awaiting_review")
                paused = ReviewPause(thread_id, topic, as_of, pause)
                paused.crash_unreached = unreached
                return paused
            summary = summarize_run(final.values, storage=storage,
                                    thread_id=thread_id, topic=topic, as_of=as_of,
                                    labels=labels, workers=len(workers),
                                    resumed_from=resumed_from, started=started)
        except Exception as exc:
            if (gone := storage.went_away(exc)) is not None:
                raise StorageLost(what_was_saved(gone, written, ended=thread_id)) from exc
            raise
        if unreached:
            summary.crash_unreached = unreached
            summary.notes.append(unreached)
        return summary


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


def restored_envelope_ids(snapshot: Any) -> set[str]:
    """The envelope ids in the saved pending writes of a thread's interrupted superstep: the
    results a resume restores instead of running their tasks again.

    Args:
        snapshot: the thread's ``StateSnapshot`` (``graph.get_state``); each of its ``tasks``
            carries ``result``, the writes saved for it (None: it did not finish).
    """
    out: set[str] = set()
    for task in snapshot.tasks or ():
        written = (task.result or {}).get("envelopes") if isinstance(task.result, dict) else None
        for envelope in written if isinstance(written, list) else [written] if written else []:
            if isinstance(envelope, dict) and envelope.get("envelope_id"):
                out.add(envelope["envelope_id"])
    return out


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
    At each event, a data dir deleted under the run (``storage.vanished()``) stops it:
    :class:`app.storage.StorageVanished`."""
    try:
        for chunk in stream:
            if received.signum is not None:
                break
            if storage is not None and (why := storage.vanished()):
                resources.run_for(control, context).scope.cancel.set()  # queued workers give up
                stream.close()
                raise StorageVanished(why)
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
