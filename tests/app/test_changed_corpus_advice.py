"""Trial 13's continuation faults, each with the command a user typed (the CLI in-process on the
small corpus, the environment cleaned as for a subprocess):

* finding 6b: a thread paused by ``--review`` whose corpus then changed was stuck: its topic's
  own command showed the old plan and advised ``review --approve``, which refused it. It now
  runs it again from its start on the new content, planned again, with the review it was
  started with (as for a killed thread, finding 6).
* finding 6: ``resume``, ``review``, ``inspect --report`` and ``prune`` advised ``--fresh``
  (a second thread, the first left unfinished for good) where the topic's own command now
  works. Every command printed for such a thread is pasted and run here.
* finding 9: a continuation with another ``--search-k`` or ``--max-tokens`` mixed them with the
  thread's first ones without a word, and one that named neither took the defaults: it now
  keeps what the thread was started with, uses what it is given, and says which in one note.
* finding 8: a topic with a zero-width space or a soft hyphen started a thread beside the
  unfinished one of the same topic as it prints, with no note.
* finding 3b: ``prune --thread-id`` of a thread with result rows and no checkpoints (a LangGraph
  Server's) said the thread "cannot continue".
"""

from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path

import pytest

from app.settings.hints import APP
from tests.conftest import AS_OF, SMALL_TOPIC
from tests.results_db import db_rows, db_run, db_runs

NEW_FILE = ("beacons.md", "# Zorblax relay beacons\n\nThe Zorblax relay beacon is violet: every "
                          "Zorblax relay station lights its Zorblax relay beacon before each "
                          "launch window of the Zorblax relay.\n")
"""A file added to the corpus after the thread started: a run on the new content finds it
(:func:`_found_new`)."""


def _found_new(data: Path, thread: str) -> bool:
    """Whether the thread's results rows hold a passage or finding of :data:`NEW_FILE`: the
    run searched the new content (its report cites the corpus's strongest document on the
    topic, which a definition of the relay elsewhere may be)."""
    return any(str(item.get("ref", "")).startswith(NEW_FILE[0])
               for r in db_rows(data, thread)
               for item in (json.loads(r["structured"] or "{}").get("items") or []))


def _pasted(line: str) -> list[str]:
    """The CLI arguments of the command printed in ``line``, as a shell splits it when pasted."""
    words = shlex.split(line[line.index(APP):].split("   (")[0].removesuffix(")"))
    assert words[:5] == APP.split(), line
    return words[5:]


def _line(text: str, verb: str) -> str:
    return next(line for line in text.splitlines() if f"{APP} {verb} " in line)


