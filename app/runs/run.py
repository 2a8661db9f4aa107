"""One research run, start to finish: find or resume the thread, stream the graph, summarize.

This is the CLI's composition root: it opens the checkpointer and the :class:`Resources` the
graph's nodes look their models and corpus up in, passes the run's settings as LangGraph's
runtime ``context``, and turns the graph's ``custom`` stream into progress events. The CLI parses
arguments and prints; this module does the work, so tests and scripts can call it in-process too.
Thread identity and locking are in ``app/runs/threads.py``, how a run continues its thread in
``app/runs/resume.py``, what it says as it starts in ``app/runs/announce.py``, the streaming in
``app/runs/stream.py``, the summary in ``app/runs/summary.py``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from app.errors import NothingToReview, ThreadMismatch
from app.graph.build import worker_names
from app.graph.resources import Resources
from app.research.notes import too_large
from app.research.plan_check import BadPlan
from app.research.review import ReviewPause, awaiting
from app.research.rounds import recursion_limit
from app.runs.announce import announce, note_choices, note_other_days, planned_once
from app.runs.as_of_note import future_note
from app.runs.choices import choices_record, continued_with
from app.runs.compiled import open_graph
from app.runs.recorded_out import out_record
from app.runs.resume import Start, as_planned, progress_at_start, read_thread, what_to_run
from app.runs.sources_key import SOURCES_METADATA
from app.runs.stream import Event, stream_run, what_was_saved
from app.runs.summary import RunSummary, summarize_run
from app.runs.threads import (
    check_content,
    check_thread,
    corpus_key,
    is_unfinished,
    recorded_run,
    run_thread_id,
)
from app.settings.config import MAX_CONCURRENCY_BOUND, Settings
from app.settings.hints import research_command, thread_command
from app.storage import Storage, StorageLost, ThreadBusy, storage_of

__all__ = ["Event", "RunRequest", "RunSummary", "ThreadBusy", "ThreadMismatch", "run_research"]

THREAD_POOL_SIZE = MAX_CONCURRENCY_BOUND
"""LangGraph's ``max_concurrency`` (128): more threads than tasks in any usual superstep, so the
saving of a finished task's pending writes never queues behind workers waiting to start. It
also caps how many workers run at once, hence ``--max-concurrency``'s bound."""


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
    asked: dict[str, Any] = field(default_factory=dict)
    """The settings given explicitly (the CLI's flags), by name: a client choice the thread's
    plan fixed otherwise is refused when the run continues the thread
    (:func:`app.runs.resume.check_planned_choices`)."""

    @property
    def may_restart(self) -> bool:
        """Whether it may start an unfinished thread whose corpus changed over from its input:
        the topic's own command may; ``resume``, ``review`` and a checkpoint's run refuse it
        (:func:`app.runs.threads.check_content`)."""
        return self.topic is not None and self.review is None and not self.checkpoint_id


def _thread_of(request: RunRequest, settings: Settings, storage: Storage
               ) -> tuple[str, dict[str, Any] | None, Any]:
    """The run's ``thread_id``, its ``runs`` row (or None) and the settings it continues with
    (:func:`continued_with`: its recorded model, search_k...), once the thread is checked
    against the request (:func:`check_thread`, which raises)."""
    thread_id = run_thread_id(request.topic, request.as_of, request.thread_id, request.fresh,
                              storage)
    recorded = recorded_run(storage, thread_id)
    settings = check_thread(request.topic, settings, thread_id, recorded)
    return thread_id, recorded, continued_with(settings, recorded, request.asked)


