"""A run that waits for the index another process is building says so (trial 15, finding 8: a
second run on one data dir printed nothing for 12 s, not even its thread id): the opener's
``progress`` hears ``(0, 0)`` before it waits, and the CLI prints the thread and a line."""

from __future__ import annotations

import fcntl
import io
import threading
from pathlib import Path

from app.cli.progress import Progress
from tests.workers.sources.conftest import make_folder
from workers.sources import Corpus


def test_an_opener_that_waits_for_another_build_is_told_first(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    heard: list[tuple[int, int, str]] = []
    waiting = threading.Event()

    def progress(done: int, total: int, reading: str) -> None:
        heard.append((done, total, reading))
        if (done, total) == (0, 0):
            waiting.set()

    opened: list[Corpus] = []
    with Corpus.open(tmp_path / "probe", folder=folder):  # the lock file's name, as built
        pass
    [lock] = (tmp_path / "probe").glob(".corpus-*.lock")
    with open(data / lock.name, "a+b") as held:  # another process's build holds it
        fcntl.flock(held, fcntl.LOCK_EX)
        opener = threading.Thread(target=lambda: opened.append(
            Corpus.open(data, folder=folder, progress=progress)))
        opener.start()
        assert waiting.wait(30), "the opener was not told it waits"
        fcntl.flock(held, fcntl.LOCK_UN)
    opener.join(30)
    assert heard[0] == (0, 0, "") and opened and opened[0].built
    opened[0].close()
    out = io.StringIO()
    Progress(out)("indexing", {"thread_id": "t-1", "done": 0, "total": 0})
    assert out.getvalue().splitlines() == [
        "thread t-1", "waiting for the corpus index another process is building in this data dir"]
