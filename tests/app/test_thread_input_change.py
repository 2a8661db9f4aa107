"""A thread given another input: a LangGraph Server client's next run on its thread with another
``as_of`` or another topic, a Studio edit of ``as_of`` before ``plan``, or of the topic after it
(refused). The rule
(docs/architecture.md, "Data flow"): a thread's envelopes, in state and in the results database,
are always those of its current plan and ``as_of``; another topic is planned anew.

Found by a new-user trial: a second run with another ``as_of`` left 18 envelopes in state and 18
rows (9 per date) while the report and the summary said 9; another topic kept the first topic's
sub-questions (its tasks, ids and rows), so the report of the new topic answered the old one.
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
from app.settings.config import Settings
from state import make_envelope_id
from tests.durability._helpers import AS_OF, OTHER_TOPIC, TOPIC, write_corpus
from tests.results_db import Place, db_rows, logical_duplicates
from workers.registry import WORKERS

OTHER_DAY = "2026-11-29"

pytestmark = pytest.mark.filterwarnings("ignore:`durability` has no effect:UserWarning")


@pytest.fixture(params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Any, Place]]:
    """The graph as LangGraph Server compiles it, given a checkpointer as the server gives it
    one; its results in the data dir's SQLite file or in a fresh PostgreSQL database."""
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    place = Place(tmp_path / "data", url)
    settings = Settings(data_dir=str(place.data_dir), corpus=str(write_corpus(tmp_path / "c")),
                        model="offline", retry_interval=0.01, database_url=url)
    resources = Resources(settings)
    try:
        yield build_graph(WORKERS, resources=resources, checkpointer=InMemorySaver()), place
    finally:
        resources.close()


def _ids(topic: str, as_of: str) -> set[str]:
    return {make_envelope_id(w.name, q, as_of) for w in WORKERS for q in offline_plan(topic)}


def _assert_thread_holds(graph: Any, place: Place, thread: str, topic: str, as_of: str) -> None:
    """State and rows of ``thread`` are exactly the envelopes of ``topic``'s plan on ``as_of``."""
    values = graph.get_state({"configurable": {"thread_id": thread}}).values
    expected = _ids(topic, as_of)
    assert values["sub_questions"] == offline_plan(topic)
    assert {e["envelope_id"] for e in values["envelopes"]} == expected
    assert len(values["envelopes"]) == len(expected)
    assert all(e["persisted"] and e["as_of"] == as_of for e in values["envelopes"])
    rows = db_rows(place, thread)
    assert not logical_duplicates(rows), rows
    assert {r["envelope_id"] for r in rows} == expected and len(rows) == len(expected)
    assert {(r["topic"], r["as_of"]) for r in rows} == {(topic, as_of)}


def test_a_second_run_with_another_as_of_replaces_the_threads_envelopes_and_rows(served):
    graph, place = served
    config = {"configurable": {"thread_id": "as-of"}}
    assert graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)["outcome"] == "ok"
    _assert_thread_holds(graph, place, "as-of", TOPIC, AS_OF)
    final = graph.invoke({"topic": TOPIC, "as_of": OTHER_DAY}, config)
    assert final["outcome"] == "ok"
    _assert_thread_holds(graph, place, "as-of", TOPIC, OTHER_DAY)
    assert len(final["envelopes"]) == len(_ids(TOPIC, OTHER_DAY))


def test_a_second_run_with_another_topic_plans_it_anew(served):
    graph, place = served
    config = {"configurable": {"thread_id": "topic"}}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    assert offline_plan(OTHER_TOPIC) != offline_plan(TOPIC)
    final = graph.invoke({"topic": OTHER_TOPIC, "as_of": AS_OF}, config)
    assert final["outcome"] == "ok"
    _assert_thread_holds(graph, place, "topic", OTHER_TOPIC, AS_OF)
    # and back: the first topic is planned again, not left with the other's questions
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    _assert_thread_holds(graph, place, "topic", TOPIC, AS_OF)


