"""``route``: the join after each map step. It decides once (not once per worker) whether the
failed tasks go out again, and records the decision: the next ``round`` and a note."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from app.graph.nodes.common import check_run_plan
from app.graph.resources import Resources
from app.research.rounds import (
    STEPS_AFTER_MAP,
    STEPS_PER_ROUND,
    next_round,
    pending_tasks,
    routing_of,
    waves,
)
from app.settings.config import ROUNDS_BOUND, RunContext
from state import ResearchState

__all__ = ["route", "steps_left"]

_IN_HAND = 1
"""``remaining_steps`` counts the supersteps LangGraph still runs after the current one before
it stops the run with ``GraphRecursionError``; one of them is kept in hand."""


def steps_left(state: ResearchState) -> int | None:
    """Supersteps this run may still take after the current one under its ``recursion_limit``
    (a lower bound), from LangGraph's managed ``remaining_steps`` (None outside a run).
    Source: ``langgraph.managed.RemainingSteps``, as ``create_react_agent`` uses it."""
    remaining = state.get("remaining_steps")
    return remaining - _IN_HAND if isinstance(remaining, int) else None


def route(state: ResearchState, config: RunnableConfig, runtime: Runtime[RunContext], *,
          res: Resources, workers: Sequence[str]) -> dict[str, Any]:
    """Move to the next round when failed tasks are left and rounds, budget and recursion
    limit allow (the edge :func:`app.graph.edges.after_route` then dispatches them); note why
    not otherwise. While the round's later waves are pending it decides nothing (the edge sends
    the run back to ``dispatch`` for them).

    Raises:
        app.research.plan_check.BadPlan: the plan or its routing cannot run (a state edit
            after the map step, e.g. ``as_node`` a worker): nothing is written."""
    check_run_plan(state, res, workers)
    if pending_tasks(state, workers):
        return {}
    ctx = res.context(runtime)
    # the rounds in state are the client's choice, written by plan: checked against the
    # operator's bound again here, since a client's update_state can change them
    bound = res.settings.rounds_limit if res.served else ROUNDS_BOUND
    routing = routing_of(state, workers, rounds_bound=bound)
    decision = next_round(state, workers, rounds=routing["rounds"], max_tokens=ctx.max_tokens)
    if decision.round is None:
        return {"notes": [decision.note]} if decision.note else {}
    # the thread's rounds go on across reruns; a note names this run's (as --rounds counts)
    in_run = decision.round - routing["first_round"] + 1
    left = steps_left(state)
    if left is not None and left < STEPS_PER_ROUND * waves(decision.failed) + STEPS_AFTER_MAP:
        limit = config.get("recursion_limit")
        return {"notes": [f"{decision.failed} failed task(s) were not dispatched again: round "
                          f"{in_run} would pass this run's recursion limit of {limit} "
                          f"steps (each wave of a round takes {STEPS_PER_ROUND}; see "
                          "app.research.rounds.recursion_limit)"]}
    note = f"round {in_run}: re-dispatching {decision.failed} failed task(s)"
    return {"round": decision.round, "notes": [note]}
