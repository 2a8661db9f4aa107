"""Shared by the storage-fault tests of the real CLI (``test_damaged_databases.py``,
``test_read_only_data_dir.py``; their ``finished`` fixture is in ``conftest.py``).

* :func:`research` -> ``research SMALL_TOPIC`` offline on ``corpus`` in the data dir ``data``;
* :func:`one_error_line` -> the one ``error:`` line a failed command printed on stderr
  (asserting there is exactly one, and no traceback).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import AS_OF, SMALL_TOPIC, run_cli


def research(data: Path, corpus: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus",
                   corpus, "--model", "offline", *extra)


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    return lines[0]
