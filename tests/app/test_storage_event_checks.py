"""The storage check a run makes at every progress event (``Storage.lost()``: the data dir, its
databases and the thread lock still the ones the run opened) on the thread that drives the
graph. At 1,200 tasks a run made ~2,400 such checks, each resolving three paths (an ``lstat``
per path component, each giving up the GIL to the busy workers): 11 of the run's 107 s went to
``posix.lstat`` (cProfile of scripts/bench_scale.py's run). The paths are resolved once; each
check stats the files only, and still sees them deleted."""

from __future__ import annotations

import shutil
from pathlib import Path

from app.storage import StorageVanished, ThreadLockLost, open_storage


def _counting_resolves(monkeypatch) -> list[Path]:
    resolved: list[Path] = []
    real = Path.resolve

    def resolve(self: Path, strict: bool = False) -> Path:
        resolved.append(self)
        return real(self, strict=strict)

    monkeypatch.setattr(Path, "resolve", resolve)
    return resolved


def test_a_progress_events_check_resolves_no_path_after_the_first(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    storage = open_storage(data)
    with storage.thread_lock("t1"), storage.checkpointer(), storage.results():  # as a run
        assert storage.lost() is None
        resolved = _counting_resolves(monkeypatch)
        for _ in range(3):  # three progress events
            assert storage.lost() is None
        assert resolved == []


def test_the_checks_paths_kept_resolved_still_see_the_files_deleted(tmp_path) -> None:
    data = tmp_path / "data"
    storage = open_storage(data)
    with storage.thread_lock("t1"), storage.checkpointer(), storage.results():
        assert storage.lost() is None  # the paths resolved and kept
        shutil.rmtree(data / "locks")
        lost = storage.lost()
        assert isinstance(lost, ThreadLockLost) and "'t1'" in str(lost), lost
    other = open_storage(tmp_path / "other")
    with other.thread_lock("t2"), other.checkpointer(), other.results():
        assert other.lost() is None
        (tmp_path / "other" / "checkpoints.sqlite").unlink()
        lost = other.lost()
        assert isinstance(lost, StorageVanished) and "deleted during the run" in str(lost), lost
