"""Fork, edit state and time travel through LangGraph Server (``langgraph dev``) and
``langgraph_sdk``, as Studio drives them: the same promises as ``tests/app/test_time_travel.py``,
over the server's API and its own checkpointer.

* a fork after ``plan`` (``threads.update_state(..., as_node="plan", checkpoint_id=...)``),
  then a run with input None: every worker of the new plan runs, ``outcome`` is ``ok``, one row
  per envelope;
* a state edit of the wrong type is a 400 naming the key, not a 500;
* ``update_state`` while the results review waits: the review node is still next, and approving
  persists every envelope with the edited fields.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph_sdk.errors import BadRequestError

from tests.conftest import AS_OF, SEVERAL_TOPIC, SMALL_TOPIC
from tests.e2e.langgraph_dev import Server, refusal
from tests.e2e.langgraph_dev import client as _client  # alice's: the served graph has auth on
from tests.expected import worker_names
from tests.results_db import logical_duplicates

pytestmark = pytest.mark.xdist_group("langgraph_dev")  # the session's one server (conftest.py)


def _wait(client, thread_id: str, **kwargs) -> dict:
    return client.runs.wait(thread_id, "research", raise_error=False, **kwargs)


def test_a_fork_after_plan_over_the_server_runs_every_worker(server: Server) -> None:
    client = _client(server)
    thread_id = client.threads.create()["thread_id"]
    first = _wait(client, thread_id, input={"topic": SMALL_TOPIC, "as_of": AS_OF})
    assert first["outcome"] == "ok", first
    history = client.threads.get_history(thread_id, limit=100)
    after_plan = next(h for h in history if h["next"] == ["dispatch"])
    for bad in ({"routing": 5}, {"envelopes": [5]}):  # trial 14: 500 with a traceback
        with pytest.raises(BadRequestError) as caught:  # 400, the line naming the key
            client.threads.update_state(thread_id, bad, as_node="plan",
                                        checkpoint_id=after_plan["checkpoint_id"])
        text = caught.value.response.text
        assert next(iter(bad)) in text and "must be a" in text and "Traceback" not in text
    questions = ["What is a zorblax?", "How is a zorblax built?"]
    client.threads.update_state(thread_id, {"sub_questions": questions}, as_node="plan",
                                checkpoint_id=after_plan["checkpoint_id"])
    assert client.threads.get_state(thread_id)["next"] == ["dispatch"]
    fork = _wait(client, thread_id, input=None)
    assert fork["outcome"] == "ok", fork
    assert fork["sub_questions"] == questions
    rows = server.rows(thread_id)
    assert not logical_duplicates(rows)
    fork_rows = [r for r in rows if r["task_key"] in questions]
    assert len(fork_rows) == len(questions) * len(worker_names())
    assert len(rows) == len(fork_rows)  # the first plan's rows are gone: the thread's are these
    assert all(r["status"] == "ok" for r in fork_rows)


def test_an_edit_while_the_results_review_waits_over_the_server(server: Server) -> None:
    client, thread_id, context = _at_results_review(server)
    state = client.threads.get_state(thread_id)
    target = state["values"]["envelopes"][0]
    edited = {**target["structured"], "edited_by": "studio"}
    client.threads.update_state(thread_id, {"envelopes": [
        {"envelope_id": target["envelope_id"], "structured": edited}]})
    assert client.threads.get_state(thread_id)["next"] == ["review_results"]
    assert server.rows(thread_id) == []
    final = _wait(client, thread_id, command={"resume": {"approve": True}}, context=context)
    assert final["outcome"] == "ok", final
    rows = {r["envelope_id"]: r for r in server.rows(thread_id)}
    assert len(rows) == len(state["values"]["envelopes"])
    structured = rows[target["envelope_id"]]["structured"]
    structured = json.loads(structured) if isinstance(structured, str) else structured
    assert structured["edited_by"] == "studio"


def test_a_resume_at_an_answered_review_pause_is_refused_and_its_copy_takes_the_answer(
        server: Server) -> None:
    # trial 42, F5: going back to the results pause after it was approved and resuming there
    # with {"drop": [...]} replayed the first answer (LangGraph keeps the pause's resume
    # value): the run a success, nothing dropped, no word said. A copy of the pause (what
    # `review --checkpoint` makes) takes the new answer.
    client, thread_id, context = _at_results_review(server)
    pause = client.threads.get_state(thread_id)
    answered = pause["checkpoint"]["checkpoint_id"]
    dropped = pause["values"]["envelopes"][0]["envelope_id"]
    assert _wait(client, thread_id, command={"resume": {"approve": True}},
                 context=context)["outcome"] == "ok"
    every = len(server.rows(thread_id))
    status, line = refusal(client.runs.wait, thread_id, "research", context=context,
                           command={"resume": {"drop": [dropped]}}, checkpoint_id=answered)
    assert status == 409 and "replays its first answer" in line and "\n" not in line, line
    assert len(server.rows(thread_id)) == every
    client.threads.update_state(thread_id, None, as_node="__copy__", checkpoint_id=answered)
    final = _wait(client, thread_id, command={"resume": {"drop": [dropped]}}, context=context)
    assert final["outcome"] == "ok" and final["dropped"] == [dropped], final
    assert dropped not in {r["envelope_id"] for r in server.rows(thread_id)}
    assert len(server.rows(thread_id)) == every - 1


def test_time_travel_to_the_end_of_an_earlier_run_is_refused(server: Server) -> None:
    # trial 42, F3: a thread run on one topic, then another (whose rows replaced the first's),
    # then "run" from the first run's last checkpoint: no node ran, and the head showed the
    # first run's outcome "ok" over the second topic's rows
    client = _client(server)
    thread_id = client.threads.create()["thread_id"]
    first = _wait(client, thread_id, input={"topic": SMALL_TOPIC, "as_of": AS_OF})
    assert first["outcome"] == "ok"
    first_end = client.threads.get_state(thread_id)["checkpoint"]["checkpoint_id"]
    second = _wait(client, thread_id, input={"topic": SEVERAL_TOPIC, "as_of": AS_OF})
    assert second["outcome"] == "ok"
    head = client.threads.get_state(thread_id)
    status, line = refusal(client.runs.wait, thread_id, "research", input=None,
                           checkpoint_id=first_end)
    assert status == 409 and "ended a run" in line and "\n" not in line, line
    # trial 44, F6: Studio's "edit state and run" sends a Command whose update alone schedules
    # nothing from an ended run either
    status, line = refusal(client.runs.wait, thread_id, "research", checkpoint_id=first_end,
                           command={"update": {"as_of": AS_OF}})
    assert status == 409 and "ended a run" in line, line
    assert client.threads.get_state(thread_id)["checkpoint"] == head["checkpoint"]


def test_a_second_resume_queued_behind_a_first_is_refused(server: Server) -> None:
    # trial 44, F5: two reviewers answering one results pause back to back (enqueue): both
    # passed (the pause was still the head), and the second's drop was replayed away
    client, thread_id, context = _at_results_review(server)
    pause = client.threads.get_state(thread_id)
    dropped = pause["values"]["envelopes"][0]["envelope_id"]
    first = client.runs.create(thread_id, "research", command={"resume": {"approve": True}},
                               context=context, multitask_strategy="enqueue",
                               checkpoint_id=pause["checkpoint"]["checkpoint_id"])
    status, line = refusal(client.runs.create, thread_id, "research", context=context,
                           command={"resume": {"drop": [dropped]}}, multitask_strategy="enqueue",
                           checkpoint_id=pause["checkpoint"]["checkpoint_id"])
    assert status == 409 and "has a run in flight" in line, line
    client.runs.join(thread_id, first["run_id"])
    assert client.threads.get_state(thread_id)["values"]["outcome"] == "ok"


def _at_results_review(server: Server) -> tuple[Any, str, dict]:
    """A new thread of alice's, run with review, its plan approved: ``(client, thread_id,
    context)``, the thread paused at its results review."""
    client = _client(server)
    thread_id = client.threads.create()["thread_id"]
    context = {"review": True}
    _wait(client, thread_id, input={"topic": SMALL_TOPIC, "as_of": AS_OF}, context=context)
    _wait(client, thread_id, command={"resume": {"approve": True}}, context=context)
    assert client.threads.get_state(thread_id)["next"] == ["review_results"]
    return client, thread_id, context
