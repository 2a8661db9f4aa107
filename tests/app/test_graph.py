"""The supervisor graph in-process: fan-out, reduce, persist, report, on a small made-up corpus.

What the graph promises (docs/architecture.md, "Data flow" and "The envelope contract"):

* every worker x sub-question task leaves exactly one envelope, stamped with its deterministic
  ``make_envelope_id(worker, sub_question, as_of)``;
* before ``persist`` the envelopes carry their payloads; after it, state holds none
  (``structured=None``, ``persisted=True``) and the results database holds them all;
* running the same topic again on the same thread updates the same rows in place
  (``write_count`` goes up, the row count does not).

Checked with LangGraph's ``SqliteSaver`` (as the app wires it, through
``app.runs.compiled.open_graph``) and with ``InMemorySaver`` (through ``app.graph.build_graph``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.graph import build_graph
from app.graph.resources import Resources
from app.research.plan import offline_plan
from app.runs.compiled import open_graph
from app.runs.run import THREAD_POOL_SIZE
from app.settings.config import Settings
from app.storage.sqlite import SqliteResults
from state import make_envelope_id
from tests.conftest import AS_OF, SMALL_TOPIC
from workers.registry import WORKERS

QUESTIONS = offline_plan(SMALL_TOPIC)

# The agent workers invoke their checkpointer-less create_agent graph with durability="exit" on
# purpose (see workers/agent.py); pytest's own warning capture would otherwise show it.
pytestmark = pytest.mark.filterwarnings("ignore:`durability` has no effect:UserWarning")


def expected_ids(as_of: str = AS_OF, topic: str = SMALL_TOPIC) -> set[str]:
    return {make_envelope_id(w.name, q, as_of) for w in WORKERS for q in offline_plan(topic)}


def config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}, "max_concurrency": THREAD_POOL_SIZE}


@pytest.fixture
def sqlite_graph(tmp_path: Path, small_corpus: Path) -> Iterator[tuple[Any, Path]]:
    settings = Settings(data_dir=tmp_path / "data", corpus=small_corpus, model="offline",
                        retry_interval=0.01)
    with open_graph(settings) as (graph, labels, _resources):
        assert labels["model"].startswith("offline")
        yield graph, Path(settings.data_dir)


@pytest.fixture
def memory_graph(tmp_path: Path, small_corpus: Path) -> Iterator[tuple[Any, Path]]:
    data_dir = tmp_path / "data"
    context = Settings(data_dir=str(data_dir), corpus=str(small_corpus), model="offline",
                       retry_interval=0.01)
    resources = Resources(context)  # a run with no context uses these settings
    try:
        yield build_graph(WORKERS, resources=resources, checkpointer=InMemorySaver()), data_dir
    finally:
        resources.close()


def _assert_one_persisted_envelope_per_task(values: dict[str, Any], ids: set[str]) -> None:
    envelopes = values["envelopes"]
    got = [e["envelope_id"] for e in envelopes]
    assert len(got) == len(set(got)), "an envelope is in state twice"
    assert set(got) == ids
    for e in envelopes:
        assert e["envelope_id"] == make_envelope_id(e["worker"], e["task_key"], e["as_of"])
        assert e["status"] == "ok", e
        assert e["persisted"] is True, e
        assert e.get("structured") is None, f"payload left in state: {e['envelope_id']}"


@pytest.mark.parametrize("which", ["sqlite_graph", "memory_graph"])
def test_each_task_leaves_one_envelope_and_the_db_holds_the_payloads(which, request) -> None:
    graph, data_dir = request.getfixturevalue(which)
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config("t1"))
    ids = expected_ids()
    assert len(ids) == len(WORKERS) * len(QUESTIONS)
    assert final["sub_questions"] == QUESTIONS
    _assert_one_persisted_envelope_per_task(final, ids)
    _assert_one_persisted_envelope_per_task(graph.get_state(config("t1")).values, ids)

    with SqliteResults.in_dir(data_dir) as store:
        rows = store.rows(thread_id="t1")
        assert store.duplicate_count() == 0
    assert {r["envelope_id"] for r in rows} == ids and len(rows) == len(ids)
    for row in rows:
        assert row["status"] == "ok" and row["write_count"] == 1
        assert row["structured"] is not None, f"the DB lost the payload of {row['envelope_id']}"
        assert row["topic"] == SMALL_TOPIC and row["as_of"] == AS_OF
        for item in row["structured"]["items"]:
            assert item["ref"] and item["text"], item
    by_worker = {w.name: [r for r in rows if r["worker"] == w.name] for w in WORKERS}
    assert all(r["structured"]["items"] for r in by_worker["docs_search"])
    assert any(r["structured"]["items"] for r in by_worker["analyst"])

    report = Path(final["report_path"])
    assert report.is_file() and report.parent == (data_dir / "reports").resolve()
    text = report.read_text(encoding="utf-8")
    assert "three copper envelopes" in text
    # the report's text for every client: in the thread's state and in the results database
    assert final["report"] == text
    assert graph.get_state(config("t1")).values["report"] == text
    with SqliteResults.in_dir(data_dir) as store:
        assert store.report("t1") == text


def test_payloads_are_in_state_until_persist_drops_them(sqlite_graph) -> None:
    graph, _ = sqlite_graph
    graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config("t1"))
    history = list(graph.get_state_history(config("t1")))  # newest first
    before_persist = [s for s in history if s.next == ("persist",)]
    assert len(before_persist) == 1
    envelopes = before_persist[0].values["envelopes"]
    assert {e["envelope_id"] for e in envelopes} == expected_ids()
    assert all(e["structured"] is not None and e["persisted"] is False for e in envelopes)
    assert history[0].next == ()
    assert all(e["structured"] is None for e in history[0].values["envelopes"])


@pytest.mark.parametrize("which", ["sqlite_graph", "memory_graph"])
def test_same_topic_twice_on_one_thread_updates_rows_in_place(which, request) -> None:
    graph, data_dir = request.getfixturevalue(which)
    graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config("t1"))
    with SqliteResults.in_dir(data_dir) as store:
        first = {r["envelope_id"]: r for r in store.rows()}

    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config("t1"))
    _assert_one_persisted_envelope_per_task(final, expected_ids())
    with SqliteResults.in_dir(data_dir) as store:
        second = {r["envelope_id"]: r for r in store.rows()}
        assert store.count() == len(first) == len(expected_ids())
        assert store.duplicate_count() == 0
    assert second.keys() == first.keys()
    for eid, row in second.items():
        assert row["write_count"] == first[eid]["write_count"] + 1 == 2
        assert row["first_written_at"] == first[eid]["first_written_at"]
        assert row["last_written_at"] > first[eid]["last_written_at"]
        assert row["structured"] == first[eid]["structured"]  # offline runs are deterministic


def test_another_as_of_is_other_work_with_other_ids(sqlite_graph) -> None:
    # other ids, and the thread's envelopes and rows become the new date's: a thread holds its
    # current plan and as_of only (tests/app/test_thread_input_change.py)
    graph, data_dir = sqlite_graph
    graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config("t1"))
    later = "2026-12-01"
    assert not expected_ids() & expected_ids(later)
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": later}, config("t1"))
    assert {e["envelope_id"] for e in final["envelopes"]} == expected_ids(later)
    assert all(e["structured"] is None for e in final["envelopes"])
    with SqliteResults.in_dir(data_dir) as store:
        assert {r["envelope_id"] for r in store.rows()} == expected_ids(later)
        assert all(r["write_count"] == 1 for r in store.rows())
        assert store.duplicate_count() == 0


def test_a_runs_result_is_its_output_schema_and_the_state_keeps_the_rest(memory_graph) -> None:
    # Trial 21: without an output schema a caller (graph.invoke, LangGraph Server's runs.wait)
    # got the whole internal state, the edges' working keys included
    graph, _ = memory_graph
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF}, config("t1"))
    assert final["outcome"] == "ok" and final["report"] and final["envelopes"], final.keys()
    assert not {"routing", "round", "redo", "planned_topic"} & set(final), final.keys()
    kept = graph.get_state(config("t1")).values
    assert kept["routing"]["workers"] == [w.name for w in WORKERS]
    assert kept["planned_topic"] == SMALL_TOPIC
    assert set(graph.get_output_jsonschema()["properties"]) == set(final)


def test_the_self_paced_nodes_retry_policy_takes_the_operators_attempts():
    # Review 47, finding 1: the policy was a cap of ten attempts, the real number read by each
    # node and enforced by marking its exception (two owners of one rule)
    from workers.registry import WORKERS

    graph = build_graph(resources=Resources(Settings(model="offline", max_attempts=5)))
    for name in ("plan", *(w.name for w in WORKERS)):
        (policy,) = graph.nodes[name].retry_policy
        assert policy.max_attempts == 5 and policy.initial_interval == 0.0, (name, policy)
