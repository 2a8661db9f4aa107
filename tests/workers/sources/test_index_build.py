"""The index build: cached, rebuilt on change, atomic under crashes, shared by threads and
processes, and its killed builds' temp files cleaned up."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import workers.sources.folder as folder_mod
import workers.sources.index as index_mod
from tests.workers.sources.conftest import (
    REPO,
    cache_files,
    make_folder,
)
from workers.sources import (
    Corpus,
)


def test_crash_mid_build_leaves_no_index(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    real = folder_mod.folder_docs

    def crashing(files, *rest):
        yield from list(real(files, *rest))[:2]
        raise KeyboardInterrupt("simulated crash mid-build")

    monkeypatch.setattr(folder_mod, "folder_docs", crashing)
    with pytest.raises(KeyboardInterrupt):
        Corpus.open(data, folder=folder)
    assert [p.name for p in data.iterdir() if p.suffix in (".sqlite", ".tmp")] == []

    monkeypatch.setattr(folder_mod, "folder_docs", real)
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")


def test_a_broken_cache_file_is_rebuilt(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    path.write_bytes(b"")  # e.g. a power cut after rename, before the data reached the disk
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")
    path.write_bytes(b"this is not a sqlite database" * 100)
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")


def _garble(path: Path) -> None:
    """Write garbage over the pages of ``path``'s full-text index, its size and its meta table
    unchanged (a bad disk, a half-copied data dir): neither its size nor its meta tells it."""
    import sqlite3

    con = sqlite3.connect(path)
    try:
        (size,) = con.execute("PRAGMA page_size").fetchone()
        roots = [r for (r,) in con.execute(
            "SELECT rootpage FROM sqlite_master WHERE name LIKE 'passages_fts_%' AND rootpage")]
    finally:
        con.close()
    assert roots
    with open(path, "r+b") as handle:
        for root in roots:
            handle.seek((root - 1) * size)
            handle.write(bytes((i * 7919 + 13) % 251 for i in range(size)))


def test_a_damaged_cache_file_is_rebuilt(folder: Path, tmp_path: Path) -> None:
    # trial 8: garbage written inside the index (its meta page intact) was reused, and every
    # search of every rerun failed with "database disk image is malformed"
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        path = c.path
    _garble(path)
    assert index_mod.read_meta(path) is None
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.path == path and c.search("zebra")


def test_an_index_damaged_under_an_open_corpus_stops_with_the_file_named(
        folder: Path, tmp_path: Path) -> None:
    # damage that arrives after the open check: one error naming the file, which is removed
    # so the same command again rebuilds it; never a bare sqlite3.DatabaseError per search
    from workers.errors import is_fatal
    from workers.sources.damage import DamagedFile

    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        _garble(c.path)
        with pytest.raises(DamagedFile) as info:
            c.search("zebra")
        assert is_fatal(info.value)  # the run stops: no task fails with it, no row is written
        message = str(info.value)
        assert f"the corpus index {c.path} is damaged (" in message  # SQLite's words follow
        assert "the same command again rebuilds it" in message
        assert not c.path.exists()
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")


def test_threads_opening_the_same_data_dir_at_once(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    barrier = threading.Barrier(6)

    def open_and_search(_: int) -> tuple[bool, str]:
        barrier.wait()
        with Corpus.open(data, folder=folder) as c:
            return c.built, c.search("zebra")[0].ref

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(open_and_search, range(6)))
    assert {ref for _, ref in outcomes} == {"guide.md#0"}
    assert sum(built for built, _ in outcomes) == 1  # the build lock made the others wait
    assert len(cache_files(data)) == 1


def test_processes_opening_the_same_data_dir_at_once(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    script = (
        "import sys; from pathlib import Path; from workers.sources import Corpus\n"
        "c = Corpus.open(Path(sys.argv[1]), folder=Path(sys.argv[2]))\n"
        "print(c.built, c.search('pelican sardines')[0].ref)\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(data), str(folder)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    lines = [out.strip() for out, _ in outs]
    assert all(line.endswith("docs/reference.rst#0") for line in lines), lines
    assert sum(line.startswith("True") for line in lines) == 1
    assert len(cache_files(data)) == 1


def test_an_open_corpus_survives_its_file_being_removed(folder: Path, tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=folder) as c:
        c.path.unlink()  # e.g. a newer build of a changed folder cleaned it up
        with ThreadPoolExecutor(max_workers=8) as pool:
            refs = list(pool.map(lambda _: c.search("pelican sardines")[0].ref, range(64)))
        assert set(refs) == {"docs/reference.rst#0"}



def _tmp_files(data: Path) -> list[Path]:
    return sorted(p for p in data.iterdir() if p.name.endswith(".tmp"))


_HANGING_BUILDER = """
import sys
from pathlib import Path
import workers.sources.folder as m
from workers.sources import Corpus
real = m.folder_docs
def hanging(files, *rest):
    print("building", flush=True)
    sys.stdin.readline()  # wait for the test (or be killed)
    yield from real(files, *rest)
