"""One research run, start to finish: wire the graph, find or resume the thread, stream, summarize.

This is the composition root: the only place that knows every part (settings, models, corpus,
workers, checkpointer, results store, faults). The CLI parses arguments and prints; this module
does the work, so tests and scripts can call it in-process too.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from app.checkpoint import checkpoint_thread_ids, open_checkpointer
from app.config import Settings
from app.faults import FaultPlan
from app.graph import GraphConfig, build_graph, current_envelopes
from app.ids import default_thread_id, sha8
from app.models import make_model
from app.store import RESULTS_DB, ResultsStore
from workers.base import Cancellation, WorkerDeps
from workers.corpus import Corpus
from workers.registry import WORKERS

__all__ = [
    "OpenGraph", "RunRequest", "RunSummary", "ThreadBusy", "ThreadMismatch", "graph_config",
    "open_graph", "run_research", "thread_lock",
]

Event = Callable[[str, dict[str, Any]], None]
"""Progress callback: ``on_event(kind, data)`` with kind ``start``, ``planned``, ``envelope``,
``retry``, ``persisted`` or ``report``."""


THREAD_POOL_SIZE = 128
"""LangGraph's ``max_concurrency``: more threads than tasks in any superstep, so the saving of
a finished task's pending writes never queues behind workers waiting to start."""


class ThreadMismatch(ValueError):
    """The thread exists and belongs to another topic, ``as_of`` or corpus."""


class ThreadBusy(RuntimeError):
    """Another process is running this thread right now."""


@contextmanager
def thread_lock(data_dir: Path, thread_id: str) -> Iterator[None]:
    """Hold an exclusive, non-blocking lock on ``thread_id`` for the life of a run.

    Two processes continuing the same checkpoint at once would both run its tasks and interleave
    its history; rows would stay unique (upserts) but the work is done twice. ``flock`` is
    released by the OS when the process dies, so a SIGKILL never leaves a stale lock.

    Raises:
        ThreadBusy: another process holds it.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: run unlocked
        yield
        return
    folder = data_dir / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{sha8(thread_id)}.lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ThreadBusy(
                f"thread {thread_id!r} is being run by another process; wait for it, or use "
                "--fresh for a new thread"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass
class RunRequest:
    """What to run.

    Attributes:
        topic: the research topic (None: resume ``thread_id`` as it is).
        as_of: ``YYYY-MM-DD``.
        thread_id: None derives it from topic and as_of.
        fresh: start a new thread even if the derived one exists.
        report_out: where to write the report (None: the data dir).
        faults: demonstration faults.
    """

    topic: str | None
    as_of: str
    thread_id: str | None = None
    fresh: bool = False
    report_out: Path | None = None
    faults: FaultPlan = field(default_factory=FaultPlan)


@dataclass
class RunSummary:
    """The end of a run, as the CLI prints it (and ``--json`` emits it)."""

    thread_id: str
    topic: str
    as_of: str
    model: str
    corpus: str
    resumed_from_step: int | None
    sub_questions: list[str]
    envelopes: int
    expected: int
    db_rows: int
    missing_rows: int
    duplicates: int
    persisted: int
    errors: list[dict[str, str]]
    report_path: str | None
    tokens: int
    elapsed_seconds: float
    notes: list[str]

    @property
    def ok(self) -> bool:
        """True when the run completed with a report, every expected envelope is in the database
        once, and none ended in error."""
        return (
            bool(self.report_path)
            and not self.errors
            and self.duplicates == 0
            and self.missing_rows == 0
            and self.db_rows == self.envelopes == self.expected
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``ok`` included)."""
        return {**asdict(self), "ok": self.ok}


class OpenGraph(NamedTuple):
    """What :func:`open_graph` yields."""

    graph: Any
    """The compiled research graph, with a ``SqliteSaver``."""
    labels: dict[str, str]
    """``model`` and ``corpus`` descriptions for display."""
    cancel: Cancellation
    """Set it to make workers that have not started their work give up (Ctrl-C)."""


