"""On LangGraph Server, the line of a model that cannot be built says who chose it: the client's
context or the server's own variable, and the way on a client has (its context), never the
CLI's ``--model`` or a variable the client cannot set (hostile trial H's closing note: the
role-model line named ``RESEARCH_WORKER_MODEL`` and ``--model`` when the client's context had
chosen the worker model). A served graph (``Resources(served=True)``, as the server's factory
builds it) run with the context a client sends; no key is set."""
from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.graph.build import build_graph
from app.graph.resources import Resources
from app.settings.config import ConfigError, RunContext, Settings
from tests.results_db import db_rows

REAL = "openai:gpt-4.1-mini"
NEEDS_KEY = (f"model '{REAL}' needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
             "OpenAI-compatible server); ")


def _refusal(tmp_path: Path, corpus: Path, context: RunContext, **operator: str) -> str:
    settings = Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus),
                        allowed_models=("offline", REAL), **{"model": "offline", **operator})
    graph = build_graph(resources=Resources(settings, served=True), checkpointer=InMemorySaver())
    start = {"topic": "zorblax relay", "as_of": "2026-11-30"}
    with pytest.raises(ConfigError) as caught:
        graph.invoke(start, {"configurable": {"thread_id": "t1"}}, context=context)
    assert db_rows(tmp_path / "data", "t1") == []
    return str(caught.value)


@pytest.mark.parametrize(("context", "operator", "says"), [
    (RunContext(worker_model=REAL), {},
     "chosen by the run's context (worker_model): send worker_model: offline in the run's "
     "context, or another model this server allows"),
    (RunContext(model=REAL), {},
     "chosen by the run's context (model): send model: offline in the run's context, or "
     "another model this server allows"),
    (RunContext(), {"worker_model": REAL},
     "chosen by this server's RESEARCH_WORKER_MODEL: send worker_model: offline in the run's "
     "context, or another model this server allows"),
], ids=["context-role", "context-model", "server-role"])
def test_a_served_model_line_names_who_chose_it(tmp_path: Path, small_corpus: Path,
                                                context: RunContext, operator: dict[str, str],
                                                says: str) -> None:
    line = _refusal(tmp_path, small_corpus, context, **operator)
    assert line == NEEDS_KEY + says, line
    assert "--model" not in line


def test_a_served_mcp_config_line_names_the_variable_not_the_flag(tmp_path: Path) -> None:
    """A LangGraph Server has no flags: its operator sets ``RESEARCH_MCP_CONFIG``, and an
    unreadable file was said as ``--mcp-config FILE: cannot read it``."""
    missing = tmp_path / "mcp.json"
    settings = Settings(data_dir=str(tmp_path / "data"), model="offline", mcp_config=str(missing))
    with pytest.raises(ConfigError) as caught:
        Resources(settings, served=True).mcp()
    assert str(caught.value).startswith(f"RESEARCH_MCP_CONFIG {missing}: cannot read it"), \
        str(caught.value)
    with pytest.raises(ConfigError, match=f"^--mcp-config {missing}: cannot read it"):
        Resources(settings).mcp()  # the CLI's, whose flag sets it (or the variable)


@pytest.mark.parametrize(("allowed", "says"), [
    ((), "worker_model: 'openai:gpt-4.1-mini' is not a model this server allows (offline, "
         "ollama:llama3: offline and this server's own models, as RESEARCH_ALLOWED_MODELS is "
         "unset)"),
    (("offline", "ollama:llama3"), "worker_model: 'openai:gpt-4.1-mini' is not a model this "
                                   "server allows (offline, ollama:llama3; "
                                   "RESEARCH_ALLOWED_MODELS)"),
], ids=["unset", "set"])
def test_the_allowed_models_line_says_where_the_list_comes_from(
        tmp_path: Path, allowed: tuple[str, ...], says: str) -> None:
    """Unset, the list is offline and the operator's own models, not RESEARCH_ALLOWED_MODELS's,
    which the line named as if it had listed them."""
    from app.settings.client import resolve

    settings = Settings(data_dir=str(tmp_path / "data"), model="ollama:llama3",
                        allowed_models=allowed)
    with pytest.raises(ConfigError) as caught:
        resolve({"worker_model": REAL}, settings)
    assert str(caught.value) == says
