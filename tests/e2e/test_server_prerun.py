"""LangGraph Server's pre-run hook (``app/server/prerun.py``), through ``langgraph_sdk`` against
the session's ``langgraph dev`` (``tests/e2e/langgraph_dev.py``): what a run's request and its
thread show it cannot do (a bad topic or ``as_of``, an input that is not an object, a checkpoint
the thread lacks, a durability not the operator's, a new input without review on a thread paused
at a review, a run, resume or fork on another ``corpus_name`` than the plan's) is refused before
the run exists (400, 409): the thread keeps its topic, its checkpoint, its pause and its rows
(trial 25, findings 4 and 8; trial 27, findings 1, 3, 4, 6).
"""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC
from tests.e2e.langgraph_dev import Server, client, new_thread, refusal, run, status_of

pytestmark = pytest.mark.xdist_group("langgraph_dev")  # one worker, one server (conftest.py)


def test_a_bad_topic_is_refused_before_the_run_exists(server: Server) -> None:
    # Issue 21 (trial 6, finding 4): the client got "An internal error occurred" for these.
    # Trial 25, finding 8: refused in `plan`, the run had already saved its input, so a
    # finished thread's topic became the refused one; now `@auth.on.threads.create_run`
    # refuses it (400, one line) before the run or its checkpoint exists.
    cases = [({"topic": ""}, "the topic is empty; say what to research"),
             ({}, "the topic is empty; say what to research"),
             ({"topic": "x"}, "the topic 'x' has no word to search for"),
             ({"topic": 123}, "the topic must be text, got int 123"),
             ({"topic": SMALL_TOPIC, "as_of": "bad"}, "as_of must be a date written YYYY-MM-DD"),
             # trial 58, F2: "" ran as of today; refused as the CLI refuses --as-of ""
             ({"topic": SMALL_TOPIC, "as_of": ""}, "as_of needs a value, got an empty one")]
    for topic_input, start in cases:
        thread_id = new_thread(server)
        status, line = refusal(client(server).runs.wait, thread_id, "research",
                                input=topic_input)
        assert status == 400 and line.startswith(start) and "\n" not in line, (topic_input, line)
        assert server.rows(thread_id) == []
        assert not client(server).threads.get_state(thread_id)["values"]
        assert client(server).runs.list(thread_id) == []  # no run was made

    thread_id = new_thread(server)
    assert run(server, thread_id)["outcome"] == "ok"
    before = client(server).threads.get_state(thread_id)
    for topic_input in ({"topic": "what is it"}, {"topic": "zorblax checkpoints", "as_of": "x"}):
        status, _ = refusal(client(server).runs.wait, thread_id, "research",
                             input=topic_input)
        assert status == 400, topic_input
    after = client(server).threads.get_state(thread_id)
    assert after["checkpoint"] == before["checkpoint"]  # the thread is as it was
    assert after["values"]["topic"] == SMALL_TOPIC and after["values"]["outcome"] == "ok"


