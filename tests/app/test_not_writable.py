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



def test_a_corpus_index_the_data_dir_stopped_taking_is_no_bad_input(tmp_path: Path) -> None:
    # trial 91, F4: the data dir made immutable while the corpus index was built ended in exit
    # 2 (bad input, nothing written) and a raw "[Errno 1] Operation not permitted" line
    from workers.sources import CorpusError

    commands.DATA_DIR[:] = [tmp_path]
    try:
        temp = tmp_path / ".corpus-dir-1.sqlite.tmp"
        try:
            raise PermissionError(errno.EPERM, "Operation not permitted", str(temp))
        except PermissionError:
            try:
                raise CorpusError(f"cannot build corpus index {temp}: [Errno 1] ...") from None
            except CorpusError as failed:
                error = failed
        assert _ended(error) == (EXIT_FAILED, (
            f"error: the data dir stopped taking writes (Operation not permitted: {temp}); "
            "nothing was lost: make it writable again, then run the same command again to "
            "continue"))
        assert _ended(CorpusError("no such folder: /nowhere"))[0] == 2  # bad input stays so
    finally:
        commands.DATA_DIR[:] = []

def test_a_name_too_long_for_the_file_system_is_bad_input(tmp_path: Path, capsys) -> None:
    # Trial 46, F3: a folder name past 255 bytes in --data-dir (or --corpus, --out, --run-log)
    # ended as "run failed: OSError: [Errno 36] File name too long", exit 1, not 2
    from app.cli import main
    from app.cli.exit_codes import EXIT_BAD_INPUT

    long = tmp_path / ("x" * 300)
    for argv in (["research", "checkpointer pending writes", "--data-dir", str(long)],
                 ["threads", "--data-dir", str(long)]):
        assert main(argv) == EXIT_BAD_INPUT, argv
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: a file or folder name is longer than the file system "
                              "takes") and "\n" not in err, err


def test_a_data_dir_that_cannot_be_made_is_not_said_to_be_readable(tmp_path: Path,
                                                                    monkeypatch) -> None:
    # Trial 46, F4: as a user without write access to its parent, a data dir that does not
    # exist was "not writable ...; threads, inspect and prune --dry-run still read it"
    import pytest

    from app.cli import checks
    from app.cli.exit_codes import BadInput
    from app.settings.config import Settings

    monkeypatch.setattr(checks, "writable", lambda folder: False)
    wanted = tmp_path / "new" / "data"
    with pytest.raises(BadInput) as refused:
        checks.check_writable_data_dir(Settings(data_dir=str(wanted)))
    assert str(refused.value) == (f"data dir {wanted} cannot be made: {tmp_path} is not "
                                  "writable (read-only or no permission)")
    wanted.mkdir(parents=True)
    with pytest.raises(BadInput, match="still read it"):
        checks.check_writable_data_dir(Settings(data_dir=str(wanted)))