@contextmanager
def open_graph(settings: Settings, faults: FaultPlan | None = None,
               report_out: Path | None = None) -> Iterator[OpenGraph]:
    """Build the corpus, the models and the graph with a ``SqliteSaver``; yield an
    :class:`OpenGraph`.

    Raises:
        workers.corpus.CorpusError: the corpus folder has nothing to index.
        app.config.ConfigError: a model spec cannot be used.
    """
    data_dir = Path(settings.data_dir)
    corpus = Corpus.open(data_dir, folder=settings.corpus)
    try:
        cfg = graph_config(settings, corpus, faults, report_out)
        labels = {"model": cfg.model_label, "corpus": corpus.description}
        with open_checkpointer(data_dir) as saver:
            cancel = cfg.worker_deps.cancel or Cancellation()
            yield OpenGraph(build_graph(cfg, checkpointer=saver), labels, cancel)
    finally:
        corpus.close()


def graph_config(settings: Settings, corpus: Corpus, faults: FaultPlan | None = None,
                 report_out: Path | None = None) -> GraphConfig:
    """The research graph's wiring for ``settings`` over an open ``corpus``: the models, the
    worker dependencies, rounds, budget and faults.

    Shared by :func:`open_graph` (the CLI, with a ``SqliteSaver``) and ``app/studio.py``
    (LangGraph Server and Studio, which bring their own checkpointer).

    Raises:
        app.config.ConfigError: a model spec cannot be used.
    """
    planner = make_model(settings.model_for("planner"), settings)
    worker_model = make_model(settings.model_for("worker"), settings)
    report_model = make_model(settings.model_for("report"), settings)
    label = worker_model.label
    others = [f"{role}: {choice.label}" for role, choice in
              (("planner", planner), ("report", report_model))
              if choice.label != worker_model.label]
    if others:
        label = f"{label} ({', '.join(others)})"
    summarize = None
    if not report_model.offline:  # the model writes a sourced summary of the persisted rows
        from app.synthesis import make_summarizer

        summarize = make_summarizer(report_model.model, max_attempts=settings.max_attempts,
                                    retry_interval=settings.retry_interval)
    faults = faults or FaultPlan()
    deps = WorkerDeps(
        corpus=corpus,
        model=worker_model.model,
        max_attempts=settings.max_attempts,
        on_attempt=faults.on_attempt if faults.active else None,
        on_done=faults.on_done if faults.active else None,
        limiter=threading.BoundedSemaphore(settings.max_concurrency),
        cancel=Cancellation(),
    )
    return GraphConfig(
        workers=WORKERS,
        worker_deps=deps,
        planner=planner,
        model_label=label,
        data_dir=Path(settings.data_dir),
        rounds=settings.rounds,
        max_tokens=settings.max_tokens,
        retry_interval=settings.retry_interval,
        faults=faults,
        report_out=report_out,
        summarize=summarize,
    )


def _recorded_run(data_dir: Path, thread_id: str) -> dict[str, Any] | None:
    """The ``runs`` row of a thread, read without creating a database that is not there."""
    if not (data_dir / RESULTS_DB).exists():
        return None
    with ResultsStore.in_dir(data_dir) as store:
        return store.run(thread_id)


def _corpus_key(settings: Settings) -> str:
    return str(Path(settings.corpus).resolve()) if settings.corpus else ""


def _check_thread(request: RunRequest, settings: Settings, thread_id: str,
                  recorded: dict[str, Any] | None) -> Settings:
    """Refuse what would lose or mix data before anything is opened; return the settings to use.

    A resume by id with no ``--corpus`` uses the corpus the thread started on; an unfinished
    thread is never continued on another corpus (its report would cite two).

    Raises:
        KeyError: ``resume`` of a thread nobody knows.
        ThreadMismatch: an unfinished thread would be continued on another corpus.
    """
    data_dir = Path(settings.data_dir)
    if request.topic is None:
        if recorded is None and thread_id not in checkpoint_thread_ids(data_dir):
            raise KeyError(f"no thread {thread_id!r} in {data_dir}")
        if settings.corpus is None and recorded and recorded.get("corpus"):
            settings = settings.with_overrides(corpus=Path(recorded["corpus"]))
    unfinished = recorded is not None and recorded["status"] in ("running", "error")
    if unfinished and (recorded.get("corpus") or "") != _corpus_key(settings):
        was = recorded.get("corpus") or "the package docs"
        raise ThreadMismatch(
            f"thread {thread_id!r} is unfinished and was started on {was}; continue it with "
            f"the same corpus{' (--corpus ' + was + ')' if recorded.get('corpus') else ''}, "
            "or start a new thread with --fresh"
        )
    return settings