def run_research(request: RunRequest, settings: Settings, on_event: Event | None = None
                 ) -> RunSummary | ReviewPause:
    """Run (or resume) one research thread to its end, or to a review pause, and summarize it.

    If the thread's last run did not finish, it is resumed from its last checkpoint (input
    ``None``); if it finished, the topic runs again on the same thread and the same envelope ids
    update the same rows (:func:`app.runs.resume.what_to_run` decides). One process at a time
    runs a given thread (the storage's thread lock); a second one is refused.

    Raises:
        ThreadMismatch: the thread belongs to another topic/as_of, or is unfinished on
            another corpus or was planned with other choices than ``request.asked``.
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
    thread_id, recorded, continued = _thread_of(request, settings, storage)
    settings = continued.settings
    resources, restarted = _open_resources(settings, thread_id, recorded, emit,
                                           request.may_restart)
    config = run_config(thread_id, settings)
    with storage.thread_lock(thread_id), \
            open_graph(settings, resources=resources) as (graph, labels, resources):
        workers = worker_names(graph)  # the compiled graph says which workers it has
        snapshot = read_thread(graph, config, thread_id, request.asked, request.checkpoint_id,
                               restart=restarted is not None)
        values = snapshot.values or {}
        check_thread(request.topic, settings, thread_id, recorded, as_of=request.as_of,
                     state=values)
        if restarted is not None:  # from its input: planned again, and paused again
            settings = as_planned(settings, values, request.asked)
            config = run_config(thread_id, settings)
        pending = None if restarted is not None else awaiting(snapshot)
        if (pause := _review_pause(request, snapshot, pending, thread_id)) is not None:
            if request.topic is not None:  # research; review shows it read-only
                _keep_out(storage, thread_id, recorded, settings)
            return pause
        start = what_to_run(request.topic, request.as_of, request.review, snapshot, recorded,
                            thread_id, restarted, settings)
        _record_start(storage, thread_id, start, labels["model"], settings, resources)
        counts = progress_at_start(snapshot, start, workers)
        said = announce(emit, thread_id, values, start, counts, pending is not None, labels,
                        too_large(resources.corpus(settings.context()).notes))
        note_other_days(emit, storage, thread_id, request.topic, request.as_of, recorded, settings)
        note_choices(emit, thread_id, continued, restarted is not None)
        written: dict[str, dict[str, Any]] = {}  # the last "persisted" and "report" events
        unreached = _stream(graph, start, config, settings, resources, storage, counts,
                            planned_once(emit, said), written)
        return _conclude(graph, config, storage, start, labels, len(workers), started,
                         written, unreached, _recompute(start, settings))


def _stream(graph: Any, start: Start, config: dict[str, Any], settings: Settings,
            resources: Resources, storage: Storage, counts: Any, emit: Event,
            written: dict[str, dict[str, Any]]) -> str | None:
    """Stream the run (:func:`app.runs.stream.stream_run`), keeping its last ``persisted`` and
    ``report`` events in ``written`` (what a lost database had saved); the note of a crash
    point never reached, or None.

    Raises:
        BadPlan: the plan was refused at dispatch, naming the way on (:func:`_plan_review_again`).
    """
    def noting(kind: str, data: dict[str, Any]) -> None:
        if kind in ("persisted", "report"):
            written[kind] = data
        emit(kind, data)

    try:
        return stream_run(graph, start.graph_input, config, settings, resources, storage,
                          counts.restored, counts.total, noting, written)
    except BadPlan as exc:
        raise _plan_review_again(exc, graph, config, settings) from None


def _plan_review_again(exc: BadPlan, graph: Any, config: dict[str, Any],
                       settings: Settings) -> BadPlan:
    """``exc`` naming the way on a CLI user has: deciding the thread's plan review again, by
    time travel to its latest plan pause (``review --checkpoint``), when it has one and the
    plan itself is at fault (else a plan the review took, then refused at dispatch, said only
    "was the state edited? edit it again with update_state" to a user who edited none)."""
    if exc.problem is None:
        return exc
    pauses = (snap for snap in graph.get_state_history(config)
              if tuple(snap.next) == ("review_plan",) and snap.interrupts)
    pause = next(pauses, None)  # newest first
    if pause is None:
        return exc
    thread_id = config["configurable"]["thread_id"]
    checkpoint = pause.config["configurable"]["checkpoint_id"]
    review = thread_command("review", thread_id, settings,
                            f" --checkpoint {checkpoint} --question TEXT")
    again = BadPlan(f"the thread's plan cannot run: {exc.problem}; decide its plan review again: "
                    f"{review} (or --approve for the planner's plan), or start a new thread with "
                    "research --fresh")
    again.problem = exc.problem
    return again


def _record_start(storage: Storage, thread_id: str, start: Start, model: str,
                  settings: Settings, resources: Resources) -> None:
    """Record in the ``runs`` table that the run starts (or resumes), with its sources and
    their content fingerprint (:func:`app.runs.threads.corpus_key`), by which a later resume of
    the unfinished thread is checked, its ``--out``, which a later ``review``/``resume`` by
    id writes to (:mod:`app.runs.recorded_out`), and its model, ``--search-k`` and
    ``--max-tokens``, which a later continuation keeps (:mod:`app.runs.choices`)."""
    fingerprint = resources.corpus(settings.context()).content_fingerprint
    with storage.results() as store:
        store.start_run(thread_id, topic=start.topic, as_of=start.as_of, model=model,
                        corpus=corpus_key(settings, fingerprint),
                        report_out=out_record(settings.report_out),
                        choices=choices_record(settings))


def _review_pause(request: RunRequest, snapshot: Any, pending: Any, thread_id: str,
                  ) -> ReviewPause | None:
    """The review pause the thread is at when ``request`` brings no decision (running on would
    skip the review: only ``review THREAD_ID`` continues it); None: the run goes on.

    Raises:
        app.errors.NothingToReview: a decision for a thread that awaits none and has nothing
            left to run.
    """
    values = snapshot.values or {}
    if pending is not None and request.review is None:
        return ReviewPause(thread_id, values.get("topic") or request.topic or "",
                           values.get("as_of") or request.as_of, pending)
    if request.review is not None and pending is None and not is_unfinished(snapshot):
        raise NothingToReview(f"thread {thread_id!r} has nothing awaiting review")
    return None


def _keep_out(storage: Storage, thread_id: str, recorded: dict[str, Any] | None,
              settings: Settings) -> None:
    """Record the ``--out`` of a run that showed the thread's review pause, when it is not the
    one recorded: its continue lines name it, and the decision's report goes there however the
    decision is given (else ``review THREAD --approve`` typed without it went to the recorded
    place, or to ``reports/``)."""
    out = out_record(settings.report_out)
    if recorded is not None and out is not None and out != recorded.get("report_out"):
        with storage.results() as store:
            store.record_out(thread_id, out)


def _recompute(start: Start, settings: Settings) -> str:
    """The printed command that runs the thread again on its own sources, which recomputes its
    rows (a finished thread's ``resume`` has nothing left to run)."""
    folder = settings.corpus_folder(settings.corpus_name) or ""
    return research_command(start.topic, start.as_of, corpus=str(folder), web=settings.web,
                            settings=settings)


def _conclude(graph: Any, config: dict[str, Any], storage: Storage, start: Start,
              labels: dict[str, str], workers: int, started: float,
              written: dict[str, dict[str, Any]], unreached: str | None, recompute: str
              ) -> RunSummary | ReviewPause:
    """After the stream: the thread's review pause (recorded ``awaiting_review``), or the run's
    summary, with the note of a crash point never reached; ``recompute`` is the command that
    runs the thread again (:func:`_recompute`), named when rows are missing.

    Raises:
        app.storage.StorageLost: the database went away after the run's end.
    """
    thread_id = config["configurable"]["thread_id"]
    try:
        final = graph.get_state(config)
        pause = awaiting(final)
        if pause is not None:
            with storage.results() as store:
                store.finish_run(thread_id, status="awaiting_review")
            paused = ReviewPause(thread_id, start.topic, start.as_of, pause)
            paused.crash_unreached = unreached
            return paused
        summary = summarize_run(final.values, storage=storage, thread_id=thread_id,
                                topic=start.topic, as_of=start.as_of, labels=labels,
                                workers=workers, resumed_from=start.resumed_from,
                                started=started, recompute=recompute)
    except Exception as exc:
        if (gone := storage.went_away(exc)) is not None:
            raise StorageLost(what_was_saved(gone, written, ended=thread_id)) from exc
        raise
    if unreached:
        summary.crash_unreached = unreached
        summary.notes.append(unreached)
    if start.restarted:
        summary.notes.append(start.restarted)
    summary.notes += [n for n in (future_note(start.as_of),) if n]  # a typo in the year?
    return summary


def run_config(thread_id: str, settings: Settings) -> dict[str, Any]:
    """The ``RunnableConfig`` of a CLI run of ``thread_id``: LangGraph's thread pool size
    (:data:`THREAD_POOL_SIZE`), a recursion limit sized from ``settings.rounds``, and the run's
    sources in its metadata, which LangGraph keeps in each checkpoint's
    (:data:`app.runs.sources_key.SOURCES_METADATA`)."""
    return {
        "configurable": {"thread_id": thread_id},
        "metadata": {SOURCES_METADATA: corpus_key(settings)},
        # Threads for LangGraph's pool, which also saves pending writes; how many workers
        # *work* at once is the limiter's job (see workers.base.RunScope.limiter).
        "max_concurrency": THREAD_POOL_SIZE,
        # Sized from the work (each round is three supersteps: dispatch, the workers, route;
        # app.research.rounds.recursion_limit), so --rounds 50 fits.
        "recursion_limit": recursion_limit(settings.rounds),
    }


def _open_resources(settings: Settings, thread_id: str, recorded: dict[str, Any] | None,
                    emit: Event, restart: bool) -> tuple[Resources, str | None]:
    """The run's :class:`Resources`, with its models, MCP servers and corpus opened, so that a
    bad model spec, an MCP server that does not start, a corpus with nothing to index or an
    unfinished thread's changed corpus (:func:`app.runs.threads.check_content`; ``recorded``:
    its ``runs`` row) fails before anything is written (before the thread lock creates
    ``locks/``); and, with ``restart``, the note of an unfinished thread that starts again on
    its changed corpus instead (None: none)."""
    resources = Resources(settings)
    try:
        resources.models(settings.context())
        resources.mcp()  # every MCP server starts (one session each for the run), or exit 2
        # A large folder takes a while to index: say which thread it is for, and how far it is.
        # A thread refused on its changed corpus is refused before the build (else resume
        # built an 8 MB index, then refused with exit 2, "nothing written").
        resources.corpus(settings.context(), progress=lambda done, total, reading: emit(
            "indexing", {"thread_id": thread_id, "done": done, "total": total,
                         "reading": reading}),
            before_build=lambda content, stat: check_content(
                thread_id, recorded, content, stat, settings=settings, restart=restart))
        corpus = resources.corpus(settings.context())
        restarted = check_content(thread_id, recorded, corpus.content_fingerprint,
                                  corpus.fingerprint, settings=settings, restart=restart)
    except BaseException:
        resources.close()
        raise
    return resources, restarted
