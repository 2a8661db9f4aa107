"""A served run never replaces result rows its thread did not write (trial 14, finding 15): a
client that created a thread with the id of a stateless run's thread, another user's, or one a
restarted ``langgraph dev`` lost (the rows stay in the results database, the server has no
checkpoint of the thread) replaced those rows with its own run's. Time travel within a thread
(a replay from before its first ``plan``, a fork after it) goes on as before.

The graph runs in process as the server runs it (served ``Resources``, a checkpointer given to
the compiled graph); a second ``InMemorySaver`` on the same data dir is a server that has no
checkpoint of the thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from app.errors import AwaitsReview, ForeignRows
from app.graph import build_graph
from app.graph.resources import Resources
from app.research.plan import offline_plan
from app.settings.config import Settings
from state import make_envelope_id
from tests.durability._helpers import AS_OF, OTHER_TOPIC, TOPIC, write_corpus
from tests.results_db import Place, db_rows
from workers.registry import WORKERS

pytestmark = pytest.mark.filterwarnings("ignore:`durability` has no effect:UserWarning")

THREAD = {"configurable": {"thread_id": "01a239f0-bd50-7000-8000-000000000001"}}


@pytest.fixture
def server(tmp_path: Path):
    """``(new_server, place)``: ``new_server()`` compiles the served graph with a checkpointer of
    its own (a server that knows none of the other's threads), all on one results database."""
    place = Place(tmp_path / "data", None)
    settings = Settings(data_dir=str(place.data_dir), corpus=str(write_corpus(tmp_path / "c")),
                        model="offline", retry_interval=0.01)
    made: list[Resources] = []

    def new_server() -> Any:
        made.append(Resources(settings, served=True))
        return build_graph(WORKERS, resources=made[-1], checkpointer=InMemorySaver())

    yield new_server, place
    for resources in made:
        resources.close()


def _ids(topic: str) -> set[str]:
    return {make_envelope_id(w.name, q, AS_OF) for w in WORKERS for q in offline_plan(topic)}


def _rows_of(place: Place) -> list[tuple[str, str]]:
    thread = THREAD["configurable"]["thread_id"]
    return sorted((r["envelope_id"], r["topic"]) for r in db_rows(place, thread))


@pytest.mark.parametrize("topic", [OTHER_TOPIC, TOPIC])
def test_a_thread_the_server_has_no_checkpoint_of_keeps_its_rows(server, topic):
    new_server, place = server
    lost = new_server()  # bob's stateless run, or the server before a restart lost the thread
    assert lost.invoke({"topic": TOPIC, "as_of": AS_OF}, THREAD)["outcome"] == "ok"
    before = _rows_of(place)
    assert {e for e, _ in before} == _ids(TOPIC)
    other = new_server()  # a client creating a thread with that id on a server without it
    with pytest.raises(ForeignRows, match=r"^thread '01a239f0-[^']+' has \d+ result row\(s\) "
                       r".*no checkpoint of this thread accounts for.*: start a new thread"):
        other.invoke({"topic": topic, "as_of": AS_OF}, THREAD)
    assert _rows_of(place) == before  # not one row replaced
    # a state edit of the input first is no plan of the thread's either
    other.update_state(THREAD, {"topic": topic, "as_of": AS_OF})
    with pytest.raises(ForeignRows):
        other.invoke(None, THREAD)
    assert _rows_of(place) == before


def test_time_travel_within_the_thread_keeps_working(server):
    new_server, place = server
    graph = new_server()
    assert graph.invoke({"topic": TOPIC, "as_of": AS_OF}, THREAD)["outcome"] == "ok"
    history = list(graph.get_state_history(THREAD))
    first_run = [s for s in history if s.metadata.get("step", 0) <= 0]
    assert {s.next for s in first_run} == {("__start__",), ("plan",)}
    for before_plan in first_run:  # replays from before the thread's first plan
        assert graph.invoke(None, before_plan.config)["outcome"] == "ok"
        assert {e for e, _ in _rows_of(place)} == _ids(TOPIC)
    # a fork after plan with another plan runs it, and its rows replace the old plan's
    after_plan = next(s for s in history if s.next == ("dispatch",))
    questions = offline_plan(OTHER_TOPIC)
    fork = graph.update_state(after_plan.config, {"sub_questions": questions}, as_node="plan")
    assert graph.invoke(None, fork)["outcome"] == "ok"
    assert {e for e, _ in _rows_of(place)} == {
        make_envelope_id(w.name, q, AS_OF) for w in WORKERS for q in questions}
    # the thread's next input with another topic is planned anew on it, as before
    assert graph.invoke({"topic": OTHER_TOPIC, "as_of": AS_OF}, THREAD)["outcome"] == "ok"
    assert {(e, t) for e, t in _rows_of(place)} == {(e, OTHER_TOPIC) for e in _ids(OTHER_TOPIC)}


@pytest.mark.parametrize("stage", ["plan", "results"])
def test_a_new_input_without_review_does_not_run_past_a_review_pause(server, stage):
    # trial 14, finding 12: a thread paused at the results review, given a new input with
    # review off, planned again without review and persisted 9 rows nobody approved
    new_server, place = server
    graph = new_server()
    review = {"review": True}
    paused = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, THREAD, context=review)
    if stage == "results":
        paused = graph.invoke(Command(resume={"approve": True}), THREAD, context=review)
    assert paused["__interrupt__"][0].value["stage"] == stage
    graph.update_state(THREAD, {"notes": ["edited at the pause"]},  # Studio's edit: still paused
                       as_node="plan" if stage == "plan" else "route")
    for topic in (TOPIC, OTHER_TOPIC):
        with pytest.raises(AwaitsReview, match=rf"^thread '01a239f0-[^']+' awaits its {stage} "
                           r"review .* resume it with a Command"):
            graph.invoke({"topic": topic, "as_of": AS_OF}, THREAD, context={"review": False})
        assert _rows_of(place) == []  # nothing persisted unapproved
    # the way on: resume with a Command, review kept: it pauses at each review again (the
    # refused input is the thread's last: its topic is planned), and only approval persists
    stages = []
    while (out := graph.invoke(Command(resume={"approve": True}), THREAD, context=review)
           ).get("__interrupt__"):
        stages.append(out["__interrupt__"][0].value["stage"])
        assert _rows_of(place) == []
    assert stages == ["plan", "results"]
    assert out["outcome"] == "ok" and {e for e, _ in _rows_of(place)} == _ids(OTHER_TOPIC)
    # a finished thread reruns without review, as before
    assert graph.invoke({"topic": TOPIC, "as_of": AS_OF}, THREAD)["outcome"] == "ok"


def test_a_new_input_with_review_on_a_paused_thread_pauses_again(server):
    new_server, place = server
    graph = new_server()
    review = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, THREAD, context=review)
    graph.invoke(Command(resume={"approve": True}), THREAD, context=review)
    again = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, THREAD, context=review)
    assert again["__interrupt__"][0].value["stage"] == "plan" and _rows_of(place) == []
