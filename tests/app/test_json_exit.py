"""Every ``--json`` object a command prints, on every way it ends, has the same keys
(``app.cli.outcome.KEYS``: ``status``, ``exit_code``, ``error``, ``thread_id``), and names the
thread the user gave (trial 7: ``resume T --json`` ending in bad input printed
``"thread_id": null``; ``prune --thread-id T --json`` of a busy thread printed no ``status`` nor
``exit_code``). The CLI runs in-process (``app.cli.main``), the environment cleaned."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

KEYS = ("status", "exit_code", "error", "thread_id")  # app.cli.outcome.KEYS, as README says


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = capsys.readouterr().out
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
