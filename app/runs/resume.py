"""What a run gives the graph: resume the thread's checkpoint, run its topic again, or start it.

Part of the CLI's run (``app/runs/run.py``): the decision is made from the thread's
``StateSnapshot`` and its record in the results database, after ``app/runs/threads.py`` has
judged that the run may continue the thread at all. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.errors import NothingToResume, ThreadMismatch
from app.research.review import awaiting, resume_command
from app.research.rounds import routing_of
from app.runs.thread_sources import run_again
from app.runs.threads import ThreadBroken, is_unfinished

__all__ = ["PLANNED_CHOICES", "Start", "StartCounts", "as_planned", "check_planned_choices",
           "progress_at_start", "read_thread", "restored_envelope_ids", "what_to_run"]

PLANNED_CHOICES = ("review", "rounds")
"""The client choices ``plan`` writes into the thread's state (``state.Routing``): a run that
continues the thread after its plan goes on with the plan's, whatever the run's context says."""


@dataclass(frozen=True)
class Start:
    """How a run starts its thread.

    Attributes:
        graph_input: what ``graph.stream`` gets: None (resume from the checkpoint), a
            ``Command(resume=...)`` (a review decision), or ``{"topic", "as_of"}`` (a run).
        topic: the run's topic.
        as_of: the run's ``YYYY-MM-DD``.
        resumed_from: the checkpoint's step when resuming, else None.
        restarted: why an unfinished thread starts again from its input instead of resuming
            (:func:`app.runs.thread_sources.check_content`), else None.
    """

    graph_input: Any
    topic: str
    as_of: str
    resumed_from: int | None = None
    restarted: str | None = None


def what_to_run(topic: str | None, as_of: str, review: dict[str, Any] | None, snapshot: Any,
                recorded: Mapping[str, Any] | None, thread_id: str,
                restarted: str | None = None, settings: Any = None) -> Start:
    """Decide how a run continues ``thread_id``.

    An unfinished thread (:func:`app.runs.threads.is_unfinished`: tasks left, or all finished
    with their writes saved while the checkpoint after them was lost) resumes from its
    checkpoint, never starts over; a review decision given after the run went on (e.g. killed
    while persisting an approved review) continues it the same way. With no checkpoint to
    continue, a thread the results database records as unfinished (a hard kill under
    ``durability="exit"`` saves no checkpoint) runs its recorded topic again. Otherwise the
    given topic runs (again) on the thread.

    Args:
        topic: the command's topic; None for ``resume``/``review``.
        as_of: the command's ``YYYY-MM-DD``.
        review: the review decision passed as ``Command(resume=...)``, or None.
        snapshot: the thread's ``StateSnapshot``.
        recorded: the thread's run record (``app.runs.threads.recorded_run``), or None.
        thread_id: for the error messages.
        restarted: the note of an unfinished thread whose corpus changed, which starts again
            from ``topic`` instead of resuming (``topic`` is given).
        settings: the command's (an :class:`app.settings.config.Settings`): when nothing is
            left to resume, the line names the command that runs the thread's topic again
            (:func:`app.runs.thread_sources.run_again`), which mends a finished thread that
            lost a row (the line said only "nothing left to resume").

    Raises:
        app.errors.NothingToResume: no topic given and nothing left to resume.
    """
    values = snapshot.values or {}
    resumed_from: int | None = None
    if restarted and topic is not None:
        return Start({"topic": topic, "as_of": as_of}, topic, as_of, None, restarted)
    if is_unfinished(snapshot):
        resumed_from = (snapshot.metadata or {}).get("step", 0)
        graph_input = None if awaiting(snapshot) is None else resume_command(snapshot, review)
        topic = values.get("topic") or topic or (recorded or {}).get("topic")
        as_of = values.get("as_of") or (recorded or {}).get("as_of") or as_of
    elif topic is None:
        if recorded is None or recorded["status"] == "finished" or values:
            again = run_again(recorded, thread_id, settings) if recorded is not None else None
            raise NothingToResume(f"thread {thread_id!r} has nothing left to resume" + (
                f": its run finished; {again} runs it again and writes any of its rows that "
                "are missing" if again else ""))
        topic, as_of = recorded["topic"], recorded["as_of"]
        graph_input = {"topic": topic, "as_of": as_of}
    else:
        graph_input = {"topic": topic, "as_of": as_of}
    if topic is None:
        raise NothingToResume(f"thread {thread_id!r} has no recorded topic; start it again")
    return Start(graph_input, topic, as_of, resumed_from)


def check_planned_choices(asked: Mapping[str, Any], snapshot: Any, thread_id: str) -> None:
    """Refuse a choice given explicitly (a flag of ``resume``, ``review`` or of ``research`` on
    an unfinished thread) that the thread's plan fixed otherwise: the run would continue with
    the plan's (``resume T --review`` of a thread planned without review ran to the end
    without pausing, and ``--rounds 5`` took the plan's 2, without a word). A thread that is not
    unfinished plans again, and one killed before ``plan`` ran has no plan yet: both take them.

    Args:
        asked: the choices given explicitly, by name (only :data:`PLANNED_CHOICES` are read).
        snapshot: the thread's ``StateSnapshot`` (of the checkpoint the run continues).
        thread_id: for the message.

    Raises:
        app.errors.ThreadMismatch: one line naming the plan's value and the way out.
    """
    routing = (snapshot.values or {}).get("routing") or {}
    if not is_unfinished(snapshot):
        return
    for name in PLANNED_CHOICES:
        if name in asked and name in routing and asked[name] != routing[name]:
            given = _as_flag(name, asked[name])
            planned = (f"with {_as_flag(name, routing[name])}" if routing[name] else
                       f"without {_as_flag(name, True)}")
            raise ThreadMismatch(
                f"thread {thread_id!r} is unfinished and was planned {planned}, which a run "
                f"that continues it keeps: leave {given} out, or run its topic on a new thread "
                f"with research --fresh {given}")


def as_planned(settings: Any, values: Mapping[str, Any], asked: Mapping[str, Any]) -> Any:
    """The settings (a :class:`app.settings.config.Settings`) of a thread that starts again
    from its input (its corpus changed while it was unfinished or paused for review): the
    review and rounds its plan was made with (``values["routing"]``), unless this command asks
    for others (``asked``). Once, the plain command of a thread paused by ``--review`` showed
    its old plan; run again without the review, it would skip the plan review it was started
    for."""
    routing = values.get("routing") or {}
    kept = {name: routing[name] for name in PLANNED_CHOICES
            if name in routing and name not in asked}
    return settings.with_overrides(**kept) if kept else settings


def _as_flag(name: str, value: Any) -> str:
    """The flag that asks for ``value`` (``--review``, ``--rounds 5``; "" for no review)."""
    if name == "review":
        return "--review" if value else ""
    return f"--{name} {value}"


@dataclass(frozen=True)
class StartCounts:
    """What the progress display knows before the stream's first event.

    Attributes:
        restored: envelope ids a resume restores from saved pending writes (their tasks do
            not run again, and write no progress event).
        step_tasks: the workers' tasks of the interrupted superstep.
        total: the count ``[done/total]`` starts from.
        at: the nodes a resume starts at (``snapshot.next``), sorted.
        planned: the ``planned`` event to show again on a resume (the plan was made by an
            earlier run: ``resumed`` True, so it is not said as planned now), or None.
    """

    restored: set[str] = field(default_factory=set)
    step_tasks: int = 0
    total: int = 0
    at: list[str] = field(default_factory=list)
    planned: dict[str, Any] | None = None


def progress_at_start(snapshot: Any, start: Start, workers: Collection[str]) -> StartCounts:
    """Count what a resume restores and what is left (a new run: all zero, as the plan has not
    been made). On resume, the tasks of the interrupted superstep whose pending writes were
    saved are not run again: count those, not the envelopes already in state (a thread run
    again holds every envelope of its earlier run).

    Args:
        snapshot: the thread's ``StateSnapshot`` before the run.
        start: :func:`what_to_run`'s decision.
        workers: the compiled graph's worker node names (``app.graph.build.worker_names``).
    """
    if start.resumed_from is None:
        return StartCounts()
    values = snapshot.values or {}
    questions = values.get("sub_questions") or []
    planned_total = len(questions) * len(workers)
    step_tasks = sum(1 for t in snapshot.tasks if t.name in workers)
    first = routing_of(values, list(workers))["first_round"]  # the resumed run's own
    return StartCounts(
        restored=restored_envelope_ids(snapshot), step_tasks=step_tasks,
        total=step_tasks or planned_total, at=sorted(set(snapshot.next or ())),
        planned={"sub_questions": questions, "total": planned_total, "first_round": first,
                 "resumed": True} if questions else None)


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


def read_thread(graph: Any, config: dict[str, Any], thread_id: str, asked: Mapping[str, Any],
                checkpoint_id: str | None = None, *, restart: bool = False) -> Any:
    """The thread's ``StateSnapshot``, after forking it from ``checkpoint_id`` when given
    (``update_state(old, None, as_node="__copy__")``: LangGraph's fork by copy, a new head whose
    parent is the old checkpoint's, langchain-ai/langgraph#2100; what Studio's "Re-run from
    here" sends, so a CLI fork and a Studio fork are the same checkpoint shape); the
    choices ``asked`` (as :func:`check_planned_choices`) are checked against its plan first,
    unless the thread starts again (``restart``), which takes them as a finished thread's
    rerun does.

    Raises:
        ThreadBroken: LangGraph cannot read the checkpoint back (e.g. saved writes it refuses
            to apply again).
        ThreadMismatch: a choice asked for differs from the plan's
            (:func:`check_planned_choices`); nothing was written.
    """
    if checkpoint_id is not None:
        old = {"configurable": {"thread_id": thread_id, "checkpoint_id": checkpoint_id}}
        check_planned_choices(asked, graph.get_state(old), thread_id)
        graph.update_state(old, None, as_node="__copy__")
    try:
        snapshot = graph.get_state(config)
    except Exception as exc:
        from workers.errors import one_line

        raise ThreadBroken(f"thread {thread_id!r} cannot be resumed: {one_line(exc, 200)}; "
                           "new thread: research --fresh") from exc
    if not restart:
        check_planned_choices(asked, snapshot, thread_id)
    return snapshot
