"""State keys and their reducers, in real LangGraph graphs (docs/extending.md, "Add a state key").

Proves:

* each key of ``ResearchState`` that parallel workers write is wired to the reducer it needs,
  read both from the ``Annotated`` metadata and from the channels of the compiled research
  graph (which are the declared state keys, no others), and the keys workers actually write
  (the real worker node wrapper, in a ``Send`` fan-out) are all among them; a key left
  without its reducer fails with ``InvalidUpdateError``;
* the safe ``max``/``min`` reducers, ``keep_max``/``keep_min``, fold the writes of a fan-out on a
  ``float | None`` key, negatives and None included, where the builtins fail at ``StateGraph()``
  and a plain ``float`` key starts at 0.0.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.channels.last_value import LastValue
from langgraph.errors import InvalidUpdateError
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from state import (
    ResearchOutput,
    ResearchState,
    Task,
    add_count,
    concat_lists,
    envelope_reducer,
    keep_max,
    keep_min,
)
from workers.base import RunScope, WorkerDeps, WorkerResult, WorkerSpec, make_worker_node

AS_OF = "2026-11-30"


def _no_deps(_runtime: Any) -> tuple[WorkerDeps, RunScope]:
    """The worker node's resolver: no corpus or model (these workers use neither)."""
    return WorkerDeps(corpus=None), RunScope()

PARALLEL_KEYS = {
    "envelopes": envelope_reducer,  # every worker of a superstep, persist, subgraph echoes
    "tokens": add_count,  # each model-calling worker writes its own delta
    "unmetered_calls": add_count,  # likewise, responses that reported no usage
    "notes": concat_lists,  # route and report append; plan resets it with Overwrite
}
"""The keys that need a reducer, and the one each needs."""

SINGLE_WRITER_KEYS = {"topic", "as_of", "sub_questions", "report_path", "report", "outcome",
                      "failed_tasks"}
"""Keys one node writes per superstep: no reducer. (A key you add is neither: it is checked by
the fan-out test below if workers write it, and by the graph's own runs.)"""


EDGES_WORKING_KEYS = {"planned_topic", "routing", "round", "redo"}
"""The keys the graph's nodes and edges route by: state, not a run's result."""


def test_the_output_schema_is_state_keys_without_the_edges_working_keys():
    state = set(typing.get_type_hints(ResearchState)) - {"remaining_steps"}  # managed
    output = set(typing.get_type_hints(ResearchOutput))
    assert output <= state, output - state  # LangGraph reads each from a state channel
    assert output == state - EDGES_WORKING_KEYS, state ^ output


def reducers_of(schema: type) -> dict[str, Any]:
    """``{key: reducer}`` from the ``Annotated[T, reducer]`` metadata of a TypedDict schema."""
    hints = typing.get_type_hints(schema, include_extras=True)
    return {
        key: next((m for m in hint.__metadata__ if callable(m)), None)
        for key, hint in hints.items()
        if typing.get_origin(hint) is Annotated
    }


def test_each_parallel_key_has_the_reducer_it_needs():
    declared = reducers_of(ResearchState)
    channels = _research_graph().channels
    for key, reducer in PARALLEL_KEYS.items():
        assert declared.get(key) is reducer, f"{key} lost its reducer {reducer.__name__}"
        assert isinstance(channels[key], BinaryOperatorAggregate), key
    for key in SINGLE_WRITER_KEYS:
        assert key not in declared and isinstance(channels[key], LastValue), key


def _research_graph(checkpointer: Any = None):
    from app.graph import build_graph  # the research graph as every caller compiles it

    return build_graph(checkpointer=checkpointer)


def test_the_compiled_graphs_channels_are_the_declared_state_keys():
    # Trial 25, findings 3 and 10: the worker nodes' ``Task`` annotation gave the compiled graph
    # three more channels (worker, sub_question, first_round) that update_state accepted and
    # checkpointed. LangGraph's own: its trigger channels (branch:to:NODE) and __*__ ones.
    from langgraph.checkpoint.memory import InMemorySaver

    graph = _research_graph(InMemorySaver())
    channels = {key for key in graph.channels if not key.startswith(("branch:", "__"))}
    declared = set(typing.get_type_hints(ResearchState))
    assert channels == declared, channels ^ declared
    config = {"configurable": {"thread_id": "t"}}
    graph.update_state(config, {"topic": "t", "worker": "not-a-worker", "sub_question": 42},
                       as_node="route")
    values = graph.get_state(config).values
    assert values["topic"] == "t" and "worker" not in values and "sub_question" not in values


