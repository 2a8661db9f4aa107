"""``python -m app`` pauses the garbage collector while it imports and resumes it, everything
the imports made frozen, before a command works (issue 21, item 12: about 0.1 s of a warm
run's 0.9 s went to scanning the libraries' objects as they were imported)."""
from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

import app.runs.run as run_mod
from app.cli import main
from app.runs import collector
from tests.conftest import AS_OF, SMALL_TOPIC


@pytest.fixture
def paused() -> Iterator[None]:
    """The collector as ``python -m app`` leaves it before ``main()``; restored after."""
    collector.pause()
    try:
        yield
    finally:
        collector._paused = False
        gc.enable()
        gc.unfreeze()


def test_imports_done_resumes_only_what_pause_stopped(paused) -> None:
    assert not gc.isenabled()
    collector.imports_done()
    assert gc.isenabled() and gc.get_freeze_count() > 0
    gc.disable()  # someone else's choice: imports_done never overrides it
    collector.imports_done()
    assert not gc.isenabled()


def test_a_run_works_with_the_collector_on(paused, tmp_path, monkeypatch,
                                           small_corpus) -> None:
    seen: list[bool] = []
    real = run_mod.run_research

    def recording(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(run_mod, "run_research", recording)
    code = main(["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(tmp_path / "data"), "--quiet"])
    assert code == 0 and seen == [True]


def test_other_commands_work_with_the_collector_on(paused, tmp_path) -> None:
    assert main(["threads", "--data-dir", str(tmp_path / "data")]) == 0
    assert gc.isenabled()
