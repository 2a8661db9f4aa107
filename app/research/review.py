"""Human review with LangGraph's ``interrupt()``: what a paused run shows, and what resumes it.

A run with ``review`` on (``research TOPIC --review``, or ``{"review": true}`` in the run's
context from LangGraph Studio / Server) pauses twice:

1. ``review_plan``, after ``plan``: the payload is ``{"stage": "plan", "sub_questions": [...]}``;
2. ``review_results``, after the map step and before ``persist``: ``{"stage": "results",
   "envelopes": [{"envelope_id", "worker", "task_key", "status", "round", "summary"}, ...]}``
   (``summary`` is one line: the first finding, or the error).

The run is resumed with ``Command(resume=value)``, ``value`` a dict:

* ``{}`` or ``{"approve": true}``: continue as planned / persist everything;
* plan stage: ``{"sub_questions": ["...", ...]}``: replace the sub-questions, then continue;
* results stage: ``{"drop": [envelope_id, ...]}``: those are neither persisted nor reported
  (the report's notes say so), and the rest are approved: persisted and reported;
  ``{"redo": [envelope_id, ...]}``: send those tasks again, then pause again. Both
  may be given together (the rest then wait for that pause).

A node that calls ``interrupt()`` runs again from its start when the run resumes, so the review
nodes do nothing before their ``interrupt()`` but read state: nothing is written to the results
database before the results stage is approved (``persist`` runs after it).

Source: LangGraph's "Human-in-the-loop" / "Interrupts" docs (``interrupt``, ``Command(resume=)``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langgraph.types import Command, interrupt

from app.research.review_values import (
    PLAN,
    RESULTS,
    ReviewError,
    plan_resume,
    results_resume,
    review_value,
)
from app.research.rounds import current_envelopes, first_round, new_round, round_in_run
from app.research.text import clip
from app.settings.hints import thread_command
from state import KEPT

__all__ = [
    "PLAN", "REVIEW_NODES", "REVIEW_NODE_BY_STAGE", "RESULTS", "Awaited", "ReviewError",
    "ReviewPause", "ask_plan", "ask_results", "awaited", "awaiting", "continue_tail",
    "envelope_summary",
    "kept_drops", "plan_payload", "plan_resume", "replaced_plan_note",
    "results_payload", "results_resume", "resume_command", "review_value",
]

@dataclass
class ReviewPause:
    """A run that stopped at a review: what it awaits, and how to continue.

    Attributes:
        thread_id, topic, as_of: the run.
        review: the ``interrupt()`` payload (:func:`plan_payload` or :func:`results_payload`).
    """

    thread_id: str
    topic: str
    as_of: str
    review: dict[str, Any]
    crash_unreached: str | None = None
    """A ``--crash-at`` point given to this run and not reached before the pause (why)."""

    @property
    def ok(self) -> bool:
        """A pause is not a failure: the CLI exits 0."""
        return True

    @property
    def continue_with(self) -> str:
        """The command that continues (the CLI adds its ``--data-dir``): the approval, or, for a
        plan that cannot run as it stands (``"unrunnable"``), its replacement."""
        return thread_command("review", self.thread_id, tail=continue_tail(self.review))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"thread_id", "topic", "as_of", "status": "awaiting_review",
        "review": {...}, "continue_with"}``."""
        out = {"thread_id": self.thread_id, "topic": self.topic, "as_of": self.as_of,
               "status": "awaiting_review", "review": self.review,
               "continue_with": self.continue_with}
        if self.crash_unreached:
            out["notes"] = [self.crash_unreached]
        return out


def continue_tail(review: Mapping[str, Any]) -> str:
    """The ``review THREAD_ID`` flags that continue a pause showing ``review``: ``--approve``,
    or ``--question TEXT`` when its plan cannot run as it stands (an approval is refused)."""
    return " --question TEXT" if review.get("unrunnable") else " --approve"


REVIEW_NODES = {"review_plan": PLAN, "review_results": RESULTS}
"""The graph's review nodes and the stage each pauses for."""

