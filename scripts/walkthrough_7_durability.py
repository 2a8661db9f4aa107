"""Walkthrough step 7: durability modes side by side: the same kill under exit, async and sync.

LangGraph's ``durability`` says when a checkpoint is saved: ``exit`` only when the graph exits,
``async`` in the background while the next superstep runs (LangGraph's default), ``sync`` before
the next superstep starts. The pending writes of tasks that finish inside a superstep are saved
as they finish in ``async`` and ``sync``; ``exit`` saves nothing until the end.

For each mode, on a fresh data dir: the app runs with ``--crash-at map:5 --max-concurrency 2``
and kills itself (``SIGKILL``) once five workers finished; then the same command runs again
without the crash flag. ``--run-log`` records each finished worker with its process id, so the
script counts, per mode:

* how many workers finished before the kill;
* what the checkpointer held after the kill (checkpoints of the thread, saved pending writes);
* how many of the finished workers the resume *restored* (did not run again), and how many
  tasks it ran;
* the results database after the resume: one row per envelope, whatever the mode.

What to look for: ``exit`` restores nothing (no checkpoint survived: the resume runs every task
again), ``async`` and ``sync`` restore the finished workers whose pending writes were saved.
How many that is varies from run to run (a write in flight at the kill is lost), so the script
prints the counts and checks only what every run must show. Like step 4, a ``sync`` run whose
kill beat every save is started over (at most three times): it would show nothing.

Run: ``uv run python scripts/walkthrough_7_durability.py`` (offline, about twenty seconds;
needs a POSIX system for ``SIGKILL``).
"""

from __future__ import annotations

import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass
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
    verdict,
    write_corpus,
)

from app.runs.ids import default_thread_id  # noqa: E402

MODES = ("exit", "async", "sync")
CRASH_AFTER = 5
TRIES = 3


@dataclass
class Outcome:
    """What one mode showed: the kill, what survived it, the resume, the rows."""

    mode: str
    killed: bool
    finished: int
    checkpoints: int
    saved: int
    restored: int
    run_again: int
    resume_exit: int
    rows: int
    distinct: int
    all_ok: bool


def read_log(path: Path) -> list[tuple[str, str]]:
    """(envelope_id, pid) of each finished worker in the run log."""
    if not path.exists():
        return []
    return [(line.split("\t")[0], line.split("\t")[3])
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def survived(data: Path, thread_id: str) -> tuple[int, int]:
    """(checkpoints of the thread, envelope writes saved for the latest one's superstep)."""
    if not (data / "checkpoints.sqlite").exists():
        return 0, 0
    from app.storage.sqlite import SqliteStorage

    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    with SqliteStorage(data).checkpointer() as saver:
        checkpoints = list(saver.list(config))
        latest = saver.get_tuple(config)
    saved = sum(1 for w in (latest.pending_writes if latest else []) if w[1] == "envelopes")
    return len(checkpoints), saved


def run_mode(tmp: Path, corpus: Path, mode: str, thread_id: str) -> Outcome:
    """Kill a run under ``mode`` at ``map:5``, resume it, and count."""
    data, log = tmp / f"data-{mode}", tmp / f"{mode}.log"
    common = ("--max-concurrency", "2", "--durability", mode, "--run-log", str(log), "--quiet")
    for attempt in range(1, TRIES + 1):
        crash = run_app(research_args(data, corpus, *common, "--crash-at", f"map:{CRASH_AFTER}"),
                        echo=attempt == 1)
        checkpoints, saved = survived(data, thread_id)
        if mode != "sync" or saved or attempt == TRIES:
            break
        # The kill beat every pending-write save on this loaded machine: that shows nothing.
        shutil.rmtree(data)
        log.unlink(missing_ok=True)
    first = read_log(log)
    resume = run_app(research_args(data, corpus, *common), echo=False)
    second = read_log(log)[len(first):]
    again = {eid for eid, _ in second}
    rows = db_rows(data)
    return Outcome(
        mode=mode,
        killed=crash.returncode == -signal.SIGKILL,
        finished=len(first),
        checkpoints=checkpoints,
        saved=saved,
        restored=len({eid for eid, _ in first} - again),
        run_again=len(second),
        resume_exit=resume.returncode,
        rows=len(rows),
        distinct=len({r["envelope_id"] for r in rows}),
        all_ok=all(r["status"] == "ok" and r["write_count"] == 1 for r in rows),
    )


def main() -> int:
    expected = expected_rows()
    thread_id = default_thread_id(TOPIC, AS_OF)
    with tempfile.TemporaryDirectory(prefix="walkthrough7-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        print(f"each mode: killed at map:{CRASH_AFTER} (two workers at a time), then the same "
              "command again")
        outcomes = [run_mode(Path(tmp), corpus, mode, thread_id) for mode in MODES]

    print()
    print(f"{'mode':<6} {'killed':>6} {'finished':>8} {'checkpoints':>11} {'saved':>5} "
          f"{'restored':>8} {'run again':>9} {'rows':>4}")
    for o in outcomes:
        print(f"{o.mode:<6} {'yes' if o.killed else 'NO':>6} {o.finished:>8} {o.checkpoints:>11} "
              f"{o.saved:>5} {o.restored:>8} {o.run_again:>9} {o.rows:>4}")
    print("(finished: workers done before the kill; checkpoints and saved pending writes: what")
    print(" the checkpointer held after it; restored: finished workers the resume did not run")
    print(" again; run again: tasks the resume ran)")
    print()
    by = {o.mode: o for o in outcomes}
    if by["exit"].checkpoints == 0 and by["exit"].restored == 0:
        print(f"exit: no checkpoint survived the kill; the resume ran all {expected} tasks again")
    for mode in ("async", "sync"):
        o = by[mode]
        print(f"{mode}: the resume restored {o.restored} of the {o.finished} finished workers "
              f"and ran the other {o.run_again} tasks")
    every = all(
        o.killed and o.finished >= CRASH_AFTER and o.resume_exit == 0 and o.rows == expected
        and o.distinct == expected and o.all_ok
        for o in outcomes)
    if every:
        print(f"every mode: {expected} rows after the resume, one per envelope, each written once")

    ok = (
        every
        and by["exit"].checkpoints == 0
        and by["exit"].restored == 0
        and by["exit"].run_again == expected
        and by["sync"].checkpoints > 0
        and 0 < by["sync"].restored <= by["sync"].saved
        and by["async"].restored <= by["async"].saved
        and all(o.run_again == expected - o.restored for o in outcomes)
    )
    return verdict(
        ok,
        "exit lost everything to the kill and ran every task again; async and sync resumed "
        "from their checkpoints and did not run the workers whose pending writes were saved; "
        "every mode ended with one row per envelope",
        "; ".join(
            f"{o.mode}: killed={o.killed} finished={o.finished} checkpoints={o.checkpoints} "
            f"saved={o.saved} restored={o.restored} run again={o.run_again} "
            f"resume exit={o.resume_exit} rows={o.rows} distinct={o.distinct} ok={o.all_ok}"
            for o in outcomes),
    )


if __name__ == "__main__":
    raise SystemExit(main())
