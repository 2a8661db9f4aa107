"""scripts/bench_reducer.py runs: its --quick smoke variant exits 0 and prints every table row.

No timing is asserted (timings depend on the machine); the script itself checks that every
upsert keeps the expected number of unique envelopes and exits non-zero if one does not.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REDUCERS = ("operator.add", "naive upsert", "add_messages", "envelope_reducer")
RATIO = r"\d+\.\d\dx"


def test_bench_reducer_quick_runs_and_prints_its_tables():
    proc = subprocess.run(
        [sys.executable, "scripts/bench_reducer.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any("Folding N single-envelope writes" in line for line in lines)

    for case in ("insert", "mixed"):
        for n in ("300", "1,000"):
            for name in REDUCERS:
                row = rf"\b{case}\b.*\s{n}\s.*\b{re.escape(name)}\b.*\d\.\d{{4}}.*{RATIO}"
                assert any(re.search(row, line) for line in lines), f"no row: {case} {n} {name}"

    graph_rows = [line for line in lines if not re.search(r"\b(insert|mixed)\b", line)]
    for name in ("operator.add", "envelope_reducer"):
        row = rf"{re.escape(name)}\b.*\s300\s.*\d\.\d{{3}}.*{RATIO}"
        assert any(re.search(row, line) for line in graph_rows), f"no graph row for {name}"
    assert any("graph ratio envelope_reducer / operator.add" in line for line in lines)
