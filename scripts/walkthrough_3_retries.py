"""Walkthrough step 3: retries. LangGraph re-runs a failed worker; the database still has one row.

The app runs in a subprocess with ``--fail-rate 0.5 --seed 14``: every worker attempt raises a
transient error with probability 0.5, decided by (seed, envelope_id, round, attempt), so the same seed
fails the same attempts on every machine. Each worker node has a ``RetryPolicy`` (3 attempts,
``retry_on=workers.errors.is_transient``): LangGraph runs the failed task again, and a failed
attempt leaves no writes. Seed 11 is one where every task succeeds within its 3 attempts.

What to look for: rows whose ``attempts`` is above 1 (LangGraph's own attempt counter, recorded
in the envelope), and still one row per ``envelope_id``, each written once.

Run: ``uv run python scripts/walkthrough_3_retries.py`` (offline, a few seconds).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _walkthrough import (  # noqa: E402
    db_rows,
    print_lines,
    remember_tmp,
    research_args,
    run_app,
    show_rows,
    verdict,
    write_corpus,
)

SEED = 14
EXPECTED_ROWS = 12  # 4 sub-questions x 3 workers


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="walkthrough3-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"
        run = run_app(
            research_args(data, corpus, "--fail-rate", "0.5", "--seed", str(SEED)),
            env={"RESEARCH_RETRY_INTERVAL": "0.05"},  # short waits between attempts
        )
        print(f"exit code: {run.returncode}")
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

    ok = (
        run.returncode == 0
        and len(rows) == EXPECTED_ROWS
        and len(set(ids)) == len(ids)
        and all(r["status"] == "ok" and r["write_count"] == 1 for r in rows)
        and len(retried) > 0
    )
    return verdict(
        ok,
        f"LangGraph retried {len(retried)} worker task(s) (up to "
        f"{max((r['attempts'] for r in rows), default=0)} attempts) and the database holds "
        f"{len(rows)} rows for {len(set(ids))} envelopes, each written once",
        f"exit {run.returncode}, {len(rows)} rows for {len(set(ids))} ids, "
        f"{len(retried)} retried (expected {EXPECTED_ROWS} ok rows, some retried)",
    )


if __name__ == "__main__":
    raise SystemExit(main())
