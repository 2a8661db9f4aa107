"""Time travel and state edits on a CLI thread: what a workshop does after LangChain Academy's
module 3 (editing state, time travel), with the rows counted in the data dir's database.

* ``review THREAD --checkpoint ID --drop X`` decides again at an earlier results review: the
  thread forks from that pause (a copy of it, without the decision recorded there), and the rows
  and report show the new decision;
* a checkpoint that is not a review pause, or is not the thread's, is refused in one line;
* ``update_state`` while the results review waits (Studio's "edit state") keeps the thread
  awaiting review, and approving persists the edited envelope.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from app.runs.threads import research_graph
from app.storage import open_storage
from tests.durability._helpers import AS_OF, TOPIC, db_rows, describe, run_app, thread_id_of
from tests.expected import expected_tasks

THREAD = thread_id_of()


def _where(data: Path, corpus: Path) -> list:
    return ["--data-dir", data, "--corpus", corpus, "--model", "offline"]


def _paused_at_results(data: Path, corpus: Path) -> None:
    first = run_app("research", TOPIC, "--as-of", AS_OF, *_where(data, corpus), "--review")
    assert first.returncode == 0, describe(first)
    second = run_app("review", THREAD, *_where(data, corpus), "--approve", "--json")
    assert json.loads(second.stdout)["review"]["stage"] == "results", describe(second)


def _checkpoints(data: Path, corpus: Path) -> list[dict]:
    out = run_app("inspect", THREAD, "--data-dir", data, "--json")
    assert out.returncode == 0, describe(out)
    return json.loads(out.stdout)["checkpoints"]


def test_review_at_an_earlier_checkpoint_decides_again(tmp_path, durability_corpus):
    data, corpus = tmp_path / "data", durability_corpus
    _paused_at_results(data, corpus)
    approved = run_app("review", THREAD, *_where(data, corpus), "--approve")
    assert approved.returncode == 0, describe(approved)
    rows = db_rows(data, THREAD)
    assert len(rows) == expected_tasks(TOPIC)
    pause = [c for c in _checkpoints(data, corpus) if c["next"] == ["review_results"]][-1]
    dropped = rows[0]["envelope_id"]

    again = run_app("review", THREAD, *_where(data, corpus), "--checkpoint",
                    pause["checkpoint_id"], "--drop", dropped, "--json")
    assert again.returncode == 0, describe(again)
    summary = json.loads(again.stdout)
    ids = [r["envelope_id"] for r in db_rows(data, THREAD)]
    assert dropped not in ids and len(ids) == len(set(ids)) == expected_tasks(TOPIC) - 1
    report = Path(summary["report_path"]).read_text(encoding="utf-8")
    assert "dropped at review" in report


def test_a_checkpoint_that_is_no_review_pause_is_refused(tmp_path, durability_corpus):
    data, corpus = tmp_path / "data", durability_corpus
    _paused_at_results(data, corpus)
    first = _checkpoints(data, corpus)[0]["checkpoint_id"]  # the input checkpoint
    for checkpoint, says in ((first, "is not a review pause"), ("nope", "has no checkpoint")):
        out = run_app("review", THREAD, *_where(data, corpus), "--checkpoint", checkpoint,
                      "--approve")
        assert out.returncode == 2, describe(out)
        assert says in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
        # the advice is followed as printed: it names the data dir, and plain inspect (not
        # only --json, as before) lists the review pauses' checkpoint ids
        advice = shlex.split(out.stderr.split("(", 1)[1].split(" lists ")[0])
        assert advice[:6] == ["uv", "run", "python", "-m", "app", "inspect"], advice
        listed = run_app(*advice[5:])
        assert listed.returncode == 0, describe(listed)
        pauses = [c for c in _checkpoints(data, corpus) if c["next"]
                  and c["next"][0].startswith("review_")]
        assert len(pauses) == 2 and all(c["checkpoint_id"] in listed.stdout for c in pauses)
    assert db_rows(data, THREAD) == []


def test_an_edit_at_the_results_review_keeps_it_awaiting_and_is_persisted(
        tmp_path, durability_corpus):
    data, corpus = tmp_path / "data", durability_corpus
    _paused_at_results(data, corpus)
    config = {"configurable": {"thread_id": THREAD}}
    with open_storage(data).checkpointer() as saver:
        graph = research_graph(saver)
        target = graph.get_state(config).values["envelopes"][0]
        edited = {**target["structured"], "edited_by": "studio"}
        graph.update_state(config, {"envelopes": [{"envelope_id": target["envelope_id"],
                                                   "structured": edited}]})  # no as_node
    threads = run_app("threads", "--data-dir", data, "--json")
    (row,) = json.loads(threads.stdout)
    assert row["status"] == "awaiting review", row
    shown = run_app("review", THREAD, *_where(data, corpus), "--json")
    assert json.loads(shown.stdout)["review"]["stage"] == "results", describe(shown)
    approved = run_app("review", THREAD, *_where(data, corpus), "--approve")
    assert approved.returncode == 0, describe(approved)
    rows = {r["envelope_id"]: r for r in db_rows(data, THREAD)}
    assert len(rows) == expected_tasks(TOPIC)
    assert json.loads(rows[target["envelope_id"]]["structured"])["edited_by"] == "studio"


def test_an_edit_of_as_of_before_plan_then_resume_leaves_the_new_dates_rows_only(
        place, durability_corpus):
    # Found by a new-user trial: update_state(<the checkpoint before plan>, {"as_of": other})
    # through the thread's own checkpointer, then `resume THREAD`, left 18 rows (9 per date)
    # while the summary said "db rows: 9" and inspect listed 18 "one per envelope".
    where = place("data")
    common = ["--data-dir", where.data_dir, "--corpus", durability_corpus, "--model", "offline",
              *where.args[2:]]
    first = run_app("research", TOPIC, "--as-of", AS_OF, *common, "--quiet")
    assert first.returncode == 0, describe(first)
    other_day = "2026-11-29"
    config = {"configurable": {"thread_id": THREAD}}
    with open_storage(where.data_dir, where.database_url).checkpointer() as saver:
        graph = research_graph(saver)
        before_plan = next(s for s in graph.get_state_history(config) if s.next == ("plan",))
        graph.update_state(before_plan.config, {"as_of": other_day})
    resumed = run_app("resume", THREAD, *common, "--json")
    assert resumed.returncode == 0, describe(resumed)
    summary = json.loads(resumed.stdout)
    rows = db_rows(where, THREAD)
    assert {r["as_of"] for r in rows} == {other_day}, [(r["as_of"], r["worker"]) for r in rows]
    assert len(rows) == summary["db_rows"] == summary["envelopes"] == expected_tasks(TOPIC)
    listed = run_app("inspect", THREAD, *common[:2], *where.args[2:], "--json")
    assert listed.returncode == 0, describe(listed)
    assert len(json.loads(listed.stdout)["rows"]) == expected_tasks(TOPIC)
