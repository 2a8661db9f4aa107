"""``research TOPIC`` that continues its unfinished (or paused) thread honours ``--out`` as
``resume``/``review`` by id do (trial 11): the report goes where the run said, an ``--out``
given wins (with a note) and is the thread's from then on, also for the ``review --approve``
typed after a pause it showed. A rerun of a finished thread writes where it is told."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.runs.ids import default_thread_id
from tests.conftest import AS_OF, SEVERAL_TOPIC, SMALL_TOPIC


def test_research_by_topic_continues_a_paused_thread_with_the_out_it_was_given(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    from app.cli import main

    data, first, given = tmp_path / "data", tmp_path / "first.md", tmp_path / "given.md"
    args = ["--as-of", AS_OF, "--data-dir", str(data), "--corpus", str(small_corpus)]
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    assert main(["research", SMALL_TOPIC, "--review", "--out", str(first), *args]) == 0
    capsys.readouterr()
    assert main(["research", SMALL_TOPIC, "--out", str(given), *args]) == 0  # shows the pause
    assert f"not to {first} where this thread's run wrote it" in capsys.readouterr().err
    place = ["--data-dir", str(data)]
    assert main(["review", thread, "--approve", *place]) == 0  # typed by hand: no --out
    assert f"--out {given} --approve" in capsys.readouterr().out  # the results review's lines
    assert main(["review", thread, "--approve", *place]) == 0
    assert f"report written: {given}" in capsys.readouterr().out
    assert given.is_file() and not first.exists() and not (data / "reports").exists()


def test_research_by_topic_resumes_an_unfinished_thread_into_the_runs_out(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    import app.graph.nodes.report
    from app.cli import main

    data, out = tmp_path / "data", tmp_path / "mine"
    args = ["--as-of", AS_OF, "--data-dir", str(data), "--corpus", str(small_corpus), "--quiet"]
    with monkeypatch.context() as patch:  # left unfinished just before its report
        patch.setattr(app.graph.nodes.report, "render_markdown",
                      lambda *_a, **_k: (_ for _ in ()).throw(KeyError("x")))
        assert main(["research", SEVERAL_TOPIC, "--out", f"{out}/", *args]) == 1
    capsys.readouterr()
    thread = default_thread_id(SEVERAL_TOPIC, AS_OF)
    other = ["research", SMALL_TOPIC, "--thread-id", thread, "--out", str(tmp_path / "x.md")]
    assert main([*other, *args]) == 2  # not its topic: refused in one line, no note first
    assert len(capsys.readouterr().err.splitlines()) == 1
    assert main(["research", SEVERAL_TOPIC, *args]) == 0  # the same topic, no --out
    assert f"report: {out / thread}.md" in capsys.readouterr().out
    assert not (data / "reports").exists()
    assert main(["research", SEVERAL_TOPIC, *args]) == 0  # finished: a rerun goes where told
    assert f"report: {data / 'reports' / thread}.md" in capsys.readouterr().out
