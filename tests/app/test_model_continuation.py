"""A thread started on a model the machine cannot use is continued with the ``--model`` its
error line advises (hostile trial H, F2).

Found through the CLI: ``research TOPIC`` with ``OPENAI_API_KEY`` set and the server out of reach
failed at the planner (exit 1), recording ``openai:gpt-4.1-mini`` for the run and for each role.
``resume THREAD_ID`` without the key said "model 'openai:gpt-4.1-mini' needs OPENAI_API_KEY ...;
use --model offline to run without one", and ``resume THREAD_ID --model offline`` said the same
line again: the planner, worker and report models were kept from the record (no flag names them),
so no command line could continue the thread. A role model recorded as the thread's model now
follows the ``--model`` given; one its own variable set is kept, as before.

F5, beside it: a recorded choice no setting may take (the ``runs`` row edited, or written by a
version with other bounds) is named as the record's, with the flag that chooses instead.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from app.runs.choices import choices_note, choices_record, continued_with
from app.settings.config import Settings
from app.settings.spec import ConfigError
from tests.cli_env import run_cli
from tests.conftest import AS_OF, SMALL_TOPIC


def _closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_thread_started_on_an_unusable_model_continues_with_the_model_advised(
        tmp_path: Path, small_corpus: Path) -> None:
    where = ["--data-dir", tmp_path / "data", "--corpus", small_corpus]
    unreachable = {"OPENAI_API_KEY": "sk-test", "RESEARCH_MAX_ATTEMPTS": "1",
                   "OPENAI_BASE_URL": f"http://127.0.0.1:{_closed_port()}/v1"}
    first = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--json", *where, env=unreachable)
    assert first.returncode == 1, first.stderr
    thread = json.loads(first.stdout.splitlines()[-1])["thread_id"]
    advice = run_cli("resume", thread, "--data-dir", tmp_path / "data")
    assert "use --model offline to run without one" in advice.stderr
    resumed = run_cli("resume", thread, "--data-dir", tmp_path / "data", "--model", "offline",
                      "--json")
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout.splitlines()[-1])
    assert summary["outcome"] == "ok" and summary["db_rows"] == summary["expected"] > 0
    assert "needs OPENAI_API_KEY" not in resumed.stderr


def test_a_role_model_follows_the_model_given_unless_its_variable_set_it() -> None:
    recorded = {"status": "error", "choices": choices_record(
        Settings(model="openai:gpt-4.1-mini", worker_model="anthropic:claude-x"))}
    later = continued_with(Settings(model="offline"), recorded, asked={"model": "offline"})
    assert (later.settings.planner_model, later.settings.report_model) == (None, None)
    assert later.settings.worker_model == "anthropic:claude-x"  # set by its own variable
    assert choices_note("t", later, restarted=False) == (
        "this run continues thread t, and keeps the RESEARCH_WORKER_MODEL=anthropic:claude-x "
        "it was started with (its recorded settings; its variable set changes one); it uses "
        "--model offline as given, where it was started with --model openai:gpt-4.1-mini: its "
        "results so far were found with the first, the rest will be with the second")
    unnamed = continued_with(Settings(model="offline"), recorded, asked={})
    assert unnamed.settings.model == unnamed.settings.planner_model == "openai:gpt-4.1-mini"


@pytest.mark.parametrize(("record", "line"), [
    ({"search_k": "abc"}, "search_k must be a whole number, got 'abc' (the row was edited, or "
                          "written by another version of this app); give --search-k to choose one"),
    ({"worker_model": 5}, "worker_model must be text, got 5 (the row was edited, or written by "
                          "another version of this app); set RESEARCH_WORKER_MODEL to choose one"),
])
def test_an_unusable_recorded_choice_is_named_as_the_records(record, line) -> None:
    # hostile trial H, F5: a runs row whose choices a hand (or another version's bounds) made
    # unusable said "search_k must be a whole number, got 'abc'" to a user who gave none
    recorded = {"status": "running", "choices": json.dumps(record)}
    with pytest.raises(ConfigError) as refused:
        continued_with(Settings(model="offline"), recorded, asked={})
    assert str(refused.value) == ("the thread's recorded settings (its runs row in the results "
                                  f"database) are unusable: {line}")
    given = continued_with(Settings(model="offline", search_k=4, worker_model="offline"),
                           recorded, asked={"search_k": 4})
    assert given.settings.search_k == 4


def test_an_unusable_role_model_names_the_variable_that_chose_it(tmp_path: Path,
                                                                 small_corpus: Path) -> None:
    # F2's sibling: RESEARCH_WORKER_MODEL=openai:gpt-4.1-mini without a key said "use --model
    # offline to run without one", and --model offline said the same line again
    proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--model", "offline",
                   "--data-dir", tmp_path / "data", "--corpus", small_corpus,
                   env={"RESEARCH_WORKER_MODEL": "openai:gpt-4.1-mini"})
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout
    assert proc.stderr.strip() == (
        "error: model 'openai:gpt-4.1-mini' needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
        "OpenAI-compatible server); it is the worker model here (RESEARCH_WORKER_MODEL: set in "
        "the environment or the .env file, or kept from the thread's first run), which --model "
        "does not change: set RESEARCH_WORKER_MODEL=offline, or another model")


def test_a_role_model_set_in_the_env_file_is_not_said_set_in_the_environment(
        tmp_path: Path, small_corpus: Path) -> None:
    # the line said "set in the environment" of a variable only the .env file set (every other
    # setting's line tells the two apart: "(set in .env)")
    (tmp_path / ".env").write_text("RESEARCH_WORKER_MODEL=openai:gpt-4.1-mini\n",
                                   encoding="utf-8")
    proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--model", "offline",
                   "--data-dir", tmp_path / "data", "--corpus", small_corpus, cwd=tmp_path,
                   env={"RESEARCH_WORKER_MODEL": None})
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout
    assert "(RESEARCH_WORKER_MODEL: set in the environment or the .env file, or kept from " \
        "the thread's first run)" in proc.stderr, proc.stderr
