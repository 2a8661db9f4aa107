"""The research graph's wiring, and nothing else.

```
START -> plan --after_plan--> review_plan (review on) --after_review_plan--> dispatch | END
                          \\-> dispatch --to_workers--> [Send(worker, Task) ...] -> route
route --after_route--> dispatch (the next round) | review_results | persist
review_results --after_review_results--> dispatch (redo) | persist
persist -> report -> END
```

Every choice of what runs next is a conditional edge (:mod:`app.graph.edges`), a pure function
of state, so LangGraph re-derives it after ``update_state``, a fork or a replay. The nodes
(:mod:`app.graph.nodes`) are module-level functions; this module binds their resources and the
worker names, and sets the retry policies.

Source: LangGraph's map-reduce how-to (``Send``), "Add retry policies", "Time travel".
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from app.graph.edges import (
    after_plan,
    after_review_plan,
    after_review_results,
    after_route,
    to_workers,
)
from app.graph.masking import masked
from app.graph.nodes.dispatch import dispatch
from app.graph.nodes.persist import persist
from app.graph.nodes.plan import plan
from app.graph.nodes.report import KeptSummaries, report
from app.graph.nodes.review import review_plan, review_results
from app.graph.nodes.route import route
from app.graph.resources import Resources
from app.settings.config import RunContext
from app.storage import is_transient_storage_error
from state import ResearchInput, ResearchOutput, ResearchState, parallel_keys
from workers.base import WorkerSpec, guard_worker_node, make_worker_node
from workers.retry import self_paced_retry
from workers.usage import AttemptTokens

__all__ = ["NODES", "build_graph", "worker_names"]

IO_RETRY = RetryPolicy(max_attempts=3, initial_interval=0.2, retry_on=is_transient_storage_error)
"""The retry policy of ``persist`` and ``report``, which do database I/O: a busy or locked SQLite
database or a dropped PostgreSQL connection is retried, nothing else (a programming error
retried is only slower to surface)."""

NODES: tuple[str, ...] = ("plan", "review_plan", "dispatch", "route", "review_results",
                          "persist", "report")
"""The graph's nodes other than the workers: no worker may take one of these names."""


def worker_names(graph: Any) -> tuple[str, ...]:
    """The worker nodes of a compiled research graph, in the order it fans out to them: the
    destinations of its fan-out edge, so what the graph itself has, whoever compiled it.

    Read through LangGraph's public API: the drawable graph's conditional edges out of
    ``dispatch`` (``get_graph().edges``) say which nodes are workers, and ``graph.nodes``
    (in the order they were added: the registry's) their order. A few ms a run (2.5 to 7 ms
    on a loaded 2-core machine; compiling the graph takes about 27).

    Example:
        >>> names = worker_names(build_graph())
        >>> names[0], "plan" in names  # the registry's workers, in its order; no other node
        ('docs_search', False)
    """
    fanned = {edge.target for edge in graph.get_graph().edges
              if edge.source == "dispatch" and edge.conditional}
    return tuple(name for name in graph.nodes if name in fanned and name != "route")


def build_graph(workers: Sequence[WorkerSpec] | None = None, *,
                resources: Resources | None = None, checkpointer: Any = None):
    """Compile the research graph. Its settings come per run, as LangGraph's runtime context.

    Args:
        workers: the workers to fan out to (default: ``workers.registry.WORKERS``); fixed per
            compiled graph, since each is a node.
        resources: where nodes look up the models, corpus and per-run objects of their run's
            context (default: a fresh :class:`app.graph.resources.Resources` with no credentials).
        checkpointer: a LangGraph checkpointer (e.g. ``SqliteSaver``), or None (LangGraph Server
            and Studio bring their own).

    Returns:
        The compiled graph, ``context_schema=RunContext``. Invoke it with
        ``{"topic": ..., "as_of": "YYYY-MM-DD"}``, ``{"configurable": {"thread_id": ...}}`` and
        ``context=RunContext(...)`` (or a dict of its fields; None: the resources' defaults).
        Nodes write progress to the ``custom`` stream: ``{"planned": {"sub_questions",
        "total", "first_round"}}``, ``{"dispatched": {"round", "run_round", "tasks"}}``,
        ``{"envelope": envelope}``,
        ``{"retry": {...}}``, ``{"waiting": {"seconds", "for"}}`` (a long wait, said once:
        ``workers.waits.announce_wait``), ``{"persisted": {"count"}}``,
        ``{"report": {"path", "outcome"}}``.

    Raises:
        ValueError: two workers share a name, or a worker's name is taken by another node of the
            graph (:data:`NODES`) or holds ``:`` or ``|`` (one line naming the worker).
    """
    workers = _checked_workers(workers)
    names = tuple(w.name for w in workers)
    builder = StateGraph(ResearchState, context_schema=RunContext, input_schema=ResearchInput,
                         output_schema=ResearchOutput)
    _add_nodes(builder, workers, resources or Resources())
    _add_edges(builder, names)
    return builder.compile(checkpointer=checkpointer, name="research")


