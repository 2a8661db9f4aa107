"""Resetting ``envelopes`` while a worker writes in the same superstep (issue 10, item 3).

``Overwrite([])`` replaces the channel and drops every other write to it in that superstep: the
worker's envelope is lost (pinned below, as LangGraph behaves). ``reset_envelopes(current)``
removes only the envelopes the resetting node saw, whatever order the writes are applied in.
"""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from langgraph.graph import START, StateGraph
from langgraph.types import Overwrite
from typing_extensions import TypedDict

from state.reducers import envelope_reducer, reset_envelopes


class S(TypedDict, total=False):
    envelopes: Annotated[list[dict[str, Any]], envelope_reducer]


OLD = [{"envelope_id": "old", "worker": "w", "status": "ok"},
       {"envelope_id": "again", "worker": "w", "status": "error"}]


def _graph(reset_name: str, reset):
    """One superstep: a node resets the channel while a worker adds ``new`` and rewrites
    ``again``. The reset node's name decides the task-path order of the writes."""
    builder = StateGraph(S)
    builder.add_node("seed", lambda s: {"envelopes": OLD})
    builder.add_node(reset_name, lambda s: {"envelopes": reset(s["envelopes"])})
    builder.add_node("m_worker", lambda s: {"envelopes": [
        {"envelope_id": "new", "worker": "w", "status": "ok"},
        {"envelope_id": "again", "worker": "w", "status": "ok"}]})
    builder.add_edge(START, "seed")
    builder.add_edge("seed", reset_name)
    builder.add_edge("seed", "m_worker")
    return builder.compile()


@pytest.mark.parametrize("reset_name", ["a_reset", "z_reset"])  # before and after the worker
def test_reset_envelopes_keeps_a_concurrent_worker_write(reset_name):
    out = _graph(reset_name, reset_envelopes).invoke({})
    assert {e["envelope_id"]: e["status"] for e in out["envelopes"]} == {
        "new": "ok", "again": "ok"}


def test_overwrite_loses_the_concurrent_worker_write():
    out = _graph("z_reset", lambda current: Overwrite([])).invoke({})
    assert out["envelopes"] == []  # the worker's two envelopes are gone


def test_reset_of_an_empty_channel_and_of_nothing_seen():
    assert envelope_reducer([], reset_envelopes(None)) == []
    kept = envelope_reducer(OLD, reset_envelopes([]))
    assert kept == OLD
