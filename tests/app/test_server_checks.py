"""The served graph's request checks that need no server: ``RESEARCH_API_TOKENS`` items with a
padded token (trial 25, finding 6), a ``recursion_limit`` too small for one round (finding 15),
and what ``app.server.prerun`` refuses from a run's request alone (findings 4 and 8; the same
checks against a real ``langgraph dev`` are in ``tests/e2e/test_langgraph_server.py``).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from langgraph_sdk import Auth

from app.research.rounds import recursion_limit
from app.server import auth
from app.server.prerun import awaits_review, input_problem, refusal
from app.settings.client import check_run_config
from app.settings.config import ConfigError, Settings
from app.settings.env import load_settings
from tests.conftest import AS_OF, SMALL_TOPIC

PADDED = "c2VjcmV0dG9rZW4="
"""A token as ``openssl rand -base64`` writes them: ending in ``=``."""


def test_a_padded_token_is_the_users_and_its_prefix_is_no_token(monkeypatch):
    settings = load_settings(env={"RESEARCH_API_TOKENS": f"{PADDED}=alice,bob-token-9c2e=bob"},
                             env_file=None)
    tokens = auth.tokens_of(settings.api_tokens)
    assert tokens == {PADDED: "alice", "bob-token-9c2e": "bob"}
    monkeypatch.setattr(auth, "TOKENS", tokens)
    user = asyncio.run(auth.authenticate(f"Bearer {PADDED}"))
    assert user == {"identity": "alice", "is_authenticated": True}
    with pytest.raises(Auth.exceptions.HTTPException) as refused:  # was let in as "=alice"
        asyncio.run(auth.authenticate(f"Bearer {PADDED[:-1]}"))
    assert refused.value.status_code == 401


def test_a_node_reads_the_served_user_where_auths_docstring_says():
    # review 47, finding 10: the docstring named a configurable key; LangGraph Server puts the
    # authenticated user in the run's configurable and LangGraph hands it to a node publicly as
    # runtime.server_info.user, None outside the server
    from langgraph.graph import END, START, StateGraph
    from langgraph.runtime import Runtime
    from typing_extensions import TypedDict

    class Seen(TypedDict, total=False):
        who: str | None

    def node(state: Seen, runtime: Runtime) -> dict:
        info = runtime.server_info
        return {"who": info.user.identity if info and info.user else None}

    builder = StateGraph(Seen)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    builder.add_edge("node", END)
    graph = builder.compile()
    user = SimpleNamespace(identity="alice")  # the server's user: an object with an identity
    assert "``runtime.server_info.user.identity``" in auth.__doc__
    assert graph.invoke({}, {"configurable": {"langgraph_auth_user": user}}) == {"who": "alice"}
    assert graph.invoke({}) == {"who": None}


def test_a_padded_token_and_its_unpadded_twin_are_two_tokens_and_masked_whole():
    # siblings of finding 6: the keys check split at the first "=" and refused the two as one
    # token "given twice"; the secrets masked were the token less its padding
    settings = load_settings(env={"RESEARCH_API_TOKENS": f"{PADDED}=alice,{PADDED[:-1]}=bob"},
                             env_file=None)
    assert auth.tokens_of(settings.api_tokens) == {PADDED: "alice", PADDED[:-1]: "bob"}
    assert PADDED in settings.secrets()


@pytest.mark.parametrize("item", [f"{PADDED}=", f"{PADDED}", "short=alice", "=alice"])
def test_an_api_token_item_without_a_user_after_its_last_equals_is_refused_in_one_line(item):
    with pytest.raises(ConfigError) as refused:
        load_settings(env={"RESEARCH_API_TOKENS": item}, env_file=None)
    line = str(refused.value)
    assert line.startswith("RESEARCH_API_TOKENS: expected TOKEN=USER pairs") and "\n" not in line
    assert PADDED not in line  # the token is never shown


def test_a_recursion_limit_below_one_round_is_refused_in_one_line():
    settings = Settings(model="offline")
    least = recursion_limit(1)
    check_run_config({"recursion_limit": least}, settings)
    with pytest.raises(ConfigError) as refused:
        check_run_config({"recursion_limit": 4}, settings, default_recursion_limit=10011)
    assert str(refused.value) == (f"config.recursion_limit: 4 is less than one round needs "
                                  f"({least}; app.research.rounds.recursion_limit)")
    with pytest.raises(ConfigError, match=f"^config.recursion_limit: {least - 1} is less"):
        check_run_config({"recursion_limit": least - 1}, settings)


@pytest.mark.parametrize(("kwargs", "thread_topic", "says"), [
    ({"input": {"topic": "what is it"}}, None, "the topic 'what is it' has no word to search"),
    ({"input": {"topic": ""}}, "earlier topic", "the topic is empty"),
    ({"input": {}}, None, "the topic is empty"),
    ({"input": {"topic": 123}}, None, "the topic must be text, got int 123"),
    ({"input": {"topic": SMALL_TOPIC, "as_of": "bad"}}, None,
     "as_of must be a date written YYYY-MM-DD"),
    # trial 58, F2: "" ran as of today; the CLI's --as-of "" is refused in these words
    ({"input": {"topic": SMALL_TOPIC, "as_of": ""}}, None,
     "as_of needs a value, got an empty one"),
    ({"input": {"topic": SMALL_TOPIC, "as_of": " "}}, None,
     "as_of needs a value, got an empty one"),
    ({"input": {"topic": SMALL_TOPIC}, "durability": "sync"}, None,
     "durability: 'sync' is the operator's setting, not a run's"),
    ({"input": None, "command": {"resume": {}}, "durability": "exit"}, None,
     "durability: 'exit' is the operator's setting"),
])
def test_a_runs_request_alone_refuses_it(kwargs, thread_topic, says):
    line = input_problem({"durability": "async", **kwargs}, Settings(model="offline"),
                         thread_topic)
    assert line is not None and line.startswith(says) and "\n" not in line, line


@pytest.mark.parametrize(("kwargs", "thread_topic"), [
    ({"input": {"topic": SMALL_TOPIC, "as_of": AS_OF}}, None),
    ({"input": {"topic": SMALL_TOPIC, "as_of": None}}, None),  # left out: today, as the CLI's
    ({"input": {}}, SMALL_TOPIC),  # the thread's topic, run again
    ({"input": None, "command": {"resume": {"approve": True}}}, None),
])
def test_a_good_request_passes(kwargs, thread_topic):
    assert input_problem({"durability": "async", **kwargs}, Settings(model="offline"),
                         thread_topic) is None


def test_a_new_input_without_review_on_a_paused_thread_awaits_its_review():
    assert awaits_review({"next": ["review_plan"]}, review=False) == "plan"
    assert awaits_review({"next": ["review_results"]}, review=False) == "results"
    assert awaits_review({"next": ["review_plan"]}, review=True) is None  # pauses again
    assert awaits_review({"next": []}, review=False) is None
    assert awaits_review({}, review=False) is None


class _Threads:
    """A loopback client's ``threads`` over one thread whose state is ``values``."""

    def __init__(self, values: dict, upcoming: tuple[str, ...] = ()) -> None:
        self.values, self.upcoming = values, list(upcoming)

    async def get(self, thread_id):
        return {"thread_id": thread_id, "metadata": {}}

    async def get_state(self, thread_id, checkpoint=None):
        return {"values": self.values, "next": self.upcoming,
                "checkpoint": {"checkpoint_id": "c1"}}