m.folder_docs = hanging
c = Corpus.open(Path(sys.argv[1]), folder=Path(sys.argv[2]))
print(c.built, c.search("zebra")[0].ref, flush=True)
"""


def _start_hanging_builder(data: Path, folder: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HANGING_BUILDER, str(data), str(folder)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "building", proc.stderr.read() if proc.stderr else ""
    return proc


def test_a_killed_build_leaves_no_temp_file_behind(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    orphans: list[Path] = []
    for _ in range(3):
        proc = _start_hanging_builder(data, folder)
        proc.kill()  # SIGKILL: no finally clause runs
        proc.communicate(timeout=30)
        # The next build removes the previous orphan: they never pile up.
        [orphan] = _tmp_files(data)
        assert orphan not in orphans
        orphans.append(orphan)
    with Corpus.open(data, folder=folder) as c:
        assert c.built and c.search("zebra")[0].ref == "guide.md#0"
    assert _tmp_files(data) == []
    assert len(cache_files(data)) == 1


def test_cleanup_never_touches_a_live_builders_temp_file(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    other = make_folder(tmp_path / "other-folder")
    live = _start_hanging_builder(data, folder)
    try:
        [live_tmp] = _tmp_files(data)
        with Corpus.open(data, folder=other) as c:  # another source builds meanwhile
            assert c.built
        assert _tmp_files(data) == [live_tmp]
    finally:
        out, err = live.communicate("go\n", timeout=60)
    assert live.returncode == 0, err
    assert out.strip() == "True guide.md#0"
    assert _tmp_files(data) == []


def test_orphan_temp_files_are_removed_by_the_rules(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        kind = c.meta["kind"]
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        old = time.time() - 2 * index_mod.STALE_TMP_SECONDS

        def fake(kind_: str, pid: int, hexpart: str, *, aged: bool = False) -> Path:
            path = data / f".corpus-{kind_}-{'0' * 20}.sqlite.{pid}.{hexpart}.tmp"
            path.write_bytes(b"partial")
            if aged:
                os.utime(path, (old, old))
            return path

        removed = [
            fake(kind, dead.pid, "00000001"),  # same source, dead builder
            fake(kind, sleeper.pid, "00000002", aged=True),  # same source, pid reused long after
            fake("dir-abcdef12", dead.pid, "00000003", aged=True),  # other source, dead and old
        ]
        kept = [
            fake(kind, sleeper.pid, "00000004"),  # same source, live and recent
            fake("dir-abcdef12", dead.pid, "00000005"),  # other source, recent: maybe another host
            fake("dir-abcdef12", sleeper.pid, "00000006", aged=True),  # other source, alive
        ]
        unrelated = data / "notes.tmp"
        unrelated.write_text("not ours")
        (folder / "guide.md").write_text("Changed: iguana husbandry.\n")  # force a rebuild
        with Corpus.open(data, folder=folder) as c:
            assert c.built
        assert not any(p.exists() for p in removed)
        assert all(p.exists() for p in kept) and unrelated.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


