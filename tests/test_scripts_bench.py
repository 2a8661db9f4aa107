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
    header = next(line for line in lines if "reducer" in line and "x add" in line)
    assert "entries out" in header and "unique ids" in header and "unique out" not in header
    # mixed: operator.add keeps every write (1,000 entries) for 500 distinct ids; upserts 500/500
    cols = r"\D+(?P<entries>[\d,]+)\D+(?P<ids>[\d,]+)\D+\d\.\d{4}"
    for name, entries in (("operator.add", "1,000"), ("envelope_reducer", "500")):
        match = next(m for line in lines
                     if (m := re.search(rf"\bmixed\b.*\s1,000\s.*{re.escape(name)}{cols}", line)))
        assert (match["entries"], match["ids"]) == (entries, "500"), match.group(0)
    # small sizes: say where the targets are judged
    assert "judged at N=10,000" in " ".join(proc.stdout.split())

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