class _Client:
    def __init__(self, values: dict, upcoming: tuple[str, ...] = ()) -> None:
        self.threads = _Threads(values, upcoming)


def _refused(command: dict | None, values: dict, upcoming: tuple[str, ...] = ()):
    value = {"thread_id": "t-goto", "kwargs": {"input": None, "command": command}}
    return asyncio.run(refusal(value, Settings(model="offline"), None,
                               _Client(values, upcoming)))


@pytest.mark.parametrize("goto", ["report", "dispatch", "route", "plan", ["review_plan"]])
@pytest.mark.parametrize("paused", ["review_plan", "review_results"])
def test_a_goto_beside_a_review_pause_is_refused(goto, paused):
    # trial 67, F1, F2: goto report at the plan review wrote an empty report over the last
    # one; goto dispatch at the results review ran the map step again after the approval
    # persisted the rows, then paused for a second review of them
    command = {"goto": goto, "resume": {"approve": True}}
    status, line = _refused(command, {"topic": SMALL_TOPIC}, (paused,))
    assert status == 409 and "answer it with a Command's resume alone" in line, line
    assert _refused({"resume": {"approve": True}}, {"topic": SMALL_TOPIC}, (paused,)) is None


def test_a_send_to_a_graph_node_and_a_run_of_a_thread_without_state_are_refused():
    # trial 67, F6: a Send to persist ran it on {} ("the topic must be non-empty text, got
    # None (was the state edited? ...)"); a run with no input on a thread no run had saved a
    # checkpoint of ended in LangGraph's "EmptyInputError: Received no input for __start__"
    status, line = _refused({"goto": {"node": "persist", "input": {}}}, {"topic": SMALL_TOPIC})
    assert status == 400 and line.startswith("goto a Send to 'persist': a node of the graph")
    status, line = _refused(None, {})
    assert status == 400 and "has no state yet" in line


