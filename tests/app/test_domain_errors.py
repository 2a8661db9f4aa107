"""Only domain errors are bad input (exit 2); a ``KeyError`` from a bug is a failure (exit 1).

The CLI used to turn any ``KeyError`` into "bad input", so a real bug inside a node (here: the
report node's renderer raising ``KeyError``) exited 2 as if the user had typed something wrong.
Domain conditions are now named exceptions (``app/errors.py``). The CLI runs in-process here
(``app.cli.main``) with the environment cleaned as for a subprocess."""

from __future__ import annotations

import shlex
import sqlite3
from pathlib import Path

import pytest

from app.errors import (
    DomainError,
    NothingToResume,
    NothingToReview,
    ThreadMismatch,
    UnknownThread,
)
from tests.conftest import AS_OF, SMALL_TOPIC
from tests.results_db import RESULTS_DB, db_rows


def _err_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().err.strip().splitlines()


def test_domain_errors_are_one_family() -> None:
    for cls in (NothingToResume, NothingToReview, ThreadMismatch, UnknownThread):
        assert issubclass(cls, DomainError) and not issubclass(cls, LookupError)


def test_a_key_error_inside_a_node_is_a_failure_not_bad_input(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    import app.graph.nodes.report
    from app.cli import main

    def broken_renderer(*args: object, **kwargs: object) -> str:
        raise KeyError("envelope_id")  # the kind of slip a forker makes in a node

    args = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
            "--data-dir", str(tmp_path / "data"), "--quiet"]
    renderer = app.graph.nodes.report.render_markdown
    monkeypatch.setattr(app.graph.nodes.report, "render_markdown", broken_renderer)
    assert main(args) == 1
    lines = _err_lines(capsys)
    assert len(lines) == 1 and lines[0].startswith("error: run failed: KeyError"), lines

    monkeypatch.setattr(app.graph.nodes.report, "render_markdown", renderer)  # fixed: same command
    # finishes the thread
    assert main(args) == 0, _err_lines(capsys)
    capsys.readouterr()

    from app.runs.ids import default_thread_id

    thread_id = default_thread_id(SMALL_TOPIC, AS_OF)
    resume = ["resume", thread_id, "--data-dir", str(tmp_path / "data")]
    # trial 32, F10: a finished thread that lost a row was told only "nothing left to
    # resume"; the line names the command that runs it again, and that command mends it
    rows = db_rows(tmp_path / "data", thread_id)
    with sqlite3.connect(tmp_path / "data" / RESULTS_DB) as con:
        con.execute("DELETE FROM results WHERE envelope_id = ?", (rows[0]["envelope_id"],))
    con.close()
    assert main(resume) == 2  # a domain error: nothing left to resume
    [line] = _err_lines(capsys)
    head = f"error: thread {thread_id!r} has nothing left to resume: its run finished; "
    assert line.startswith(head + "uv run python -m app research ")
    assert line.endswith(" runs it again and writes any of its rows that are missing")
    command = line[len(head):].split(" runs it again")[0]
    assert main(shlex.split(command)[5:] + ["--quiet"]) == 0, _err_lines(capsys)
    assert len(db_rows(tmp_path / "data", thread_id)) == len(rows)
    assert main(["resume", "no-such-thread", "--data-dir", str(tmp_path / "data")]) == 2
    assert _err_lines(capsys)[0].startswith("error: no thread 'no-such-thread'")
    # ``review`` looks the thread up through the checkpointer: the same named error, not a
    # ``KeyError`` the CLI would have to guess about
    assert main(["review", "no-such-thread", "--data-dir", str(tmp_path / "data")]) == 2
    assert _err_lines(capsys) == [f"error: no thread 'no-such-thread' in {tmp_path / 'data'}"]


def test_no_secret_setting_reaches_the_error_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    # A provider or a driver may echo a credential in its error; every setting declared
    # ``secret=True`` is masked in the one line the CLI prints, not only the OpenAI key.
    import app.cli.commands
    from app.cli import main

    secrets = {"TAVILY_API_KEY": "tvly-not-a-real-key-123",
               "OPENAI_API_KEY": "sk-not-a-real-key-456",
               "RESEARCH_DATABASE_URL": "postgresql://me:pw-not-real-789@127.0.0.1:1/db"}
    for name, value in secrets.items():
        monkeypatch.setenv(name, value)

    def echoing_failure(settings: object) -> None:
        raise RuntimeError("rejected: " + " ".join(secrets.values()))

    monkeypatch.setattr(app.cli.commands, "validate_paths", echoing_failure)
    assert main(["research", SMALL_TOPIC, "--data-dir", str(tmp_path / "data")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: run failed: RuntimeError: rejected:"), err
    for leaked in ("tvly-not-a-real-key-123", "sk-not-a-real-key-456", "pw-not-real-789"):
        assert leaked not in err, err


@pytest.mark.parametrize("topic", ["x", "what is it", "", "z" * 501],
                         ids=["one letter", "common words", "empty", "too long"])
def test_a_served_run_refuses_a_topic_the_cli_refuses(tmp_path: Path, small_corpus: Path,
                                                     topic: str) -> None:
    # LangGraph Server and Studio hand the input to the graph, past the CLI's check: a topic
    # with nothing to search for ran there, searched nothing and said nothing (the sibling of
    # the CLI's refusal). plan refuses it with the CLI's line, before any worker runs.
    from langgraph.checkpoint.memory import InMemorySaver

    from app.errors import BadTopic
    from app.graph import build_graph
    from app.graph.resources import Resources
    from app.research.topics import topic_problem
    from app.settings.config import Settings
    from workers.registry import WORKERS

    resources = Resources(Settings(data_dir=str(tmp_path / "data"), corpus=str(small_corpus),
                                   model="offline", retry_interval=0.01))
    graph = build_graph(WORKERS, resources=resources, checkpointer=InMemorySaver())
    try:
        with pytest.raises(BadTopic) as info:
            graph.invoke({"topic": topic, "as_of": AS_OF}, {"configurable": {"thread_id": "t"}})
    finally:
        resources.close()
    assert str(info.value) == topic_problem(topic) and "\n" not in str(info.value)
    assert not (tmp_path / "data" / "results.sqlite").exists()  # nothing ran, nothing persisted
