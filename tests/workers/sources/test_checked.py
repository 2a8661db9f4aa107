"""The corpus index's whole-file check runs once per version of the file: an unchanged index is
not read page by page on every open (the warm run's fixed cost, issue 21 item 12), and garbage
written inside it later is still found."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import workers.sources.index as index_mod
from tests.workers.sources.conftest import traced_sql
from tests.workers.sources.test_index_build import _garble
from workers.sources import Corpus
from workers.sources.checked import checked_once


def test_an_unchanged_index_is_checked_once(folder: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    checks = traced_sql(monkeypatch, index_mod, "quick_check")
    for _ in range(2):
        with Corpus.open(data, folder=folder) as c:
            assert not c.built and c.search("zebra")
    assert checks == []  # the build recorded the file it wrote whole
    path.with_name(path.name + ".checked").unlink()  # e.g. an index built by an older version
    for _ in range(3):
        with Corpus.open(data, folder=folder) as c:
            assert not c.built and c.search("zebra")
    assert len(checks) == 1


def test_garbage_written_after_a_check_is_found(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    assert index_mod.read_meta(path) is not None  # checked, and the pass recorded
    time.sleep(0.05)  # a later write: the file's mtime moves on past the record's
    _garble(path)
    assert index_mod.read_meta(path) is None
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.path == path and c.search("zebra")


def test_a_failed_check_is_not_recorded(tmp_path: Path) -> None:
    f = tmp_path / "index.sqlite"
    f.write_bytes(b"x")
    verdicts = iter([False, True])
    calls: list[int] = []

    def check() -> bool:
        calls.append(1)
        return next(verdicts)

    assert [checked_once(f, check), checked_once(f, check), checked_once(f, check)] == [
        False, True, True]
    assert len(calls) == 2


def test_a_stale_index_goes_with_its_record(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        old = c.path
    assert index_mod.read_meta(old) is not None
    assert old.with_name(old.name + ".checked").exists()
    time.sleep(0.05)
    (folder / "new.md").write_text("# New\n\nA page about giraffes.\n", encoding="utf-8")
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.path != old and c.search("giraffes")
    assert not old.exists() and not old.with_name(old.name + ".checked").exists()


def test_garbage_written_with_its_mtime_set_back_is_still_found(folder: Path,
                                                                 tmp_path: Path) -> None:
    # trial 50, F1: `touch -r` (or `cp -p`) over a damaged index restored size and mtime
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    st = path.stat()
    time.sleep(0.05)
    _garble(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert index_mod.read_meta(path) is None


@pytest.mark.parametrize("kind", ["fifo", "zero", "link"])
def test_a_record_that_is_no_regular_file_is_neither_read_nor_followed(
        kind: str, folder: Path, tmp_path: Path) -> None:
    # trial 50, F2-F4: a named pipe hung every run, /dev/zero filled the memory, and a link
    # had the record written over its target
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    record = path.with_name(path.name + ".checked")
    record.unlink()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(record)
    else:
        record.symlink_to("/dev/zero" if kind == "zero" else victim)
    assert index_mod.read_meta(path) is not None  # checked again, in a moment
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert record.is_file() and not record.is_symlink()  # a record of its own took its place
    with Corpus.open(data, folder=folder) as c:
        assert not c.built and c.search("zebra")


def test_a_damaged_index_removed_takes_its_record_with_it(folder: Path, tmp_path: Path) -> None:
    # trial 50, F5: the record stayed when a search found the index damaged and removed it
    from workers.sources.damage import DamagedFile

    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        time.sleep(0.05)
        _garble(c.path)
        with pytest.raises(DamagedFile):
            c.search("zebra")
        assert not c.path.exists()
        assert not c.path.with_name(c.path.name + ".checked").exists()
