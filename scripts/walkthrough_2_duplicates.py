"""Walkthrough step 2: the duplicate problem, and why ``envelopes`` uses an upsert reducer.

``operator.add`` appends every write. That is right for events and wrong for results that can be
written *again*. This script builds two such cases as tiny graphs, each twice: once with
``operator.add`` on the ``envelopes`` channel and once with ``state.envelope_reducer`` (an upsert
by ``envelope_id``).

A. What this app does: a ``Send`` fan-out to three workers, then a ``persist`` node that writes
   each envelope back with ``persisted=True`` (the real persist node does this to drop payloads
   from state).
B. A what-if the app avoids: its agent workers call their ``create_agent`` graph from a wrapper
   node that returns only the envelope (``workers/agent.py``). Had the agent been added as a node
   itself, here is what would happen: the same fan-out, then a ``create_agent`` subgraph added as
   a node whose state schema shares
   the ``envelopes`` key (``langchain.agents.AgentState`` plus ``envelopes``). A subgraph hands
   back its *whole* state for the keys it shares with its parent: the three envelopes it was
   given, plus the one its own tool added. The agent's model is ``OfflineChatModel``, which
   calls the ``search_corpus`` tool and then answers, with no key and no network.

Run: ``uv run python scripts/walkthrough_2_duplicates.py`` (offline, a few seconds).
"""

import json
import operator
import sys
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain.agents import AgentState, create_agent
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import Command, Send

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _walkthrough import AS_OF, CORPUS_FILES, short_id, verdict  # noqa: E402

from app.llm.offline import OfflineChatModel  # noqa: E402
from state import Envelope, envelope_reducer, make_envelope_id  # noqa: E402

QUESTIONS = ["What is Send?", "What is a reducer?", "What is a checkpointer?"]

# (No ``from __future__ import annotations`` in this file: LangGraph reads the reducers from the
# ``Annotated`` hints of these classes, which must therefore be real objects, not strings.)


class AddState(TypedDict, total=False):
    questions: list[str]
    messages: Annotated[list[AnyMessage], add_messages]
    envelopes: Annotated[list[dict], operator.add]


class UpsertState(TypedDict, total=False):
    questions: list[str]
    messages: Annotated[list[AnyMessage], add_messages]
    envelopes: Annotated[list[dict], envelope_reducer]


class AgentAddState(AgentState):
    envelopes: Annotated[list[dict], operator.add]


class AgentUpsertState(AgentState):
    envelopes: Annotated[list[dict], envelope_reducer]


def worker(task: dict) -> dict:
    """A worker: one envelope, stamped with an id derived from its own inputs."""
    envelope = Envelope(
        envelope_id=make_envelope_id("worker", task["question"], AS_OF),
        worker="worker",
        as_of=AS_OF,
        task_key=task["question"],
        structured={"answer": f"answer to {task['question']!r}"},
    )
    return {"envelopes": [envelope.to_state()]}


def fan_out(state: dict) -> list[Send]:
    return [Send("worker", {"question": q}) for q in state["questions"]]


def persist(state: dict) -> dict:
    """Write every envelope back as persisted, with its payload dropped (as the app's persist)."""
    return {"envelopes": [{**e, "persisted": True, "structured": None}
                          for e in state["envelopes"] if not e.get("persisted")]}


def persist_graph(schema: type) -> Any:
    builder = StateGraph(schema)
    builder.add_node("worker", worker)
    builder.add_node("persist", persist)
    builder.add_conditional_edges(START, fan_out, ["worker"])
    builder.add_edge("worker", "persist")
    builder.add_edge("persist", END)
    return builder.compile()


@tool
def search_corpus(query: str, runtime: ToolRuntime) -> Command:
    """Search the corpus for passages about the query."""
    results = [{"ref": f"{name}#0", "title": name, "source": name, "text": text, "score": 1.0}
               for name, text in CORPUS_FILES.items() if "reducer" in text.lower()]
    own = Envelope(envelope_id=make_envelope_id("agent", query, AS_OF), worker="agent",
                   as_of=AS_OF, task_key=query, structured={"refs": [r["ref"] for r in results]})
    return Command(update={
        "messages": [ToolMessage(json.dumps({"results": results}),
                                 tool_call_id=runtime.tool_call_id)],
        "envelopes": [own.to_state()],  # the agent's own result goes into the shared channel
    })


def agent_graph(parent_schema: type, agent_schema: type) -> Any:
    agent = create_agent(OfflineChatModel(), tools=[search_corpus], state_schema=agent_schema,
                         name="agent")
    builder = StateGraph(parent_schema)
    builder.add_node("worker", worker)
    builder.add_node("agent", agent)  # the subgraph *is* the node: it shares `envelopes`
    builder.add_conditional_edges(START, fan_out, ["worker"])
    builder.add_edge("worker", "agent")
    builder.add_edge("agent", END)
    return builder.compile()


def describe(envelopes: list[dict]) -> tuple[int, int]:
    ids = [e["envelope_id"] for e in envelopes]
    for e in envelopes:
        print(f"      {short_id(e['envelope_id']):<22} persisted={e.get('persisted')}")
    return len(ids), len(set(ids))


def main() -> int:
    facts: dict[str, tuple[int, int]] = {}
    persisted_ok = False

    print("A. what this app does: Send fan-out to 3 workers, then persist writes each envelope "
          "back (persisted=True)")
    for label, schema in (("operator.add", AddState), ("envelope_reducer", UpsertState)):
        out = persist_graph(schema).invoke({"questions": QUESTIONS})
        print(f"   {label}:")
        total, unique = facts[f"A {label}"] = describe(out["envelopes"])
        print(f"   -> {total} entries for {unique} envelope ids")
        if label == "envelope_reducer":
            persisted_ok = all(e["persisted"] and e["structured"] is None
                               for e in out["envelopes"])

    print()
    print("B. what if (not what this app does: its agents run inside a wrapper node that")
    print("   returns only the envelope): a create_agent subgraph added as a node that shares")
    print("   `envelopes`, adds its own envelope (from its tool) and hands its whole state back")
    for label, parent, inner in (("operator.add", AddState, AgentAddState),
                                 ("envelope_reducer", UpsertState, AgentUpsertState)):
        out = agent_graph(parent, inner).invoke(
            {"questions": QUESTIONS, "messages": [HumanMessage("What is a reducer?")]})
        print(f"   {label}:")
        total, unique = facts[f"B {label}"] = describe(out["envelopes"])
        print(f"   -> {total} entries for {unique} envelope ids")

    print()
    print("summary (entries / unique envelope ids):")
    for key, (total, unique) in facts.items():
        print(f"  {key:<20} {total} / {unique}")

    ok = (
        facts["A operator.add"] == (6, 3)
        and facts["A envelope_reducer"] == (3, 3)
        and persisted_ok
        and facts["B operator.add"] == (7, 4)
        and facts["B envelope_reducer"] == (4, 4)
    )
    return verdict(
        ok,
        "operator.add duplicated the persisted write-back (6 entries for 3 ids) and the "
        "subgraph's echo (7 for 4); envelope_reducer kept each id once (3 and 4)",
        f"unexpected counts: {facts} (persisted flags ok: {persisted_ok})",
    )


if __name__ == "__main__":
    raise SystemExit(main())
