"""The corpus index's whole-file check runs once per version of the file: an unchanged index is
not read page by page on every open (the warm run's fixed cost, issue 21 item 12), and garbage
written inside it later is still found."""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

import workers.sources.index as index_mod
from tests.workers.sources.test_index_build import _garble
from workers.sources import Corpus
from workers.sources.checked import checked_once


def _quick_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each ``PRAGMA quick_check`` the index module runs."""
    seen: list[str] = []
    real = sqlite3.connect

    def connect(*args, **kwargs):
        con = real(*args, **kwargs)
        con.set_trace_callback(lambda sql: "quick_check" in sql and seen.append(sql))
        return con

    monkeypatch.setattr(index_mod.sqlite3, "connect", connect)
    return seen


def test_an_unchanged_index_is_checked_once(folder: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    checks = _quick_checks(monkeypatch)
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
