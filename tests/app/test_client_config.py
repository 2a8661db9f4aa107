"""What a LangGraph Server client may not set, refused in one line that names it and says
what is wanted (trial 14, findings 3 to 6): ``config.max_concurrency`` ``"abc"`` said "past
the bound" and ``-5`` failed in the asyncio ``Semaphore``; ``review: 1`` said "must be 1 or 0,
got 1"; a 100 KB key was echoed whole; ``durability`` (the request's or
``configurable.__pregel_durability``) took effect, though it is the operator's, and
``configurable.__pregel_runtime: 1`` failed the run in an ``AttributeError``."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime
from langgraph.store.memory import InMemoryStore

from app.graph.build import build_graph
from app.graph.resources import Resources
from app.settings.client import check_run_config, resolve
from app.settings.config import ConfigError, RunContext, Settings
from tests.results_db import db_rows


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=str(tmp_path / "data"), model="offline")


@pytest.mark.parametrize(("config", "says"), [
    ({"max_concurrency": "abc"}, "config.max_concurrency must be a whole number, got 'abc'"),
    ({"max_concurrency": 2.5}, "config.max_concurrency must be a whole number, got 2.5"),
    ({"max_concurrency": True}, "config.max_concurrency must be a whole number, got True"),
    ({"max_concurrency": -5}, "config.max_concurrency must be >= 1, got -5"),
    ({"max_concurrency": 0}, "config.max_concurrency must be >= 1, got 0"),
    ({"recursion_limit": "abc"}, "config.recursion_limit must be a whole number, got 'abc'"),
    ({"recursion_limit": -1}, "config.recursion_limit must be >= 1, got -1"),
    ({"configurable": {"thread_id": "t", "__pregel_durability": "exit"}},
     "config.configurable.__pregel_durability: LangGraph's own runtime key"),
    ({"configurable": {"__pregel_runtime": 1}},
     "config.configurable.__pregel_runtime: LangGraph's own runtime key"),
    ({"configurable": {"__pregel_checkpointer": "x"}},  # the server keeps a client's
     "config.configurable.__pregel_checkpointer: LangGraph's own runtime key"),
])
def test_a_bad_run_config_is_one_line_saying_what_is_wanted(settings, config, says):
    with pytest.raises(ConfigError) as caught:
        check_run_config(config, settings)
    assert str(caught.value).startswith(says)


def test_the_servers_own_configurable_keys_pass(settings):
    """LangGraph Server puts its runtime objects in ``configurable`` before it calls the graph
    factory (``langgraph_api.graph.get_graph``); a client's request can only carry JSON."""
    check_run_config({"max_concurrency": 4, "configurable": {
        "thread_id": "t", "__after_seconds__": 0, "__request_start_time_ms__": 1,
        "langgraph_request_id": "r", "__pregel_checkpointer": InMemorySaver(),
        "__pregel_runtime": Runtime(), "__pregel_store": InMemoryStore()}}, settings)


@pytest.mark.parametrize(("context", "says"), [
    ({"review": 1}, "review must be true or false, got 1"),
    ({"review": "true"}, "review must be true or false, got 'true'"),
    ({"web": "0"}, "web must be true or false, got '0'"),
])
def test_a_flag_of_a_served_context_asks_for_a_json_boolean(settings, context, says):
    with pytest.raises(ConfigError, match=f"^{says}$"):
        resolve(context, settings)


@pytest.mark.parametrize(("context", "says"), [
    # trial 58, F2's kind: an empty value in the CLI's words (--model "" needs a value)
    ({"model": ""}, "model needs a value, got an empty one"),
    ({"corpus_name": " "}, "corpus_name needs a value, got an empty one"),
    ({"rounds": ""}, "rounds needs a value, got an empty one"),
    ({"web": ""}, "web needs a value, got an empty one"),
    # trial 58, F8: the type before the range: 1e3 is no whole number, as 2.0 is not
    ({"rounds": 1e3}, "rounds must be a whole number, got 1000.0"),
    ({"rounds": 2.0}, "rounds must be a whole number, got 2.0"),
    ({"search_k": 30.0}, "search_k must be a whole number, got 30.0"),
    ({"rounds": 1000}, r"rounds: 1000 is past this server's bound of 5 \(RESEARCH_ROUNDS_LIMIT\)"),
])
def test_an_empty_or_mistyped_context_value_is_refused_in_the_clis_words(settings, context,
                                                                         says):
    with pytest.raises(ConfigError, match=f"^{says}$"):
        resolve(context, settings)


@pytest.mark.parametrize("context", [{"k" * 100_000: 1}, {"model": "m" * 100_000},
                                     {"rounds": "r" * 100_000}])
def test_a_huge_key_or_value_is_cut_in_the_line(settings, context):
    with pytest.raises(ConfigError) as caught:
        resolve(context, settings)
    line = str(caught.value)
    assert len(line) < 400 and "\n" not in line and "characters)" in line, line[:400]


def test_a_served_run_with_another_durability_than_the_operators_is_refused(
        tmp_path: Path, small_corpus: Path):
    """``runs.create(..., durability="exit")``: LangGraph Server passes it to the graph's
    ``stream``, out of the factory's sight; the first node refuses it, nothing is written."""
    settings = Settings(data_dir=str(tmp_path / "data"), model="offline",
                        corpus=str(small_corpus))
    graph = build_graph(resources=Resources(settings, served=True), checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    start = {"topic": "zorblax flux capacitors", "as_of": "2026-01-15"}
    for durability in ("exit", "sync"):
        with pytest.raises(ConfigError, match=f"^durability: '{durability}' is the operator's"):
            graph.invoke(start, config, context=RunContext(rounds=1), durability=durability)
        assert db_rows(tmp_path / "data", "t1") == []
    graph.invoke(start, config, context=RunContext(rounds=1), durability="async")  # the server's
    assert graph.get_state(config).values["outcome"] == "ok"


@pytest.mark.parametrize("key", ["max_concurrency", "rounds", "search_k", "max_tokens"])
def test_a_null_choice_takes_the_operators_default(tmp_path: Path, key: str) -> None:
    # Trial 54, F3: docs/deploy.md says null is the operator's default; LangGraph builds the
    # run's RunContext from the client's dict first, and rounds=None failed it: "must be set"
    operator = Settings(data_dir=str(tmp_path / "data"), model="offline", max_concurrency=3,
                        rounds=4, search_k=7, max_tokens=9000)
    made = RunContext(**{key: None})  # as LangGraph makes it
    assert key not in made.given()
    for context in (made, {key: None}):
        assert getattr(resolve(context, operator), key) == getattr(operator, key)