def run_research(request: RunRequest, settings: Settings, on_event: Event | None = None
                 ) -> RunSummary:
    """Run (or resume) one research thread to the end and summarize it.

    If the thread's last run did not finish, it is resumed from its last checkpoint (input
    ``None``); if it finished, the topic runs again on the same thread and the same envelope ids
    update the same rows. One process at a time runs a given thread (a lock file in the data
    dir); a second one is refused.

    Raises:
        ThreadMismatch: the thread belongs to another topic/as_of, or is unfinished on
            another corpus.
        ThreadBusy: another process is running this thread.
        KeyError: ``topic`` is None and the thread does not exist or has nothing to resume.
        Exception: whatever a node raised that is not turned into an error envelope (a fatal
            model error, for one).
    """
    emit = on_event or (lambda kind, data: None)
    started = time.perf_counter()
    data_dir = Path(settings.data_dir)
    thread_id = request.thread_id
    if thread_id is None:
        assert request.topic is not None
        thread_id = default_thread_id(request.topic, request.as_of)
        if request.fresh:
            thread_id = f"{thread_id}-{time.strftime('%Y%m%dT%H%M%S')}"
    recorded = _recorded_run(data_dir, thread_id)
    settings = _check_thread(request, settings, thread_id, recorded)
    config: dict[str, Any] = {
        "configurable": {"thread_id": thread_id},
        # Threads for LangGraph's pool, which also saves pending writes; how many workers
        # *work* at once is the limiter's job (see WorkerDeps.limiter).
        "max_concurrency": THREAD_POOL_SIZE,
        "recursion_limit": 100,
    }
    with thread_lock(data_dir, thread_id), \
            open_graph(settings, request.faults, request.report_out) as (graph, labels, cancel):
        snapshot = graph.get_state(config)
        values = snapshot.values or {}
        # A kill right after the input checkpoint leaves state without a topic: nothing to
        # compare, and the saved input is still there to resume from.
        state_topic = values.get("topic")
        if state_topic is not None and request.topic is not None and (
            state_topic != request.topic or values.get("as_of") != request.as_of
        ):
            raise ThreadMismatch(
                f"thread {thread_id!r} belongs to topic {state_topic!r} as of "
                f"{values.get('as_of')}; use another --thread-id or --fresh"
            )
        resumed_from: int | None = None
        # Unfinished: tasks left to run, or (``next`` empty) tasks that all finished with
        # saved pending writes while the checkpoint after them was lost (a kill under
        # durability="async"): both resume from the checkpoint, never start over.
        if snapshot.next or snapshot.tasks:
            resumed_from = (snapshot.metadata or {}).get("step", 0)
            graph_input = None
            topic = state_topic or request.topic or (recorded or {}).get("topic")
            as_of = values.get("as_of") or (recorded or {}).get("as_of") or request.as_of
        elif request.topic is None:
            # No checkpoint to continue, but the results DB may know the run: a hard kill under
            # durability="exit" leaves no checkpoint at all, and ``threads`` lists such a run as
            # unfinished. Resuming it means running its topic again on the same thread.
            if recorded is None or recorded["status"] == "finished" or values:
                raise KeyError(f"thread {thread_id!r} has nothing left to resume")
            topic, as_of = recorded["topic"], recorded["as_of"]
            graph_input = {"topic": topic, "as_of": as_of}
        else:
            topic, as_of = request.topic, request.as_of
            graph_input = {"topic": topic, "as_of": as_of}
        if topic is None:
            raise KeyError(f"thread {thread_id!r} has no recorded topic; start it again")

        with ResultsStore.in_dir(data_dir) as store:
            store.start_run(thread_id, topic=topic, as_of=as_of, model=labels["model"],
                            corpus=_corpus_key(settings))
        # On resume, get_state already holds the results of tasks whose pending writes were
        # saved; LangGraph replays them into the stream without running them again.
        restored: set[str] = set()
        if resumed_from is not None:
            restored = {e["envelope_id"] for e in current_envelopes(values)}
        emit("start", {"thread_id": thread_id, "resumed_from_step": resumed_from,
                       "rerun": bool(state_topic) and resumed_from is None,
                       "restored": len(restored), "topic": topic, "as_of": as_of, **labels})
        try:
            _stream(graph, graph_input, config, settings, values, resumed_from, restored, emit,
                    cancel)
        except BaseException as exc:
            with ResultsStore.in_dir(data_dir) as store:
                status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "error"
                store.finish_run(thread_id, status=status)
            raise
        return _summarize(graph, config, data_dir, thread_id, topic, as_of, labels,
                          resumed_from, started)