REVIEW_NODE_BY_STAGE = {stage: node for node, stage in REVIEW_NODES.items()}
"""The review nodes by stage, :data:`REVIEW_NODES` the other way round (the plan's first): what
the served checks ask of a thread's next nodes or trigger channels, "which review does it
await" (``app.server.prerun``, ``app.graph.nodes.common``)."""


@dataclass(frozen=True)
class Awaited:
    """One review a thread awaits (:func:`awaited`)."""

    payload: dict[str, Any]
    """What the review shows: :func:`plan_payload` or :func:`results_payload`."""
    interrupt_id: str | None
    """The pending ``interrupt()``'s id, to resume it by (``Command(resume={id: value})``);
    None when the review node is next but has not paused yet (state edited at the pause)."""


def awaited(snapshot: Any) -> list[Awaited]:
    """The reviews a thread's ``StateSnapshot`` awaits: each pending ``interrupt()`` with a
    ``stage``, and each review node that is next without one. (``update_state`` while a review
    waits keeps the review node next but drops its recorded pause; running on pauses again, and
    a resume value given then answers it: the thread still awaits that review.)"""
    out = [Awaited(dict(item.value), getattr(item, "id", None))
           for item in getattr(snapshot, "interrupts", None) or ()
           if isinstance(item.value, Mapping) and item.value.get("stage") in (PLAN, RESULTS)]
    stages = {a.payload["stage"] for a in out}
    values = getattr(snapshot, "values", None) or {}
    for node in getattr(snapshot, "next", None) or ():
        stage = REVIEW_NODES.get(node)
        if stage is None or stage in stages:
            continue
        if stage == PLAN:
            payload = plan_payload(values.get("sub_questions") or [])
        else:
            payload = results_payload(current_envelopes(values), first_round(values))
        out.append(Awaited(payload, None))
        stages.add(stage)
    return out


def awaiting(snapshot: Any) -> dict[str, Any] | None:
    """The payload of the first review a thread awaits (:func:`awaited`), or None."""
    found = awaited(snapshot)
    return found[0].payload if found else None


def resume_command(snapshot: Any, value: Any) -> Any:
    """The ``Command`` that answers the first review ``snapshot`` awaits with ``value``: by
    interrupt id when the pause is recorded (with several pending interrupts LangGraph refuses a
    bare value), else a bare ``Command(resume=value)`` that the review node's fresh pause takes.
    """
    found = awaited(snapshot)
    if found and found[0].interrupt_id:
        return Command(resume={found[0].interrupt_id: value})
    return Command(resume=value)


def envelope_summary(envelope: Mapping[str, Any], limit: int = 100) -> str:
    """One line about a result: its error, else its first finding (and how many more), said to
    be an earlier result when it was kept over a failed attempt (reducer rule 8).

    Example:
        >>> envelope_summary({"status": "ok", "structured": {"items": [{"text": "A b."}, {}]}})
        'A b. (+1 more)'
        >>> envelope_summary({"status": "ok", "structured": {"items": [{"text": "A b."}]},
        ...                   "kept": {"round": 1, "error": "Timeout"}})
        'kept from round 1 (the latest attempt failed: Timeout): A b.'
        >>> envelope_summary({"status": "ok", "structured": None, "persisted": True})
        'persisted: its findings are in the results database'
        >>> envelope_summary({"status": "ok", "structured": None, "persisted": True,
        ...                   "kept": {"round": 1, "error": "Timeout"}}).split("): ")[1]
        'persisted: its findings are in the results database'
    """
    if envelope.get("status") == "error":
        return clip(f"error: {envelope.get('error') or 'unknown'}", limit)
    mark = envelope.get(KEPT)
    kept = (f"kept from round {mark.get('round') or 1} (the latest attempt failed: "
            f"{clip(mark.get('error') or 'unknown', 60)}): " if isinstance(mark, Mapping) else "")
    if envelope.get("persisted") and envelope.get("structured") is None:
        return kept + "persisted: its findings are in the results database"  # in its row
    items = (envelope.get("structured") or {}).get("items") or []
    if not items:
        return kept + "no findings"
    more = f" (+{len(items) - 1} more)" if len(items) > 1 else ""
    return kept + clip(items[0].get("text", ""), limit) + more


