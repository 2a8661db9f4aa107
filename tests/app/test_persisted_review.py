"""A finished thread that a state edit made await its results review again (Studio's
``update_state`` as ``route`` with ``routing.review`` on) lists results whose rows are in the
results database: the review said "not persisted until approved" and "no findings" of each
(persist had dropped their payloads), and a drop said "not persisted" of a row it removed
(hostile trial H's closing note). Now each line says what is true: persisted already, the
findings in the database, the row removed. The CLI in subprocesses; the edit as Studio makes
it, through the graph on the thread's checkpointer."""
from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, SMALL_TOPIC, run_cli
from tests.results_db import db_rows


def _edited_to_await_review(data: Path) -> str:
    """The thread of a finished run, edited as Studio does to await its results review."""
    from app.runs.threads import research_graph
    from app.storage import open_storage

    (row, *_) = db_rows(data)
    config = {"configurable": {"thread_id": row["thread_id"]}}
    with open_storage(data).checkpointer() as saver:
        graph = research_graph(saver)
        routing = graph.get_state(config).values["routing"]
        graph.update_state(config, {"routing": {**routing, "review": True}}, as_node="route")
        assert graph.get_state(config).next == ("review_results",)
    return row["thread_id"]


def test_a_finished_threads_review_says_its_results_are_persisted(
        tmp_path: Path, small_corpus: Path) -> None:
    data = tmp_path / "data"
    done = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", data,
                   "--corpus", small_corpus, "--quiet")
    assert done.returncode == 0, done.stderr
    rows = {r["envelope_id"] for r in db_rows(data)}
    thread_id = _edited_to_await_review(data)

    shown = run_cli("review", thread_id, "--data-dir", data, "--corpus", small_corpus)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert ("results (3) of this run, persisted already (their rows are in the results "
            "database):") in lines, shown.stdout
    assert "not persisted until approved" not in shown.stdout
    assert "no findings" not in shown.stdout
    assert lines.count("      persisted: its findings are in the results database") == 3
    as_json = json.loads(run_cli("review", thread_id, "--data-dir", data, "--corpus",
                                 small_corpus, "--json").stdout)
    assert [e["persisted"] for e in as_json["review"]["envelopes"]] == [True] * 3

    critic = next(e for e in rows if e.startswith("critic:"))
    dropped = run_cli("review", thread_id, "--data-dir", data, "--corpus", small_corpus,
                      "--drop", critic, "--json")
    assert dropped.returncode == 0, dropped.stderr
    notes = json.loads(dropped.stdout)["notes"]
    assert any(n.startswith("dropped at review, not reported, its row removed from the "
                            "results database: critic on ") for n in notes), notes
    assert not any("not persisted" in n or "an earlier run" in n for n in notes), notes
    assert {r["envelope_id"] for r in db_rows(data)} == rows - {critic}
