"""``dispatch``: the node the fan-out edge leaves. It writes no state, only the progress event
of the map step it starts; the ``Send``s are the edge's (:func:`app.graph.edges.to_workers`).

Writing nothing is the point: when the edge raises, the resume runs this node and its edge
again, where after a node that wrote, the saved writes are replayed and the edge is skipped
(langgraph#8834)."""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.runtime import Runtime

from app.graph.nodes.common import check_run_plan, check_same_corpus
from app.graph.resources import Resources
from app.research.rounds import first_wave, pending_tasks, routing_of
from app.settings.config import RunContext
from state import ResearchState

__all__ = ["dispatch"]


def dispatch(state: ResearchState, runtime: Runtime[RunContext], *, res: Resources,
             workers: Sequence[str]) -> None:
    """Announce the map step: ``{"planned": {"sub_questions", "total", "first_round"}}`` for a
    run's first, ``{"dispatched": {"round", "run_round", "tasks"}}`` for a later round or tasks
    sent again at review. Once per round: a round's later waves
    (:func:`app.research.rounds.wave`) announce nothing, and ``total``/``tasks`` count the whole
    round. ``round`` is the thread's (it goes on across reruns), ``run_round`` this run's (1 for
    its first round), and ``first_round`` the thread's round that is this run's first.

    Raises:
        app.errors.CorpusMismatch: a served run continues the thread on another corpus than
            its plan's (checked before any task is sent).
        app.research.plan_check.BadPlan: the plan or its routing cannot run (a state edit wrote
            it) or was made for another topic than the state's (a topic edited after
            ``plan``): nothing is sent, and the thread stays where it is, to be edited again."""
    check_run_plan(state, res, workers)
    check_same_corpus(state, res.context(runtime).corpus_name, res.served)
    tasks = pending_tasks(state, workers)
    if not first_wave(state, tasks):
        return None
    round_ = tasks[0]["round"]
    first = routing_of(state, workers)["first_round"]
    if round_ == first:
        questions = list(dict.fromkeys(task["sub_question"] for task in tasks))
        runtime.stream_writer({"planned": {"sub_questions": questions, "total": len(tasks),
                                           "first_round": first}})
    else:
        runtime.stream_writer({"dispatched": {"round": round_, "run_round": round_ - first + 1,
                                              "tasks": len(tasks)}})
    return None
