"""scripts/bench_index.py builds an index of generated HTML and prints its throughput next to a
plain read of the same files (issue 19, section 4).

No speed is asserted (it depends on the machine and its load); what is checked is that the build
really ran (passages were indexed) and that the printed figures agree with each other.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_index_prints_build_and_read_throughput_on_generated_html() -> None:
    proc = subprocess.run([sys.executable, "scripts/bench_index.py", "--generate", "0.3",
                           "--helpers", "1", "--repeat", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    head = re.search(r"^folder: generated HTML \((\d+) files, (\d+\.\d) MB, ([\d,]+) passages\)$",
                     out, re.M)
    assert head, out
    assert int(head[1]) >= 5 and float(head[2]) >= 0.3 and int(head[3].replace(",", "")) > 50
    rows = {m[1]: (float(m[2]), float(m[3]))
            for m in re.finditer(r"^(read|build) +(\d+\.\d{3}) +(\d+\.\d)$", out, re.M)}
    assert set(rows) == {"read", "build"}, out
    seconds, mbs = rows["build"]
    # MB/s agrees with the printed size over the printed time, within what their rounding to
    # 0.1 MB and 1 ms allows (a build of 0.3 MB in 0.031 s printed 10.4 MB/s: 0.32 MB)
    megabytes = float(head[2])
    assert seconds > 0, out
    assert ((megabytes - 0.05) / (seconds + 0.0005) - 0.05 <= mbs
            <= (megabytes + 0.05) / max(seconds - 0.0005, 1e-6) + 0.05), out
    assert re.search(r"^build / read time: \d+\.\dx$", out, re.M), out
    # the CPU time counts every thread and helper, and says how many helped and how loaded the
    # machine was
    cpu = re.search(r"^build CPU: (\d+\.\d{3}) s, all threads and helpers \((\d+\.\d) MB per "
                    r"CPU second; 1 helper process; load average \d+\.\d before, \d+\.\d after, "
                    r"on \d+ cores\)$",
                    out, re.M)
    assert cpu and float(cpu[1]) > 0, out


def test_bench_index_rejects_negative_helpers_in_one_line() -> None:
    proc = subprocess.run([sys.executable, "scripts/bench_index.py", "--helpers", "-1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "at least 0" in proc.stderr and "Traceback" not in proc.stderr


def test_bench_index_rejects_a_missing_folder_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "scripts/bench_index.py", "--folder",
                           str(tmp_path / "nope")], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "not a folder" in proc.stderr and "Traceback" not in proc.stderr
