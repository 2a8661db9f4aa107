"""In process: a ``create_agent`` graph added directly as a node of a parent graph whose state
shares the ``envelopes`` key. LangGraph hands the subgraph's *full* state back to the parent for
every shared key, so the parent's reducer receives the whole envelope list again (the envelopes
it already had, plus the one the agent added). ``envelope_reducer`` upserts by id: no duplicates.
``operator.add`` appends: every envelope the parent already had appears twice.

(The app's agent workers avoid this by invoking the agent from a wrapper node, see
``workers/agent.py``; this test shows why the reducer must be idempotent anyway.)
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Annotated, Any, TypedDict

import pytest
from langchain.agents import AgentState, create_agent
from langchain.agents.middleware import after_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph, add_messages

from app.llm.offline import OfflineChatModel
from state import envelope_reducer

AS_OF = "2026-11-30"


def _envelope(eid: str, worker: str) -> dict[str, Any]:
    return {"envelope_id": eid, "worker": worker, "as_of": AS_OF, "task_key": "q",
            "status": "ok", "persisted": False}


SEEDED = [_envelope("docs_search:1", "docs_search"), _envelope("analyst:1", "analyst")]
AGENT_ENVELOPE = _envelope("critic:1", "critic")


class UpsertAgentState(AgentState):
    envelopes: Annotated[list[dict[str, Any]], envelope_reducer]


class AppendAgentState(AgentState):
    envelopes: Annotated[list[dict[str, Any]], operator.add]


class UpsertParent(TypedDict):
    messages: Annotated[list, add_messages]
    envelopes: Annotated[list[dict[str, Any]], envelope_reducer]


class AppendParent(TypedDict):
    messages: Annotated[list, add_messages]
    envelopes: Annotated[list[dict[str, Any]], operator.add]


def _build(agent_schema: type, parent_schema: type):
    @after_agent(state_schema=agent_schema)
    def add_envelope(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
        # Like a worker: one new envelope for its own task, written to the shared key.
        return {"envelopes": [AGENT_ENVELOPE]}

    agent = create_agent(OfflineChatModel(), tools=[], state_schema=agent_schema,
                         middleware=[add_envelope], name="critic_agent")
    builder = StateGraph(parent_schema)
    builder.add_node("seed", lambda state: {"envelopes": SEEDED})
    builder.add_node("agent", agent)  # the compiled create_agent graph *is* the node
    builder.add_edge(START, "seed")
    builder.add_edge("seed", "agent")
    builder.add_edge("agent", END)
    return builder.compile(checkpointer=InMemorySaver())


def _run(agent_schema: type, parent_schema: type) -> tuple[list[str], list[str], Any]:
    graph = _build(agent_schema, parent_schema)
    config = {"configurable": {"thread_id": "t"}}
    out = graph.invoke({"messages": [HumanMessage("What is Send?")]}, config)
    assert any(isinstance(m, AIMessage) for m in out["messages"]), "the agent's model never ran"
    saved = graph.get_state(config).values
    return ([e["envelope_id"] for e in out["envelopes"]],
            [e["envelope_id"] for e in saved["envelopes"]], out)


def test_envelope_reducer_keeps_one_envelope_per_id() -> None:
    ids, saved_ids, out = _run(UpsertAgentState, UpsertParent)
    assert ids == saved_ids == ["docs_search:1", "analyst:1", "critic:1"]
    assert out["envelopes"] == [*SEEDED, AGENT_ENVELOPE]
    # add_messages dedupes by message id for the same reason: one human, one AI message.
    assert Counter(type(m).__name__ for m in out["messages"]) == {"HumanMessage": 1,
                                                                  "AIMessage": 1}


@pytest.mark.parametrize("agent_schema", [AppendAgentState, UpsertAgentState],
                         ids=["agent-append", "agent-upsert"])
def test_operator_add_duplicates_what_the_subgraph_hands_back(agent_schema: type) -> None:
    """Whatever the agent's own reducer, the parent gets the agent's full list back, and a
    parent channel that appends keeps a second copy of every envelope it already had."""
    ids, saved_ids, _ = _run(agent_schema, AppendParent)
    assert ids == saved_ids
    counts = Counter(ids)
    assert counts == {"docs_search:1": 2, "analyst:1": 2, "critic:1": 1}, ids
    assert len(ids) > len(set(ids))
