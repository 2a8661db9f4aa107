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

import pytest
from langgraph_sdk.errors import BadRequestError

from tests.conftest import AS_OF, SMALL_TOPIC
from tests.e2e.langgraph_dev import Server
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
    client = _client(server)
    thread_id = client.threads.create()["thread_id"]
    context = {"review": True}
    _wait(client, thread_id, input={"topic": SMALL_TOPIC, "as_of": AS_OF}, context=context)
    _wait(client, thread_id, command={"resume": {"approve": True}}, context=context)
    state = client.threads.get_state(thread_id)
    assert state["next"] == ["review_results"], state["next"]
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