def _run_unfinished(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    """Run ``main(args)`` with a report renderer that raises: the thread is left unfinished
    just before its report (exit 1)."""
    import app.graph.nodes.report
    from app.cli import main

    def broken_renderer(*_args: object, **_kwargs: object) -> str:
        raise KeyError("envelope_id")

    with monkeypatch.context() as patch:
        patch.setattr(app.graph.nodes.report, "render_markdown", broken_renderer)
        assert main(args) == 1


def _approve_to_the_end(out: str, capsys: pytest.CaptureFixture[str]) -> str:
    """Paste each ``review --approve`` printed until the run ends; its last stdout."""
    from app.cli import main

    while "paused for review" in out:
        assert main(_pasted(_line(out, "review"))) == 0
        out = capsys.readouterr().out
    return out


@pytest.mark.parametrize("stopped", ["paused for review", "killed before its report"])
def test_every_command_printed_for_a_thread_whose_corpus_changed_works_when_pasted(
        stopped: str, tmp_path: Path, make_corpus, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    from app.cli import main
    from app.runs.ids import default_thread_id

    corpus, data = make_corpus(), ["--data-dir", str(tmp_path / "data")]
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    research = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(corpus), *data]
    if stopped == "paused for review":
        assert main([*research, "--review"]) == 0
    else:
        _run_unfinished(monkeypatch, research)
    capsys.readouterr()
    (corpus / NEW_FILE[0]).write_text(NEW_FILE[1], encoding="utf-8")
    indexes = sorted((tmp_path / "data").glob("*corpus-*"))  # its index and lock files

    advised = []
    for command in (["resume", thread], ["review", thread], ["review", thread, "--approve"],
                    ["inspect", thread, "--report"]):
        assert main([*command, *data]) == 2, command
        said = capsys.readouterr()
        # trial 17, finding 7: the refusal came after the new content's index was built
        assert sorted((tmp_path / "data").glob("*corpus-*")) == indexes, command
        (err,) = said.err.strip().splitlines()
        assert "has changed since it started" in err and "--fresh" not in err, err
        assert "review --approve" not in err.split("; ", 1)[1], err
        advised.append(_pasted(_line(err, "research")))
    assert main(["prune", "--dry-run", *data]) == 0
    advised.append(_pasted(_line(capsys.readouterr().out, "research")))
    assert all(words == advised[0] for words in advised), advised
    assert advised[0] == research  # the topic's own command, as the thread was started

    assert main(advised[0]) == 0  # pasted: the same thread runs again on the new content
    out = capsys.readouterr().out
    assert f"note: thread {thread} " in out and "running it again from its start on the " \
           "new content" in out, out
    out = _approve_to_the_end(out, capsys)
    assert "report written" in out, out
    assert [r["thread_id"] for r in db_runs(tmp_path / "data")] == [thread]  # no second thread
    assert db_run(tmp_path / "data", thread)["status"] == "finished"
    assert _found_new(tmp_path / "data", thread)


def test_a_paused_thread_whose_corpus_changed_is_planned_again_for_its_review(
        tmp_path: Path, make_corpus, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # Trial 13, finding 6b: the plain command showed the old plan and advised an --approve
    # that refused it; the thread stayed unfinished until a second one was made with --fresh.
    from app.cli import main
    from app.runs.ids import default_thread_id

    corpus, data = make_corpus(), ["--data-dir", str(tmp_path / "data")]
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    research = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(corpus), *data]
    assert main([*research, "--review"]) == 0
    capsys.readouterr()
    (corpus / NEW_FILE[0]).write_text(NEW_FILE[1], encoding="utf-8")
    assert main(research) == 0  # no --review given: the thread keeps the review it started with
    out = capsys.readouterr().out
    assert f"note: thread {thread} awaited its review and its corpus folder {corpus} has " \
           "changed since it started" in out, out
    assert f"paused for review: thread {thread} awaits the plan review" in out, out
    assert main(_pasted(_line(out, "review"))) == 0  # the plan, made on the new content
    out = capsys.readouterr().out
    assert "awaits the results review" in out, out
    assert main(_pasted(_line(out, "review"))) == 0
    assert "report written" in capsys.readouterr().out
    rows = db_rows(tmp_path / "data", thread)
    assert rows and all(r["write_count"] == 1 for r in rows)  # each row written once
    assert _found_new(tmp_path / "data", thread)


def test_the_advice_names_a_thread_the_topic_does_not_land_on_by_itself(
        tmp_path: Path, make_corpus, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    from app.cli import main

    corpus, data = make_corpus(), ["--data-dir", str(tmp_path / "data")]
    research = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(corpus), *data,
                "--thread-id=-my>run", "--max-file-bytes", "100000"]
    _run_unfinished(monkeypatch, research)
    capsys.readouterr()
    (corpus / NEW_FILE[0]).write_text(NEW_FILE[1], encoding="utf-8")
    assert main(["resume", *data, "--", "-my>run"]) == 2
    advised = _pasted(_line(capsys.readouterr().err, "research"))
    assert "--thread-id=-my>run" in advised and "100000" in advised, advised
    assert main(advised) == 0
    assert "running it again from its start" in capsys.readouterr().out
    assert [r["thread_id"] for r in db_runs(tmp_path / "data")] == ["-my>run"]


def _choices(data: Path, thread: str) -> dict:
    return json.loads(db_run(data, thread)["choices"])


def test_a_continuation_keeps_the_threads_search_k_and_says_which_it_changes(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    # Trial 13, finding 9: resumed with another --search-k (or --max-tokens), the thread mixed
    # the two without a word; resumed with none, it took the default.
    from app.cli import main
    from app.runs.ids import default_thread_id

    data = tmp_path / "data"
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    _run_unfinished(monkeypatch, ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus",
                                  str(small_corpus), "--data-dir", str(data),
                                  "--search-k", "7"])
    capsys.readouterr()
    assert _choices(data, thread)["search_k"] == 7
    _run_unfinished(monkeypatch, ["resume", thread, "--data-dir", str(data)])
    notes = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("note: this run")]
    assert notes == [f"note: this run continues thread {thread}, and keeps the --search-k 7 it "
                     "was started with (its recorded settings; a flag given changes one)"]
    assert _choices(data, thread)["search_k"] == 7  # not the default, 5

    assert main(["resume", thread, "--data-dir", str(data), "--search-k", "3",
                 "--max-tokens", "100"]) == 0
    notes = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("note: this run")]
    assert notes == [f"note: this run continues thread {thread}, and uses --search-k 3, "
                     "--max-tokens 100 as given, where it was started with --search-k 7, no "
                     "--max-tokens: its results so far were found with the first, the rest "
                     "will be with the second; the token budget counts the tokens it spent "
                     "before too"], notes
    assert (_choices(data, thread)["search_k"], _choices(data, thread)["max_tokens"]) == (3, 100)
    assert main(["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(data)]) == 0  # finished: a rerun takes its own, no note
    assert "note: this run" not in capsys.readouterr().out
    assert _choices(data, thread)["search_k"] == 5


def test_every_client_choice_says_what_a_continuation_does_with_it() -> None:
    # Trial 31, F4: a forker's setting added as docs/extending.md said was not kept when the
    # thread was continued (the kept ones were a hand-written list); each RunContext field now
    # declares it, and the list is read from the declarations.
    from dataclasses import fields

    from app.runs.choices import RECORDED_CHOICES
    from app.settings.config import RunContext

    undecided = [f.name for f in fields(RunContext)
                 if f.metadata.get("resume") not in ("kept", "thread", "free")]
    assert undecided == [], ("declare setting(resume=...) for each: 'kept' (a continuation "
                             "keeps it), 'thread' (its plan fixes it), 'free' (how fast, not "
                             "what); see app/settings/spec.py")
    assert set(RECORDED_CHOICES) == {"model", "planner_model", "worker_model", "report_model",
                                     "search_k", "max_tokens"}


def test_a_continuation_keeps_a_role_model_set_in_the_environment() -> None:
    # F4's sibling: RESEARCH_WORKER_MODEL (no flag) was recorded nowhere, so a thread started
    # with it and continued without it ran its remaining tasks on another model, silently.
    # Trial 32, finding 8: a role model set to the run's own model is no other model, and a
    # variable does not change a choice that has a flag (the note said it did).
    import json

    from app.runs.choices import choices_note, choices_record, continued_with
    from app.settings.config import Settings

    started = Settings(model="offline", worker_model="openai:gpt-4o-mini", search_k=7)
    recorded = {"status": "running", "choices": choices_record(started)}
    assert json.loads(recorded["choices"])["planner_model"] == "offline"  # the run's model
    later = continued_with(Settings(model="offline"), recorded, asked={})
    assert later.settings.worker_model == "openai:gpt-4o-mini" and later.settings.search_k == 7
    assert choices_note("t", later, restarted=False) == (
        "this run continues thread t, and keeps the RESEARCH_WORKER_MODEL=openai:gpt-4o-mini, "
        "--search-k 7 it was started with (its recorded settings; a flag given or its "
        "variable set changes one)")
    same = continued_with(Settings(model="offline", worker_model="offline", search_k=7),
                          {"status": "running", "choices": choices_record(
                              Settings(model="offline", search_k=7))}, asked={})
    assert (same.kept, same.changed) == ({}, {})  # "offline" set is the default "offline"


def test_a_topic_with_invisible_characters_lands_on_the_thread_it_prints_as(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    # Trial 13, finding 8: "retry\u200b policy nodes" started a new thread, with no note,
    # beside the unfinished "retry policy nodes"
    from app.cli import main
    from app.runs.ids import default_thread_id, topic_key

    data = ["--data-dir", str(tmp_path / "data")]
    common = ["--as-of", AS_OF, "--corpus", str(small_corpus), *data]
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    for spelled in ("zorblax\u200b relay", "zor\u00adblax\u2060 re\ufefflay\u200c\u200d"):
        _run_unfinished(monkeypatch, ["research", SMALL_TOPIC, *common])
        capsys.readouterr()
        assert main(["research", spelled, *common]) == 0
        assert f"resuming thread {thread}" in capsys.readouterr().out
        assert topic_key(spelled) == topic_key(SMALL_TOPIC.upper())
    assert {r["topic"] for r in db_runs(tmp_path / "data")} == {SMALL_TOPIC}


def test_a_topic_in_decomposed_unicode_lands_on_the_thread_it_prints_as(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # Trial 35, F2: "Café" pasted from macOS (e + a combining accent, NFD) started a second
    # thread beside the typed one's, both listed by `threads` as "Café ..."
    import unicodedata

    from app.cli import main

    common = ["--as-of", AS_OF, "--corpus", str(small_corpus), "--data-dir",
              str(tmp_path / "data"), "--quiet"]
    typed = "zorblax relay café"
    for spelled in (typed, unicodedata.normalize("NFD", typed)):
        assert main(["research", spelled, *common]) == 0
    runs = db_runs(tmp_path / "data")
    assert [r["topic"] for r in runs] == [typed], runs
    capsys.readouterr()


def test_prune_of_a_thread_with_rows_and_no_checkpoints_has_nothing_to_prune(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # Trial 13, finding 3b: "cannot continue", said by a command that continues nothing
    from app.cli import main
    from app.runs.ids import default_thread_id

    data = tmp_path / "data"
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    assert main(["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(data), "--quiet"]) == 0
    (data / "checkpoints.sqlite").unlink()  # what a LangGraph Server's thread leaves here
    with sqlite3.connect(data / "results.sqlite") as conn:
        conn.execute("DELETE FROM runs")
    conn.close()
    rows = db_rows(data, thread)
    capsys.readouterr()
    for dry in ([], ["--dry-run"]):
        assert main(["prune", "--thread-id", thread, "--data-dir", str(data), *dry]) == 0
        out = capsys.readouterr()
        assert out.err == "" and "cannot continue" not in out.out, out
        assert f"kept    {thread}  (nothing to prune here: its result rows are here but not " \
               "its checkpoints" in out.out, out.out
        # N14: "checkpoints.sqlite 0 B -> 0 B (0 B freed)" spoke of a file that is not there
        assert "checkpoints.sqlite" not in out.out and " B" not in out.out, out.out
        assert out.out.splitlines()[-1] == (f"{'dry run: would remove' if dry else 'removed'} "
                                            "0 checkpoints and 0 writes"), out.out
    assert main(["prune", "--thread-id", thread, "--data-dir", str(data), "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    (kept,) = body["threads"]
    assert (kept["thread_id"], kept["action"]) == (thread, "kept: rows only")
    assert body["checkpoints_at"] is None and body["bytes_freed"] == 0
    assert not (data / "checkpoints.sqlite").exists()
    assert db_rows(data, thread) == rows
    assert main(["prune", "--thread-id", "nobody", "--data-dir", str(data)]) == 2  # unknown
