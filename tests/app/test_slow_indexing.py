"""A small folder whose index takes a while (one large PDF) names the thread and says it is
indexing after ``SLOW_INDEXING_S`` (trial 18, finding 12: gnuplot's 311-page manual printed
nothing for 29 s); a quick one prints nothing, as before."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from app.cli import progress as progress_module
from app.cli.progress import Progress
from workers.sources import Corpus


def test_the_build_reports_its_start_before_the_first_file_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("Walrus census.\n")
    (folder / "b.md").write_text("Heron census.\n")
    heard: list[tuple[int, int, str]] = []
    with Corpus.open(tmp_path / "data", folder=folder,
                     progress=lambda *event: heard.append(event)):
        pass
    assert heard == [(0, 2, "a.md"), (1, 2, "b.md"), (2, 2, "")]


def _build(monkeypatch: pytest.MonkeyPatch, slow_after: float, takes: float
           ) -> tuple[Progress, io.StringIO]:
    """A two-file build that takes ``takes`` s, shown by a Progress that speaks after
    ``slow_after`` s."""
    monkeypatch.setattr(progress_module, "SLOW_INDEXING_S", slow_after)
    out = io.StringIO()
    shown = Progress(out)
    shown("indexing", {"thread_id": "t-1", "done": 0, "total": 2})
    time.sleep(takes)
    shown("indexing", {"thread_id": "t-1", "done": 2, "total": 2})
    return shown, out


def test_a_slow_build_of_a_small_folder_names_the_thread_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _shown, out = _build(monkeypatch, 0.05, 0.5)  # the first file is a large PDF
    assert out.getvalue().splitlines() == [
        "thread t-1", "indexing 2 file(s) of the corpus folder",
        "read 2 file(s); writing the index"]


def test_a_quick_build_of_a_small_folder_prints_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    shown, out = _build(monkeypatch, 30.0, 0.0)
    assert out.getvalue() == "" and shown.slow is not None and not shown.slow.is_alive()


@pytest.mark.parametrize("quick", [0, 300])
def test_a_file_read_for_long_is_named_and_quick_ones_are_not(
        monkeypatch: pytest.MonkeyPatch, quick: int) -> None:
    # the Debian Reference's PDF was read for 27 s under "indexing 18 file(s)" and nothing
    # else (trial 124, FA2); a folder of many small files gets no line per file
    monkeypatch.setattr(progress_module, "SLOW_INDEXING_S", 0.05)
    monkeypatch.setattr(progress_module, "SLOW_FILE_S", 0.4, raising=False)
    out = io.StringIO()
    shown = Progress(out)
    total = quick + 2
    for done in range(quick):
        shown("indexing", {"thread_id": "t-1", "done": done, "total": total,
                           "reading": f"p{done}.html"})
    shown("indexing", {"thread_id": "t-1", "done": quick, "total": total,
                       "reading": "manual.pdf"})
    time.sleep(1.2)
    for done, reading in ((quick + 1, "notes.md"), (total, "")):
        shown("indexing", {"thread_id": "t-1", "done": done, "total": total,
                           "reading": reading})
    assert out.getvalue().splitlines() == [
        "thread t-1", f"indexing {total} file(s) of the corpus folder",
        "still reading manual.pdf", f"read {total} file(s); writing the index"]
    assert shown.watcher is not None and not shown.watcher.is_alive()