def test_a_run_refused_on_a_thread_paused_at_review_leaves_the_pause(server: Server) -> None:
    # Trial 25, finding 8: a run without review on a thread paused at its plan review was
    # refused in `plan`, after its input had replaced the thread's topic and dropped the
    # pause; the advised resume then reviewed the refused topic. Now it is a 409 before the
    # run exists, and the thread keeps its topic and its interrupt. Finding 4's sibling: a
    # durability other than the operator's, refused the same way (400).
    thread_id = new_thread(server)
    alice = client(server)
    paused = run(server, thread_id, {"review": True, "rounds": 1})
    assert paused["__interrupt__"][0]["value"]["stage"] == "plan", paused
    before = alice.threads.get_state(thread_id)
    status, line = refusal(alice.runs.wait, thread_id, "research",
                            input={"topic": "zorblax checkpoints", "as_of": AS_OF},
                            context={"rounds": 1})
    assert status == 409 and "\n" not in line, line
    assert line.startswith(f"thread {thread_id!r} awaits its plan review"), line
    status, line = refusal(alice.runs.wait, thread_id, "research",
                            input={"topic": SMALL_TOPIC, "as_of": AS_OF},
                            context={"review": True}, durability="sync")
    assert status == 400 and line.startswith("durability: 'sync' is the operator's"), line
    # trial 27: a made-up checkpoint read as a new thread (every check skipped, the run went
    # past the review); a checkpoint id not text was a 500; an input not an object passed and
    # LangGraph's InvalidUpdateError came after the pause was gone
    made_up = str(uuid.uuid4())  # an id of the right form that names no checkpoint
    for kwargs in ({"checkpoint_id": made_up, "context": {"rounds": 1}},
                   {"checkpoint": {"checkpoint_id": made_up}, "context": {"rounds": 1}},
                   {"config": {"configurable": {"checkpoint_id": 5}}}):
        status, line = refusal(alice.runs.wait, thread_id, "research",
                                input={"topic": "zorblax checkpoints", "as_of": AS_OF},
                                **kwargs)
        assert status == 400 and "checkpoint" in line and "\n" not in line, (kwargs, line)
    for given in (["a"], "zorblax", 7):
        status, line = refusal(alice.runs.wait, thread_id, "research", input=given,
                                context={"rounds": 1})
        assert status == 400 and line.startswith("the input must be an object"), line
    # bob learns nothing of alice's thread: the server's 404, not the review's 409
    assert status_of(lambda: client(server, "bob").runs.wait(
        thread_id, "research", input={"topic": SMALL_TOPIC})) in (403, 404)
    after = alice.threads.get_state(thread_id)
    assert after["checkpoint"] == before["checkpoint"] and after["next"] == ["review_plan"]
    assert after["values"]["topic"] == SMALL_TOPIC
    assert [i["value"]["stage"] for i in after["interrupts"]] == ["plan"]
    assert [r["status"] for r in alice.runs.list(thread_id)] == ["success"]
    # the documented way on still reviews the thread's own plan
    approved = alice.runs.wait(thread_id, "research", command={"resume": {"approve": True}},
                               context={"review": True, "rounds": 1})
    assert approved["topic"] == SMALL_TOPIC
    assert approved["__interrupt__"][0]["value"]["stage"] == "results", approved


def test_a_thread_run_on_another_corpus_name_is_refused_before_the_run_exists(
        server: Server) -> None:
    # Trial 8, finding 15: the rerun went ahead on the other corpus and replaced the thread's
    # rows; then it was refused in the nodes, after the run had saved its input (trial 25,
    # finding 8's sibling): a resume of a paused thread on another corpus took the review's
    # answer and lost the pause. Now a 409 before the run exists; the thread stays as it was.
    alice = client(server)
    thread_id = new_thread(server)
    first = run(server, thread_id)
    assert first.get("outcome") and not first.get("__error__"), first
    rows = server.rows(thread_id)
    before = alice.threads.get_state(thread_id)
    status, line = refusal(alice.runs.wait, thread_id, "research",
                            input={"topic": SMALL_TOPIC, "as_of": AS_OF},
                            context={"corpus_name": "empty"})
    assert status == 409 and line.startswith(
        "this thread was planned on the server's corpus; it is not continued or rerun on "
        "corpus_name 'empty'"), line
    assert server.rows(thread_id) == rows
    assert alice.threads.get_state(thread_id)["checkpoint"] == before["checkpoint"]
    # trial 27: a fork from before the plan ("Re-run from here" on plan) had no plan to
    # compare, was re-planned on the other corpus and replaced the thread's rows
    start = next(h for h in alice.threads.get_history(thread_id) if h["next"] == ["plan"])
    status, line = refusal(alice.runs.wait, thread_id, "research", input=None,
                            checkpoint_id=start["checkpoint"]["checkpoint_id"],
                            context={"corpus_name": "empty"})
    assert status == 409 and "corpus_name 'empty'" in line, line
    assert server.rows(thread_id) == rows

    paused_thread = new_thread(server)
    paused = run(server, paused_thread, {"review": True})
    assert paused["__interrupt__"][0]["value"]["stage"] == "plan", paused
    status, line = refusal(alice.runs.wait, paused_thread, "research",
                            command={"resume": {"approve": True}},
                            context={"review": True, "corpus_name": "empty"})
    assert status == 409 and "corpus_name 'empty'" in line, line
    after = alice.threads.get_state(paused_thread)
    assert after["next"] == ["review_plan"], after["next"]
    assert [i["value"]["stage"] for i in after["interrupts"]] == ["plan"]


