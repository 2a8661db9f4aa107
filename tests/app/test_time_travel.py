"""LangGraph's own state edits, as a Studio user makes them: fork, edit state at a pause, time
travel, and two pending pauses. What runs next is re-derived from the graph's conditional edges
on the edited state (``app.graph.edges``), so every promise below holds: no worker is lost, no
row duplicated, no thread stranded.

Source: LangGraph's "Time travel" and "Human-in-the-loop" how-tos (``update_state``,
``get_state_history``, ``Command(resume=...)``; resuming by interrupt id).
"""

from __future__ import annotations

import json

import pytest
from langgraph.types import Command

import tests.app.test_review_graph as review_graph
from app.research.plan import offline_plan
from app.research.review import awaited, resume_command
from state import make_envelope_id
from tests.durability._helpers import AS_OF, TOPIC
from tests.results_db import db_rows, logical_duplicates
from workers.registry import WORKERS

QUESTIONS = offline_plan(TOPIC)
TASKS = len(QUESTIONS) * len(WORKERS)
NAMES = [w.name for w in WORKERS]


studio = review_graph.studio  # the served graph's shape, given an in-memory checkpointer


def _config(thread: str) -> dict:
    return {"configurable": {"thread_id": thread}}


def _rows(data, thread: str) -> list[dict]:
    rows = db_rows(data, thread)
    assert not logical_duplicates(rows), rows
    return rows


def _history(graph, config) -> list:
    """The thread's checkpoints, oldest first."""
    return list(reversed(list(graph.get_state_history(config))))


def _writer_of(history: list, index: int) -> str | None:
    """The node whose step made checkpoint ``index``: one the checkpoint before it ran (as
    Studio forks: the update counts as that node's output)."""
    before = history[index - 1].next if index else ()
    return before[0] if before else None


def test_a_fork_at_any_checkpoint_of_a_finished_thread_runs_what_is_left(studio):
    graph, data = studio
    config = _config("fork")
    assert graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)["outcome"] == "ok"
    history = _history(graph, config)
    forkable = [i for i, snap in enumerate(history) if snap.next and _writer_of(history, i)]
    assert len(forkable) >= 4  # after plan, dispatch, the map step, route, persist
    for index in forkable:
        snap = history[index]
        fork = graph.update_state(snap.config, {}, as_node=_writer_of(history, index))
        assert graph.get_state(fork).next, f"fork of {snap.next} has nothing next"
        final = graph.invoke(None, fork)
        assert final["outcome"] == "ok", (snap.next, final.get("failed_tasks"))
        latest = graph.get_state(config).values
        assert len([e for e in latest["envelopes"] if e.get("status") == "ok"]) == TASKS
        assert all(e["persisted"] for e in latest["envelopes"])
        assert len(_rows(data, "fork")) == TASKS


def test_a_fork_after_plan_with_a_new_plan_runs_every_worker_on_it(studio):
    graph, data = studio
    config = _config("replan")
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    after_plan = next(s for s in _history(graph, config) if s.next == ("dispatch",))
    questions = ["What is a checkpointer?", "What is Send?"]
    fork = graph.update_state(after_plan.config, {"sub_questions": questions}, as_node="plan")
    assert graph.get_state(fork).next == ("dispatch",)
    final = graph.invoke(None, fork)
    assert final["outcome"] == "ok"
    assert sorted(final["sub_questions"]) == sorted(questions)
    ids = {make_envelope_id(w, q, AS_OF) for w in NAMES for q in questions}
    assert ids <= {r["envelope_id"] for r in _rows(data, "replan")}
    persisted = {e["envelope_id"] for e in final["envelopes"] if e["persisted"]}
    assert ids <= persisted


def test_an_update_without_as_node_after_the_map_step_sends_nothing_twice(studio):
    graph, data = studio
    config = _config("no-as-node")
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    after_map = next(s for s in _history(graph, config) if s.next == ("route",))
    fork = graph.update_state(after_map.config, {"notes": ["edited"]})  # Studio's default
    events = list(graph.stream(None, fork, stream_mode="custom"))
    ran = [e for e in events if "envelope" in e]
    assert ran == [], "the fan-out re-ran tasks that had their envelopes"
    assert graph.get_state(config).values["outcome"] == "ok"
    assert len(_rows(data, "no-as-node")) == TASKS


@pytest.mark.parametrize("as_node", [None, "route"])
def test_an_edit_while_the_results_review_waits_keeps_it_waiting(studio, as_node):
    graph, data = studio
    config = _config(f"edit-{as_node}")
    context = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    graph.invoke(Command(resume={"approve": True}), config, context=context)  # the plan
    waiting = graph.get_state(config)
    assert waiting.next == ("review_results",)
    target = waiting.values["envelopes"][0]
    edited = {**target["structured"], "edited_by": "studio"}
    graph.update_state(config, {"envelopes": [{"envelope_id": target["envelope_id"],
                                               "structured": edited}]}, as_node=as_node)
    snap = graph.get_state(config)
    assert snap.next == ("review_results",)  # the review node is next: the pause holds
    (review,) = awaited(snap)
    assert review.payload["stage"] == "results" and len(review.payload["envelopes"]) == TASKS
    assert _rows(data, config["configurable"]["thread_id"]) == []
    final = graph.invoke(resume_command(snap, {"approve": True}), config, context=context)
    assert final["outcome"] == "ok"
    rows = {r["envelope_id"]: r for r in _rows(data, config["configurable"]["thread_id"])}
    assert len(rows) == TASKS
    assert json.loads(rows[target["envelope_id"]]["structured"])["edited_by"] == "studio"


