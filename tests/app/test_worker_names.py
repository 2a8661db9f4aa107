"""Worker names: what a worker may be called, and how a run learns the graph's workers.

* A worker named like another node of the graph (``persist``, ``route``...) or holding ``:`` or
  ``|`` failed every run at compile time with LangGraph's ``Node `persist` already present.``,
  naming neither the worker's module nor the rule (trial 21, finding 15). ``build_graph`` refuses
  it where it refuses two workers of one name: one line naming the worker, its module and why.
* ``app.graph.build.worker_names`` reads the compiled graph through LangGraph's public API (the
  drawable graph's edges, ``graph.nodes``), not ``graph.builder.branches`` and the private
  ``BranchSpec`` (trial 21, finding 8), and keeps the registry's order.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from langgraph.graph import START

from app.graph.build import NODES, build_graph, worker_names
from tests.conftest import AS_OF, SMALL_TOPIC
from workers.base import WorkerSpec
from workers.registry import WORKERS, registered


def _named(name: str) -> WorkerSpec:
    return WorkerSpec(name=name, kind="function", description="named badly",
                      build=WORKERS[0].build)


@pytest.mark.parametrize("name,why", [
    ("persist", "is the name of a node of the research graph"),
    ("review_plan", "is the name of a node of the research graph"),
    ("__end__", "is the name of a node of the research graph"),
    ("my:worker", "holds ':', which LangGraph reserves in node names"),
    ("a|b", "holds '|', which LangGraph reserves in node names"),
])
def test_a_worker_named_like_a_node_is_refused_in_one_line(
        name: str, why: str, tmp_path: Path, small_corpus: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    import workers.registry
    from app.cli import main

    monkeypatch.setattr(workers.registry, "WORKERS", (*WORKERS, _named(name)))
    code = main(["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(tmp_path / "data"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.splitlines() == [
        f"error: run failed: ValueError: worker {name!r} (workers.docs_search) {why}: rename "
        "it (its WorkerSpec name)"], err


def test_two_workers_of_one_name_are_refused_in_one_line(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    import workers.registry
    from app.cli import main

    monkeypatch.setattr(workers.registry, "WORKERS", (*WORKERS, WORKERS[0]))
    code = main(["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(tmp_path / "data"), "--quiet"])
    err = capsys.readouterr().err
    names = (*(w.name for w in WORKERS), WORKERS[0].name)
    assert code == 1
    assert err.splitlines() == [
        f"error: run failed: ValueError: worker names must be unique: {names}"], err


def test_nodes_lists_every_node_of_the_graph_but_the_workers():
    graph = build_graph(registered(web=True))
    others = set(graph.nodes) - {START} - set(worker_names(graph))
    assert others == set(NODES), (
        f"the graph's nodes other than its workers are {sorted(others)}: list a node you add in "
        "app.graph.build.NODES, so that no worker can take its name")


def test_worker_names_are_the_registrys_in_its_order_through_public_api():
    specs = registered(web=True)
    for order in itertools.permutations(specs):
        graph = build_graph(order)
        graph.builder = None  # StateGraph.branches is no public API: it is not read
        assert worker_names(graph) == tuple(w.name for w in order)
    assert worker_names(build_graph(specs[:1])) == (specs[0].name,)
