"""A data dir that stops taking writes mid-run is told as that, with the file's place and that
nothing was lost, not as a bug (trial 22, finding 2: "run failed: OperationalError: attempt to
write a readonly database"). Made mid-run by an operator; as root (CI) file modes do not stop
writes, so the failures are the ones SQLite and the OS raise, handed to the CLI's exit path."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from app.cli import _ended, commands
from app.cli.exit_codes import EXIT_FAILED


def test_a_read_only_database_or_data_dir_file_is_said_so(tmp_path: Path) -> None:
    commands.DATA_DIR[:] = [tmp_path]
    try:
        wrapped = RuntimeError("a node failed")
        wrapped.__cause__ = sqlite3.OperationalError("attempt to write a readonly database")
        code, line = _ended(wrapped)
        assert code == EXIT_FAILED
        assert line == ("error: the data dir stopped taking writes (attempt to write a readonly "
                        f"database, in {tmp_path}); nothing was lost: make it writable again, "
                        "then run the same command again to continue")
        report = tmp_path / "reports" / "t.md"
        denied = PermissionError(errno.EACCES, "Permission denied", str(report))
        assert _ended(denied) == (EXIT_FAILED, (
            f"error: the data dir stopped taking writes (Permission denied: {report}); nothing "
            "was lost: make it writable again, then run the same command again to continue"))
        # a file elsewhere is no data dir's: said as it is
        other = PermissionError(errno.EACCES, "Permission denied", "/etc/shadow")
        assert _ended(other)[1].startswith("error: run failed: PermissionError")
    finally:
        commands.DATA_DIR[:] = []
