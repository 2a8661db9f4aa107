"""A source's text never reaches a terminal or the report file with its control characters
(trial 10, finding 35): a corpus file holding ANSI and OSC escape sequences (``\\x1b[31m``,
``\\x1b]0;TITLE\\x07``) had them printed raw by the results review, ``inspect --report`` and the
report file, so the text turned red and the terminal's title changed. Every output path of the
CLI is run on such a corpus here and read for a raw control character.

The CLI runs in-process (``app.cli.main``) with the environment cleaned as for a subprocess.
"""

from __future__ import annotations

import io
import json
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import AS_OF

HOSTILE = ("Heron census \x1b[31mRED\x1b[0m method: count nests \x1b]0;PWNED-TITLE\x07 at dawn "
           "\x9b2J with \u202ereversed\u202c words.\n")


def _raw_controls(text: str) -> list[str]:
    """The control characters (but newline and tab) and bidi controls ``text`` holds."""
    from app.research.text import BIDI_CONTROLS

    return sorted({repr(ch) for ch in text if ch not in "\n\t"
                   and (unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS)})


def _said(main, capsys: pytest.CaptureFixture[str], args: list[str], code: int = 0) -> str:
    assert main(args) == code, capsys.readouterr().err
    out = capsys.readouterr()
    return out.out + out.err


def test_a_sources_escape_sequences_reach_no_terminal_and_no_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    from app.cli import main

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "esc.md").write_text(HOSTILE, encoding="utf-8")
    data = ["--data-dir", str(tmp_path / "data"), "--corpus", str(corpus)]
    assert main(["research", "heron census method", "--as-of", AS_OF, "--review", "--json",
                 *data]) == 0
    thread = json.loads(capsys.readouterr().out)["thread_id"]
    said = {
        "review --approve (results pause)": _said(main, capsys, ["review", thread, "--approve",
                                                                 *data]),
        "review --approve (report)": _said(main, capsys, ["review", thread, "--approve", *data]),
        "inspect --report": _said(main, capsys, ["inspect", thread, "--report", *data[:2]]),
        "inspect": _said(main, capsys, ["inspect", thread, *data[:2]]),
        "threads": _said(main, capsys, ["threads", *data[:2]]),
        "research (plain run)": _said(main, capsys, ["research", "heron census method", "--as-of",
                                                     AS_OF, "--fresh", *data]),
    }
    reports = sorted((tmp_path / "data" / "reports").iterdir())
    assert len(reports) == 2  # the reviewed thread's and the --fresh run's
    report = (tmp_path / "data" / "reports" / f"{thread}.md").read_text(encoding="utf-8")
    said.update({p.name: p.read_text(encoding="utf-8") for p in reports})
    said["the report file"] = report
    assert "PWNED-TITLE" in report and "\\x1b]0;PWNED-TITLE\\x07" in report  # shown, escaped
    assert "PWNED-TITLE" in said["inspect --report"]
    assert {where: _raw_controls(text) for where, text in said.items()
            if _raw_controls(text)} == {}


def test_the_summary_and_the_error_line_escape_a_workers_error_text(
        capsys: pytest.CaptureFixture[str]) -> None:
    # a worker's error quotes what a web page or an MCP server answered
    from app.cli import _ended
    from app.cli.summary import print_summary

    summary = {"thread_id": "t", "model": "m", "envelopes": 1, "expected": 1, "db_rows": 1,
               "duplicates": 0, "persisted": 1, "tokens": 1, "report_path": None,
               "elapsed_seconds": 0.1, "notes": ["note \x1b]52;c;aGk=\x07"],
               "warnings": [{"message": "warn \x1b[2J"}],
               "errors": [{"worker": "web", "sub_question": "q", "error": "HTTP 500: \x1b[31m"}]}
    out = io.StringIO()
    print_summary(summary, out)
    assert _raw_controls(out.getvalue()) == [] and "\\x1b]52;c;aGk=\\x07" in out.getvalue()
    from app.cli import main

    code, line = _ended(RuntimeError("server said \x1b]0;T\x07"))
    assert code == 1 and "\x1b" in line  # the line as made; main prints it escaped
    import app.cli

    real = app.cli._COMMANDS["threads"]
    app.cli._COMMANDS["threads"] = lambda args: (_ for _ in ()).throw(RuntimeError(
        "server said \x1b]0;T\x07"))
    try:
        assert main(["threads", "--json"]) == 1
    finally:
        app.cli._COMMANDS["threads"] = real
    out = capsys.readouterr()
    assert _raw_controls(out.err) == [] and "server said \\x1b]0;T\\x07" in out.err
    assert "error: " + json.loads(out.out)["error"] == out.err.strip()


def test_every_progress_line_is_escaped() -> None:
    # a note (a web page's title, an MCP server's error) reaches the progress lines as it is
    from app.cli.progress import Progress

    out = io.StringIO()
    progress = Progress(out)
    progress("note", {"text": "page \x1b]0;T\x07 title"})
    progress.line("corpus: mcp \x9b2J")
    assert _raw_controls(out.getvalue()) == [] and "page \\x1b]0;T\\x07 title" in out.getvalue()


def test_the_summarys_report_path_is_one_escaped_line() -> None:
    # Trial 46, F2: a data dir holding ESC or a newline reached the terminal raw on the
    # summary's "report:" line (the "report written:" line above escaped the same path)
    from app.cli.summary import print_summary

    path = "/tmp/a\x1b[31mred\nsplit/reports/t.md"
    summary = {"thread_id": "t", "model": "m", "envelopes": 1, "expected": 1, "db_rows": 1,
               "duplicates": 0, "persisted": 1, "tokens": 1, "report_path": path,
               "elapsed_seconds": 0.1, "notes": [], "warnings": [], "errors": []}
    out = io.StringIO()
    print_summary(summary, out)
    assert _raw_controls(out.getvalue()) == []
    [line] = [x for x in out.getvalue().splitlines() if x.startswith("  report:")]
    assert line.endswith("split/reports/t.md"), out.getvalue()
