"""The graph served by LangGraph Server (``langgraph dev``), driven through ``langgraph_sdk``.

A real ``langgraph dev`` process (from ``langgraph-cli[inmem]``, a dev dependency) serves the
repository's ``langgraph.json`` on 127.0.0.1 (a free port, ``--no-browser``, no reload, no
tracing, no CLI analytics). Its own files (``.langgraph_api/``) go to a temp folder, and the
app's (results database, reports, corpus index) to ``RESEARCH_DATA_DIR``. A fake
OpenAI-compatible server on 127.0.0.1 (``tests/llm/fake_openai.py``) stands in for a provider.
One server for the session (``tests/e2e/langgraph_dev.py``), with auth on (``RESEARCH_API_TOKENS``:
two users).

What is checked, as a LangGraph Server client sees it:

* a run's ``context`` is that run's choices: a run whose critic fails at the provider with
  ``rounds: 1`` is ``partial`` with the critic's tasks in ``failed_tasks``, and the same thread
  run again is ``ok``, updating the same rows (no new row); failing again, it keeps them;
* a fatal model error (an unknown model: HTTP 404) fails that run only: the runs after it on the
  same server, offline and on the fake provider, end ``ok``;
* what a client may not set (issue 18): a context naming ``data_dir``, ``report_out``,
  ``fail_rate``, a corpus path, ``max_concurrency: 100000``, the same in ``configurable``,
  ``config.max_concurrency`` past the bound, or a ``recursion_limit`` too small for one round
  fails the run with one line naming the key, and nothing is written there;
* a thread the server no longer has (deleted, lost, a stateless run's), created again with its
  id: the run fails with one line and the rows it left stay;
* what a run's request and its thread show it cannot do is refused before the run exists
  (``tests/e2e/test_server_prerun.py``);
* auth: no token is a 401, with or without ``x-auth-scheme: langsmith``; a second user gets 404
  on the first user's thread, and cannot run it or list it; each user's store is their own.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC
from tests.e2e.langgraph_dev import Server, client, new_thread, run, status_of
from tests.expected import worker_names
from tests.llm.fake_openai import PLAN_QUESTIONS

pytestmark = pytest.mark.xdist_group("langgraph_dev")  # one worker, one server (conftest.py)


def test_per_run_context_outcome_and_a_rerun_of_the_thread(server: Server) -> None:
    thread_id = new_thread(server)
    tasks = len(PLAN_QUESTIONS) * len(worker_names())
    critic_tasks = len(PLAN_QUESTIONS)
    provider = {"model": "openai:gpt-test", "rounds": 1}

    fault = server.fake.fail("critic", status=500, times=None)  # every attempt of each critic
    try:
        first = run(server, thread_id, provider)
    finally:
        server.fake.faults.remove(fault)
    assert first["outcome"] == "partial", first
    assert sorted({t["worker"] for t in first["failed_tasks"]}) == ["critic"]
    assert len(first["failed_tasks"]) == critic_tasks
    rows = server.rows(thread_id)
    assert len(rows) == tasks and all(r["write_count"] == 1 for r in rows)
    assert sum(r["status"] == "error" for r in rows) == critic_tasks

    again = run(server, thread_id, provider)  # the same thread, the provider healthy again
    assert again["outcome"] == "ok" and again["failed_tasks"] == [], again
    assert Path(again["report_path"]).is_file()
    # the report's text in the thread's state: a client on another machine needs no file
    assert again["report"] == Path(again["report_path"]).read_text(encoding="utf-8")
    # the run's result is the graph's output schema: the edges' working keys stay in state
    assert not {"routing", "round", "redo", "planned_topic"} & set(again), sorted(again)
    assert client(server).threads.get_state(thread_id)["values"]["routing"]["workers"]
    rows_again = server.rows(thread_id)
    assert sorted(r["envelope_id"] for r in rows_again) == sorted(r["envelope_id"] for r in rows)
    assert all(r["write_count"] == 2 and r["status"] == "ok" for r in rows_again)

    # the critic failing again on the finished thread keeps its results (an error never
    # replaces an ok result): the rows are unchanged, and the run says the failures kept them
    fault = server.fake.fail("critic", status=500, times=None)
    try:
        third = run(server, thread_id, provider)
    finally:
        server.fake.faults.remove(fault)
    assert third["outcome"] == "partial" and len(third["failed_tasks"]) == critic_tasks, third
    assert all(t["kept"] for t in third["failed_tasks"]), third["failed_tasks"]
    assert f"{critic_tasks} task(s) failed in this run and their earlier results were kept " \
           "(rows unchanged)" in third["notes"]
    critic = [r for r in server.rows(thread_id) if r["worker"] == "critic"]
    assert critic == [r for r in rows_again if r["worker"] == "critic"]  # write_count 2 still


def test_a_fatal_model_error_leaves_the_next_runs_unaffected(server: Server) -> None:
    bad_thread = new_thread(server)
    bad = run(server, bad_thread, {"model": "openai:no-such-model"})
    # the run failed (no final state); the client reads what the CLI prints, where the server
    # hid the provider error's message ("An internal error occurred": trial 24, finding 12)
    assert "outcome" not in bad and bad["__error__"]["error"] == "FatalModelError", bad
    assert bad["__error__"]["message"].startswith(
        "not found (HTTP 404): check the model name and the base URL"), bad
    assert server.fake.requests(status=404), "the unknown model never reached the provider"
    assert server.rows(bad_thread) == []

    offline = run(server, new_thread(server), {"model": "offline"})
    assert offline["outcome"] == "ok", offline
    provider_thread = new_thread(server)
    provider = run(server, provider_thread, {"model": "openai:gpt-test"})
    assert provider["outcome"] == "ok", provider
    assert provider["sub_questions"] == PLAN_QUESTIONS
    assert len(server.rows(provider_thread)) == len(PLAN_QUESTIONS) * len(worker_names())


def test_what_a_client_may_not_set_fails_the_run_naming_the_key(server: Server,
                                                               tmp_path: Path) -> None:
    # issue 18: "any client can set data_dir, report_out, corpus, max_concurrency: 100000 and
    # fail_rate"; each now fails its run with one line naming the key, and nothing is written
    elsewhere, report = tmp_path / "elsewhere", tmp_path / "mine.md"
    report.write_text("keep me", encoding="utf-8")
    folder = tmp_path / "server-folder"
    folder.mkdir()
    (folder / "secret.md").write_text("# Secret\n\nThe server's own notes.\n", encoding="utf-8")
    cases = [
        ({"context": {"data_dir": str(elsewhere)}}, "data_dir"),
        ({"context": {"report_out": str(report)}}, "report_out"),
        ({"context": {"fail_rate": 1.0}}, "fail_rate"),
        ({"context": {"corpus": str(folder)}}, "corpus"),
        ({"context": {"corpus_name": str(folder)}}, "corpus_name"),
        ({"context": {"max_concurrency": 100000}}, "max_concurrency"),
        ({"config": {"configurable": {"data_dir": str(elsewhere)}}}, "data_dir"),
        ({"config": {"configurable": {"rounds": 1000}}}, "rounds"),
        ({"config": {"max_concurrency": 100000}}, "config.max_concurrency"),
        ({"config": {"recursion_limit": 100000}}, "config.recursion_limit"),
        # trial 25, finding 15: too small for one round, it died in GraphRecursionError
        ({"config": {"recursion_limit": 4}}, "config.recursion_limit: 4 is less than one"),
    ]
    for kwargs, key in cases:
        thread_id = new_thread(server)
        out = run(server, thread_id, **kwargs)
        error = out.get("__error__") or {}
        assert "outcome" not in out and error.get("error") == "ConfigError", (key, out)
        message = error.get("message", "")
        assert message.startswith(key if " " in key else f"{key}:"), (key, message)
        assert "\n" not in message, message
        assert server.rows(thread_id) == []
        state = client(server).threads.get_state(thread_id)
        assert not state["values"], (key, state)  # the run never started: no step, no state
    assert not elsewhere.exists()
    assert report.read_text(encoding="utf-8") == "keep me"
    assert "The server's own notes" not in server.log.read_text(encoding="utf-8")


def test_a_named_corpus_with_nothing_to_index_fails_the_run_with_its_message(
        server: Server) -> None:
    # Issue 21, sibling of finding 4: the CorpusError came back as "An internal error
    # occurred"; the message names the corpus by name, never the server's folder.
    thread_id = new_thread(server)
    out = run(server, thread_id, context={"corpus_name": "empty"})
    error = out.get("__error__") or {}
    assert error.get("error") == "ConfigError", out
    assert error["message"].startswith(
        "corpus folder of corpus_name 'empty' contains no indexable files"), error
    assert "empty-corpus" not in error["message"]
    assert server.rows(thread_id) == []


def test_auth_each_user_sees_and_runs_only_their_own_threads(server: Server) -> None:
    import httpx

    alice = new_thread(server, "alice")
    for headers in ({}, {"x-auth-scheme": "langsmith"},
                    {"Authorization": "Bearer not-a-token"}):
        response = httpx.post(f"{server.url}/threads/search", json={}, headers=headers)
        assert response.status_code == 401, (headers, response.text)
        response = httpx.get(f"{server.url}/threads/{alice}", headers=headers)
        assert response.status_code == 401, (headers, response.text)

    bob = client(server, "bob")
    assert status_of(lambda: bob.threads.get(alice)) in (403, 404)
    assert status_of(lambda: bob.runs.wait(alice, "research",
                                         input={"topic": SMALL_TOPIC, "as_of": AS_OF})) in (403,
                                                                                          404)
    assert status_of(lambda: bob.threads.get_state(alice)) in (403, 404)
    assert alice not in {t["thread_id"] for t in bob.threads.search(limit=100)}
    own = client(server, "alice").threads.get(alice)
    assert own["thread_id"] == alice and own["metadata"]["owner"] == "alice"


def test_auth_each_user_has_a_store_of_their_own(server: Server) -> None:
    # Trial 25, finding 1: the global handler's owner filter does not reach the store; bob
    # read, overwrote, listed and deleted alice's items
    alice, bob = client(server, "alice"), client(server, "bob")
    alice.store.put_item(["notes"], "plan", {"secret": "alice's draft"})
    assert alice.store.get_item(["notes"], "plan")["value"] == {"secret": "alice's draft"}
    assert bob.store.get_item(["notes"], "plan") is None
    assert bob.store.search_items(["notes"])["items"] == []
    assert ["alice", "notes"] not in bob.store.list_namespaces()["namespaces"]
    bob.store.put_item(["notes"], "plan", {"secret": "bob wrote"})
    bob.store.delete_item(["notes"], "plan")
    assert alice.store.get_item(["notes"], "plan")["value"] == {"secret": "alice's draft"}
    assert [i["value"] for i in alice.store.search_items(["notes"])["items"]] == [
        {"secret": "alice's draft"}]


def test_the_cli_reads_a_served_thread_by_its_rows(server: Server) -> None:
    # Trial 12, finding 3: `inspect` of a server thread printed "None as of None" and advised
    # a `resume` that then said "no thread", and `threads` did not list it.
    from tests.conftest import run_cli

    thread_id = new_thread(server)
    done = run(server, thread_id)
    assert done.get("outcome") == "ok", done
    rows = server.rows(thread_id)
    assert rows

    shown = run_cli("inspect", thread_id, "--data-dir", server.data_dir, "--json")
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert (data["topic"], data["as_of"], data["run_status"]) == (SMALL_TOPIC, AS_OF, "rows only")
    assert len(data["rows"]) == len(rows)
    printed = run_cli("inspect", thread_id, "--data-dir", server.data_dir).stdout
    assert f"{SMALL_TOPIC!r} as of {AS_OF}" in printed and "None" not in printed
    assert "a LangGraph Server run's thread" in printed and "`resume`" not in printed

    resumed = run_cli("resume", thread_id, "--data-dir", server.data_dir)
    assert resumed.returncode == 2 and resumed.stderr.count("\n") == 1, resumed.stderr
    assert "its result rows are here but not its checkpoints" in resumed.stderr
    listed = json.loads(run_cli("threads", "--data-dir", server.data_dir, "--json").stdout)
    [mine] = [t for t in listed if t["thread_id"] == thread_id]
    assert (mine["status"], mine["topic"]) == ("rows only", SMALL_TOPIC)

    # Trial 12, finding 10: a CLI run of another topic on its id replaced its rows and report;
    # trial 14, finding 7: one of its own topic adopted the thread and replaced them too
    for topic in ("retry policy of a graph node", SMALL_TOPIC):
        other = run_cli("research", topic, "--thread-id", thread_id, "--as-of", AS_OF,
                        "--data-dir", server.data_dir)
        assert other.returncode == 2 and other.stderr.count("\n") == 1, other.stderr
        assert f"(topic {SMALL_TOPIC!r} as of {AS_OF}) cannot be run from" in other.stderr
        assert "a LangGraph Server run's thread" in other.stderr
        assert server.rows(thread_id) == rows


def test_a_served_run_on_a_cli_threads_id_is_refused(server: Server, small_corpus: Path) -> None:
    # Trial 13 (finding 10's reverse): a client creating a thread with a CLI thread's id
    # replaced that thread's rows and report without a word.

    from tests.conftest import run_cli

    thread_id = str(uuid.uuid4())
    cli = run_cli("research", "retry policy of a graph node", "--thread-id", thread_id,
                  "--as-of", AS_OF, "--data-dir", server.data_dir, "--corpus", small_corpus)
    assert cli.returncode == 0, cli.stderr
    rows = server.rows(thread_id)
    client(server).threads.create(thread_id=thread_id)
    out = run(server, thread_id)
    message = (out.get("__error__") or {}).get("message", "")
    assert message.startswith(f"thread {thread_id!r} is a thread of the command line"), out
    assert server.rows(thread_id) == rows


def test_a_thread_the_server_no_longer_has_keeps_its_rows(server: Server) -> None:
    # Trial 14, finding 15: a client creating a thread with the id of one the server no longer
    # has (deleted here; a stateless run's, or one a restarted langgraph dev lost, the same)
    # replaced the rows it had left; the server's checkpointer is what tells them apart
    thread_id = new_thread(server)
    assert run(server, thread_id)["outcome"] == "ok"
    rows = server.rows(thread_id)
    assert rows
    alice = client(server)
    alice.threads.delete(thread_id)
    alice.threads.create(thread_id=thread_id)
    out = run(server, thread_id)
    message = (out.get("__error__") or {}).get("message", "")
    assert message.startswith(f"thread {thread_id!r} has {len(rows)} result row(s) "), out
    assert message.endswith("start a new thread") and "\n" not in message, out
    assert server.rows(thread_id) == rows


def test_a_provider_refusing_the_planners_request_is_named_to_the_client(server: Server) -> None:
    # Trial S, H5: a provider's 400 at the planner (a server without tool calling answers so,
    # README "Using a real LLM"; Studio's stream_mode "messages" to a server that cannot stream)
    # ended the served run as {"error": "OpenAIInvalidRequestError", "message": "An internal
    # error occurred"}: LangGraph Server hides the message of any error class but the builtin
    # kinds, where the CLI prints the provider's line
    thread_id = new_thread(server)
    fault = server.fake.fail("planner", status=400, times=None)
    try:
        final = run(server, thread_id, {"model": "openai:gpt-test"})
    finally:
        server.fake.faults.remove(fault)
    error = final.get("__error__") or {}
    assert error.get("message", "").startswith(
        "the provider refused the request (HTTP 400): "), final
    assert "scripted 400" in error["message"] and "\n" not in error["message"], error
    assert server.rows(thread_id) == []
    assert run(server, thread_id, {"model": "openai:gpt-test"})["outcome"] == "ok"
