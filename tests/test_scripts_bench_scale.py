"""scripts/bench_scale.py runs at a tiny size on both backends and prints its table.

No timing is asserted (timings depend on the machine); the script itself checks that every run
ends with one row per task and exits non-zero otherwise.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_scale_runs_at_a_tiny_size(postgres_server) -> None:
    from tests.conftest import clean_env

    url = postgres_server.url()
    proc = subprocess.run(
        [sys.executable, "scripts/bench_scale.py", "--sizes", "3,6", "--database-url", url],
        cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for backend in ("sqlite", "postgres"):
        for tasks in (3, 6):
            row = re.search(rf"^{backend} +{tasks} +(\d+\.\d\d) +(\d+\.\d) +(\d+\.\d) +"
                            r"(\d+\.\d)$", out, re.M)
            assert row, out
            seconds, ms_per_task, peak_mb, kb_per_task = map(float, row.groups())
            assert seconds > 0 and peak_mb > 10 and kb_per_task > 0, row.group(0)
            # seconds are printed to 0.01 s: their rounding, spread over the tasks
            assert abs(ms_per_task - 1000 * seconds / tasks) <= 5 / tasks + 0.05, row.group(0)
        assert re.search(rf"^  {backend} +3 -> 6 +time +\d+\.\d\dx +checkpoint bytes +"
                         r"\d+\.\d\dx +peak memory +\d+\.\d\dx$", out, re.M), out
