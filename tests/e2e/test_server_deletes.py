"""Deleting a served thread (or a run, or a prune) while a run of it is in flight is refused
(``app/server/deletes.py``, the ``@auth.on.threads.delete`` hook), through ``langgraph_sdk``
against the session's ``langgraph dev`` (``tests/e2e/langgraph_dev.py``).

Trial S, H1: ``langgraph dev`` deleted alice's thread mid-run (200) and the run went on: it wrote
9 rows and a report for the deleted thread, and its checkpoints under the id let bob's run on a
thread he created with that id take the rows for its own and replace them.
"""

from __future__ import annotations

import time

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC
from tests.e2e.langgraph_dev import Server, client, new_thread, refusal, status_of

pytestmark = pytest.mark.xdist_group("langgraph_dev")  # one worker, one server (conftest.py)

SLOW = {"model": "openai:gpt-test", "max_concurrency": 1}


def _running(server: Server, thread_id: str, run_id: str) -> None:
    deadline = time.monotonic() + 30
    while client(server).runs.get(thread_id, run_id)["status"] != "running":
        assert time.monotonic() < deadline, "the run did not start"
        time.sleep(0.1)


def test_a_thread_with_a_run_in_flight_is_not_deleted(server: Server) -> None:
    alice = client(server)
    thread_id = new_thread(server)
    fault = server.fake.fail("*", kind="delay", delay=1.5, times=None)  # every model call
    try:
        run_id = alice.runs.create(thread_id, "research",
                                   input={"topic": SMALL_TOPIC, "as_of": AS_OF},
                                   context=SLOW)["run_id"]
        _running(server, thread_id, run_id)
        status, line = refusal(alice.threads.delete, thread_id)
        assert status == 409, (status, line)
        assert line.startswith(f"thread {thread_id!r} has a run in flight ({run_id}, running): "
                               "deleting the thread would not stop it"), line
        assert "cancel the run first (runs.cancel(thread_id, run_id))" in line and "\n" not in line
        status, line = refusal(alice.runs.delete, thread_id, run_id)
        assert status == 409 and line.startswith(f"run {run_id} of thread {thread_id!r} is in "
                                                 "flight (running)"), (status, line)
        assert refusal(alice.threads.prune, [thread_id])[0] == 409
        assert status_of(lambda: client(server, "bob").threads.delete(thread_id)) == 404
        assert alice.threads.get(thread_id)["status"] == "busy"  # nothing was deleted

        alice.runs.cancel(thread_id, run_id, wait=True)  # the way on the line names
        alice.threads.delete(thread_id)
    finally:
        server.fake.faults.remove(fault)
    assert status_of(lambda: alice.threads.get(thread_id)) == 404
    time.sleep(2)  # a run left going would write its rows and report by now
    assert server.rows(thread_id) == []
    assert not list((server.data_dir / "reports").glob(f"{thread_id}*"))


def test_a_finished_thread_and_a_stateless_run_are_deleted_as_before(server: Server) -> None:
    alice = client(server)
    thread_id = new_thread(server)
    assert alice.runs.wait(thread_id, "research", input={"topic": SMALL_TOPIC, "as_of": AS_OF}
                           )["outcome"] == "ok"
    alice.threads.delete(thread_id)
    assert status_of(lambda: alice.threads.get(thread_id)) == 404
    before = alice.threads.count()
    final = alice.runs.wait(None, "research", input={"topic": SMALL_TOPIC, "as_of": AS_OF})
    assert final["outcome"] == "ok"  # its temporary thread is deleted by the server, unrefused
    assert alice.threads.count() == before
