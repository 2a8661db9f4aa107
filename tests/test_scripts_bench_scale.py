"""scripts/bench_scale.py runs at a tiny size on both backends and prints its table.

No timing is asserted (timings depend on the machine); the script itself checks that every run
(the app's and the bare graph's) ends with one row per task and exits non-zero otherwise. What is
asserted: each row's figures are the ones its columns say (own cost = app minus bare, the memory
ratio = app over bare), and the bare graph ran with the app's envelope size.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_NUM = r"(-?\d+\.\d+)"
ROW = (r"^{backend} +{tasks} +" + r" +".join([_NUM] * 4) + r" +(\d+) +" +
       r" +".join([_NUM] * 3) + r" +(\d+\.\d\d)x$")


def test_bench_scale_runs_at_a_tiny_size(postgres_server) -> None:
    from tests.conftest import clean_env

    url = postgres_server.url()
    proc = subprocess.run(
        [sys.executable, "scripts/bench_scale.py", "--sizes", "3,6", "--database-url", url],
        cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for backend in ("sqlite", "postgres"):
        for tasks in (3, 6):
            row = re.search(ROW.format(backend=backend, tasks=tasks), out, re.M)
            assert row, out
            (seconds, ms_per_task, peak_mb, kb_per_task, envelope_bytes, bare_ms, own_ms,
             bare_mb, memory_ratio) = map(float, row.groups())
            assert seconds > 0 and peak_mb > 10 and kb_per_task > 0, row.group(0)
            # seconds are printed to 0.01 s: their rounding, spread over the tasks
            assert abs(ms_per_task - 1000 * seconds / tasks) <= 5 / tasks + 0.05, row.group(0)
            # the bare graph's row: it ran (its own process, its own peak), its payloads the
            # size of the app's envelopes (an offline envelope is a kilobyte or more)
            assert bare_ms > 0 and bare_mb > 10 and envelope_bytes > 500, row.group(0)
            assert abs(own_ms - (ms_per_task - bare_ms)) <= 0.15, row.group(0)
            assert abs(memory_ratio - peak_mb / bare_mb) <= 0.01, row.group(0)
        ratios = (rf"^  {backend} +3 -> 6 +time +\d+\.\d\dx +own cost +(-?\d+\.\d\dx|n/a) +"
                  r"checkpoint bytes +\d+\.\d\dx +peak memory +\d+\.\d\dx$")
        assert re.search(ratios, out, re.M), out