def _approved_review_thread(graph, thread: str) -> dict:
    config = _config(thread)
    context = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    graph.invoke(Command(resume={"approve": True}), config, context=context)
    final = graph.invoke(Command(resume={"approve": True}), config, context=context)
    assert final["outcome"] == "ok"
    return config


def test_time_travel_to_the_results_review_and_a_drop_removes_the_row(studio):
    graph, data = studio
    config = _approved_review_thread(graph, "travel-drop")
    assert len(_rows(data, "travel-drop")) == TASKS
    paused = [s for s in _history(graph, config) if s.next == ("review_results",)]
    checkpoint = paused[-1]
    dropped = checkpoint.values["envelopes"][0]["envelope_id"]
    # the right way: replay from the checkpoint with input None (a fresh pause), then resume
    out = graph.invoke(None, checkpoint.config, context={"review": True})
    assert out["__interrupt__"][0].value["stage"] == "results"
    snap = graph.get_state(config)
    final = graph.invoke(resume_command(snap, {"drop": [dropped]}), config,
                         context={"review": True})
    assert final["outcome"] == "ok"
    ids = {r["envelope_id"] for r in _rows(data, "travel-drop")}
    assert dropped not in ids and len(ids) == TASKS - 1
    report = open(final["report_path"], encoding="utf-8").read()
    assert "dropped at review" in report


def test_time_travel_to_the_results_review_and_a_redo_runs_the_task_again(studio):
    graph, data = studio
    config = _approved_review_thread(graph, "travel-redo")
    checkpoint = [s for s in _history(graph, config) if s.next == ("review_results",)][-1]
    redo = checkpoint.values["envelopes"][0]["envelope_id"]
    graph.invoke(None, checkpoint.config, context={"review": True})
    events = list(graph.stream(resume_command(graph.get_state(config), {"redo": [redo]}),
                               config, context={"review": True}, stream_mode="custom"))
    assert [e["envelope"]["envelope_id"] for e in events if "envelope" in e] == [redo]
    snap = graph.get_state(config)
    assert snap.next == ("review_results",)  # a redo pauses again after its map step
    final = graph.invoke(resume_command(snap, {"approve": True}), config,
                         context={"review": True})
    rows = {r["envelope_id"]: r for r in _rows(data, "travel-redo")}
    assert final["outcome"] == "ok" and len(rows) == TASKS
    assert rows[redo]["round"] == checkpoint.values["round"] + 1


def test_resuming_an_old_pause_directly_replays_its_old_decision(studio):
    """LangGraph's behaviour that the docs warn server clients of: the answered pause's resume
    value is a pending write of its checkpoint, so a new value given there is not heard."""
    graph, data = studio
    config = _approved_review_thread(graph, "travel-direct")
    checkpoint = [s for s in _history(graph, config) if s.next == ("review_results",)][-1]
    dropped = checkpoint.values["envelopes"][0]["envelope_id"]
    graph.invoke(Command(resume={"drop": [dropped]}), checkpoint.config,
                 context={"review": True})
    assert dropped in {r["envelope_id"] for r in _rows(data, "travel-direct")}


def test_a_goto_plan_review_while_the_results_review_waits_leaves_one_pause(studio):
    graph, data = studio
    config = _config("two-pauses")
    context = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    graph.invoke(Command(resume={"approve": True}), config, context=context)
    out = graph.invoke(Command(goto="review_plan"), config, context=context)  # Studio's goto
    assert [i.value["stage"] for i in out["__interrupt__"]] == ["results"]
    (review,) = awaited(graph.get_state(config))
    assert review.payload["stage"] == "results" and review.interrupt_id
    graph.invoke(Command(resume={"approve": True}), config, context=context)  # a bare value
    final = graph.get_state(config)
    assert not final.next and final.values["outcome"] == "ok"
    assert len(_rows(data, "two-pauses")) == TASKS


def test_a_goto_to_a_worker_named_bare_fails_in_one_line_and_keeps_the_rows(studio):
    # trial 42, F7: the worker ran on the thread's state as its task: KeyError('sub_question')
    graph, data = studio
    config = _config("goto-worker")
    assert graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)["outcome"] == "ok"
    with pytest.raises(ValueError) as refused:
        graph.invoke(Command(goto=NAMES[0]), config)
    line = str(refused.value)
    assert line == (f"worker {NAMES[0]!r} ran without a task: a worker node runs only on the "
                    "task a Send hands it (dispatch sends them)"), line
    assert len(_rows(data, "goto-worker")) == TASKS
