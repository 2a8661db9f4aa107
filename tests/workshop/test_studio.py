"""langgraph.json serves a graph that runs: LangGraph Server / Studio can load and invoke it.

The test reads ``langgraph.json`` the way the server does (the ``graphs`` entry is
``./path/to/file.py:variable``, relative to the config file), imports that file, and invokes the
graph once offline with no checkpointer of its own, passing a ``thread_id`` in
``config["configurable"]`` as the server does.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "langgraph.json"


def test_langgraph_json_is_minimal_and_points_at_a_file():
    config = json.loads(CONFIG.read_text("utf-8"))
    # the image installs the project from uv.lock (docs/deploy.md), not from "dependencies"
    assert config["source"] == {"kind": "uv", "root": "."} and "dependencies" not in config
    assert config["graphs"] == {"research": "./app/server/studio.py:served_graph"}  # a factory
    assert config["auth"] == {"path": "./app/server/auth.py:auth", "disable_studio_auth": True}
    # An "env" file that does not exist breaks `langgraph up` (docker compose env_file);
    # app.settings.env.load_settings reads ./.env itself, so none is named here.
    assert "env" not in config
    path, _, _ = config["graphs"]["research"].partition(":")
    assert (CONFIG.parent / path).is_file()


class _NotARun:
    """What LangGraph Server passes a graph factory outside a run: no execution runtime."""

    execution_runtime = None


@pytest.fixture
def studio_graph(offline_env, tmp_path, workshop_corpus):
    """Import the file langgraph.json names, under the test's settings; yield its graph."""
    config = json.loads(CONFIG.read_text("utf-8"))
    path, _, variable = config["graphs"]["research"].partition(":")
    offline_env.setenv("RESEARCH_DATA_DIR", str(tmp_path / "data"))
    offline_env.setenv("RESEARCH_CORPUS", str(workshop_corpus))
    name = "_studio_graph_under_test"
    spec = importlib.util.spec_from_file_location(name, (CONFIG.parent / path).resolve())
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        factory = getattr(module, variable)
        # outside a run (a schema or state read) the factory checks nothing: the one graph
        assert factory({}, _NotARun()) is module.graph
        yield module.graph
    finally:
        sys.modules.pop(name, None)


def test_studio_graph_runs_offline_without_a_checkpointer(studio_graph, tmp_path, walkthrough):
    from app.storage.sqlite import SqliteResults
    from workers.registry import WORKERS

    assert studio_graph.checkpointer is None  # the server provides its own
    assert studio_graph.name == "research"

    out = studio_graph.invoke(
        {"topic": walkthrough.TOPIC, "as_of": walkthrough.AS_OF},
        {"configurable": {"thread_id": "t"}},
    )
    envelopes = out["envelopes"]
    ids = [e["envelope_id"] for e in envelopes]
    assert len(ids) == len(set(ids)) == len(out["sub_questions"]) * len(WORKERS)
    assert all(e["status"] == "ok" for e in envelopes)
    assert all(e["persisted"] and e["structured"] is None for e in envelopes)

    report = Path(out["report_path"])
    assert report.is_file() and report.is_relative_to(tmp_path)
    assert report.read_text("utf-8").startswith(f"# Research report: {walkthrough.TOPIC}")

    with SqliteResults.in_dir(tmp_path / "data") as store:
        rows = store.rows(thread_id="t")  # persist recorded the server's thread id
    assert sorted(r["envelope_id"] for r in rows) == sorted(ids)
