"""Agent models that break the structured-output protocol, over real HTTP (issue 21, items 1-2).

``create_agent``'s ``ToolStrategy`` answers through one tool call of the response schema. A model
may call it twice in one message (langchainjs#11020), or call a normal tool and send invalid
answer arguments in the same message (langchain#40420/#40421). Each is either accepted (identical
duplicates are one answer) or corrected once; a model that repeats the fault ends its task with an
error naming it, within a few requests, every token counted.
"""

from __future__ import annotations

import json

import pytest

from tests.llm.fake_openai import PLAN_QUESTIONS
from tests.results_db import db_rows
from workers.tools import message_text

QUESTION = PLAN_QUESTIONS[0]




def _task_requests(server, role: str, question: str) -> list:
    """The requests of one agent task (its sub-question is the first user message)."""
    return [s for s in server.requests(role)
            if next(message_text(m.get("content")) for m in s.body["messages"]
                    if m.get("role") == "user") == question]


def _tool_replies(seen) -> list[dict]:
    return [m for m in seen.body["messages"] if m.get("role") == "tool"]


def _row(data, worker: str, question: str) -> dict:
    (row,) = [r for r in db_rows(data) if r["worker"] == worker and r["task_key"] == question]
    return row


def test_identical_duplicate_answers_count_as_one(fake_openai, run):
    fake_openai.fail("analyst", kind="twice", step="answer", times=None)
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    assert summary["errors"] == []
    for question in PLAN_QUESTIONS:  # a search and an answer, as in a normal run
        assert [s.step for s in _task_requests(fake_openai, "analyst", question)] == [
            "search", "answer"]
        row = _row(data, "analyst", question)
        assert (row["status"], row["attempts"]) == ("ok", 1)
    assert summary["tokens"] == fake_openai.total_tokens


def test_differing_duplicate_answers_get_one_correction(fake_openai, run):
    fake_openai.fail("analyst", kind="twice_differing", step="answer", question=QUESTION)
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    assert summary["errors"] == []
    seen = _task_requests(fake_openai, "analyst", QUESTION)
    assert [s.step for s in seen] == ["search", "answer", "answer"]
    correction = [m for m in _tool_replies(seen[2]) if "once" in message_text(m["content"])]
    assert len(correction) == 2  # one reply per call of the message, each saying what to do
    assert "twice" in message_text(correction[0]["content"])
    assert _row(data, "analyst", QUESTION)["status"] == "ok"


def test_a_model_that_keeps_answering_twice_ends_its_task_naming_the_cause(fake_openai, run):
    fake_openai.fail("analyst", kind="twice_differing", step="answer", times=None,
                     question=QUESTION)
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert error["worker"] == "analyst"
    assert "called its structured-output tool twice in one message" in error["error"]
    assert "Recursion" not in error["error"]
    seen = _task_requests(fake_openai, "analyst", QUESTION)
    assert [s.step for s in seen] == ["search", "answer", "answer"]  # bounded: one correction
    row = _row(data, "analyst", QUESTION)
    assert row["attempts"] == 1  # the same model would do it again: not retried
    assert row["tokens"] == sum(s.total_tokens for s in seen)
    assert summary["tokens"] == fake_openai.total_tokens


def test_a_tool_call_beside_an_invalid_answer_tells_the_model_what_was_invalid(
        fake_openai, run):
    fake_openai.fail("analyst", kind="tool_and_bad_args", step="answer", question=QUESTION)
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    assert summary["errors"] == []
    seen = _task_requests(fake_openai, "analyst", QUESTION)
    assert [s.step for s in seen] == ["search", "answer", "answer"]
    replies = [message_text(m["content"]) for m in _tool_replies(seen[2])]
    (told,) = [r for r in replies if "invalid" in r]
    assert "findings" in told and "valid list" in told
    row = _row(data, "analyst", QUESTION)
    assert (row["status"], row["attempts"]) == ("ok", 1)


@pytest.mark.parametrize("kind", ["tool_and_bad_args", "bad_args"])
def test_an_answer_that_stays_invalid_ends_its_task_naming_the_arguments(
        fake_openai, run, kind):
    fake_openai.fail("analyst", kind=kind, step="answer", times=None, question=QUESTION)
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert "invalid arguments" in error["error"] and "findings" in error["error"]
    assert "without a structured response" not in error["error"]
    assert "Recursion" not in error["error"]
    seen = _task_requests(fake_openai, "analyst", QUESTION)
    assert len([s for s in seen if s.fault == kind]) == 2  # the answer, and one after the fix
    row = _row(data, "analyst", QUESTION)
    assert row["tokens"] == sum(s.total_tokens for s in seen)


def test_an_answer_written_as_fenced_json_is_taken_in_every_role(fake_openai, run):
    # trial 23, finding 6: a small model that answers with a ```json block instead of calling
    # its answer tool was "no answer" at the planner and "finished without a structured
    # response" at every agent
    fake_openai.fail("planner", kind="text_json", times=None)
    fake_openai.fail("analyst", kind="text_json", step="answer", times=None)
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    assert summary["errors"] == [] and summary["sub_questions"] == PLAN_QUESTIONS
    assert not any("unusable" in n for n in summary["notes"]), summary["notes"]
    for question in PLAN_QUESTIONS:  # no correction needed: a search and an answer
        assert [s.step for s in _task_requests(fake_openai, "analyst", question)] == [
            "search", "answer"]
        row = _row(data, "analyst", question)
        assert row["status"] == "ok" and json.loads(row["structured"])["items"], row


def test_a_search_call_whose_arguments_are_not_json_is_corrected_once(fake_openai, run):
    # trial 23, finding 3: a trailing comma in the search call's arguments ended the agent
    # without telling the model, as "finished without a structured response"
    fake_openai.fail("analyst", kind="bad_json", step="search", question=QUESTION)
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    assert summary["errors"] == []
    seen = _task_requests(fake_openai, "analyst", QUESTION)
    (told,) = [message_text(m["content"]) for m in _tool_replies(seen[1])]
    assert "search_corpus call had arguments that are not valid JSON" in told, told
    assert _row(data, "analyst", QUESTION)["status"] == "ok"
