"""Progress says what happens on every run, rerun and resume (issue 14, found in the workshop):

* a resumed *rerun* (a finished thread run again, killed, then resumed) said "12 finished
  result(s) restored" when 4 or 5 were, because it counted the envelopes the earlier run left
  in state; it must count the saved pending writes the resume really restores;
* round-2 progress lines all read ``[12/12]``; each map step counts its own tasks.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    SIGKILLED,
    TOPIC,
    describe,
    latest_checkpoint,
    pending_envelope_ids,
    run_app,
    thread_id_of,
)

PROGRESS = re.compile(r"^\[\s*(\d+)/(\d+)\] ")


def _research(data: Path, corpus: Path, *extra: str):
    return run_app("research", TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus", corpus,
                   "--model", "offline", *extra)


def _progress(stdout: str) -> list[tuple[int, int, str]]:
    out = []
    for line in stdout.splitlines():
        match = PROGRESS.match(line)
        if match:
            out.append((int(match.group(1)), int(match.group(2)), line))
    return out


def test_a_second_round_counts_its_own_tasks(tmp_path, durability_corpus):
    run = _research(tmp_path / "data", durability_corpus, "--fail-worker", "critic:1",
                    "--rounds", "2")
    assert run.returncode == 0, describe(run)
    lines = _progress(run.stdout)
    round2 = [(done, total) for done, total, line in lines if line.endswith("round 2")]
    failed = EXPECTED_TASKS // 3  # critic's tasks: one per sub-question (3 stock workers)
    assert sorted(round2) == [(k, failed) for k in range(1, failed + 1)], run.stdout
    assert f"round 2: sending {failed} task(s) again" in run.stdout


def test_resuming_a_killed_rerun_counts_what_the_checkpoint_restored(tmp_path,
                                                                     durability_corpus):
    data = tmp_path / "data"
    first = _research(data, durability_corpus, "--quiet")
    assert first.returncode == 0, describe(first)
    common = ("--max-concurrency", "2", "--durability", "sync")
    for _ in range(3):  # a kill that beat every pending-write save shows nothing: again
        killed = _research(data, durability_corpus, *common, "--crash-at", "map:5")
        assert killed.returncode in SIGKILLED, describe(killed)
        saved = set(pending_envelope_ids(latest_checkpoint(data, thread_id_of())))
        if saved:
            break
        resumed = _research(data, durability_corpus, *common)  # finish it, then kill again
        assert resumed.returncode == 0, describe(resumed)
    assert 0 < len(saved) < EXPECTED_TASKS

    resume = _research(data, durability_corpus, *common)
    assert resume.returncode == 0, describe(resume)
    assert (f"({len(saved)} finished result(s) restored from its checkpoint)"
            in resume.stdout), resume.stdout
    lines = _progress(resume.stdout)
    assert len(lines) == EXPECTED_TASKS - len(saved), resume.stdout
    assert [done for done, _, _ in lines] == list(range(len(saved) + 1, EXPECTED_TASKS + 1))
    assert {total for _, total, _ in lines} == {EXPECTED_TASKS}
