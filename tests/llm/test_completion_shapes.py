"""Answers that break the chat completion protocol, over real HTTP, in every model role (trial 39,
findings 8 and 12): each is the provider's malformed response, named by what happened.

* ``"choices": {"0": {...}}``, ``"message": null``, ``"usage": "lots"``: ``langchain-openai``
  raised ``TypeError: string indices must be integers`` or ``AttributeError: 'NoneType' object
  has no attribute 'get'``, and the run ended on it as on a bug of the app (no retry, no
  fallback, the report's note quoting it). Now a malformed response, as an empty or null
  ``choices`` list already was: retried like a 5xx, then named
  (:mod:`app.llm.completion_shape`).
* tool-call arguments that are a JSON list or number were "not a JSON object (a JSON string
  holding one?)": now the line says what they were.
* a model server that redirects to a closed port was "cannot reach the model server ...: is it
  running?": it was running; the line now says where it redirected.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.expected import worker_names
from tests.llm.fake_openai import PLAN_QUESTIONS, SYNTHESIS_SENTENCE
from tests.results_db import db_rows

N_TASKS = len(PLAN_QUESTIONS) * len(worker_names())
SAID = {
    "choices_object": "the provider's answer is no chat completion ('choices' is an object, "
                      "not a list): a malformed response",
    "message_null": "the provider's answer is no chat completion (choices[0].message is null, "
                    "not an object): a malformed response",
    "usage": "the provider's answer is no chat completion ('usage' is a string, not an "
             "object): a malformed response",
    "content_number": "the provider's answer is no chat completion (choices[0].message.content "
                      "is a number, not text): a malformed response",
    "tool_calls_object": "the provider's answer is no chat completion (choices[0].message."
                         "tool_calls is an object, not a list): a malformed response",
}




def _error_line(stderr: str) -> str:
    (line,) = [line for line in stderr.splitlines() if line.startswith("error:")]
    return line


@pytest.mark.parametrize("role", ["planner", "analyst", "critic", "report"])
@pytest.mark.parametrize("kind", ["choices_object", "message_null", "usage"])
def test_a_completion_of_the_wrong_shape_is_retried_in_every_role(fake_openai, run, role,
                                                                  kind):
    fake_openai.fail(role, kind=kind, usage="lots")  # once
    proc, summary, data = run()
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert summary["errors"] == [] and summary["db_rows"] == N_TASKS
    assert summary["sub_questions"] == PLAN_QUESTIONS  # the planner's own plan, retried
    if role in ("analyst", "critic"):  # retried within its task
        retried = [(r["worker"], r["attempts"]) for r in db_rows(data) if r["attempts"] > 1]
        assert retried == [(role, 2)]
    if role == "report":
        assert len(fake_openai.requests("report")) == 2
        assert SYNTHESIS_SENTENCE in Path(summary["report_path"]).read_text(encoding="utf-8")
    # served, its usage unread: counted apart
    assert summary["notes"][-1].startswith("1 model response(s) gave no token usage")


@pytest.mark.parametrize("kind", ["choices_object", "message_null", "content_number",
                                  "tool_calls_object"])
def test_a_planner_that_keeps_answering_in_the_wrong_shape_ends_with_one_named_line(
        fake_openai, run, kind):
    fake_openai.fail("planner", kind=kind, times=None)
    proc, _summary, _data = run()
    assert proc.returncode == 1
    line = _error_line(proc.stderr)
    assert line.startswith("error: run failed: MalformedResponseError: openai:gpt-4.1-mini: ")
    assert line.endswith(SAID[kind]), line
    assert len(fake_openai.requests("planner")) == 3  # retried by the RetryPolicy


def test_an_agent_answer_of_the_wrong_shape_names_it_in_the_tasks_error(fake_openai, run):
    fake_openai.fail("analyst", kind="message_null", times=None, question=PLAN_QUESTIONS[0])
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert error["worker"] == "analyst" and SAID["message_null"] in error["error"]
    assert "AttributeError" not in error["error"]
    (row,) = [r for r in db_rows(data) if r["status"] == "error"]
    assert row["attempts"] == 3  # a malformed response is transient


def test_a_report_model_answering_in_the_wrong_shape_is_named_in_the_note(fake_openai, run):
    fake_openai.fail("report", kind="choices_object", times=None)
    proc, summary, _data = run()
    assert proc.returncode == 0, proc.stderr
    (note,) = [n for n in summary["notes"] if n.startswith("no model summary")]
    assert SAID["choices_object"] in note and "TypeError" not in note, note


def test_the_readers_of_a_completion_are_those_of_the_installed_langchain_openai():
    from langchain_openai.chat_models import base

    from app.llm.completion_shape import READERS

    for name in READERS:
        reader = getattr(base, name, None) or getattr(base.BaseChatOpenAI, name)
        assert "langchain_openai" in reader.__code__.co_filename
    assert "response_dict" in base.BaseChatOpenAI._create_chat_result.__code__.co_varnames


# --- what the lines say (finding 12) ------------------------------------------------------

@pytest.mark.parametrize(("kind", "said"), [
    ("args_list", "not a JSON object but a list ([{"),
    ("args_number", "not a JSON object but a number (42)"),
    ("args_string", "not a JSON object but a string (the object double-encoded"),
])
def test_tool_call_arguments_that_are_no_object_are_named_for_what_they_are(
        fake_openai, run, kind, said):
    fake_openai.fail("planner", kind=kind, times=None)
    proc, summary, _data = run()
    assert proc.returncode == 0, proc.stderr
    (note,) = [n for n in summary["notes"] if n.startswith("the planner's answer was unusable")]
    assert said in note, note


def test_an_agents_arguments_as_a_number_are_named_in_its_tasks_error(fake_openai, run):
    fake_openai.fail("critic", kind="args_number", times=None, question=PLAN_QUESTIONS[0])
    proc, summary, _data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert "tool-call arguments are not a JSON object but a number (42)" in error["error"]


def test_a_model_server_that_redirects_to_a_closed_port_is_said_to_redirect(fake_openai, run):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    to = f"http://127.0.0.1:{closed}/v1/chat/completions"
    fake_openai.fail("*", status=307, location=to + "?key=1", times=None)
    proc, _summary, _data = run()
    assert proc.returncode == 1
    line = _error_line(proc.stderr)
    assert (f"the model server at {fake_openai.url} redirected the request to {to}, which "
            "cannot be reached (") in line, line
    assert "is it running" not in line and "key=1" not in line
