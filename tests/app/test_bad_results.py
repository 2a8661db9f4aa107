"""A malformed worker result becomes an error envelope, never a dead run or a dead thread; a
thread that cannot be resumed is listed with the way out and breaks no other command (issue 10,
item 2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import app.graph.build
from app.graph import build_graph
from app.graph.resources import Resources
from app.research.plan import offline_plan
from app.runs.inspect import list_threads, print_threads
from app.settings.config import Settings
from app.storage.sqlite import SqliteResults, SqliteStorage
from tests.conftest import AS_OF, SMALL_TOPIC, run_cli
from workers.base import WorkerSpec, make_worker_node
from workers.registry import WORKERS

QUESTIONS = offline_plan(SMALL_TOPIC)

pytestmark = pytest.mark.filterwarnings("ignore:`durability` has no effect:UserWarning")


def _context(tmp_path: Path, corpus: Path) -> Settings:
    return Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus), model="offline",
                    retry_interval=0.0)


def _dict_worker() -> WorkerSpec:
    def build(deps):
        def run(task):
            return {"items": [], "tokens": 0}  # a dict, not a WorkerResult

        return run

    return WorkerSpec(name="returns_dict", kind="function", description="returns a dict",
                      build=build)


def _echoing(spec, resolve):
    node = make_worker_node(spec, resolve)

    def echo(task, runtime):
        return {**task, **node(task, runtime)}  # the task's keys too: topic, as_of, worker...

    return echo


def test_a_run_that_returns_a_dict_is_an_error_envelope(tmp_path, small_corpus):
    from langgraph.checkpoint.memory import InMemorySaver

    workers = (*WORKERS[:1], _dict_worker())
    graph = build_graph(workers, resources=Resources(_context(tmp_path, small_corpus)),
                        checkpointer=InMemorySaver())
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF},
                         {"configurable": {"thread_id": "t"}})
    bad = [e for e in final["envelopes"] if e["worker"] == "returns_dict"]
    assert len(bad) == len(QUESTIONS)
    assert all(e["status"] == "error" and "not a WorkerResult" in e["error"] for e in bad)
    assert final["outcome"] == "partial"


def test_a_node_that_echoes_its_task_is_an_error_envelope(tmp_path, small_corpus, monkeypatch):
    from langgraph.checkpoint.memory import InMemorySaver

    monkeypatch.setattr(app.graph.build, "make_worker_node", _echoing)
    graph = build_graph(WORKERS, resources=Resources(_context(tmp_path, small_corpus)),
                        checkpointer=InMemorySaver())
    final = graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF},
                         {"configurable": {"thread_id": "t"}})  # no InvalidUpdateError
    assert len(final["envelopes"]) == len(QUESTIONS) * len(WORKERS)
    assert all(e["status"] == "error" and "may not write" in e["error"] and "topic" in e["error"]
               for e in final["envelopes"])
    assert final["outcome"] == "failed" and final["topic"] == SMALL_TOPIC
    with SqliteResults.in_dir(tmp_path / "data") as store:
        assert len(store.rows(thread_id="t")) == len(QUESTIONS) * len(WORKERS)


def test_a_thread_that_cannot_be_resumed_is_listed_with_the_way_out(tmp_path, small_corpus,
                                                                    monkeypatch, capsys):
    data = tmp_path / "data"
    context = _context(tmp_path, small_corpus)
    with SqliteStorage(data).checkpointer() as saver:  # a good thread, then a broken one (no guard)
        graph = build_graph(WORKERS, resources=Resources(context), checkpointer=saver)
        graph.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF},
                     {"configurable": {"thread_id": "good"}})
        monkeypatch.setattr(app.graph.build, "make_worker_node", _echoing)
        monkeypatch.setattr(app.graph.build, "guard_worker_node",
                            lambda name, node, allowed: node)
        broken = build_graph(WORKERS, resources=Resources(context), checkpointer=saver)
        with pytest.raises(Exception, match="InvalidUpdateError|Can receive only one value"):
            broken.invoke({"topic": SMALL_TOPIC, "as_of": AS_OF},
                          {"configurable": {"thread_id": "broken"}})
    monkeypatch.undo()

    rows = {r["thread_id"]: r for r in list_threads(data)}  # no exception for the data dir
    assert rows["good"]["topic"] == SMALL_TOPIC and rows["good"]["next"] == []
    assert rows["broken"]["status"] == "broken"
    assert "--fresh" in rows["broken"]["problem"]
    print_threads(list(rows.values()))
    out = capsys.readouterr().out
    assert "broken" in out and "--fresh" in out

    proc = run_cli("threads", "--data-dir", data)  # the command, not only the function
    assert proc.returncode == 0, proc.stderr
    assert "good" in proc.stdout and "--fresh" in proc.stdout
    proc = run_cli("resume", "broken", "--data-dir", data, "--corpus", small_corpus)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "--fresh" in proc.stderr