def test_a_run_without_review_queued_behind_a_reviewed_run_is_refused(server: Server) -> None:
    # Trial 31, F3: a run with review, then at once a new input without review enqueued on
    # the same thread. The hook read the thread before the first run had paused and let the
    # second through; it started once the first paused, replaced the topic, and plan's
    # backstop refused it with the plan review already gone. Refused as it is queued now.
    thread_id = new_thread(server)
    alice = client(server)
    first = alice.runs.create(thread_id, "research", input={"topic": SMALL_TOPIC, "as_of": AS_OF},
                              context={"review": True, "rounds": 1})
    status, line = refusal(alice.runs.create, thread_id, "research",
                            input={"topic": "zorblax checkpoints", "as_of": AS_OF},
                            context={"review": False, "rounds": 1}, multitask_strategy="enqueue")
    assert status == 409 and "\n" not in line, line
    assert line.startswith(f"thread {thread_id!r} has a run in flight that plans with review")
    alice.runs.join(thread_id, first["run_id"])
    after = alice.threads.get_state(thread_id)
    assert after["next"] == ["review_plan"] and after["values"]["topic"] == SMALL_TOPIC
    assert [r["run_id"] for r in alice.runs.list(thread_id)] == [first["run_id"]]


def test_a_run_queued_behind_an_approval_sent_without_review_in_its_context_is_refused(
        server: Server) -> None:
    # Trial 32, finding 2: the approval of a plan review sent with a context leaving "review"
    # out (Studio's empty form) runs on to the results review; the check read that run's
    # context only, let a run without review queue behind it, and the results review was lost.
    thread_id = new_thread(server)
    alice = client(server)
    paused = run(server, thread_id, {"review": True, "rounds": 1})
    assert paused["__interrupt__"][0]["value"]["stage"] == "plan", paused
    approval = alice.runs.create(thread_id, "research", command={"resume": {"approve": True}},
                                 context={"rounds": 1})
    status, line = refusal(alice.runs.create, thread_id, "research",
                            input={"topic": "zorblax checkpoints", "as_of": AS_OF},
                            context={"review": False, "rounds": 1}, multitask_strategy="enqueue")
    assert status == 409 and "has a run in flight that plans with review" in line, line
    alice.runs.join(thread_id, approval["run_id"])
    after = alice.threads.get_state(thread_id)
    assert after["next"] == ["review_results"] and after["values"]["topic"] == SMALL_TOPIC


def test_a_run_or_assistant_naming_langgraphs_runtime_is_refused(server: Server) -> None:
    # trial 42, F1: config.configurable.__pregel_checkpointer: null ran the graph with no
    # checkpointer (LangGraph Server filled the factory's config with its own, so the factory
    # saw an object): 3 rows written, no checkpoint, every later run refused (ForeignRows);
    # through an assistant, every run made with it. F2, F6: __pregel_runtime and callbacks
    # ended the run in a raw AttributeError.
    alice = client(server)
    cases = [({"config": {"configurable": {"__pregel_checkpointer": None}}},
              "config.configurable.__pregel_checkpointer: LangGraph's own runtime key"),
             ({"config": {"configurable": {"__pregel_checkpointer": False}}},
              "config.configurable.__pregel_checkpointer: LangGraph's own runtime key"),
             ({"config": {"configurable": {"__pregel_runtime": {}}}},
              "config.configurable.__pregel_runtime: LangGraph's own runtime key"),
             ({"context": {"__pregel_checkpointer": None}},  # the server copies it into config
              "config.configurable.__pregel_checkpointer: LangGraph's own runtime key"),
             ({"config": {"callbacks": ["x"]}}, "config.callbacks: a client cannot send")]
    for kwargs, start in cases:
        thread_id = new_thread(server)
        status, line = refusal(alice.runs.wait, thread_id, "research",
                               input={"topic": SMALL_TOPIC, "as_of": AS_OF}, **kwargs)
        assert status == 400 and line.startswith(start), (kwargs, line)
        assert server.rows(thread_id) == [] and alice.runs.list(thread_id) == []
        assert run(server, thread_id)["outcome"] == "ok"  # the thread is usable
    status, line = refusal(alice.assistants.create, "research",
                           config={"configurable": {"__pregel_checkpointer": None}})
    assert status == 400 and line.startswith("config.configurable.__pregel_checkpointer"), line
    made = alice.assistants.create("research", config={"recursion_limit": 60})
    status, line = refusal(alice.assistants.update, made["assistant_id"],
                           context={"__pregel_checkpointer": None})
    assert status == 400 and "__pregel_checkpointer: LangGraph's own" in line, line