def _checked_workers(workers: Sequence[WorkerSpec] | None) -> tuple[WorkerSpec, ...]:
    """``workers`` (default: ``workers.registry.WORKERS``) as a tuple.

    Raises:
        ValueError: two workers share a name, or one's name cannot name a node of this graph
            (:func:`_name_problem`; LangGraph's own error came at compile time, without the
            worker's module).
    """
    if workers is None:
        from workers.registry import WORKERS

        workers = WORKERS
    workers = tuple(workers)
    names = tuple(w.name for w in workers)
    if len(set(names)) != len(names):
        raise ValueError(f"worker names must be unique: {names}")
    for worker in workers:
        if why := _name_problem(worker.name):
            module = getattr(worker.build, "__module__", None) or "?"
            raise ValueError(f"worker {worker.name!r} ({module}) {why}: rename it "
                             "(its WorkerSpec name)")
    return workers


def _name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a worker node, or None: it is another node's name
    (:data:`NODES`, LangGraph's ``__start__``/``__end__``), or holds a character LangGraph
    reserves for its namespaces (``:``, ``|``), or is no text.

    Example:
        >>> _name_problem("glossary") is None, _name_problem("persist")
        (True, 'is the name of a node of the research graph')
        >>> _name_problem("my:worker")
        "holds ':', which LangGraph reserves in node names"
    """
    if not isinstance(name, str) or not name.strip():
        return "has no name"
    if name in NODES or name in (START, END):
        return "is the name of a node of the research graph"
    # StateGraph.add_node refuses them: they separate the parts of a task's namespace
    if reserved := [c for c in (":", "|") if c in name]:
        return f"holds {reserved[0]!r}, which LangGraph reserves in node names"
    return None


def _add_nodes(builder: StateGraph, workers: tuple[WorkerSpec, ...], res: Resources) -> None:
    """Add the graph's nodes, each with its retry policy and its errors' secrets masked
    (:func:`app.graph.masking.masked`): plan, the reviews, dispatch, one node per worker
    (guarded: it may write only the channels that have a reducer), route, persist and
    report."""
    routes = {"workers": tuple(w.name for w in workers)}  # what routing nodes are told
    secrets = tuple(res.settings.secrets())

    def add(name: str, node: Any, **policy: Any) -> None:  # its errors' secrets masked
        builder.add_node(name, masked(node, secrets), **policy)

    # the nodes that pace themselves: the operator's attempts, each node's own backoff
    paced = self_paced_retry(res.settings.max_attempts)
    add("plan", partial(plan, res=res, tokens=AttemptTokens(), **routes), retry_policy=paced)
    add("review_plan", partial(review_plan, res=res))
    add("dispatch", partial(dispatch, res=res, **routes))
    allowed = parallel_keys()  # the channels parallel workers may write: those with a reducer
    for worker in workers:
        node = guard_worker_node(worker.name, make_worker_node(worker, res.resolve_worker),
                                 allowed=allowed)
        # input_schema: a Send hands the node its Task as is; inferred from the Task annotation,
        # its keys became channels no schema declares (tests/state/test_state_keys.py)
        add(worker.name, node, retry_policy=paced, input_schema=ResearchState)
        builder.add_edge(worker.name, "route")
    add("route", partial(route, res=res, **routes))
    add("review_results", review_results)
    add("persist", partial(persist, res=res, **routes), retry_policy=IO_RETRY)
    add("report", partial(report, res=res, summaries=KeptSummaries(), **routes),
        retry_policy=IO_RETRY)


def _add_edges(builder: StateGraph, names: tuple[str, ...]) -> None:
    """Add the graph's edges: the conditional ones (:mod:`app.graph.edges`) told the worker
    ``names``, and the fixed ``persist -> report -> END``."""
    routes = {"workers": names}  # what every edge is told of the graph
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", partial(after_plan, **routes),
                                  ["review_plan", "dispatch"])
    builder.add_conditional_edges("review_plan", partial(after_review_plan, **routes),
                                  ["dispatch", END])
    builder.add_conditional_edges("dispatch", partial(to_workers, **routes), [*names, "route"])
    builder.add_conditional_edges("route", partial(after_route, **routes),
                                  ["dispatch", "review_results", "persist"])
    builder.add_conditional_edges("review_results", partial(after_review_results, **routes),
                                  ["dispatch", "persist"])
    builder.add_edge("persist", "report")
    builder.add_edge("report", END)
