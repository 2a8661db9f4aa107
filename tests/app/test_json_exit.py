"""Every ``--json`` object a command prints, on every way it ends, is one line and has the same
keys (``app.cli.outcome.KEYS``: ``status``, ``exit_code``, ``error``, ``thread_id``), and names the
thread the user gave (trial 7: ``resume T --json`` ending in bad input printed
``"thread_id": null``; ``prune --thread-id T --json`` of a busy thread printed no ``status`` nor
``exit_code``). The CLI runs in-process (``app.cli.main``), the environment cleaned."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC

KEYS = ("status", "exit_code", "error", "thread_id")  # app.cli.outcome.KEYS, as README says


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The one JSON object the command printed, on one line: success and error alike (trial
    11: a summary was indented over many lines, an error on one; scripts read a line each)."""
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.endswith("\n"), out
    data = json.loads(out)
    assert isinstance(data, dict), out
    assert all(key in data for key in KEYS), f"missing {set(KEYS) - set(data)} in {data}"
    return data


def _main(argv: list[str]) -> int:
    """``app.cli.main``'s exit code; a bad flag is raised as ``SystemExit`` (argparse's way)."""
    from app.cli import main

    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


BAD = [
    (["resume", "no-such-thread"], 2),
    (["review", "no-such-thread"], 2),
    (["review", "no-such-thread", "--approve"], 2),
    (["inspect", "no-such-thread"], 2),
    (["prune", "--thread-id", "no-such-thread"], 2),
    (["resume", "no-such-thread", "--rounds", "x"], 2),  # a bad flag: the parse itself failed
    (["review", "no-such-thread", "--checkpoint", ""], 2),
    (["research", "a topic", "--thread-id", "no-such-thread", "--rounds", "0"], 2),
]


@pytest.mark.parametrize(("argv", "code"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_json_exit_names_the_thread_the_user_gave(
        argv: list[str], code: int, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    assert _main([*argv, "--json", "--data-dir", str(tmp_path / "data")]) == code
    out = _json(capsys)
    assert (out["status"], out["exit_code"], out["thread_id"]) == (
        "bad_input", code, "no-such-thread"), out
    assert out["error"]


def test_an_unknown_option_leaves_the_thread_unnamed_rather_than_guess(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    # argparse gives "v" to the thread argument: which word is the thread is not known
    assert _main(["resume", "--bogus", "v", "t1", "--json"]) == 2
    assert _json(capsys)["thread_id"] is None


def test_every_json_object_of_a_thread_has_the_same_keys(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    from app.cli import main
    from app.runs.ids import default_thread_id
    from app.storage import open_storage

    data = tmp_path / "data"
    where = ["--data-dir", str(data), "--json"]
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    run = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus), *where]
    assert main([*run, "--review"]) == 0
    paused = _json(capsys)
    assert (paused["status"], paused["exit_code"], paused["thread_id"]) == (
        "awaiting_review", 0, thread)
    assert main(["review", thread, *where]) == 0  # no decision: it shows the pause
    shown = _json(capsys)
    assert (shown["status"], shown["thread_id"], shown["error"]) == (
        "awaiting_review", thread, None)
    # the same pause has the same keys, whichever command prints it (trial 10: review's had no
    # topic and no as_of)
    assert shown == paused
    assert main(["review", thread, "--approve", *where]) == 0  # the plan: the results pause
    assert _json(capsys)["status"] == "awaiting_review"
    assert main(["review", thread, "--approve", *where]) == 0
    done = _json(capsys)
    assert (done["status"], done["exit_code"], done["error"], done["thread_id"]) == (
        "ok", 0, None, thread)
    assert main(["inspect", thread, *where]) == 0
    inspected = _json(capsys)
    assert (inspected["status"], inspected["thread_id"]) == ("ok", thread)
    assert inspected["rows"], "the command's own keys stay"
    assert main(["prune", "--thread-id", thread, *where]) == 0
    assert (_json(capsys)["status"], ) == ("ok", )
    with open_storage(data).thread_lock(thread):  # as a run of it in another process holds it
        assert main(["prune", "--thread-id", thread, *where]) == 75
    busy = _json(capsys)
    assert (busy["status"], busy["exit_code"], busy["thread_id"]) == ("try_later", 75, thread)
    assert "another process" in busy["error"]
    assert [t["action"] for t in busy["threads"]] == ["kept: busy"]
    assert main(["threads", *where]) == 0  # its list: one line too
    listed = capsys.readouterr().out
    assert listed.count("\n") == 1 and json.loads(listed)[0]["thread_id"] == thread