def test_a_cron_whose_runs_would_be_refused_is_refused_as_it_is_made(server: Server) -> None:
    # trial 44, F4: a cron naming LangGraph's runtime, or with a durability not the operator's,
    # was stored (200) and then refused every minute, in the server's log only
    alice = client(server)
    thread_id = new_thread(server)
    good = {"topic": SMALL_TOPIC, "as_of": AS_OF}
    cases = [({"input": good, "config": {"configurable": {"__pregel_checkpointer": None}}},
              "config.configurable.__pregel_checkpointer: LangGraph's own runtime key"),
             ({"input": good, "durability": "exit"}, "durability: 'exit' is the operator's"),
             ({"input": {"topic": "x"}}, "the topic 'x' has no word to search for"),
             # trial 64, N1: a context the graph factory refuses each time the cron fires
             ({"input": good, "context": {"rounds": 99}}, "rounds: 99 is past this server's"),
             ({"input": good, "context": {"data_dir": "/tmp/x"}}, "data_dir: the operator's"),
             # trial S, H4: a config the graph factory refuses each time, as for assistants
             ({"input": good, "config": {"max_concurrency": 100000}},
              "config.max_concurrency: 100000 is past this server's bound")]
    for kwargs, start in cases:
        status, line = refusal(alice.crons.create_for_thread, thread_id, "research",
                               schedule="0 0 1 1 *", **kwargs)
        assert status == 400 and line.startswith(start), (kwargs, line)
        status, line = refusal(alice.crons.create, "research", schedule="0 0 1 1 *", **kwargs)
        assert status == 400 and line.startswith(start), (kwargs, line)
    made = alice.crons.create("research", schedule="0 0 1 1 *", input=good)
    alice.crons.delete(made["cron_id"])


def test_a_run_with_no_input_on_a_thread_the_caller_cannot_see_is_a_404(server: Server) -> None:
    # Trial S, H3: bob's fork of alice's thread (no input, one of her checkpoints) was a 400
    # "thread ... has no state yet (no run of it saved a checkpoint)": untrue of a thread with
    # eight checkpoints, and unlike every other request of his on it (404)
    thread_id = new_thread(server)
    assert run(server, thread_id)["outcome"] == "ok"
    checkpoint = client(server).threads.get_history(thread_id, limit=100)[-2]["checkpoint"]
    bob = client(server, "bob")
    for kwargs in ({}, {"checkpoint": checkpoint}):
        status, line = refusal(bob.runs.wait, thread_id, "research", input=None, **kwargs)
        assert status == 404 and "no state yet" not in line, (kwargs, status, line)
    status, line = refusal(bob.runs.wait, str(uuid.uuid4()), "research", input=None)
    assert status == 404, (status, line)  # no such thread: the server's own answer
    empty = new_thread(server)  # the caller's own thread with no state: the line, as before
    status, line = refusal(client(server).runs.wait, empty, "research", input=None)
    assert status == 400 and "has no state yet" in line, (status, line)
    assert len(server.rows(thread_id)) == len(client(server).threads.get_state(thread_id)
                                                  ["values"]["envelopes"])


def test_an_assistant_whose_runs_would_be_refused_is_refused_as_it_is_made(
        server: Server) -> None:
    # Trial S, H4: an assistant with context {"rounds": 99} (Studio's "configure assistant",
    # assistants.create) was stored, 200, and every run made with it failed with the line
    alice = client(server)
    cases = [({"context": {"rounds": 99}}, "rounds: 99 is past this server's bound of 5"),
             ({"context": {"data_dir": "/tmp/x"}}, "data_dir: the operator's setting"),
             ({"context": {"roundz": 2}}, "roundz: not a setting a run's context may choose"),
             ({"config": {"configurable": {"rounds": 99}}}, "rounds: 99 is past this server's"),
             ({"config": {"max_concurrency": 100000}},
              "config.max_concurrency: 100000 is past this server's bound")]
    for kwargs, start in cases:
        status, line = refusal(alice.assistants.create, "research", **kwargs)
        assert status == 400 and line.startswith(start) and "\n" not in line, (kwargs, line)
    made = alice.assistants.create("research", context={"rounds": 2})
    status, line = refusal(alice.assistants.update, made["assistant_id"],
                           context={"rounds": 99})
    assert status == 400 and line.startswith("rounds: 99 is past"), line
    thread_id = new_thread(server)
    final = alice.runs.wait(thread_id, made["assistant_id"],
                            input={"topic": SMALL_TOPIC, "as_of": AS_OF})
    assert final["outcome"] == "ok"  # the assistant kept its context, and runs
    assert alice.threads.get_state(thread_id)["values"]["routing"]["rounds"] == 2
