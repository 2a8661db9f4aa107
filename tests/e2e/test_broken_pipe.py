"""A reader that goes away (``research ... | head -3``) must not cost the run: it finishes, its
rows are persisted and recorded as finished, and the exit code is the run's own, with no traceback.
"""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT, clean_env
from tests.expected import expected_tasks
from tests.results_db import db_rows, db_runs


def test_closing_stdout_early_does_not_fail_the_run(tmp_path, small_corpus):
    data_dir = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "research", "Zorblax relay", "--corpus", str(small_corpus),
         "--data-dir", str(data_dir), "--as-of", "2026-11-30"],
        cwd=ROOT, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    first = proc.stdout.readline()
    assert first.startswith(b"thread ")
    proc.stdout.close()  # like `| head -1`: every later write hits a broken pipe
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, stderr
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert len(db_rows(data_dir)) == expected_tasks("Zorblax relay")
    assert [r["status"] for r in db_runs(data_dir)] == ["finished"]
