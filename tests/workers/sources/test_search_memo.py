"""A round's workers search the same sub-question at once: an open corpus answers it once
(issue 21, item 12: three identical searches were a third of a warm run's corpus work)."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

import workers.sources.corpus as corpus_mod
from tests.workers.sources.conftest import traced_sql
from workers.sources import Corpus


@pytest.fixture
def matches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each full-text search the corpus's connections run (its ranked query: not the look-ups
    of a word's split spellings a search makes first, workers.sources.compound_forms)."""
    return traced_sql(monkeypatch, corpus_mod, "bm25(passages_fts")


def test_the_same_search_at_once_runs_once(folder: Path, tmp_path: Path,
                                           matches: list[str]) -> None:
    with Corpus.open(tmp_path / "data", folder=folder) as c:
        start = threading.Barrier(3)
        answers: list[list] = []

        def search() -> None:
            start.wait()
            answers.append(c.search("zebra stripes", k=5, focus="zebra"))

        threads = [threading.Thread(target=search) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(matches) == 1
        assert answers[0] and answers[0] == answers[1] == answers[2]
        answers[0].clear()  # each caller has its own list
        assert c.search("zebra stripes", k=5, focus="zebra") == answers[1]
        assert len(matches) == 1
        c.search("zebra stripes", k=3, focus="zebra")  # another k (or focus) is another search
        c.search("zebra stripes", k=5)
        assert len(matches) == 3


def test_kept_answers_are_a_fresh_searchs_and_stay_few(folder: Path, tmp_path: Path,
                                                       matches: list[str]) -> None:
    data = tmp_path / "data"
    with Corpus.open(data, folder=folder) as c:
        first = c.search("zebra")
        for i in range(corpus_mod.SEARCHES_KEPT):
            c.search(f"zebra word{i}")
        searched = len(matches)
        assert c.search("zebra") == first  # pushed out: searched again, the same answer
        assert len(matches) == searched + 1
    with Corpus.open(data, folder=folder) as fresh:
        assert fresh.search("zebra") == first
