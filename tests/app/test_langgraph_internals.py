"""The LangGraph internals the served graph reads (``app/graph/internals.py``) are the installed
LangGraph's: an upgrade that renames one fails here, not in a served run whose durability check,
review check or plan check would then read nothing and pass (trial 38, problem 11)."""

from __future__ import annotations

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt
from typing_extensions import TypedDict

from app.graph.internals import CHECKPOINTER_KEY, DURABILITY_KEY, trigger_channel


def test_the_configurable_keys_are_langgraphs() -> None:
    from langgraph._internal._constants import CONFIG_KEY_DURABILITY

    assert (DURABILITY_KEY, CHECKPOINTER_KEY) == (CONFIG_KEY_DURABILITY, CONFIG_KEY_CHECKPOINTER)


class _State(TypedDict):
    seen: Annotated[list[str], operator.add]


def test_a_node_sees_them_and_a_paused_review_holds_its_trigger_channel() -> None:
    # what the served checks read, read from a real run: the durability and the checkpointer
    # in a node's configurable, and a checkpoint paused before a node holding its trigger
    from langgraph.config import get_config

    def first(state: _State) -> dict:
        configurable = get_config()["configurable"]
        return {"seen": [configurable.get(DURABILITY_KEY),
                         type(configurable.get(CHECKPOINTER_KEY)).__name__]}

    def review(state: _State) -> dict:
        return {"seen": [interrupt("review?")]}

    builder = StateGraph(_State)
    builder.add_node("first", first)
    builder.add_node("review", review)
    builder.add_edge(START, "first")
    builder.add_conditional_edges("first", lambda s: "review", ["review"])
    builder.add_edge("review", END)
    saver = InMemorySaver()
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"seen": []}, config, durability="sync")
    state = graph.get_state(config)
    assert state.values["seen"] == ["sync", "InMemorySaver"]
    assert state.next == ("review",)
    channels = saver.get_tuple(config).checkpoint["channel_values"]
    assert trigger_channel("review") in channels, sorted(channels)
