"""What nodes look up from their run's context (``app/graph/resources.py``): heavy objects once per
distinct setting, per-run objects once per run, and a server's defaults under a partial context.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import app.graph.resources
from app.graph.resources import Resources
from app.settings.config import ConfigError, RunContext, Settings
from tests.conftest import AS_OF, SMALL_TOPIC


def test_a_run_builds_each_model_once(tmp_path: Path, small_corpus: Path, monkeypatch):
    # issue 12: "models built twice per run (cli.py and run.py)"
    from app.runs.run import RunRequest, run_research

    built: list[str] = []
    real = app.graph.resources.make_model

    def counting(spec, settings):
        built.append(spec)
        return real(spec, settings)

    monkeypatch.setattr(app.graph.resources, "make_model", counting)
    settings = Settings(data_dir=tmp_path / "data", corpus=small_corpus, model="offline",
                        retry_interval=0.01)
    summary = run_research(RunRequest(topic=SMALL_TOPIC, as_of=AS_OF), settings)
    assert summary.ok and summary.outcome == "ok"
    assert built == ["offline"]  # three roles, one spec, one model, built once


def test_a_partial_context_takes_the_servers_settings_for_the_rest(tmp_path: Path):
    settings = Settings(data_dir=str(tmp_path / "server-data"), rounds=4, model="offline")
    resources = Resources(settings)
    assert resources.context(None) == settings.context()
    merged = resources.context(RunContext(rounds=1, search_k=9))  # e.g. {"rounds": 1, ...}
    assert merged.rounds == 1 and merged.search_k == 9 and merged.model == "offline"
    assert resources.settings.data_dir == settings.data_dir  # the operator's, never the run's
    assert Resources().context(None) == RunContext()


def _served(tmp_path: Path, **operator) -> Resources:
    return Resources(Settings(data_dir=str(tmp_path / "server-data"), model="offline",
                              **operator), served=True)


@pytest.mark.parametrize(("context", "key"), [
    ({"data_dir": "/tmp/elsewhere"}, "data_dir"),
    ({"report_out": "/etc/motd"}, "report_out"),
    ({"fail_rate": 0.5}, "fail_rate"),
    ({"crash_at": "report"}, "crash_at"),
    ({"corpus": "/etc"}, "corpus"),
    ({"corpus_name": "/etc"}, "corpus_name"),
    ({"max_concurrency": 64}, "max_concurrency"),  # past 16; 100000 is past every run's 128
    ({"rounds": 6}, "rounds"),
    ({"model": "openai:gpt-4.1"}, "model"),
    ({"worker_model": "anthropic:claude"}, "worker_model"),
    ({"web": True}, "web"),
    # issue 20: an MCP config a client could set is remote code execution
    ({"mcp_config": "/tmp/servers.json"}, "mcp_config"),
    ({"mcp_timeout": 600.0}, "mcp_timeout"),
])
def test_a_served_graph_refuses_what_a_client_may_not_set(tmp_path: Path, context, key):
    # issue 18: "a context naming a deployment setting, an unknown corpus name, or a value past
    # its bound is refused: the run fails with one line naming the key"
    served = _served(tmp_path)
    with pytest.raises(ConfigError) as info:
        served.context(context)
    message = str(info.value)
    assert message.startswith(f"{key}:") and "\n" not in message, message
    if isinstance(context.get(key), int) and key != "web":
        # the same value passed as LangGraph's RunContext is refused the same way
        with pytest.raises(ConfigError, match=f"^{key}:"):
            served.context(RunContext(**context))


@pytest.mark.parametrize(("key", "closest"), [("roundz", "rounds"), ("search-k", "search_k"),
                                            ("workr_model", "worker_model")])
def test_a_served_graph_refuses_a_key_that_is_no_setting_naming_the_closest(
        tmp_path: Path, monkeypatch, key, closest):
    # LangGraph Server drops a context key its schema lacks: a misspelt choice would run with
    # the default, silently. The factory sees the client's dict first and refuses it.
    from langgraph_sdk.runtime import _ExecutionRuntime

    import app.server.studio

    served = _served(tmp_path)
    monkeypatch.setattr(app.server.studio, "RESOURCES", served)
    runtime = _ExecutionRuntime(access_context="threads.create_run", store=None,
                                context={key: 3, "rounds": 1})
    with pytest.raises(ConfigError) as info:
        app.server.studio.served_graph({"configurable": {}}, runtime)
    message = str(info.value)
    assert message.startswith(f"{key}: not a setting") and "\n" not in message, message
    assert f"did you mean {closest}?" in message
    # LangGraph's own configurable keys (a client sending configurable, not context) still pass
    fine = _ExecutionRuntime(access_context="threads.create_run", store=None,
                             context={"thread_id": "t", "langgraph_request_id": "r", "rounds": 1})
    assert app.server.studio.served_graph({"configurable": {}}, fine) is app.server.studio.graph


@pytest.mark.parametrize("served", [True, False])
def test_a_client_choosing_the_declared_default_gets_it_not_the_operators(tmp_path: Path, served):
    # The operator's RESEARCH_ROUNDS=4, RESEARCH_SEARCH_K=9; a client asks rounds=2 and
    # search_k=5, the declared defaults, and says nothing of max_concurrency. LangGraph
    # builds the run's RunContext from the client's dict (context_schema): the node reads it.
    from langgraph.graph import END, START, StateGraph
    from langgraph.runtime import Runtime
    from typing_extensions import TypedDict

    resources = Resources(Settings(data_dir=str(tmp_path / "server-data"), model="offline",
                                   rounds=4, search_k=9, max_concurrency=3), served=served)

    class State(TypedDict, total=False):
        seen: tuple

    def node(state: State, runtime: Runtime[RunContext]) -> State:
        ctx = resources.context(runtime)
        return {"seen": (ctx.rounds, ctx.search_k, ctx.max_concurrency)}

    graph = (StateGraph(State, context_schema=RunContext).add_node("node", node)
             .add_edge(START, "node").add_edge("node", END).compile())
    chosen = graph.invoke({}, context={"rounds": 2, "search_k": 5})
    assert chosen["seen"] == (2, 5, 3)
    assert graph.invoke({}, context={})["seen"] == (4, 9, 3)  # nothing chosen: the operator's


def test_a_served_client_sending_none_gets_the_operators_default_not_no_limit(tmp_path: Path):
    # Studio's form sends every field, None included; None means "the default": the operator's
    # token budget stays, it is not lifted to "no budget" past RESEARCH_MAX_TOKENS_LIMIT.
    served = _served(tmp_path, max_tokens=1000, max_tokens_limit=5000, rounds=4)
    ctx = served.context({"max_tokens": None, "model": None, "rounds": 2})
    assert (ctx.max_tokens, ctx.model, ctx.rounds) == (1000, "offline", 2)
    assert served.context(RunContext(max_tokens=None, rounds=2)).max_tokens == 1000


def test_a_served_graph_takes_choices_within_the_operators_bounds_and_lists(tmp_path: Path):
    folder = tmp_path / "handbook"
    served = _served(tmp_path, corpora=(f"handbook={folder}",), rounds_limit=8,
                     allowed_models=("offline", "openai:gpt-test"))
    ctx = served.context({"rounds": 8, "max_concurrency": 16, "corpus_name": "handbook",
                          "model": "openai:gpt-test"})
    assert (ctx.rounds, ctx.max_concurrency, ctx.model) == (8, 16, "openai:gpt-test")
    assert served._corpus_key(ctx)[1] == str(folder.resolve())
    with pytest.raises(ConfigError, match="^rounds: 9 is past this server's bound of 8"):
        served.context({"rounds": 9})
    # the command line is the operator: not bounded
    assert Resources(served.settings).context(RunContext(rounds=1000)).rounds == 1000


def test_a_served_run_config_past_the_bounds_is_refused(tmp_path: Path):
    from app.research.rounds import recursion_limit
    from app.settings.client import check_run_config

    settings = _served(tmp_path).settings
    check_run_config({"recursion_limit": recursion_limit(5), "max_concurrency": 16}, settings)
    check_run_config({"recursion_limit": 10011}, settings, default_recursion_limit=10011)
    with pytest.raises(ConfigError, match="^config.max_concurrency:"):
        check_run_config({"max_concurrency": 100000}, settings)
    with pytest.raises(ConfigError, match="^config.recursion_limit:"):
        check_run_config({"recursion_limit": 100000}, settings, default_recursion_limit=10011)


def test_worker_deps_carry_every_setting_a_worker_reads(tmp_path: Path, small_corpus: Path):
    # Every WorkerDeps field named like a setting must reach the workers with the run's value
    # and be part of the cache key: a LangGraph Server process serves many runs, and a forker's
    # new setting that is passed on but not keyed (or the reverse) would give one run another
    # run's value. The loop covers a field added later without a new test. A client's choice
    # changes per run (the context); an operator's per process (the settings).
    from dataclasses import fields, replace

    from app.settings.config import CLIENT_SETTINGS, SETTINGS
    from workers.base import WorkerDeps

    base = Settings(data_dir=str(tmp_path / "data"), corpus=str(small_corpus), model="offline")
    resources = Resources(base)
    shared = resources.worker_deps(resources.context(None))
    settings = {s.name for s in SETTINGS}
    carried = [f.name for f in fields(WorkerDeps) if f.name in settings]
    assert {"search_k", "max_attempts", "retry_interval"} <= set(carried)
    for name in carried:
        value = getattr(base, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue  # a switch such as ``web`` needs more than a changed number
        changed = value + 1
        if name in CLIENT_SETTINGS:
            deps = resources.worker_deps(resources.context(RunContext(**{name: changed})))
        else:
            other = Resources(replace(base, **{name: changed}))
            deps = other.worker_deps(other.context(None))
        assert getattr(deps, name) == changed, name
        assert getattr(shared, name) == value, name
        if name in CLIENT_SETTINGS:
            assert deps.corpus is shared.corpus  # the heavy objects are still shared
    assert resources.worker_deps(resources.context(None)) is shared


def test_the_search_provider_is_the_operators_and_searxng_serves_web_runs(tmp_path: Path):
    # issue 20 §2: RESEARCH_SEARCH_PROVIDER=searxng with SEARXNG_URL: --web needs no Tavily key
    from tests.searxng_server import FakeSearxng

    for key, value in (("search_provider", "searxng"), ("searxng_url", "http://evil:1")):
        with pytest.raises(ConfigError, match=f"^{key}: the operator's setting"):
            _served(tmp_path).context({key: value})
    with pytest.raises(ConfigError, match=r"^web: this server has no SearXNG URL \(SEARXNG_URL\)"):
        _served(tmp_path, search_provider="searxng").context({"web": True})
    with FakeSearxng() as server:
        served = _served(tmp_path, search_provider="searxng", searxng_url=server.url)
        ctx = served.context({"web": True})
        web = served.web(ctx)
        assert web.description == "web search (SearXNG)"
        assert [p.source for p in web.search("heron census", as_of=AS_OF)]
        assert server.counts() == {"heron census": 1}
        # a Tavily deployment on the same data dir is another source (its own endpoint)
        assert served._web_key(ctx) != _served(tmp_path, tavily_api_key="k")._web_key(ctx)


def test_a_served_run_s_queued_workers_give_up_when_the_server_is_done_with_it(
        tmp_path: Path, monkeypatch):
    # Trial 54, F2: a run cancelled on LangGraph Server went on calling the model for 9 s from
    # its tasks waiting for a worker slot: nothing set the run's stop signal. The server holds
    # the graph factory's context for the whole run and leaves it when the run ends or is
    # cancelled; the factory's context now stops the run's objects by its run id.
    from langgraph_sdk.runtime import _ExecutionRuntime

    import app.server.studio

    served = _served(tmp_path)
    monkeypatch.setattr(app.server.studio, "RESOURCES", served)
    runtime = _ExecutionRuntime(access_context="threads.create_run", store=None,
                                context={"rounds": 1})
    ctx = served.settings.context()
    scope = app.server.studio.served_graph({"configurable": {"run_id": "run-1"}}, runtime)
    other = served.run_for(object(), ctx, "run-2")  # another run of the same server
    with scope as graph:
        assert graph is app.server.studio.graph
        first = served.run_for(object(), ctx, "run-1")
        assert not first.scope.cancel.is_set()
    assert first.scope.cancel.is_set() and not other.scope.cancel.is_set()
    # a task of the run that looks its objects up only now finds them stopped
    assert served.run_for(object(), ctx, "run-1").scope.cancel.is_set()
    # a new attempt of the run (LangGraph Server retries a run under its id) is not stopped
    with app.server.studio.served_graph({"configurable": {"run_id": "run-1"}}, runtime):
        assert not served.run_for(object(), ctx, "run-1").scope.cancel.is_set()