def test_a_studio_edit_of_as_of_before_plan_leaves_the_new_dates_rows_only(served):
    graph, place = served
    config = {"configurable": {"thread_id": "edit"}}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)  # a rerun: its input has a plan
    for before_plan in [s for s in graph.get_state_history(config) if s.next == ("plan",)]:
        fork = graph.update_state(before_plan.config, {"as_of": OTHER_DAY})
        assert graph.get_state(fork).next == ("plan",)
        assert graph.invoke(None, fork)["outcome"] == "ok"
        _assert_thread_holds(graph, place, "edit", TOPIC, OTHER_DAY)
        graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)  # back, for the next fork
        _assert_thread_holds(graph, place, "edit", TOPIC, AS_OF)


def test_a_review_drop_does_not_outlive_its_as_of(served):
    # a drop is of one envelope id, which names its as_of: on another as_of the task runs
    graph, place = served
    config = {"configurable": {"thread_id": "drop"}}
    context = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    from langgraph.types import Command

    paused = graph.invoke(Command(resume={"approve": True}), config, context=context)
    (pause,) = paused["__interrupt__"]
    dropped = pause.value["envelopes"][0]["envelope_id"]
    graph.invoke(Command(resume={"drop": [dropped]}), config, context=context)
    assert dropped not in {r["envelope_id"] for r in db_rows(place, "drop")}
    final = graph.invoke({"topic": TOPIC, "as_of": OTHER_DAY}, config)
    assert final["outcome"] == "ok" and final["dropped"] == []
    assert not any("dropped at an earlier review" in n for n in final["notes"])
    _assert_thread_holds(graph, place, "drop", TOPIC, OTHER_DAY)


@pytest.mark.parametrize("pause", ["review_plan", "review_results"])
def test_a_studio_edit_of_topic_after_plan_is_refused_until_planned_or_set_back(served, pause):
    # Found by a new-user trial: at the results review, update_state({"topic": other}) then
    # approve persisted the old plan's 9 rows under the new topic, and the report titled with
    # the new topic answered the old one's questions (outcome ok).
    from langgraph.types import Command

    from app.research.plan_check import BadPlan

    graph, place = served
    config = {"configurable": {"thread_id": "topic-edit"}}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    context = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    if pause == "review_results":
        graph.invoke(Command(resume={"approve": True}), config, context=context)
    assert graph.get_state(config).next == (pause,)
    graph.update_state(config, {"topic": OTHER_TOPIC})
    with pytest.raises(BadPlan, match="plan was made for topic .*fork the thread"):
        graph.invoke(Command(resume={"approve": True}), config, context=context)
    _assert_thread_holds_rows(place, "topic-edit", TOPIC, AS_OF)  # nothing mislabelled
    # and no report under the edited topic: none at all, this rerun has not reported (its plan
    # cleared the last run's verdict and report: trial 25, finding 2)
    assert graph.get_state(config).values.get("report") is None
    # set back, the plan finishes; given as the run's input, the new topic is planned anew
    graph.update_state(config, {"topic": TOPIC})
    graph.invoke(None, config, context=context)
    if graph.get_state(config).next == ("review_results",):  # set back at the plan review
        graph.invoke(Command(resume={"approve": True}), config, context=context)
    assert graph.get_state(config).next == ()
    _assert_thread_holds(graph, place, "topic-edit", TOPIC, AS_OF)
    final = graph.invoke({"topic": OTHER_TOPIC, "as_of": AS_OF}, config)
    assert final["outcome"] == "ok" and final["report"].startswith(
        f"# Research report: {OTHER_TOPIC}")
    _assert_thread_holds(graph, place, "topic-edit", OTHER_TOPIC, AS_OF)


def _assert_thread_holds_rows(place: Place, thread: str, topic: str, as_of: str) -> None:
    rows = db_rows(place, thread)
    assert {r["envelope_id"] for r in rows} == _ids(topic, as_of)
    assert {(r["topic"], r["as_of"]) for r in rows} == {(topic, as_of)}