def _items_with_tokens(deps: WorkerDeps):
    return lambda task: WorkerResult(items=[], tokens=len(task["sub_question"]))


def _fan_out_graph(schema: type):
    """START -> Send x 3 -> the real worker node wrapper (it writes envelopes and tokens)."""
    spec = WorkerSpec(name="counter", kind="function", description="test",
                      build=_items_with_tokens)
    builder = StateGraph(schema)
    builder.add_node("counter", make_worker_node(spec, _no_deps))
    builder.add_conditional_edges(START, lambda _s: [
        Send("counter", Task(worker="counter", sub_question=q, topic="t", as_of=AS_OF, round=1))
        for q in ("a", "bb", "ccc")
    ], ["counter"])
    builder.add_edge("counter", END)
    return builder.compile()


def test_the_keys_workers_write_in_parallel_all_have_a_reducer():
    graph = _fan_out_graph(ResearchState)
    written: dict[str, int] = {}
    for update in graph.stream({"topic": "t"}, stream_mode="updates"):
        for node_update in update.values():
            for key in node_update or {}:
                written[key] = written.get(key, 0) + 1
    assert written == {"envelopes": 3, "tokens": 3}  # three parallel writers each
    assert set(written) <= set(PARALLEL_KEYS)
    final = graph.invoke({"topic": "t"})
    assert final["tokens"] == 1 + 2 + 3 and len(final["envelopes"]) == 3


def test_a_parallel_key_without_its_reducer_fails_the_superstep():
    class Unwired(TypedDict, total=False):
        topic: str
        envelopes: Annotated[list[dict[str, Any]], envelope_reducer]
        tokens: int  # the reducer lost

    with pytest.raises(InvalidUpdateError, match="tokens"):
        _fan_out_graph(Unwired).invoke({"topic": "t"})


# --- keep_max / keep_min ------------------------------------------------------------------------


class Scores(TypedDict, total=False):
    best: Annotated[float | None, keep_max]
    worst: Annotated[float | None, keep_min]


def _scores_graph(schema: type, writes: list[float | None]):
    def scorer(task: dict[str, Any]) -> dict[str, Any]:
        return {"best": task["v"], "worst": task["v"]}

    builder = StateGraph(schema)
    builder.add_node("scorer", scorer)
    builder.add_conditional_edges(START, lambda _s: [Send("scorer", {"v": v}) for v in writes],
                                  ["scorer"])
    builder.add_edge("scorer", END)
    return builder.compile()


@pytest.mark.parametrize(
    ("writes", "best", "worst"),
    [
        ([-5.0, -2.5, -9.0], -2.5, -9.0),  # all negative: a 0.0 default would win the max
        ([3.0, 7.5, 1.25], 7.5, 1.25),  # all positive: a 0.0 default would win the min
        ([None, 4.0, None, -1.0], 4.0, -1.0),  # None is "no value"
        ([2.0], 2.0, 2.0),
    ],
)
def test_keep_max_and_keep_min_fold_a_fan_out(writes, best, worst):
    out = _scores_graph(Scores, writes).invoke({})
    assert (out["best"], out["worst"]) == (best, worst)


def test_the_builtins_fail_and_a_plain_float_key_starts_at_zero():
    class Builtin(TypedDict, total=False):
        best: Annotated[float, max]

    with pytest.raises(ValueError, match="no signature found for builtin"):
        StateGraph(Builtin)

    class PlainFloat(TypedDict, total=False):
        best: Annotated[float, keep_max]
        worst: Annotated[float, keep_min]

    # why the docstring says ``float | None``: the key starts at float() == 0.0
    out = _scores_graph(PlainFloat, [3.0, 7.5]).invoke({})
    assert (out["best"], out["worst"]) == (7.5, 0.0)
