"""Human review through the graph API, as LangGraph Studio and Server drive it: the run's
context turns review on, each pause is an ``interrupt()`` with the documented JSON payload, and
``Command(resume=...)`` carries the decision (issue 14; values documented in
docs/walkthrough.md).
"""

from __future__ import annotations

import json

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from app.graph import build_graph
from app.graph.resources import Resources
from app.research.review import ReviewError, plan_resume, results_resume, review_value
from app.settings.config import Settings
from tests.durability._helpers import AS_OF, TOPIC, write_corpus
from tests.results_db import db_rows
from workers.registry import WORKERS


@pytest.fixture
def studio(tmp_path):
    """A graph compiled as ``app/server/studio.py`` compiles it (no checkpointer of its own), given
    an in-memory checkpointer as the server gives it one."""
    corpus = write_corpus(tmp_path / "corpus")
    defaults = Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus),
                        model="offline", retry_interval=0.01)
    resources = Resources(defaults)
    graph = build_graph(WORKERS, resources=resources, checkpointer=InMemorySaver())
    yield graph, tmp_path / "data"
    resources.close()


def test_studio_style_review_round_trip(studio):
    graph, data = studio
    config = {"configurable": {"thread_id": "studio-1"}}
    context = {"review": True}  # what a Studio / Server client sends as the run's context

    out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    (pause,) = out["__interrupt__"]
    assert pause.value["stage"] == "plan"
    json.dumps(pause.value)  # the payload crosses the server's API as JSON
    assert graph.get_state(config).next == ("review_plan",)

    questions = ["What is Send?", "What is a reducer?"]
    out = graph.invoke(Command(resume={"sub_questions": questions}), config, context=context)
    (pause,) = out["__interrupt__"]
    review = pause.value
    assert review["stage"] == "results"
    assert {e["task_key"] for e in review["envelopes"]} == set(questions)
    assert len(review["envelopes"]) == len(questions) * len(WORKERS)
    json.dumps(review)
    assert db_rows(data, "studio-1") == []  # nothing persisted before the approval

    # a decision that does not fit pauses again, saying why; the next decision is heard
    out = graph.invoke(Command(resume={"sub_questions": ["x"]}), config, context=context)
    (pause,) = out["__interrupt__"]
    assert pause.value["stage"] == "results"
    assert pause.value["error"] == ("the results review does not take sub_questions; it takes "
                                    "approve, drop, redo")
    assert pause.value["envelopes"] == review["envelopes"]

    out = graph.invoke(Command(resume={"approve": True}), config, context=context)
    assert "__interrupt__" not in out
    assert out["outcome"] == "ok"
    ids = sorted(e["envelope_id"] for e in review["envelopes"])
    assert sorted(r["envelope_id"] for r in db_rows(data, "studio-1")) == ids

    # resuming a finished thread again changes nothing
    graph.invoke(Command(resume={"approve": True}), config, context=context)
    rows = db_rows(data, "studio-1")
    assert sorted(r["envelope_id"] for r in rows) == ids
    assert all(r["write_count"] == 1 for r in rows)


def test_studio_reruns_keep_a_drop_and_a_replaced_plan_leaves_only_its_rows(studio):
    # The server's path to the fixes of a new-user trial's findings (the CLI's are in
    # tests/durability/test_review.py): a rerun keeps a drop; a replaced plan's old rows go.
    graph, data = studio
    config = {"configurable": {"thread_id": "studio-2"}}
    review = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=review)
    out = graph.invoke(Command(resume={"approve": True}), config, context=review)
    (pause,) = out["__interrupt__"]
    drop = pause.value["envelopes"][0]
    graph.invoke(Command(resume={"drop": [drop["envelope_id"]]}), config, context=review)
    kept = {r["envelope_id"] for r in db_rows(data, "studio-2")}
    assert drop["envelope_id"] not in kept

    out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)  # a rerun, no review
    assert {r["envelope_id"] for r in db_rows(data, "studio-2")} == kept
    assert any(n.startswith("dropped at an earlier review") for n in out["notes"])

    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=review)
    graph.invoke(Command(resume={"sub_questions": ["What is Send?"]}), config, context=review)
    out = graph.invoke(Command(resume={"approve": True}), config, context=review)
    ids = {e["envelope_id"] for e in out["envelopes"] if e["task_key"] == "What is Send?"}
    assert len(ids) == len(WORKERS)
    assert {r["envelope_id"] for r in db_rows(data, "studio-2")} == ids


def test_without_review_in_the_context_nothing_pauses(studio):
    graph, data = studio
    out = graph.invoke({"topic": TOPIC, "as_of": AS_OF},
                       {"configurable": {"thread_id": "plain"}})
    assert "__interrupt__" not in out and out["outcome"] == "ok"


