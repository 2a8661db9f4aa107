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
from pathlib import Path

from tests.durability._helpers import AS_OF, EXPECTED_TASKS, TOPIC, db_rows, describe, run_app
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
    rows = db_rows(tmp_path / "data")
    assert len(rows) == EXPECTED_TASKS
    critic = sorted(r["status"] for r in rows if r["worker"] == "critic")
    assert critic == ["error"] * len(sub_questions(TOPIC))