def plan_payload(sub_questions: Any) -> dict[str, Any]:
    """The ``interrupt()`` value of the plan stage:
    ``{"stage": "plan", "sub_questions": [str, ...]}``, plus ``"unrunnable"`` (one line, from
    :func:`app.research.plan_check.plan_problem`) when the plan cannot run as it stands: a state
    edit (Studio's "edit state") can write anything, and a string was listed one letter per
    line (hostile trial H). ``sub_questions`` stays a list of strings for every client: a
    non-list shows none (the ``unrunnable`` line quotes it), a non-text question its ``repr``.
    A runnable plan's payload is as before, without the key."""
    from app.research.plan_check import plan_problem

    problem = plan_problem(sub_questions)
    if problem is None:
        return {"stage": PLAN, "sub_questions": list(sub_questions)}
    listed = isinstance(sub_questions, list | tuple)
    shown = [q if isinstance(q, str) else repr(q) for q in sub_questions] if listed else []
    if not listed:
        problem += f" ({clip(repr(sub_questions), 80)})"
    return {"stage": PLAN, "sub_questions": shown, "unrunnable": problem}


def results_payload(envelopes: Iterable[Mapping[str, Any]], first_round: int = 1
                    ) -> dict[str, Any]:
    """The ``interrupt()`` value of the results stage: ``{"stage": "results", "envelopes":
    [{"envelope_id", "worker", "task_key", "status", "round", "run_round", "summary",
    "persisted"}, ...]}``: ``round`` is the thread's (rounds go on across its runs),
    ``run_round`` the run's own, as ``--rounds`` and the progress lines count
    (:func:`~app.research.rounds.round_in_run` of the run's ``first_round``; else a rerun's
    review showed "round 2" of its first); ``persisted``: the envelope's row is in the results
    database already (a finished thread a state edit made await this review again, as Studio's
    ``update_state`` can: its results were listed "not persisted until approved")."""
    return {"stage": RESULTS, "envelopes": [
        {"envelope_id": e["envelope_id"], "worker": e["worker"], "task_key": e["task_key"],
         "status": e.get("status", "ok"), "round": e.get("round", 1),
         "run_round": round_in_run(e.get("round", 1), [first_round]),
         "summary": envelope_summary(e), "persisted": bool(e.get("persisted"))}
        for e in envelopes]}


def ask_plan(sub_questions: Sequence[str], bound: int | None = None) -> list[str]:
    """Inside a node: pause for the plan review and return the sub-questions to run.

    A decision that does not fit (:func:`plan_resume`, with ``bound``: the most sub-questions
    the run may hold, None for no bound) pauses again with the same payload plus
    ``"error"``: LangGraph keeps a node's resume values in order, so the next
    ``Command(resume=...)`` answers the new pause (LangGraph's "validate human input" pattern).
    Reads nothing but its arguments before ``interrupt()``, as a node that pauses must: it
    runs again from its start on resume.
    """
    payload = plan_payload(sub_questions)
    decision = interrupt(payload)
    while True:
        try:
            return plan_resume(decision, sub_questions, bound)
        except ReviewError as exc:
            decision = interrupt({**payload, "error": str(exc)})


