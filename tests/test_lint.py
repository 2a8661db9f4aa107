"""The code stays clean under the project's ruff settings (pyproject.toml), so a fork starts from
a lint-clean template. Runs ruff, a dev dependency, on the whole repository."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_passes():
    ruff = shutil.which("ruff")
    assert ruff, "ruff is a dev dependency: uv sync installs it"
    proc = subprocess.run([ruff, "check", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
