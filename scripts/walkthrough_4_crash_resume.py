"""Walkthrough step 4: crash and resume. SIGKILL mid-map, then run the same command again.

1. The app runs in a subprocess with ``--crash-at map:5 --max-concurrency 2 --durability sync``:
   two workers work at a time, and when a sixth attempt starts after five workers finished, the
   process sends itself ``SIGKILL`` (no cleanup, no ``finally``: a pulled plug).
2. What survived, read from the data dir: the *checkpointer*'s history for the ``thread_id``
   (saved after each *superstep*: the last one is after ``plan``, with the workers still to run),
   the *pending writes* of the map superstep (the envelopes of the workers that finished and
   whose writes were saved before the kill), and the results database (empty: ``persist`` never
   ran).
3. The same research command again, without the crash flag. The thread id is derived from the
   topic and ``as_of``, so it lands on the same thread and LangGraph resumes it: the tasks whose
   pending writes were saved are not run again; the others are.
4. The database now holds every envelope, once.

Run: ``uv run python scripts/walkthrough_4_crash_resume.py`` (offline, about ten seconds; needs a
POSIX system for ``SIGKILL``).
"""

from __future__ import annotations

import shutil
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

EXPECTED_ROWS = expected_rows()  # sub-questions x workers: 4 x 3 = 12 in the stock template
CRASH_AFTER = 5


def saved_writes(data: Path, thread_id: str) -> int:
    """How many envelope writes of the latest checkpoint's superstep the checkpointer saved."""
    from app.storage.sqlite import SqliteStorage

    with SqliteStorage(data).checkpointer() as saver:
        latest = saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
    return sum(1 for w in (latest.pending_writes if latest else []) if w[1] == "envelopes")


def show_checkpoints(data: Path, thread_id: str) -> tuple[list[str], int]:
    """Print the thread's checkpoints and its saved pending writes; return (next, saved)."""
    from app.runs.inspect import inspect_thread

    info = inspect_thread(data, thread_id) or {"checkpoints": [], "next": []}
    print(f"checkpoints of thread {thread_id} (oldest first):")
    print(f"  {'step':>4}  {'source':<6}  {'nodes that ran':<16} envelopes")
    for c in info["checkpoints"]:
        ran = ", ".join(c["ran"]) or "-"
        print(f"  {c['step']:>4}  {c['source']:<6}  {ran:<16} {c['envelopes']}")
    nxt = list(info["next"])
    print(f"next: {len(nxt)} worker tasks still to run "
          f"({', '.join(sorted(set(nxt))) or 'none'})")
    saved = saved_writes(data, thread_id)
    print(f"pending writes saved for the map superstep: {saved} envelope(s)")
    return nxt, saved


def read_log(path: Path) -> list[tuple[str, str]]:
    """(envelope_id, pid) of each finished worker attempt in the run log."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        eid, _attempt, _status, pid = line.split("\t")
        out.append((eid, pid))
    return out


def main() -> int:
    thread_id = default_thread_id(TOPIC, AS_OF)
    with tempfile.TemporaryDirectory(prefix="walkthrough4-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"
        log = Path(tmp) / "run.log"
        common = ("--max-concurrency", "2", "--durability", "sync", "--run-log", str(log))

        print("1. run, killed mid-map")
        for attempt in range(1, 4):
            crash = run_app(
                research_args(data, corpus, *common, "--crash-at", f"map:{CRASH_AFTER}"))
            killed = crash.returncode == -signal.SIGKILL
            if not killed or saved_writes(data, thread_id) or attempt == 3:
                break
            # LangGraph saves pending writes in the background: on a loaded machine the kill
            # can beat every save. That shows nothing, so start over (at most three times).
            print("(the kill beat every pending-write save on this loaded machine; again)")
            shutil.rmtree(data)
            log.unlink(missing_ok=True)
        print(f"exit code: {crash.returncode}"
              + (" (killed by SIGKILL)" if killed else " (expected SIGKILL)"))
        first = read_log(log)
        print(f"workers finished before the kill: {len(first)}")

        print()
        print("2. what survived the kill")
        nxt, saved = show_checkpoints(data, thread_id)
        rows_after_crash = db_rows(data)
        print(f"results database rows: {len(rows_after_crash)} (persist has not run yet)")

        print()
        print("3. the same command again (no crash flag): LangGraph resumes the thread")
        resume = run_app(research_args(data, corpus, *common))
        print(f"exit code: {resume.returncode}")
        print_lines(resume.stdout, keep=("resuming thread", "envelopes:", "db rows:",
                                         "duplicates:", "errors:"))
        if resume.returncode != 0:
            print_lines(resume.stderr)
        both = read_log(log)
        second = both[len(first):]
        print(f"workers run after the resume: {len(second)} "
              f"(of {EXPECTED_ROWS}; the {saved} with saved pending writes were not run again)")

        print()
        print("4. the results database after the resume")
        rows = db_rows(data)
        show_rows(rows)

    ids = [r["envelope_id"] for r in rows]
    rerun_saved = {eid for eid, _ in second} & {eid for eid, _ in first}
    ok = (
        killed
        and len(first) >= CRASH_AFTER
        and 0 < saved <= len(first)
        and len(nxt) == EXPECTED_ROWS
        and not rows_after_crash
        and resume.returncode == 0
        and "resuming thread" in resume.stdout
        and len(second) == EXPECTED_ROWS - saved
        and len(rows) == EXPECTED_ROWS
        and len(set(ids)) == len(ids)
        and all(r["status"] == "ok" and r["write_count"] == 1 for r in rows)
    )
    return verdict(
        ok,
        "killed mid-map; the resume ran only the tasks without saved pending writes, and the "
        f"database holds {len(rows)} rows, one per envelope",
        f"killed={killed}, finished before kill={len(first)}, saved={saved}, "
        f"resume exit={resume.returncode}, run again={len(second)} "
        f"(re-run after being saved: {len(rerun_saved)}), rows={len(rows)}, "
        f"distinct ids={len(set(ids))}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