@pytest.mark.parametrize("goto", ["docs_search", ["docs_search"], ["route", "glossary"]])
def test_a_goto_to_a_worker_named_bare_is_refused(goto):
    # trial 42, F7: goto docs_search ran the worker with no task (KeyError('sub_question'))
    status, line = _refused({"goto": goto}, {"topic": SMALL_TOPIC})
    assert status == 400 and "a worker node runs only on the task a Send hands it" in line
    assert "\n" not in line


def test_a_goto_on_a_thread_without_a_topic_is_refused():
    # trial 42, F7: goto review_results on a new thread left it "awaiting its results review"
    status, line = _refused({"goto": "review_results"}, {})
    assert status == 400 and line.startswith("a Command's goto needs a thread that has a topic")


@pytest.mark.parametrize("goto", ["report", ["persist"], "__end__"])
def test_a_goto_to_a_graph_node_of_a_planned_thread_passes(goto):
    assert _refused({"goto": goto}, {"topic": SMALL_TOPIC}) is None
    unreviewed = {"topic": SMALL_TOPIC, "routing": {"review": False, "rounds": 1}}
    assert _refused({"goto": goto}, unreviewed) is None


@pytest.mark.parametrize("command", [{"goto": "persist"}, {"goto": ["persist"]},
                                     {"update": {"notes": ["x"]}, "goto": "persist"}])
def test_a_goto_to_persist_past_the_results_review_is_refused(command):
    # trial 64, F1: it wrote rows nobody approved, the thread still awaiting its review
    reviewed = {"topic": SMALL_TOPIC, "routing": {"review": True, "rounds": 1}}
    status, line = _refused(command, reviewed)
    assert status == 400 and line.startswith("goto 'persist': this thread reviews its results")


@pytest.mark.parametrize("goto", [{"node": "docs_search", "input": {}},
                                  [{"node": "critic", "input": None}]])
def test_a_send_to_a_worker_without_a_task_is_refused(goto):
    # Trial 48: Send("docs_search", {}) failed in the worker, and its pending task failed
    # every later Command on the thread until a new input
    status, line = _refused({"goto": goto}, {"topic": SMALL_TOPIC})
    assert status == 400 and "a worker node runs only on the task a Send hands it" in line
    task = {"worker": "docs_search", "sub_question": "What is Send?", "topic": SMALL_TOPIC}
    assert _refused({"goto": {"node": "docs_search", "input": task}},
                    {"topic": SMALL_TOPIC}) is None


@pytest.mark.parametrize("where", [{"checkpoint_id": ""}, {"checkpoint_id": " "},
                                   {"config": {"configurable": {"checkpoint_id": ""}}},
                                   {"checkpoint": {"checkpoint_id": ""}}])
def test_an_empty_checkpoint_id_is_refused_not_read_as_the_head(where):
    # trial 58, F2's kind: "" was no checkpoint, so the run went on from the thread's head,
    # where the CLI refuses --checkpoint "" in these words
    value = {"thread_id": "t-fork", "kwargs": {"input": {"topic": SMALL_TOPIC}, **where}}
    status, line = asyncio.run(refusal(value, Settings(model="offline"), None,
                                       _Client({"topic": SMALL_TOPIC})))
    assert (status, line) == (400, "checkpoint_id needs a value, got an empty one")
