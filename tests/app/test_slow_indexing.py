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
    heard: list[tuple[int, int]] = []
    with Corpus.open(tmp_path / "data", folder=folder,
                     progress=lambda done, total: heard.append((done, total))):
        pass
    assert heard == [(0, 2), (1, 2), (2, 2)]


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
