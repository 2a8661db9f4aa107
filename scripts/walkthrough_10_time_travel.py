"""Walkthrough step 10: time travel. Edit state at a pause, fork from an earlier checkpoint,
replay a review and decide differently, counting the rows each time.

LangGraph keeps every checkpoint of a thread. ``update_state`` writes a new one on top of any of
them (editing state, or forking from an old one), and the graph's conditional edges re-derive
what runs next from the updated state. The edits here are made as LangGraph Studio makes them,
through the graph API on the thread's own checkpointer; the runs go through the CLI.

1. ``research --review``, ``review --approve``: paused at the results review, 0 rows;
2. edit state: one envelope's payload is changed with ``update_state`` while the review waits;
   the thread still awaits the review, and approving persists every envelope, the edit included;
3. fork: ``update_state(..., as_node="plan")`` on the checkpoint after ``plan``, with two
   sub-questions instead of all: ``resume`` runs the fork's tasks, which update their rows in
   place (the same envelope ids), and the review pauses again; approved, the thread's rows are
   the fork's plan's (the left-out sub-question's rows are removed);
4. replay: ``review --checkpoint ID --drop ENVELOPE_ID`` decides again at the first results
   review: its row is removed, the others stay; no row is duplicated at any step.

Run: ``uv run python scripts/walkthrough_10_time_travel.py`` (offline, about twenty seconds).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _walkthrough import (  # noqa: E402
    AS_OF,
    TOPIC,
    db_rows,
    expected_rows,
    remember_tmp,
    research_args,
    run_app,
    short_id,
    sub_questions,
    verdict,
    write_corpus,
)

from app.runs.ids import default_thread_id  # noqa: E402
from app.runs.threads import research_graph  # noqa: E402
from app.storage import open_storage  # noqa: E402


def _count(data: Path, what: str) -> list[dict]:
    rows = db_rows(data)
    ids = [r["envelope_id"] for r in rows]
    print(f"results database rows: {len(rows)} ({len(set(ids))} distinct) {what}")
    return rows


def main() -> int:
    expected = expected_rows()
    thread_id = default_thread_id(TOPIC, AS_OF)
    config = {"configurable": {"thread_id": thread_id}}
    with tempfile.TemporaryDirectory(prefix="walkthrough10-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"
        where = ["--data-dir", str(data), "--corpus", str(corpus), "--model", "offline"]

        print("1. research --review, review --approve: paused at the results review")
        run_app(research_args(data, corpus, "--review"))
        paused = run_app(["review", thread_id, *where, "--approve", "--json"])
        stage = json.loads(paused.stdout)["review"]["stage"] if paused.returncode == 0 else None
        print(f"awaits: {stage} review")
        before = _count(data, "before the approval")

        print()
        print("2. edit state while the review waits (update_state, as Studio does)")
        with open_storage(data).checkpointer() as saver:
            graph = research_graph(saver)
            target = graph.get_state(config).values["envelopes"][0]
            edited = {**target["structured"], "checked_by": "a person"}
            graph.update_state(config, {"envelopes": [{"envelope_id": target["envelope_id"],
                                                       "structured": edited}]})
            still = graph.get_state(config).next
        print(f"next after the edit: {', '.join(still)}")
        approved = run_app(["review", thread_id, *where, "--approve"])
        print(f"exit code: {approved.returncode}")
        after_edit = _count(data, "after the approval")

        print()
        print("3. fork from the checkpoint after plan, with two sub-questions")
        with open_storage(data).checkpointer() as saver:
            graph = research_graph(saver)
            history = list(reversed(list(graph.get_state_history(config))))
            after_plan = next(s for s in history if s.next == ("review_plan",))
            graph.update_state(after_plan.config, {"sub_questions": sub_questions()[:2]},
                               as_node="review_plan")
            fork_next = graph.get_state(config).next
            review_checkpoint = next(s for s in history if s.next == ("review_results",))
        print(f"next after the fork: {', '.join(fork_next)}")
        resumed = run_app(["resume", thread_id, *where, "--json"])
        forked = json.loads(resumed.stdout) if resumed.returncode == 0 else {}
        fork_envelopes = len((forked.get("review") or {}).get("envelopes") or [])
        print(f"exit code: {resumed.returncode}; awaits: results review, {fork_envelopes} "
              "envelopes")
        run_app(["review", thread_id, *where, "--approve"])
        after_fork = _count(data, "after the fork was approved")

        print()
        print("4. replay the first results review and drop one envelope")
        dropped = review_checkpoint.values["envelopes"][-1]["envelope_id"]
        print(f"dropping {short_id(dropped)}")
        replay = run_app(["review", thread_id, *where, "--checkpoint",
                          review_checkpoint.config["configurable"]["checkpoint_id"],
                          "--drop", dropped])
        print(f"exit code: {replay.returncode}")
        after_replay = _count(data, "after the replay")

    def distinct(rows: list[dict]) -> bool:
        return len({r["envelope_id"] for r in rows}) == len(rows)

    forked_tasks = 2 * expected // len(sub_questions())  # the fork kept two sub-questions
    ok = (
        stage == "results" and before == [] and still == ("review_results",)
        and approved.returncode == 0 and len(after_edit) == expected
        and fork_next == ("dispatch",) and fork_envelopes == forked_tasks
        and len(after_fork) == forked_tasks and distinct(after_fork)
        and replay.returncode == 0 and len(after_replay) == expected - 1
        and dropped not in {r["envelope_id"] for r in after_replay} and distinct(after_replay)
    )
    return verdict(
        ok,
        f"an edit at the pause kept it waiting and {expected} rows were persisted; a fork ran "
        f"{forked_tasks} tasks again in place ({forked_tasks} rows, its plan's); a replay "
        "that dropped one "
        f"left {expected - 1}; no row was ever duplicated",
        f"stage {stage}, rows before {len(before)}, next after edit {still}, approve exit "
        f"{approved.returncode} rows {len(after_edit)}, fork next {fork_next} envelopes "
        f"{fork_envelopes} rows {len(after_fork)}, replay exit {replay.returncode} rows "
        f"{len(after_replay)}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
