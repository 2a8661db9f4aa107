"""An accented topic keeps its letters in its thread id and report name (trial 11): "Café
relay" was ``caf-relay-...``. The slug spells each accented letter by its base letter (NFKD, the
combining marks dropped); an ASCII topic's id is what it always was, and a thread an earlier
version started under the old id is still the one the same command continues."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.runs.ids import default_thread_id, legacy_thread_id, sha8
from tests.conftest import AS_OF


def test_accented_letters_are_spelled_by_their_base_letters_in_ids_and_report_names(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    from app.cli import main

    data = tmp_path / "data"
    topic = "Zörblax relay à Zürich, Øresund"
    assert main(["research", topic, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(data), "--quiet"]) == 0
    thread_id = f"zorblax-relay-a-zurich-oresund-{AS_OF}-{sha8(topic)}"
    assert f"thread: {thread_id}" in capsys.readouterr().out
    assert (data / "reports" / f"{thread_id}.md").is_file()
    # ASCII topics keep the ids they always had (README's quickstart thread)
    assert default_thread_id("checkpointer pending writes", "2026-11-30") == (
        "checkpointer-pending-writes-2026-11-30-62f7a656")
    assert legacy_thread_id("checkpointer pending writes", "2026-11-30") is None


def test_a_thread_started_under_the_old_accent_dropping_id_is_continued(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    import app.graph.nodes.report
    from app.cli import main

    topic = "Zörblax relay"
    old = legacy_thread_id(topic, AS_OF)
    assert old == f"z-rblax-relay-{AS_OF}-{sha8(topic)}"  # what earlier versions named it
    args = ["research", topic, "--as-of", AS_OF, "--corpus", str(small_corpus),
            "--data-dir", str(tmp_path / "data"), "--quiet"]
    with monkeypatch.context() as patch:  # left unfinished just before its report
        patch.setattr(app.graph.nodes.report, "render_markdown",
                      lambda *_a, **_k: (_ for _ in ()).throw(KeyError("x")))
        assert main([*args, "--thread-id", old]) == 1
    capsys.readouterr()
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"thread: {old}" in out, out  # and no note naming another thread of the topic
    assert not [line for line in out.splitlines() if "note:" in line and "thread" in line], out
    assert (tmp_path / "data" / "reports" / f"{old}.md").is_file()
