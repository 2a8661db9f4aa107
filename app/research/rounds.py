"""The map-reduce loop's decisions, as pure functions of state: which envelopes belong to this
run, which tasks the next dispatch sends, and when the rounds stop (the run's outcome once
they have: :mod:`app.research.outcome`).

Pure, so the graph's conditional edges can call them: LangGraph re-evaluates an edge on the
updated state after ``update_state`` (a Studio edit or fork) and on a replay, with no runtime, and
a node that calls them may run again (a retry, a resume) and decide the same. The nodes in
``app/graph/nodes/`` only add the I/O. Source: LangGraph's map-reduce how-to (``Send``) and its
"time travel" how-to (``update_state``, then continue).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langgraph.types import Send

from app.research.plan_check import EDITED, MOST_ROUND, BadPlan, round_problem, routing_problem
from app.research.plan_check import round_of as _round
from app.research.plan_check import this_run as _this_run
from app.research.topics import compare_parts, main_question, topic_kind
from app.settings.config import ROUNDS_BOUND
from state import ResearchState, Routing, Task, attempt_failed, make_envelope_id

__all__ = [
    "STEPS_AFTER_MAP", "STEPS_PER_ROUND", "WAVES_PER_ROUND", "WAVE_TASKS", "NextRound",
    "current_envelopes", "fan_out", "first_round", "first_wave", "highest_round", "new_round",
    "next_round", "pending_tasks", "recursion_limit", "round_in_run", "routing_of", "state_texts",
    "wave", "waves"]

def highest_round(state: Mapping[str, Any]) -> int:
    """The highest ``round`` the thread has seen: its ``round`` channel or any envelope's (0 for
    a new thread; a round that is no whole number, a state edit's, counts as none)."""
    rounds = [_round(e, 0) for e in state.get("envelopes") or []]
    return max([_round(state, 0), *rounds])


def new_round(state: Mapping[str, Any]) -> int:
    """The round the thread's next dispatch of new work sends in: one past the highest it has
    seen (:func:`highest_round`). The one owner of "the next round": ``plan`` (a run's first),
    ``route`` (a re-dispatch, :func:`next_round`) and the results review's redo
    (``app.research.review.ask_results``) all take it, so rounds only increase within a
    thread, as the envelope reducer's stale-echo rule needs (docs/architecture.md, "The reducer
    rules", rule 7): a write of a lower round than its envelope's would change nothing.

    Raises:
        BadPlan: the thread saw round :data:`~app.research.plan_check.MOST_ROUND` (an edit).

    Example:
        >>> new_round({"round": 2, "envelopes": [{"round": 1}, {"round": 3}]})
        4
        >>> new_round({})
        1
    """
    if (highest := highest_round(state)) >= MOST_ROUND:
        raise BadPlan(f"the thread's highest round, {highest}, leaves no round to run: at "
                      f"most {MOST_ROUND} ({EDITED}, or start a new thread)")
    return highest + 1


def routing_of(state: Mapping[str, Any], workers: Sequence[str],
               rounds_bound: int = ROUNDS_BOUND, *, strict: bool = False) -> Routing:
    """The state's :class:`state.Routing`, checked: its workers limited to those of the compiled
    graph (``workers``, in the graph's order), its ``rounds`` to ``1..rounds_bound``. A state
    without one (written before ``plan`` ran) routes with every worker and no review; a field
    of the wrong type takes its default.

    Args:
        strict: raise instead when the routing is none to run by
            (:func:`app.research.plan_check.routing_problem`; once ``plan`` ran, a missing
            routing, ``review`` or ``rounds`` too): the edges ask so, and LangGraph
            evaluates them on ``update_state``, so a client's edit of the wrong shape is refused
            as it is made (LangGraph Server: 400 with the line). Readers of stored threads
            (``inspect``) keep the default.

    Raises:
        app.research.plan_check.BadPlan: ``strict`` and the routing is no routing to run by.

    Example:
        >>> routing_of({"routing": {"review": True, "rounds": 99, "first_round": 3,
        ...                         "workers": ["b", "zz"]}}, ["a", "b"], rounds_bound=5)
        {'review': True, 'rounds': 5, 'first_round': 3, 'workers': ['b']}
    """
    given = state.get("routing")
    # planned: plan wrote sub-questions and a first round (an edit clearing
    # both sub_questions and routing passed, and the thread ended at once with no line)
    planned = bool(state.get("sub_questions")) or _round(state, 0) > 0
    if strict and (why := routing_problem(given, workers, rounds_bound=rounds_bound,
                                          planned=planned) or round_problem(state)):
        bad = BadPlan(f"the thread's plan cannot run: {why} ({EDITED}, or start a new thread)")
        bad.problem = why
        raise bad
    given = given if isinstance(given, Mapping) else {}
    named = given.get("workers")
    chosen = set(w for w in named if isinstance(w, str)) if isinstance(named, list | tuple) else ()
    rounds = given.get("rounds")
    rounds = rounds if isinstance(rounds, int) and not isinstance(rounds, bool) else 1
    return Routing(
        review=given.get("review") is True,
        rounds=min(max(rounds, 1), rounds_bound),
        first_round=first_round(state),
        workers=[w for w in workers if w in (chosen or workers)],
    )