def ask_results(state: Mapping[str, Any], envelopes: Sequence[Mapping[str, Any]]
                ) -> dict[str, Any]:
    """Inside a node: pause for the results review of ``envelopes``; return the state update:
    ``dropped`` ids and their notes, and for tasks to send again their ids (``redo``) and the
    round to send them in (``round``: :func:`app.research.rounds.new_round`, past every round
    the thread has seen). The fan-out edge then sends them
    (``app.research.rounds.pending_tasks``). A decision that does not fit pauses again, as in
    :func:`ask_plan`.

    Args:
        state: the run's state (``round``, ``envelopes``, ``routing``).
        envelopes: the results under review (the run's current envelopes).
    """
    payload = results_payload(envelopes, first_round(state))
    decision = interrupt(payload)
    while True:
        try:
            drop, redo = results_resume(decision, [e["envelope_id"] for e in envelopes])
            break
        except ReviewError as exc:
            decision = interrupt({**payload, "error": str(exc)})
    by_id = {e["envelope_id"]: e for e in envelopes}
    update: dict[str, Any] = {}
    # a result persisted before a state edit made the thread await this review has a row
    gone = {True: "not reported, its row removed from the results database",
            False: "not persisted"}
    notes = [f"dropped at review, {gone[bool(by_id[eid].get('persisted'))]}: "
             f"{by_id[eid]['worker']} on {by_id[eid]['task_key']!r}" for eid in drop]
    if drop:
        update["dropped"] = drop
    if redo:
        update["redo"] = redo
        update["round"] = new_round(state)
        in_run = round_in_run(update["round"], [first_round(state)])
        notes.append(f"round {in_run}: {len(redo)} task(s) sent again at review")
    if notes:
        update["notes"] = notes
    return update


def kept_drops(state: Mapping[str, Any], tasks: Collection[str] | None = None
               ) -> tuple[list[str], list[str]]:
    """``(dropped ids, notes)`` a rerun of the thread keeps: the review's decision is part of the
    thread's state, so a rerun on the same plan neither runs a dropped task again nor brings its
    row back (found by a new-user trial: it did, with no note). Each note names one; ``--fresh``
    (a thread of its own) or a time travel to an earlier review decides again.

    Args:
        state: the thread's state (``dropped``, ``envelopes``).
        tasks: the envelope ids of the rerun's tasks (None: any): a drop of another id (of
            another ``as_of``) is of work the rerun does not do, and is not kept.

    Example:
        >>> kept_drops({"dropped": ["c:1"], "envelopes": [
        ...     {"envelope_id": "c:1", "worker": "critic", "task_key": "Why?"}]})
        (['c:1'], ["dropped at an earlier review, not run again: critic on 'Why?'"])
    """
    dropped = [eid for eid in state.get("dropped") or [] if tasks is None or eid in tasks]
    by_id = {e.get("envelope_id"): e for e in state.get("envelopes") or []}
    notes = []
    for eid in dropped:
        envelope = by_id.get(eid) or {}
        what = (f"{envelope['worker']} on {envelope['task_key']!r}"
                if envelope.get("worker") and envelope.get("task_key") else eid)
        notes.append(f"dropped at an earlier review, not run again: {what}")
    return dropped, notes


def replaced_plan_note(state: Mapping[str, Any]) -> str | None:
    """The run note when the thread's sub-questions are not those its planner wrote, else
    None: the one owner of that note, asked by ``report`` for every run, so the state's
    ``notes`` (what a LangGraph Server client reads) and the report's Notes say it however
    the plan was replaced: at the plan review (the CLI's ``review --question``, Studio), by a
    state edit (``update_state(..., as_node="plan")``, a fork), or at an earlier run of the
    thread that a rerun keeps. Before, only the review wrote it, so a served fork ended with
    ``notes: []`` (N10). None also when a note already says so (a thread whose review wrote the
    old note) or the thread was planned before ``planned`` was recorded.

    Example:
        >>> replaced_plan_note({"planned": ["Why not?"], "sub_questions": ["Why?", "How?"]})
        "plan replaced at review or by a state edit: 2 sub-question(s) in place of the \
planner's 1"
    """
    planned, questions = state.get("planned"), state.get("sub_questions")
    if not planned or not questions or list(planned) == list(questions):
        return None
    if any(str(n).startswith("plan replaced") for n in state.get("notes") or []):
        return None
    return (f"plan replaced at review or by a state edit: {len(questions)} "
            f"sub-question(s) in place of the planner's {len(planned)}")
