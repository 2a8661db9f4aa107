"""Envelopes written without an ``envelope_id`` by a node of a forker's own reach the database.

A forker who writes envelopes from a node of their own (not through ``workers.base``, which
stamps ids) may leave ``envelope_id`` out. The reducer then keys each envelope by
``make_envelope_id(worker, task_key, as_of)`` and stores it under that id (docs/architecture.md,
"The reducer rules", rule 1), so two sub-questions of one worker and day stay two envelopes, and
the app's own ``persist`` and ``report`` nodes, which read ``e["envelope_id"]``, write one row per
task. Before that rule the two merged under ``worker:as_of`` and ``persist`` raised ``KeyError``.

The graph here is the forker's: the app's real ``plan``, ``persist`` and ``report`` nodes (taken
from the compiled app graph's builder) around a fan-out to the forker's node, with a checkpointer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from app.graph import build_graph
from app.graph.resources import Resources
from app.research.plan import offline_plan
from app.settings.config import RunContext, Settings
from app.storage.sqlite import SqliteResults
from state import ResearchInput, ResearchState, make_envelope_id
from tests.conftest import AS_OF
from workers.registry import WORKERS

WORKER = "word_count"  # the forker's node, and the envelopes' worker name


def word_count(task: dict[str, Any]) -> dict[str, Any]:
    """The forker's node: one envelope per sub-question, written without an envelope_id."""
    question = task["sub_question"]
    return {"envelopes": [{
        "worker": WORKER,
        "as_of": task["as_of"],
        "task_key": question,
        "status": "ok",
        "structured": {"items": [], "words": len(question.split())},
        "persisted": False,
    }]}


@pytest.fixture
def forker_graph(tmp_path: Path):
    data_dir = tmp_path / "data"
    resources = Resources(Settings(data_dir=str(data_dir), model="offline"))
    app_graph = build_graph(WORKERS, resources=resources)
    app_node = {name: spec.runnable.func for name, spec in app_graph.builder.nodes.items()}

    builder = StateGraph(ResearchState, input_schema=ResearchInput, context_schema=RunContext)
    builder.add_node("plan", app_node["plan"])
    builder.add_node(WORKER, word_count)
    builder.add_node("persist", app_node["persist"])
    builder.add_node("report", app_node["report"])
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", lambda s: [
        Send(WORKER, {"sub_question": q, "as_of": s["as_of"]}) for q in s["sub_questions"]
    ], [WORKER])
    builder.add_edge(WORKER, "persist")
    builder.add_edge("persist", "report")
    builder.add_edge("report", END)
    try:
        yield builder.compile(checkpointer=InMemorySaver()), data_dir
    finally:
        resources.close()


def test_id_less_envelopes_of_one_worker_and_day_are_one_row_per_task(forker_graph):
    graph, data_dir = forker_graph
    topic = "Send and reducers"  # a comparison: several sub-questions on any corpus
    questions = offline_plan(topic)
    assert len(questions) >= 2  # several sub-questions, one worker, one day
    ids = {make_envelope_id(WORKER, q, AS_OF) for q in questions}
    config = {"configurable": {"thread_id": "forker"}}

    for run in (1, 2):  # the same topic again on the thread: the same rows, updated in place
        final = graph.invoke({"topic": topic, "as_of": AS_OF}, config)
        envelopes = graph.get_state(config).values["envelopes"]
        assert sorted(e["envelope_id"] for e in envelopes) == sorted(ids)
        assert all(e["persisted"] is True and e["structured"] is None for e in envelopes)
        with SqliteResults.in_dir(data_dir) as store:
            rows = store.rows(thread_id="forker")
            assert store.duplicate_count() == 0
        assert {r["envelope_id"] for r in rows} == ids and len(rows) == len(questions)
        assert {r["task_key"]: r["structured"]["words"] for r in rows} == {
            q: len(q.split()) for q in questions}
        assert all(r["write_count"] == run for r in rows)
        assert WORKER in Path(final["report_path"]).read_text(encoding="utf-8")