def first_round(state: Mapping[str, Any]) -> int:
    """The run's first round (``routing["first_round"]``), 1 when the state has none or an
    edit gave it another type (the one reading of it: :func:`routing_of`, the review pause)."""
    routing = state.get("routing")
    first = routing.get("first_round") if isinstance(routing, Mapping) else None
    return first if isinstance(first, int) and not isinstance(first, bool) and first > 0 else 1


def round_in_run(round_: int, first_rounds: Iterable[int]) -> int:
    """The thread's round ``round_`` counted within the run it belongs to (1: that run's first),
    as ``--rounds`` counts: a thread's rounds go on across its reruns. ``first_rounds`` are the
    first rounds of the thread's runs that are known (``routing["first_round"]`` of its
    checkpoints); with none at or below ``round_`` (history pruned), ``round_`` itself.

    Example:
        >>> [round_in_run(r, [1, 3]) for r in (1, 2, 3, 4)]
        [1, 2, 1, 2]
    """
    return round_ - max((f for f in first_rounds if f <= round_), default=1) + 1


def state_texts(value: Any) -> list[str]:
    """The strings of a list in state (``sub_questions``, ``dropped``, ``redo``); none of a
    value of another type (a state edit's: the nodes refuse it, in one line naming the key,
    :func:`app.research.plan_check.check_plan`; an edge must not fail on it first, in a 500)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list | tuple) else []


def current_envelopes(state: ResearchState) -> list[dict[str, Any]]:
    """The envelopes of this run: those whose task is one of the current sub-questions, whose
    ``as_of`` is the run's and whose round is this run's, less those dropped at review. (A
    thread that is run again keeps older envelopes in the channel.)"""
    questions = set(state_texts(state.get("sub_questions")))
    as_of = state.get("as_of")
    dropped = set(state_texts(state.get("dropped")))
    first = _this_run(state)
    return [
        e
        for e in state.get("envelopes") or []
        if e.get("task_key") in questions and e.get("as_of") == as_of
        and e.get("envelope_id") not in dropped and _round(e, first) >= first
    ]


def pending_tasks(state: Mapping[str, Any], workers: Sequence[str]) -> list[Task]:
    """The tasks the next dispatch sends: for each sub-question x worker of the run (worker by
    worker within a sub-question), the task whose envelope is missing from this run, or failed
    (:func:`state.attempt_failed`: an earlier ok result kept over the failure included) or is
    to be redone (``redo``) in an earlier round than the state's ``round``. Dropped envelopes
    are never sent.

    A pure function of state, so the fan-out edge re-derives it after any ``update_state``: a
    fork after ``plan`` sends every task, a fork after the map step sends only what is left.

    Args:
        state: the graph's state.
        workers: the compiled graph's worker names.
    """
    routing = routing_of(state, workers)
    round_ = _round(state, 0) or routing["first_round"]
    topic, as_of = state.get("topic") or "", state.get("as_of") or ""
    dropped = set(state_texts(state.get("dropped")))
    redo = set(state_texts(state.get("redo")))
    first = routing["first_round"]
    mine = {e.get("envelope_id"): e for e in state.get("envelopes") or []
            if _round(e, first) >= first}
    tasks: list[Task] = []
    for question in state_texts(state.get("sub_questions")):
        for worker in routing["workers"]:
            eid = make_envelope_id(worker, question, as_of)
            if eid in dropped:
                continue
            envelope = mine.get(eid)
            if envelope is None or (_round(envelope, round_) < round_ and (
                    attempt_failed(envelope) or eid in redo)):
                tasks.append(Task(worker=worker, sub_question=question, topic=topic,
                                  as_of=as_of, round=round_, first_round=first,
                                  focus=focus_of(question, topic)))
    return tasks


def focus_of(question: str, topic: str) -> str:
    """What a task's searches focus on (its ``Task.focus``; the envelope id does not hold it):
    the run's ``topic``, or, for the question on one side of a comparison ("What is git
    merge?" of "git merge vs git rebase"), that side: focused on the whole topic, the other
    side's words ranked the other side's pages first, and "What is git merge?" was answered
    from git-rebase's page.

    Example:
        >>> focus_of("What is git merge?", "git merge vs git rebase")
        'git merge'
        >>> focus_of("How do git merge and git rebase differ?", "git merge vs git rebase")
        'git merge vs git rebase'
    """
    if topic_kind(topic) == "compare":
        for part in compare_parts(topic):
            if main_question(part) == question:
                return part
    return topic


@dataclass(frozen=True)
class NextRound:
    """What ``route`` decides after a map step (:func:`next_round`)."""

    round: int | None
    """The round to send the failed tasks in (None: no more rounds)."""
    failed: int
    """How many of this run's tasks failed."""
    note: str | None
    """Why failed tasks are not sent again, or that the token budget is spent; None."""


