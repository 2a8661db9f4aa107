"""``--fresh`` always starts a new thread, even for two runs of one topic in the same second.

The fresh id used to be the default id plus the time to the second: two ``--fresh`` runs in one
second got one thread, and the second was refused ("use --fresh") or, run after the first, quietly
reran the first's thread. Both processes here run with the clock pinned to one second (patched
``time.strftime``, which the id's time stamp comes from), so the test does not depend on timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import AS_OF, CLI_TIMEOUT, ROOT, SMALL_TOPIC, clean_env, run_cli

_PINNED_CLOCK = (
    "import runpy, sys, time\n"
    "time.strftime = lambda fmt, t=None: '20261130T120000'\n"
    "sys.argv = ['python -m app', *sys.argv[1:]]\n"
    "runpy.run_module('app', run_name='__main__')\n"
)


def test_two_fresh_runs_in_one_second_get_two_threads(tmp_path: Path, small_corpus: Path
                                                     ) -> None:
    data = tmp_path / "data"
    args = ["research", SMALL_TOPIC, "--fresh", "--as-of", AS_OF, "--corpus", str(small_corpus),
            "--data-dir", str(data), "--json", "--quiet"]
    procs = [subprocess.Popen([sys.executable, "-c", _PINNED_CLOCK, *args], cwd=ROOT,
                              env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, encoding="utf-8") for _ in range(2)]
    outs = [p.communicate(timeout=CLI_TIMEOUT) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err[-2000:]
    summaries = [json.loads(out) for out, _ in outs]
    ids = [s["thread_id"] for s in summaries]
    assert ids[0] != ids[1], ids
    for thread_id in ids:
        assert "-20261130T120000-" in thread_id  # still says when it started

    third = subprocess.run([sys.executable, "-c", _PINNED_CLOCK, *args], cwd=ROOT,
                           env=clean_env(), capture_output=True, text=True, encoding="utf-8",
                           timeout=CLI_TIMEOUT)  # after both, in the same pinned second
    assert third.returncode == 0, third.stderr[-2000:]
    summary = json.loads(third.stdout)
    assert summary["thread_id"] not in ids and summary["resumed_from_step"] is None
    reports = {s["report_path"] for s in (*summaries, summary)}
    assert len(reports) == 3 and all(Path(r).is_file() for r in reports)  # none overwritten

    listed = run_cli("threads", "--data-dir", data, "--json")
    assert listed.returncode == 0, listed.stderr
    threads = {t["thread_id"]: t for t in json.loads(listed.stdout)}
    assert set(threads) == {*ids, summary["thread_id"]}
    assert all(t["status"] == "finished" for t in threads.values())
