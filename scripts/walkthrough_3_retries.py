"""Walkthrough step 3: retries. LangGraph re-runs a failed worker; the database still has one row.

The app runs in a subprocess with ``--fail-rate 0.5 --seed 28``: every worker attempt raises a
transient error with probability 0.5, decided by (seed, envelope_id, round, attempt), so the same
seed fails the same attempts on every machine. Each worker node has a ``RetryPolicy`` (3
attempts, ``retry_on=workers.errors.is_transient``): LangGraph runs the failed task again, and a
failed attempt leaves no writes. With the stock workers, seed 28 is one where every task succeeds
within its 3 attempts in round 1 (the script asks the app's ``FaultPlan`` before running; with
other workers registered, their envelope ids draw other dice, and it uses the next seed that
does, and says so).

What to look for: the live ``retry`` lines the run prints (one per failed attempt, from the worker
node through LangGraph's ``custom`` stream), rows whose ``attempts`` is above 1 (LangGraph's own
attempt counter, recorded in the envelope), and still one row per ``envelope_id``, each written
once, all in round 1.

Then a permanent failure: ``--fail-worker critic --rounds 1`` makes ``critic`` raise an error that
``is_transient`` does not accept. The ``RetryPolicy`` does not retry it (the same input would fail
the same way): each critic task ends on its first attempt as an error envelope, no retry line is
printed for it, and the other workers' rows are persisted.

Run: ``uv run python scripts/walkthrough_3_retries.py`` (offline, a few seconds).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _walkthrough import (  # noqa: E402
    db_rows,
    expected_rows,
    first_ok_attempts,
    pick_seed,
    print_lines,
    remember_tmp,
    research_args,
    run_app,
    show_rows,
    verdict,
    worker_names,
    write_corpus,
)

FAIL_RATE = 0.5
SEED = 28
"""Every task of the walkthrough run succeeds within 3 attempts in round 1 (stock workers)."""


def main() -> int:
    expected = expected_rows()
    seed = pick_seed(FAIL_RATE, SEED)
    if seed != SEED:
        print(f"note: --seed {SEED} fails some task of this registry's workers 3 times in round "
              f"1; using --seed {seed}, the next seed that lets every task through")
    predicted = first_ok_attempts(FAIL_RATE, seed)
    with tempfile.TemporaryDirectory(prefix="walkthrough3-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"
        run = run_app(
            research_args(data, corpus, "--fail-rate", str(FAIL_RATE), "--seed", str(seed)),
            env={"RESEARCH_RETRY_INTERVAL": "0.05"},  # short waits between attempts
        )
        print(f"exit code: {run.returncode}")
        retry_lines = [line for line in run.stdout.splitlines() if " retry " in line]
        print(f"live retry lines ({len(retry_lines)}, in the order they happened):")
        print_lines("\n".join(retry_lines))
        print_lines(run.stdout, keep=("envelopes:", "db rows:", "duplicates:", "errors:"))
        if run.returncode != 0:
            print_lines(run.stderr)
        print()
        rows = db_rows(data)
        show_rows(rows)
        retried = [r for r in rows if r["attempts"] > 1]
        ids = [r["envelope_id"] for r in rows]
        print()
        print(f"rows retried by LangGraph (attempts > 1): {len(retried)}")
        print(f"rows: {len(rows)}, distinct envelope ids: {len(set(ids))}, "
              f"rows written more than once: {sum(1 for r in rows if r['write_count'] != 1)}")

        print()
        print("a permanent failure is not retried:")
        data2 = Path(tmp) / "data-permanent"
        permanent = run_app(research_args(data2, corpus, "--fail-worker", "critic",
                                          "--rounds", "1"))
        print(f"exit code: {permanent.returncode} (1: some tasks failed for good)")
        permanent_retries = [line for line in permanent.stdout.splitlines() if " retry " in line]
        print(f"live retry lines: {len(permanent_retries)}")
        critic_rows = [r for r in db_rows(data2) if r["worker"] == "critic"]
        other_rows = [r for r in db_rows(data2) if r["worker"] != "critic"]
        show_rows(critic_rows, title="critic rows")
        print(f"other workers' rows: {len(other_rows)}, all ok: "
              f"{all(r['status'] == 'ok' for r in other_rows)}")


    ok = (
        run.returncode == 0
        and len(rows) == expected
        and len(set(ids)) == len(ids)
        and all(r["status"] == "ok" and r["round"] == 1 and r["write_count"] == 1 for r in rows)
        and {r["envelope_id"]: r["attempts"] for r in rows} == predicted
        and len(retried) > 0
        and len(retry_lines) == sum(r["attempts"] - 1 for r in rows)
        and permanent.returncode == 1
        and not permanent_retries
        and len(critic_rows) == expected // len(worker_names())
        and all(r["status"] == "error" and r["attempts"] == 1 for r in critic_rows)
        and len(other_rows) == expected - len(critic_rows)
        and all(r["status"] == "ok" for r in other_rows)
    )
    return verdict(
        ok,
        f"LangGraph retried {len(retried)} worker task(s) (up to "
        f"{max((r['attempts'] for r in rows), default=0)} attempts, {len(retry_lines)} retry "
        f"lines) and the database holds {len(rows)} rows for {len(set(ids))} envelopes, each "
        f"written once, all in round 1; the permanent failure was not retried "
        f"({len(critic_rows)} critic error rows after 1 attempt each)",
        f"exit {run.returncode}, {len(rows)} rows for {len(set(ids))} ids, "
        f"{len(retried)} retried, {len(retry_lines)} retry lines (expected {expected} ok rows, "
        "all in round 1, some retried, each after as many attempts as the --fail-rate dice "
        "predict, one retry line per failed attempt); permanent: exit "
        f"{permanent.returncode}, {len(permanent_retries)} retry lines, critic rows "
        f"{[(r['status'], r['attempts']) for r in critic_rows]}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
