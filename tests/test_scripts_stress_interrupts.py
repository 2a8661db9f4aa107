"""scripts/stress_interrupts.py runs: one interrupted run per signal stops with its exit code
(130, 143) and the script says so; a hang would make it exit 1 with the stacks."""

from __future__ import annotations

import subprocess
import sys

from tests.cli_env import ROOT, clean_env


def test_the_stress_script_interrupts_and_counts():
    proc = subprocess.run(
        [sys.executable, "scripts/stress_interrupts.py", "--runs", "1", "--parallel", "2"],
        cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "SIGINT: 1 runs: {'ok': 1}" in proc.stdout
    assert "SIGTERM: 1 runs: {'ok': 1}" in proc.stdout