def _stream(graph: Any, graph_input: Any, config: dict[str, Any], settings: Settings,
            values: dict[str, Any], resumed_from: int | None, restored: set[str],
            emit: Event, cancel: Cancellation) -> None:
    """Run the graph to its end, turning its ``updates`` and ``custom`` stream into events."""
    total = 0
    if resumed_from is not None and values.get("sub_questions"):
        total = len(values["sub_questions"]) * len(WORKERS)
        emit("planned", {"sub_questions": values["sub_questions"], "total": total})
    seen: set[str] = set(restored)
    kwargs: dict[str, Any] = {"stream_mode": ["updates", "custom"]}
    if settings.durability:
        kwargs["durability"] = settings.durability
    stream = graph.stream(graph_input, config, **kwargs)
    try:
        for mode, chunk in stream:
            if mode == "custom":  # written by nodes through runtime.stream_writer
                if isinstance(chunk, dict) and "retry" in chunk:
                    emit("retry", chunk["retry"])
                continue
            for node, delta in chunk.items():
                if not isinstance(delta, dict):
                    continue
                if node == "plan" and "sub_questions" in delta:
                    total = len(delta["sub_questions"]) * len(WORKERS)
                    emit("planned", {"sub_questions": delta["sub_questions"], "total": total})
                elif node == "persist":
                    emit("persisted", {"count": len(delta.get("envelopes", []))})
                elif node == "report":
                    emit("report", {"path": delta.get("report_path")})
                elif "envelopes" in delta:
                    for envelope in delta["envelopes"]:
                        if envelope["envelope_id"] in restored:
                            restored.discard(envelope["envelope_id"])  # replayed, not re-run
                            continue
                        seen.add(envelope["envelope_id"])
                        emit("envelope", {"envelope": envelope, "done": len(seen),
                                          "total": total})
    except KeyboardInterrupt:
        cancel.set()  # workers still waiting for a slot give up instead of running
        # ``uv run`` forwards the terminal's Ctrl-C to us as well, so a second SIGINT can land
        # while LangGraph cancels and waits for its tasks: ignore it during that cleanup.
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        stream.close()
        raise


def _summarize(graph: Any, config: dict[str, Any], data_dir: Path, thread_id: str, topic: str,
               as_of: str, labels: dict[str, str], resumed_from: int | None,
               started: float) -> RunSummary:
    """Read the final checkpoint and the database back, record the run, return its summary."""
    final = graph.get_state(config).values
    envelopes = current_envelopes(final)
    ids = [e["envelope_id"] for e in envelopes]
    with ResultsStore.in_dir(data_dir) as store:
        db_rows = store.rows(ids, thread_id=thread_id)
        duplicates = (len(ids) - len(set(ids))) + store.duplicate_count()
        errors = [
            {"worker": r["worker"], "sub_question": r["task_key"], "error": r["error"] or ""}
            for r in db_rows
            if r["status"] == "error"
        ]
        notes = list(final.get("notes") or [])
        missing = len(set(ids)) - len(db_rows)
        if missing:
            notes.append(
                f"{missing} envelope(s) are marked persisted in the checkpoint but missing from "
                "the results database (was it deleted?); run the same command again to "
                "recompute them"
            )
        summary = RunSummary(
            thread_id=thread_id,
            topic=topic,
            as_of=as_of,
            model=labels["model"],
            corpus=labels["corpus"],
            resumed_from_step=resumed_from,
            sub_questions=list(final.get("sub_questions") or []),
            envelopes=len(envelopes),
            expected=len(final.get("sub_questions") or []) * len(WORKERS),
            db_rows=len(db_rows),
            missing_rows=missing,
            duplicates=duplicates,
            persisted=sum(1 for e in envelopes if e.get("persisted")),
            errors=errors,
            report_path=final.get("report_path"),
            tokens=int(final.get("tokens") or 0),
            elapsed_seconds=round(time.perf_counter() - started, 2),
            notes=notes,
        )
        store.finish_run(
            thread_id,
            status="finished" if summary.ok else "failed",
            tokens=summary.tokens,
            report_path=summary.report_path,
            summary=summary.to_dict(),
        )
    return summary
