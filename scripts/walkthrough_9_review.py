"""Walkthrough step 9: human review. Pause, crash while approving, approve again.

``research TOPIC --review`` pauses twice with LangGraph's ``interrupt()``: after ``plan`` (the
sub-questions) and after the map step, before ``persist`` (the envelopes). ``review THREAD_ID``
shows what a thread awaits and continues it with ``Command(resume=...)``.

1. ``research --review``: the run pauses at the plan review and exits 0;
2. ``review --approve``: the workers run, and the run pauses at the results review; the results
   database is still empty (nothing is persisted before a person approved it);
3. ``review --approve --crash-at persist-commit``: the approval is killed (``SIGKILL``) after
   ``persist`` committed its rows and before its checkpoint was saved;
4. ``review --approve`` again: the run goes on from its last checkpoint (the results review
   again, if the kill came before the approval's checkpoint was saved; else straight to
   ``persist``); ``persist`` runs again and upserts the same rows (one per envelope: their write
   count says they were written twice, in place);
5. ``review --approve`` once more: nothing awaits review, exit 2, the rows are unchanged.

Run: ``uv run python scripts/walkthrough_9_review.py`` (offline, about fifteen seconds; needs a
POSIX system for ``SIGKILL``).
"""

from __future__ import annotations

import json
import signal
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
    show_rows,
    verdict,
    write_corpus,
)

from app.runs.ids import default_thread_id  # noqa: E402


def main() -> int:
    expected = expected_rows()
    thread_id = default_thread_id(TOPIC, AS_OF)
    with tempfile.TemporaryDirectory(prefix="walkthrough9-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"
        where = ["--data-dir", str(data), "--corpus", str(corpus), "--model", "offline"]

        print("1. research --review: pause at the plan review")
        first = run_app(research_args(data, corpus, "--review", "--json"))
        plan = json.loads(first.stdout)["review"] if first.returncode == 0 else {}
        print(f"exit code: {first.returncode}; awaits: {plan.get('stage')} review, "
              f"{len(plan.get('sub_questions') or [])} sub-questions")
        print(f"results database rows: {len(db_rows(data))}")

        print()
        print("2. review --approve: the workers run, then the results review")
        second = run_app(["review", thread_id, *where, "--approve", "--json"])
        results = json.loads(second.stdout)["review"] if second.returncode == 0 else {}
        envelopes = results.get("envelopes") or []
        print(f"exit code: {second.returncode}; awaits: {results.get('stage')} review, "
              f"{len(envelopes)} envelopes, "
              f"{sum(e['status'] == 'ok' for e in envelopes)} ok")
        rows_before_approval = db_rows(data)
        print(f"results database rows: {len(rows_before_approval)} (nothing is persisted "
              "before the approval)")

        print()
        print("3. review --approve --crash-at persist-commit: killed while approving")
        crash = run_app(["review", thread_id, *where, "--approve", "--crash-at",
                         "persist-commit"])
        killed = crash.returncode == -signal.SIGKILL
        print(f"exit code: {crash.returncode}" + (" (killed by SIGKILL)" if killed else ""))
        rows_after_kill = db_rows(data)
        print(f"results database rows: {len(rows_after_kill)} (persist committed; its "
              "checkpoint was lost with the process)")

        print()
        print("4. review --approve again: the run goes on from its last checkpoint")
        again = run_app(["review", thread_id, *where, "--approve"])
        print(f"exit code: {again.returncode}")
        print_lines(again.stdout, keep=("continuing thread", "persisted", "envelopes:",
                                        "db rows:", "duplicates:"))
        rows = db_rows(data)
        show_rows(rows)

        print()
        print("5. review --approve once more")
        twice = run_app(["review", thread_id, *where, "--approve"])
        print(f"exit code: {twice.returncode}")
        print_lines(twice.stderr)
        rows_at_end = db_rows(data)

    ids = [r["envelope_id"] for r in rows]
    ok = (
        first.returncode == 0 and plan.get("stage") == "plan"
        and second.returncode == 0 and results.get("stage") == "results"
        and len(envelopes) == expected
        and rows_before_approval == []
        and killed and len(rows_after_kill) == expected
        and again.returncode == 0
        and len(rows) == len(set(ids)) == expected
        and set(ids) == {e["envelope_id"] for e in envelopes}
        and twice.returncode == 2
        and rows_at_end == rows
    )
    return verdict(
        ok,
        f"nothing was persisted before the approval; after a SIGKILL during it, approving "
        f"again gave {len(rows)} rows, one per reviewed envelope, and a second approval found "
        "nothing to review and changed no row",
        f"plan exit {first.returncode} ({plan.get('stage')}), results exit "
        f"{second.returncode} ({results.get('stage')}, {len(envelopes)} envelopes), rows "
        f"before approval {len(rows_before_approval)}, killed={killed} rows after kill "
        f"{len(rows_after_kill)}, approve again exit {again.returncode} rows {len(rows)} "
        f"distinct {len(set(ids))}, second approval exit {twice.returncode}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