@pytest.mark.parametrize("refusal", [False, None, 0, "no", "false"])
def test_an_approve_that_is_not_true_approves_nothing(studio, refusal):
    # trial 8: {"approve": false} (what a UI sends for "reject") approved both pauses and every
    # result was persisted; so did 0, "no" and null. Only true approves: anything else pauses
    # again with the same payload and the reason
    graph, data = studio
    config = {"configurable": {"thread_id": f"refuse-{refusal!r}"}}
    context = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    out = graph.invoke(Command(resume={"approve": refusal}), config, context=context)
    (pause,) = out["__interrupt__"]
    assert pause.value["stage"] == "plan" and "approve must be true" in pause.value["error"]
    assert "sub_questions" in pause.value["error"]  # what to send instead, to change the plan
    out = graph.invoke(Command(resume={"approve": True}), config, context=context)
    (pause,) = out["__interrupt__"]
    assert pause.value["stage"] == "results"
    out = graph.invoke(Command(resume={"approve": refusal}), config, context=context)
    (again,) = out["__interrupt__"]
    assert again.value["stage"] == "results" and "approve must be true" in again.value["error"]
    assert again.value["envelopes"] == pause.value["envelopes"]
    assert db_rows(data, config["configurable"]["thread_id"]) == []  # nothing persisted


def test_resume_values_are_checked():
    assert plan_resume(None, ["a"]) == ["a"]
    assert plan_resume({"approve": True}, ["a"]) == ["a"]
    assert plan_resume({"sub_questions": [" heron  census "]}, ["a"]) == ["heron census"]
    for bad in ({"sub_questions": []}, {"sub_questions": "b"}, {"sub_questions": ["b", "b"]},
                {"drop": ["x"]}, ["a"]):
        with pytest.raises(ReviewError):
            plan_resume(bad, ["a"])
    # trial 28, finding 3: a question that prints as another (a soft hyphen, a zero-width
    # space) ran twice and wrote two rows per worker for one printed question
    # trial 64, F4: so did one in another case, or with a space before its mark
    for twin in ("What is Send?\u00ad", "What is\u200b Send?", "what is send ?",
                 "What is Send", "What is Send\uff1f"):  # trial 67, F3: its mark apart
        with pytest.raises(ReviewError, match="repeats a question"):
            plan_resume({"sub_questions": ["What is Send?", twin]}, ["a"])
    assert plan_resume({"sub_questions": ["check\u00adpointer"]}, ["a"]) == ["checkpointer"]
    # one empty question among good ones is named, not "must hold at least one non-empty"
    with pytest.raises(ReviewError, match="sub-question 2 is empty"):
        plan_resume({"sub_questions": ["What is X?", "  "]}, ["a"])
    # nor is a question with nothing to search for, as a topic is not (a new user's trial)
    for blank in ("x", "What is it?"):
        with pytest.raises(ReviewError, match=r"sub-question 2 \(.*\) has no word to search"):
            plan_resume({"sub_questions": ["What is a heron census?", blank]}, ["a"])
    assert results_resume({"drop": ["x"], "redo": ["y"]}, ["x", "y"]) == (["x"], ["y"])
    for bad in ({"drop": ["z"]}, {"drop": ["x"], "redo": ["x"]}, {"sub_questions": ["a"]}):
        with pytest.raises(ReviewError):
            results_resume(bad, ["x", "y"])
    results = {"stage": "results", "envelopes": [{"envelope_id": "x"}]}
    with pytest.raises(ReviewError, match="--question is for the plan review"):
        review_value(results, questions=["q"])
    assert review_value(results) == {"approve": True}
    assert review_value({"stage": "plan", "sub_questions": ["a"]}, questions=["heron"]) == {
        "sub_questions": ["heron"]}


def test_a_plan_replaced_at_review_titles_its_report_and_a_rerun_still_says_so(studio):
    # answers8 item 5: a rerun after a review replaced the plan reported on the replacement
    # under the topic's title, without a note; and every run of it was warned that the
    # sources say nothing about the topic, which the replacement no longer asked about.
    graph, _data = studio
    config = {"configurable": {"thread_id": "studio-3"}}
    review = {"review": True}
    questions = ["How does a checkpointer save state?", "What does durability exit do?"]
    first = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=review)
    planner = graph.get_state(config).values["sub_questions"]
    assert first["__interrupt__"] and planner != questions
    graph.invoke(Command(resume={"sub_questions": questions}), config, context=review)
    approved = graph.invoke(Command(resume={"approve": True}), config, context=review)
    rerun = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    for out in (approved, rerun):
        assert out["sub_questions"] == questions and out["planned"] == planner
        title, facts = out["report"].split("\n\n", 2)[:2]
        assert title == f"# Research report: {'; '.join(questions)}"
        assert f"- Topic: {TOPIC} (its plan was replaced at review" in facts
        assert out["warnings"] == [] and "say nothing about" not in out["report"]
    said = "plan replaced at review or by a state edit: 2 sub-question(s) in place of the " \
        "planner's 3"
    for out in (approved, rerun):  # once each, in the report's Notes and the state's notes
        assert out["report"].split("## Notes", 1)[1].count(said) == 1
        assert out["notes"].count(said) == 1, out["notes"]


