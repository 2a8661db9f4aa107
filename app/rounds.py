"""The map-reduce loop's decisions, as pure functions of state: which envelopes belong to this
run, which tasks a round sends, when the rounds stop, and the run's outcome.

Pure, so a node that calls them may run again (a retry, a resume) and decide the same; the
nodes in ``app/graph.py`` only add the I/O. Source: LangGraph's map-reduce how-to (``Send``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.types import Send

from state import ResearchState, Task

__all__ = [
    "STEPS_AFTER_MAP", "STEPS_PER_ROUND", "current_envelopes", "fan_out", "first_round_tasks",
    "next_round_tasks", "recursion_limit", "run_outcome",
]


def current_envelopes(state: ResearchState) -> list[dict[str, Any]]:
    """The envelopes of this run: those whose task is one of the current sub-questions and whose
    ``as_of`` is the run's, less those dropped at review. (A thread that is run again keeps older
    envelopes in the channel.)"""
    questions = set(state.get("sub_questions") or [])
    as_of = state.get("as_of")
    dropped = set(state.get("dropped") or [])
    return [
        e
        for e in state.get("envelopes") or []
        if e.get("task_key") in questions and e.get("as_of") == as_of
        and e.get("envelope_id") not in dropped
    ]


def next_round_tasks(
    state: ResearchState, worker_names: Sequence[str], rounds: int, max_tokens: int | None
) -> tuple[list[Task], str | None]:
    """Decide the next map step: the failed tasks to send again, and why not if none.

    Pure: it only reads state, so ``route`` may run again (a retry, a resume) and decide the
    same.

    Returns:
        ``(tasks, reason)``: the tasks of round ``r + 1`` (each keeps its worker and
        sub-question, so its ``envelope_id`` is unchanged), and a note when failed tasks remain
        but are not re-sent (no rounds or no budget left), or when the token budget is spent,
        else None.
    """
    envelopes = current_envelopes(state)
    failed = [e for e in envelopes if e.get("status") == "error" and e["worker"] in worker_names]
    spent = state.get("tokens", 0) or 0
    over_budget = max_tokens is not None and spent >= max_tokens
    if not failed:
        # The budget note reaches the report even when nothing is left to re-dispatch.
        return [], (f"token budget spent ({spent} of {max_tokens})" if over_budget else None)
    this_round = max(e.get("round", 1) for e in envelopes)
    if this_round >= rounds:
        reason = f"{len(failed)} task(s) still failed after {this_round} round(s)"
        if over_budget:
            reason += f"; token budget spent ({spent} of {max_tokens})"
        return [], reason
    if over_budget:
        return [], (
            f"token budget spent ({spent} of {max_tokens}): {len(failed)} failed task(s) "
            "were not dispatched again"
        )
    tasks = [
        Task(
            worker=e["worker"],
            sub_question=e["task_key"],
            topic=state["topic"],
            as_of=state["as_of"],
            round=this_round + 1,
        )
        for e in failed
    ]
    return tasks, None


def run_outcome(state: ResearchState) -> tuple[str, list[dict[str, Any]]]:
    """The run's outcome from its current envelopes: ``("ok" | "partial" | "failed",
    failed_tasks)``, each failed task ``{envelope_id, worker, task_key, error}``.

    ``partial``: some tasks failed for good (after every round); ``failed``: all of them did (or
    the run has no task at all).
    """
    envelopes = current_envelopes(state)
    failed = [
        {"envelope_id": e["envelope_id"], "worker": e["worker"], "task_key": e["task_key"],
         "error": e.get("error") or ""}
        for e in envelopes if e.get("status") == "error"
    ]
    if not envelopes or len(failed) == len(envelopes):
        return "failed", failed
    return ("partial" if failed else "ok"), failed


STEPS_PER_ROUND = 2
"""Supersteps one map round takes: the workers, then ``route``."""
STEPS_AFTER_MAP = 2
"""Supersteps after the last round: ``persist``, then ``report``."""


def recursion_limit(rounds: int) -> int:
    """The ``recursion_limit`` a run of ``rounds`` rounds needs: ``plan``, each round's two
    supersteps, ``persist`` and ``report``, plus a margin. (``route`` also stops re-dispatching,
    with a note, when the limit the caller chose leaves no room for another round, so a run
    never ends in ``GraphRecursionError`` with its results unsaved.)"""
    return 1 + STEPS_PER_ROUND * rounds + STEPS_AFTER_MAP + 5


def first_round_tasks(topic: str, as_of: str, questions: Sequence[str],
                      worker_names: Sequence[str]) -> list[Task]:
    """Round 1: one task per worker per sub-question, sub-question by sub-question."""
    return [Task(worker=worker, sub_question=question, topic=topic, as_of=as_of, round=1)
            for question in questions for worker in worker_names]


def fan_out(tasks: Sequence[Task]) -> list[Send]:
    """One ``Send`` per task, to the node named by its worker."""
    return [Send(task["worker"], task) for task in tasks]
