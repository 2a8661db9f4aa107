"""An argument or a setting's variable that is not valid UTF-8 is bad input (trial 10, finding
29): a Latin-1 terminal's ``café`` reaches Python as ``'caf\\udce9'`` (surrogateescape), and the
topic failed as "run failed: UnicodeEncodeError ... surrogates not allowed" (exit 1, status
failed); a thread id with the same byte was refused for "control characters" it has not.

The CLI runs in-process (``app.cli.main``, which takes argv as Python decoded it) with the
environment cleaned as for a subprocess.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

WAY_OUT = "use a UTF-8 locale (LANG=C.UTF-8) or type it in UTF-8"


@pytest.mark.parametrize(("args", "named", "where"), [
    (["research", "caf\udce9 checkpointer"], "the topic", "byte 0xe9 at position 3"),
    (["research", "census \udcff\udcfe heron", "--review"], "the topic",
     "byte 0xff at position 7"),
    (["research", "checkpointer", "--thread-id", "t\udce9"], "--thread-id",
     "byte 0xe9 at position 1"),
    (["research", "checkpointer", "--thread-id=t\udce9"], "--thread-id",
     "byte 0xe9 at position 1"),
    (["review", "t\udce9", "--question", "What is it?"], "the thread id",
     "byte 0xe9 at position 1"),
    (["review", "t", "--question", "caf\udce9?"], "--question", "byte 0xe9 at position 3"),
    (["research", "checkpointer", "--corpus", "/nowhere/caf\udce9"],
     "--corpus /nowhere/caf\\xe9", "byte 0xe9 at position 12"),
], ids=["topic", "topic-json", "thread-id", "thread-id-equals", "review-thread", "question",
        "corpus-flag"])
def test_an_argument_that_is_not_utf8_is_bad_input(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cli_env: None, args: list[str],
        named: str, where: str) -> None:
    from app.cli import main

    data = ["--data-dir", str(tmp_path / "data")]
    with pytest.raises(SystemExit) as refused:  # as any bad argument (app.cli.parser.BadFlag)
        main([*args, *data, "--json"])
    assert refused.value.code == 2
    out = capsys.readouterr()
    line = f"error: {named} is not valid UTF-8 ({where}): {WAY_OUT}"
    assert out.err.splitlines() == [line]
    body = json.loads(out.out)
    assert body["status"] == "bad_input" and body["exit_code"] == 2
    assert not (tmp_path / "data").exists()  # nothing written


@pytest.mark.parametrize("name", ["RESEARCH_MODEL", "RESEARCH_CORPUS", "RESEARCH_ROUNDS"])
def test_a_variable_that_is_not_utf8_is_bad_input(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cli_env: None,
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    from app.cli import main

    monkeypatch.setenv(name, "caf\udce9")
    assert main(["research", "checkpointer", "--data-dir", str(tmp_path / "data")]) == 2
    shown = f"{name} caf\\xe9" if name == "RESEARCH_CORPUS" else name  # a path is named
    assert capsys.readouterr().err.splitlines() == [
        f"error: {shown} is not valid UTF-8 (byte 0xe9 at position 3): {WAY_OUT} "
        "(set in the environment)"]


RENAME = ("the app records the paths it uses in UTF-8; give the folder (or file) that holds "
          "this byte a UTF-8 name, e.g. convmv -f latin1 -t utf8")


def test_a_folder_named_in_latin1_is_refused_naming_the_path_and_the_way_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cli_env: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Trial 11: a user's existing folder whose name is Latin-1 bytes (``caf\\xe9``) was refused
    as "--corpus is not valid UTF-8 ...: use a UTF-8 locale": no path named, and advice that
    cannot help a name on disk; a link to it, or a relative --data-dir inside it, ended the run
    as "run failed: UnicodeEncodeError" (exit 1) after the corpus was indexed."""
    from app.cli import main

    folder = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9")  # as Python hands argv over
    os.mkdir(folder)
    Path(folder, "zorblax.md").write_text("# Zorblax\n\nThe Zorblax relay forwards packets.\n")
    shown, at = f"{tmp_path}/caf\\xe9", len(str(tmp_path)) + 4
    data = ["--data-dir", str(tmp_path / "data")]
    with pytest.raises(SystemExit) as refused:  # as any bad argument
        main(["research", "zorblax relay", "--corpus", folder, *data])
    assert refused.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: --corpus {shown} is not valid UTF-8 (byte 0xe9 at position {at}): {RENAME}"]
    link = tmp_path / "cafe"
    link.symlink_to(folder)
    assert main(["research", "zorblax relay", "--corpus", str(link), *data]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: --corpus {link} resolves to {shown}, which is not valid UTF-8 (byte 0xe9 at "
        f"position {at}): {RENAME}"]
    monkeypatch.chdir(folder)
    assert main(["research", "zorblax relay", "--corpus", str(link), "--data-dir", "d"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: --data-dir d resolves to {shown}/d, which is not valid UTF-8 (byte 0xe9 at "
        f"position {at}): {RENAME}"]
    assert not (tmp_path / "data").exists() and os.listdir(folder) == ["zorblax.md"]


def test_the_topic_question_and_thread_id_checks_refuse_a_lone_surrogate() -> None:
    # what a served run's JSON input may carry ("caf\udce9" is valid JSON): the plan node and
    # the review ask the same checks as the CLI
    from app.research.topics import question_problem, topic_problem
    from app.runs.ids import check_thread_id

    assert topic_problem("caf\udce9 checkpointer") == (
        "the topic is not valid UTF-8 (byte 0xe9 at position 3)")
    assert question_problem("What is caf\udce9?") == (
        "the question is not valid UTF-8 (byte 0xe9 at position 11)")
    assert topic_problem("caf\ud800 relay") == "the topic is not valid UTF-8 (U+D800 at position 3)"
    with pytest.raises(ValueError, match=r"^a thread id is not valid UTF-8 \(byte 0xe9 at "):
        check_thread_id("t\udce9")