def test_a_plan_replaced_by_a_fork_is_noted_as_a_review_replacing_it_is(studio):
    # N10: a fork's update_state(..., as_node="plan") ended with notes: [] where the review's
    # replacement noted "plan replaced at review": a client reading final["notes"] could not
    # tell. One owner (report) notes it however the plan was replaced.
    graph, _data = studio
    config = {"configurable": {"thread_id": "studio-fork"}}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config)
    planner = graph.get_state(config).values["planned"]
    after_plan = next(s.config for s in graph.get_state_history(config)
                      if s.next == ("dispatch",))
    questions = ["How does a checkpointer save state?", "What does durability exit do?"]
    fork = graph.update_state(after_plan, {"sub_questions": questions}, as_node="plan")
    final = graph.invoke(None, fork)
    assert final["sub_questions"] == questions and final["outcome"] == "ok"
    said = ("plan replaced at review or by a state edit: 2 sub-question(s) in place of the "
            f"planner's {len(planner)}")
    assert final["notes"].count(said) == 1, final["notes"]
    assert final["report"].split("## Notes", 1)[1].count(said) == 1


def test_a_resume_value_the_plan_check_or_itself_refuses_pauses_again(studio):
    # trial 10: a question with a control character was taken at the review and the thread then
    # failed at dispatch for good; {"approve": true} beside sub_questions or redo was ignored.
    # A served client's resume value is checked as the CLI's flags are: the same pause again,
    # with the reason, and nothing run or persisted
    graph, data = studio
    config = {"configurable": {"thread_id": "refused"}}
    context = {"review": True}
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
    for value, reason in (
            ({"sub_questions": ["What is Send?", "a\x1bb resume"]},
             "sub-question 2 ('a\\x1bb resume') contains control characters"),
            ({"sub_questions": ["\u202eWhat is Send?"]}, "contains control characters"),
            ({"approve": True, "sub_questions": ["What is Send?"]},
             "approve and sub_questions contradict each other")):
        out = graph.invoke(Command(resume=value), config, context=context)
        (pause,) = out["__interrupt__"]
        assert pause.value["stage"] == "plan" and reason in pause.value["error"], pause.value
    assert graph.get_state(config).next == ("review_plan",)
    out = graph.invoke(Command(resume={"approve": True}), config, context=context)
    (pause,) = out["__interrupt__"]
    envelopes = pause.value["envelopes"]
    out = graph.invoke(Command(resume={"approve": True, "redo": [envelopes[0]["envelope_id"]]}),
                       config, context=context)
    (again,) = out["__interrupt__"]
    assert again.value["stage"] == "results"
    assert "approve and redo contradict each other" in again.value["error"]
    assert again.value["envelopes"] == envelopes and db_rows(data, "refused") == []
    with pytest.raises(ReviewError, match="--approve and --redo contradict"):
        review_value(pause.value, approve=True, redo=[envelopes[0]["envelope_id"]])
    assert review_value(pause.value, approve=True, drop=[envelopes[0]["envelope_id"]]) == {
        "drop": [envelopes[0]["envelope_id"]], "redo": []}


def test_a_served_topic_with_line_breaks_runs_as_the_cli_reads_it(studio):
    # trial 42, F4: a topic with a newline, a tab, U+2028 or \x1c was checked collapsed by the
    # pre-run hook and plan, then refused raw by dispatch ("contains control characters (was
    # the state edited?)"): a review was spent approving a plan that could not run
    graph, data = studio
    # trial 44, F10: zero-width characters too, as the CLI reads a topic
    topic = TOPIC.replace(" ", "\n", 1).replace(" ", "\u2028\t\x1c", 1) + "\u200b"
    config = {"configurable": {"thread_id": "breaks"}}
    paused = graph.invoke({"topic": topic, "as_of": AS_OF}, config, context={"review": True})
    assert paused["__interrupt__"][0].value["stage"] == "plan"
    out = graph.invoke(Command(resume={"approve": True}), config, context={"review": True})
    out = graph.invoke(Command(resume={"approve": True}), config, context={"review": True})
    assert out["outcome"] == "ok" and out["topic"] == " ".join(TOPIC.split()), out.get("outcome")
    assert len(db_rows(data, "breaks")) == len(out["envelopes"])
