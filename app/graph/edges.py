"""The research graph's conditional edges: what runs next, as pure functions of state.

LangGraph evaluates an edge after its node, and again on the updated state after
``update_state`` (a Studio edit, a fork) or a replay, then with no runtime (``get_runtime()`` is
None there): so an edge reads nothing but state, and what it routes by (the review flag, the
workers, the rounds) was written into state by ``plan`` (:class:`state.Routing`).

The fan-out edge leaves ``dispatch``, a node that writes no state: an edge that raises after its
node wrote is skipped on resume, and no worker would run (langgraph#8834); after a node that
wrote nothing, the resume runs the node and its edge again.

Source: LangGraph's "Graph API: conditional edges", "Map-reduce (Send)" and "Time travel".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.graph import END
from langgraph.types import Send

from app.research.rounds import current_envelopes, fan_out, pending_tasks, routing_of, wave

__all__ = ["after_plan", "after_review_plan", "after_review_results", "after_route",
           "to_workers"]


def after_plan(state: dict[str, Any], *, workers: Sequence[str]) -> str:
    """``review_plan`` when the run reviews its plan, else ``dispatch``.

    Every edge checks the state's routing first (``routing_of(..., strict=True)``): LangGraph
    evaluates the edges of ``as_node`` on ``update_state``, so an edit that leaves no routing to
    run by is refused as it is made, with one ``BadPlan`` line (a ``ValueError``: LangGraph
    Server answers 400); nothing is saved.

    Raises:
        app.research.plan_check.BadPlan: the routing is none to run by."""
    return "review_plan" if routing_of(state, workers, strict=True)["review"] else "dispatch"


def after_review_plan(state: dict[str, Any], *, workers: Sequence[str]) -> str:
    """``dispatch`` after a plan review that paused (``dispatch`` checks the plan and sends
    its tasks); ``__end__`` only for a branch that reached ``review_plan`` after this run's
    tasks ran (Studio's goto while the results review waits) and has none left to send.

    It never judges the plan by its pending tasks: a plan a state edit left unrunnable (a
    string for ``sub_questions``, read as one question per letter; a list of numbers; an
    ``as_of`` that is no date) had none, or raised in ``make_envelope_id``, and an approval
    ended the thread with no line and exit 1 (or ``run failed: ValueError``), where
    ``dispatch`` refuses it in one ``BadPlan`` line (``tests/app/test_plan_review_edits.py``).
    """
    routing_of(state, workers, strict=True)
    if not current_envelopes(state):
        return "dispatch"
    return "dispatch" if pending_tasks(state, workers) else END


def to_workers(state: dict[str, Any], *, workers: Sequence[str]) -> list[Send] | str:
    """The fan-out: one ``Send`` per task of the next wave of pending tasks
    (:func:`app.research.rounds.pending_tasks`, cut by :func:`app.research.rounds.wave`: all of
    them up to 2,000), or ``route`` when nothing is left to run (a fork after the map step)."""
    routing_of(state, workers, strict=True)
    return fan_out(wave(pending_tasks(state, workers))) or "route"


def after_route(state: dict[str, Any], *, workers: Sequence[str]) -> str:
    """``dispatch`` while tasks are pending (``route`` moved to the next round, or a task has no
    envelope yet: the round's next wave), else ``review_results`` when the run reviews its
    results, else ``persist``."""
    routing_of(state, workers, strict=True)
    if pending_tasks(state, workers):
        return "dispatch"
    return "review_results" if routing_of(state, workers)["review"] else "persist"


def after_review_results(state: dict[str, Any], *, workers: Sequence[str]) -> str:
    """``dispatch`` when the review sent tasks again (``redo``), else ``persist``."""
    routing_of(state, workers, strict=True)
    return "dispatch" if pending_tasks(state, workers) else "persist"
