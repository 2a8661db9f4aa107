"""Round numbers only increase within a thread (issue 21, item 7, the plan side).

``envelope_reducer`` ignores an update with a lower ``round`` than the stored envelope's (a
stale echo; docs/architecture.md, "The reducer rules", rule 7). So a rerun of a finished thread
must start its rounds after the highest the thread has seen: if ``plan`` dispatches round 1
again, a rerun after a run that went to round 2 has its fresh results judged stale, and a
worker that now fails for good is reported ``ok`` from the last run's envelope.

``plan`` does (``app/graph/nodes/plan.py``: the first round is one past
``app.research.rounds.highest_round``), and ``--fail-worker NAME:ROUNDS`` counts rounds within the
run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    TOPIC,
    db_rows,
    describe,
    run_app,
    thread_id_of,
)
from tests.expected import sub_questions


def test_a_rerun_after_a_second_round_reports_what_it_found(tmp_path: Path,
                                                            durability_corpus: Path) -> None:
    args = ["research", TOPIC, "--as-of", AS_OF, "--data-dir", str(tmp_path / "data"),
            "--corpus", str(durability_corpus), "--model", "offline", "--quiet", "--json"]
    first = run_app(*args, "--fail-worker", "critic:1")  # critic fails in round 1, ok in 2
    assert first.returncode == 0, describe(first)
    assert json.loads(first.stdout)["outcome"] == "ok"
    rerun = run_app(*args, "--fail-worker", "critic")  # now critic fails for good
    out = json.loads(rerun.stdout)
    assert rerun.returncode == 1, describe(rerun)
    assert out["outcome"] == "partial"
    assert {t["worker"] for t in out["failed_tasks"]} == {"critic"}, out["failed_tasks"]
    # the critic's failures keep its round-2 results of the first run (reducer rule 8): the
    # rows stay ok, and the run says so
    assert all(t["kept"] for t in out["failed_tasks"]), out["failed_tasks"]
    rows = db_rows(tmp_path / "data")
    assert len(rows) == EXPECTED_TASKS
    critic = sorted((r["status"], r["round"]) for r in rows if r["worker"] == "critic")
    assert critic == [("ok", 2)] * len(sub_questions(TOPIC))


_ROUND = re.compile(r" round \d+( after \d+ attempts)?($|  \()")
"""The round a progress line gives its result (before its attempts and its error, if any)."""


def test_a_rerun_counts_its_own_rounds(tmp_path: Path, durability_corpus: Path) -> None:
    # The thread's round numbers go on across reruns (above), but what a run prints is its own:
    # a rerun's first round printed "round 3" on every result, and its second "round 4: sending
    # ... again" and "note: round 4: re-dispatching", as if each rerun counted the earlier runs'
    # rounds again (a new user's trial).
    args = ["research", TOPIC, "--as-of", AS_OF, "--data-dir", str(tmp_path / "data"),
            "--corpus", str(durability_corpus), "--model", "offline", "--fail-worker", "critic:1"]
    for run in ("first", "rerun", "second rerun"):
        proc = run_app(*args)
        assert proc.returncode == 0, (run, describe(proc))
        results = [line for line in proc.stdout.splitlines() if line.startswith("[")]
        first_round = results[:EXPECTED_TASKS]  # a result's round is said from its second on
        assert not any(_ROUND.search(line) for line in first_round), (run, first_round)
        again = results[EXPECTED_TASKS:]
        assert again and all(line.endswith(" round 2") for line in again), (run, again)
        critics = len(sub_questions(TOPIC))
        assert f"round 2: sending {critics} task(s) again" in proc.stdout, (run, proc.stdout)
        assert f"note: round 2: re-dispatching {critics} failed task(s)" in proc.stdout, run
        assert "round 3" not in proc.stdout and "round 5" not in proc.stdout, (run, proc.stdout)
    # inspect's rows say the same: the round of each row within the run that wrote it (the
    # thread's own, 5 and 6 here, stay in --json as "round")
    proc = run_app("inspect", thread_id_of(), "--data-dir", str(tmp_path / "data"), "--json")
    assert proc.returncode == 0, describe(proc)
    rows = json.loads(proc.stdout)["rows"]
    assert {(r["worker"], r["round"], r["run_round"]) for r in rows} == {
        ("critic", 6, 2), ("docs_search", 5, 1), ("analyst", 5, 1)}, rows
    text = run_app("inspect", thread_id_of(), "--data-dir", str(tmp_path / "data")).stdout
    shown = [line.split()[1] for line in text.splitlines() if line.startswith("ok ")]
    assert sorted(shown) == ["1"] * 6 + ["2"] * 3, text