def next_round(state: Mapping[str, Any], workers: Sequence[str], *, rounds: int,
               max_tokens: int | None) -> NextRound:
    """Decide the next map step: send this run's failed tasks again in the thread's next round
    (:func:`new_round`), or say why not (no rounds or no budget left).

    Args:
        state: the graph's state.
        workers: the compiled graph's worker names.
        rounds: the rounds this run may take (checked: :func:`routing_of`).
        max_tokens: the run's token budget (None: none).
    """
    routing = routing_of(state, workers)
    failed = [e for e in current_envelopes(state)
              if attempt_failed(e) and e.get("worker") in routing["workers"]]
    spent = state.get("tokens", 0) or 0
    over_budget = max_tokens is not None and spent >= max_tokens
    budget = f"token budget spent ({spent} of {max_tokens})"
    if not failed:
        # The budget note reaches the report even when nothing is left to re-dispatch.
        return NextRound(None, 0, budget if over_budget else None)
    this_round = _round(state, 0) or routing["first_round"]
    taken = this_round - routing["first_round"] + 1
    if taken >= rounds:
        note = f"{len(failed)} task(s) still failed after {taken} round(s)"
        return NextRound(None, len(failed), note + (f"; {budget}" if over_budget else ""))
    if over_budget:
        return NextRound(None, len(failed),
                         f"{budget}: {len(failed)} failed task(s) were not dispatched again")
    return NextRound(new_round(state), len(failed), None)


STEPS_PER_ROUND = 3
"""Supersteps one wave of a map round takes: ``dispatch``, the workers, then ``route`` (a round
of up to :data:`WAVE_TASKS` tasks is one wave)."""
STEPS_AFTER_MAP = 2
"""Supersteps after the last round: ``persist``, then ``report``."""

WAVE_TASKS = 2000
"""The fewest tasks one map superstep sends when more are pending: a round of more tasks goes
out in waves, each a superstep of its own. LangGraph's runner waits on every in-flight future
of a superstep each time one finishes (``concurrent.futures.wait`` in ``pregel/_runner.py``)
and keeps each task's objects until the superstep ends, so a superstep of N tasks costs O(N) per
task in time and holds N tasks in memory; waves bound both (scripts/bench_scale.py)."""
WAVES_PER_ROUND = 6
"""The most waves one round takes: past ``WAVE_TASKS * WAVES_PER_ROUND`` tasks the waves grow
instead, so the supersteps a round takes (and :func:`recursion_limit`) stay bounded."""


def waves(count: int) -> int:
    """How many waves (map supersteps) a round of ``count`` pending tasks takes: 1 up to
    :data:`WAVE_TASKS`, at most :data:`WAVES_PER_ROUND`.

    Example:
        >>> waves(12), waves(WAVE_TASKS), waves(WAVE_TASKS + 1), waves(10 ** 6) == WAVES_PER_ROUND
        (1, 1, 2, True)
    """
    size = max(WAVE_TASKS, -(-count // WAVES_PER_ROUND))
    return max(1, -(-count // size))


def wave(tasks: Sequence[Task]) -> list[Task]:
    """The tasks the next map superstep sends: the first wave of ``tasks`` (the pending tasks,
    in :func:`pending_tasks` order), so that ``count`` tasks go out in :func:`waves` waves. The
    rest stay pending (their envelopes are missing) and ``route`` sends the run back to
    ``dispatch`` for them; a pure function of state, like the fan-out it cuts."""
    size = max(WAVE_TASKS, -(-len(tasks) // WAVES_PER_ROUND))
    return list(tasks[:size])


def first_wave(state: ResearchState, tasks: Sequence[Task]) -> bool:
    """True when ``tasks`` (the pending tasks) start their round: no envelope of this run has
    their round yet (a later wave of the round follows envelopes of it)."""
    if not tasks:
        return False
    round_ = tasks[0]["round"]
    return not any(_round(e, 0) == round_ for e in current_envelopes(state))


def recursion_limit(rounds: int) -> int:
    """The ``recursion_limit`` a run of ``rounds`` rounds needs: ``plan``, each round's waves of
    three supersteps (at most :data:`WAVES_PER_ROUND`), ``persist`` and ``report``, plus a
    margin (the review pauses among them). (``route`` also stops re-dispatching, with a note,
    when the limit the caller chose leaves no room for another round, so a run never ends in
    ``GraphRecursionError`` unsaved.)"""
    return 1 + STEPS_PER_ROUND * WAVES_PER_ROUND * rounds + STEPS_AFTER_MAP + 5


def fan_out(tasks: Sequence[Task]) -> list[Send]:
    """One ``Send`` per task, to the node named by its worker (the caller cuts the wave)."""
    return [Send(task["worker"], task) for task in tasks]
