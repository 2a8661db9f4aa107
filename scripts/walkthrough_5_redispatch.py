"""Walkthrough step 5: re-dispatch. A task that failed in round 1 is sent again and updates its row.

The app runs with ``--fail-worker critic:1 --rounds 2``: the ``critic`` worker fails permanently
in round 1 (an error the ``RetryPolicy`` does not retry), so its four tasks (one per
sub-question) end as *error envelopes* instead of failing the run. After the map step, ``route``
sees the errors and, with a round left, its conditional edge sends the four failed tasks again
with ``Send`` (round 2). Each re-sent task has the same worker, sub-question and ``as_of``, hence
the same ``envelope_id``: ``envelope_reducer`` replaces the error envelope in place, the
``envelopes`` channel stays at one entry per task (12 with the stock three workers), and the
database gets one row per envelope: status ``ok``, round 2 for the critic's.

Run: ``uv run python scripts/walkthrough_5_redispatch.py`` (offline, a few seconds).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _walkthrough import (  # noqa: E402
    AS_OF,
    TOPIC,
    db_rows,
    expected_rows,
    print_lines,
    remember_tmp,
    research_args,
    run_app,
    short_id,
    show_rows,
    sub_questions,
    verdict,
    write_corpus,
)

from app.runs.ids import default_thread_id  # noqa: E402

EXPECTED_ROWS = expected_rows()  # sub-questions x workers: 4 x 3 = 12 in the stock template


def main() -> int:
    thread_id = default_thread_id(TOPIC, AS_OF)
    with tempfile.TemporaryDirectory(prefix="walkthrough5-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"
        log = Path(tmp) / "run.log"
        run = run_app(research_args(data, corpus, "--fail-worker", "critic:1", "--rounds", "2",
                                    "--run-log", str(log)))
        print(f"exit code: {run.returncode}")
        print_lines(run.stdout, keep=("envelopes:", "db rows:", "duplicates:", "errors:",
                                      "note:"))
        if run.returncode != 0:
            print_lines(run.stderr)

        print()
        print("critic tasks: the status of each finished attempt, in order (from --run-log):")
        attempts: dict[str, list[str]] = {}
        for line in log.read_text(encoding="utf-8").splitlines():
            eid, _attempt, status, _pid = line.split("\t")
            if eid.startswith("critic:"):
                attempts.setdefault(eid, []).append(status)
        for eid in sorted(attempts):
            print(f"  {short_id(eid):<22} {' -> '.join(attempts[eid])}")

        print()
        from app.runs.inspect import inspect_thread

        info = inspect_thread(data, thread_id) or {"checkpoints": []}
        print("the envelopes channel, checkpoint by checkpoint:")
        print(f"  {'step':>4}  {'nodes that ran':<40} {'envelopes':>9} {'distinct ids':>12}")
        for c in info["checkpoints"]:
            ran = ", ".join(f"{name} x{n}" if n > 1 else name for name, n in c["ran"].items())
            print(f"  {c['step']:>4}  {ran or '-':<40} {c['envelopes']:>9} {c['unique_ids']:>12}")
        print()
        rows = db_rows(data)
        show_rows(rows)

    critic_rows = [r for r in rows if r["worker"] == "critic"]
    ids = [r["envelope_id"] for r in rows]
    redispatched = {eid for eid, statuses in attempts.items() if statuses == ["error", "ok"]}
    final_envelopes = info["checkpoints"][-1]["envelopes"] if info["checkpoints"] else 0
    ok = (
        run.returncode == 0
        and len(attempts) == len(sub_questions())
        and redispatched == set(attempts)
        and {r["envelope_id"] for r in critic_rows} == redispatched
        and all(r["status"] == "ok" and r["round"] == 2 and r["write_count"] == 1
                for r in critic_rows)
        and len(rows) == EXPECTED_ROWS
        and len(set(ids)) == len(ids)
        and final_envelopes == EXPECTED_ROWS
    )
    return verdict(
        ok,
        f"{len(redispatched)} critic tasks failed in round 1 and were re-sent in round 2 with "
        "the same envelope ids; their rows say status ok, round 2, and the channel and the "
        f"database hold {len(rows)} envelopes, one each",
        f"exit {run.returncode}, critic attempts {attempts}, critic rows "
        f"{[(r['status'], r['round']) for r in critic_rows]}, {len(rows)} rows for "
        f"{len(set(ids))} ids, {final_envelopes} envelopes in the last checkpoint",
    )


if __name__ == "__main__":
    raise SystemExit(main())
