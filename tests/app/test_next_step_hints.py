"""Every command the app prints for pasting works when pasted, and says what fits the thread
(issue 21, "Small wrong advice"; a new-user trial found each of these).

* A thread id may hold shell characters (``--thread-id 'a>b'``): every hint quotes it, so the
  pasted ``review a>b`` no longer redirects into a file ``b``.
* One owner (:func:`app.settings.hints.next_step`) says what to do next with a thread that has
  work left: ``review --approve`` for one paused for review (``resume`` only shows the pause
  again), waiting for one another process runs (its ``resume`` exits 75), else ``resume``.
* Only ``research`` has ``--fresh``: a busy thread's line advises it there, nowhere else.
* A run stopped by Ctrl-C prints its own command made exact (``--as-of``): the same command
  after midnight UTC lands on a new thread, and a new thread of a topic names the unfinished
  thread of another ``as_of``.

The CLI runs in-process (``app.cli.main``) with the environment cleaned as for a subprocess.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest

from app.settings.hints import APP, again, next_step, thread_command
from tests.conftest import AS_OF, SMALL_TOPIC

ODD_ID = "a>b$(id)'c'"
"""A thread id a shell would run or redirect, pasted unquoted."""


def _pasted(line: str) -> list[str]:
    """The CLI arguments of a printed command, as a shell splits it when pasted."""
    start = line.index(APP)
    words = shlex.split(line[start:])
    assert words[:5] == APP.split(), line
    return words[5:]


def _run_unfinished(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    """Run ``main(args)`` with a report renderer that raises, so the thread is left unfinished
    just before its report (exit 1); the renderer is put back after."""
    import app.graph.nodes.report
    from app.cli import main

    def broken_renderer(*_args: object, **_kwargs: object) -> str:
        raise KeyError("envelope_id")

    with monkeypatch.context() as patch:
        patch.setattr(app.graph.nodes.report, "render_markdown", broken_renderer)
        assert main(args) == 1


def _hint_line(text: str, verb: str) -> str:
    return next(line for line in text.splitlines() if f"{APP} {verb} " in line)


def test_hints_quote_the_thread_id_and_advise_review_for_a_paused_thread(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    from app.cli import main

    data = ["--data-dir", str(tmp_path / "data")]
    assert main(["research", SMALL_TOPIC, "--thread-id", ODD_ID, "--review", "--as-of", AS_OF,
                 "--corpus", str(small_corpus), *data]) == 0
    approve = _hint_line(capsys.readouterr().out, "review")
    assert _pasted(approve) == ["review", ODD_ID, *data, "--approve"]

    # inspect --report advised ``resume``, which only shows the pause again
    assert main(["inspect", ODD_ID, "--report", *data]) == 2
    err = capsys.readouterr().err
    assert "decide its review" in err and f"{APP} resume" not in err, err
    hint = _hint_line(err, "review").split(" (without --approve")[0]
    assert _pasted(hint) == ["review", ODD_ID, *data, "--approve"]
    assert main(["prune", "--dry-run", *data]) == 0
    out = capsys.readouterr().out
    assert "decide its review" in out and shlex.quote(ODD_ID) in out, out

    assert main(_pasted(approve)) == 0  # the pasted hint continues the thread
    assert "error" not in capsys.readouterr().err


def test_a_thread_another_process_runs_gets_advice_its_command_accepts(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    from app.cli import main
    from app.runs.ids import default_thread_id
    from app.storage import open_storage

    data = ["--data-dir", str(tmp_path / "data")]
    research = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                *data, "--quiet"]
    _run_unfinished(monkeypatch, research)
    capsys.readouterr()
    thread_id = default_thread_id(SMALL_TOPIC, AS_OF)
    with open_storage(tmp_path / "data").thread_lock(thread_id):  # "another process" runs it
        # try later (75), as its --approve and resume say: trial 7 saw review exit 2 here
        assert main(["review", thread_id, *data]) == 75
        err = capsys.readouterr().err
        assert "being run by another process" in err and "resume" not in err, err
        assert main(["resume", thread_id, *data]) == 75
        err = capsys.readouterr().err  # resume has no --fresh: it refused the advice
        assert "being run by another process" in err and "--fresh" not in err, err
        assert main(research) == 75
        assert "or use --fresh for a new thread" in capsys.readouterr().err
    with open_storage(tmp_path / "data").thread_lock(thread_id, holder="prune"):
        assert main(research) == 75  # prune holds it for a moment: no --fresh (finding 34)
        assert capsys.readouterr().err.splitlines() == [
            f"error: thread {thread_id!r} is being pruned by another process (prune compacts "
            "its checkpoints, which takes a moment); try again in a moment"]
    assert main(["review", thread_id, *data]) == 2  # not running: resume it
    resume = _hint_line(capsys.readouterr().err, "resume").split("continue it with ", 1)[1]
    assert main(_pasted(resume)) == 0


def test_a_stopped_run_prints_its_command_with_the_as_of_that_finds_its_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import app.cli
    import app.cli.commands as commands

    monkeypatch.setattr(commands, "ARGV", ["research", "Send and reducers", "--fresh",
                                           "--database-url", "postgresql://u:pw@h/db"])
    monkeypatch.setattr(commands, "RUN_AS_OF", ["2026-12-02"])
    monkeypatch.setattr(commands, "RUN_THREAD", ["t-1"])
    monkeypatch.setattr(commands, "RUN_STARTED", [True])
    code, line = app.cli._ended(KeyboardInterrupt())
    assert code == 130
    assert line == ("interrupted: the run can be resumed with: uv run python -m app research "
                    "'Send and reducers' --database-url URL --thread-id=t-1 --as-of 2026-12-02")
    assert again(["resume", "a>b"]) == f"{APP} resume 'a>b'"  # its own command, quoted
    assert again(["research", "x", "--fresh"]) is None  # no thread named yet: nothing to show
    assert thread_command("inspect", "a b", tail=" --json") == f"{APP} inspect 'a b' --json"
    assert next_step("t", "running") == "another process is running it: wait for that run to end"


def test_a_new_thread_names_the_unfinished_thread_of_its_topic_on_another_day(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    from app.cli import main

    data = ["--data-dir", str(tmp_path / "data")]
    common = ["--corpus", str(small_corpus), *data, "--quiet"]
    _run_unfinished(monkeypatch, ["research", SMALL_TOPIC, "--as-of", "2026-11-29", *common])
    capsys.readouterr()
    assert main(["research", SMALL_TOPIC, "--as-of", "2026-11-30", *common]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith("note: this topic's thread")]
    assert len(notes) == 1 and "(as of 2026-11-29) is unfinished" in notes[0], notes
    assert main(_pasted(notes[0].split("continue it with ", 1)[1])) == 0
    assert main(["research", SMALL_TOPIC, "--as-of", "2026-11-30", *common]) == 0
    assert "note: this topic's thread" not in capsys.readouterr().out  # no new thread: no note


def test_a_thread_id_that_starts_with_a_dash_goes_last_in_a_printed_command(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # trial 7: '--thread-id=-dash' was accepted, and every printed 'review -dash ...' exited 2
    from app.cli import main

    data = ["--data-dir", str(tmp_path / "data")]
    assert main(["research", SMALL_TOPIC, "--thread-id=-dash", "--review", "--as-of", AS_OF,
                 "--corpus", str(small_corpus), *data]) == 0
    approve = _hint_line(capsys.readouterr().out, "review")
    assert _pasted(approve) == ["review", *data, "--approve", "--", "-dash"]
    assert main(_pasted(approve)) == 0  # the pasted hint continues the thread
    assert "error" not in capsys.readouterr().err
    assert again(["research", "t", "--fresh"], thread_id="-dash").endswith("--thread-id=-dash")


def test_a_run_stopped_before_its_thread_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # trial 7: SIGTERM while the corpus was indexed said "the run can be resumed with ..."
    # though no thread existed (``threads`` listed none)
    import app.cli.commands as commands

    monkeypatch.setattr(commands, "ARGV", ["research", "heron census"])
    monkeypatch.setattr(commands, "RUN_AS_OF", ["2026-12-02"])
    monkeypatch.setattr(commands, "RUN_THREAD", [])
    monkeypatch.setattr(commands, "RUN_STARTED", [])
    line = commands.again_line()
    assert line.startswith("the run stopped before it started its thread; to start it again: ")
    assert "resumed" not in line and line.endswith("research 'heron census' --as-of 2026-12-02")
    # trial 15, finding 9: named by the index build's progress, not started: nothing to resume
    monkeypatch.setattr(commands, "RUN_THREAD", ["heron-census-2026-12-02-0a1b2c3d"])
    assert commands.again_line().startswith("the run stopped before it started its thread; ")
    monkeypatch.setattr(commands, "RUN_STARTED", [True])
    assert commands.again_line().startswith("the run can be resumed with: ")
    # trial 11: review --approve stopped as early said its thread was not started yet
    monkeypatch.setattr(commands, "ARGV", ["review", "heron-census-x", "--approve"])
    monkeypatch.setattr(commands, "RUN_THREAD", [])
    monkeypatch.setattr(commands, "RUN_AS_OF", [])  # only research takes a default as_of
    line = commands.again_line()
    assert line.startswith("the run stopped before it continued its thread; to continue it: ")
    assert line.endswith("review heron-census-x --approve"), line
    # trial 28: prune stopped said "the run stopped before it started its thread"
    monkeypatch.setattr(commands, "ARGV", ["prune", "--data-dir", "d"])
    assert commands.again_line() == "prune stopped; to do it again: " \
        "uv run python -m app prune --data-dir d"


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    from app.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


NEEDS = {"research": ["a topic"], "resume": ["t"], "review": ["t"], "inspect": ["t"]}
"""The positional arguments each subcommand needs."""


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_an_abbreviated_option_is_refused_naming_the_option_in_full(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Trial 7: argparse took ``--fr`` for ``--fresh``, but the stopped run's "resumed with"
    # line reads the arguments back as given: it kept ``--fr`` (a new thread again), and a
    # ``--database-u`` value was printed unmasked. Every option of every subcommand is now
    # refused abbreviated, in one line naming the option meant.
    from app.cli import main
    from app.cli.parser import BadFlag

    options = [o for o in _subcommands()[command]._option_string_actions
               if o.startswith("--") and o != "--help"]
    assert options
    for option in options:
        short = option[:-2]
        with pytest.raises(BadFlag):
            main([command, *NEEDS.get(command, []), short])
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"error: unrecognized arguments: {short}"), err
        assert option in err[0].split("options are written in full: ", 1)[1], err


def test_a_stopped_fresh_run_prints_a_command_that_finds_its_thread() -> None:
    # the rebuilt command drops --fresh, which is now always written in full
    assert again(["research", "t", "--fresh"], as_of=AS_OF, thread_id="t-1") == (
        f"{APP} research t --thread-id=t-1 --as-of {AS_OF}")


def test_the_continue_commands_of_a_review_with_out_keep_out(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # A new user's trial: ``research --review --out FILE`` printed "continue:" commands without
    # --out; followed as printed, the report went to the data dir's reports/, FILE never came.
    from app.cli import main

    data, report = tmp_path / "data", tmp_path / "my report.md"
    args = ["--data-dir", str(data), "--corpus", str(small_corpus)]
    assert main(["research", SMALL_TOPIC, "--review", "--as-of", AS_OF, "--out", str(report),
                 *args]) == 0
    pasted = _pasted(_hint_line(capsys.readouterr().out, "review"))  # the plan review's
    assert pasted[pasted.index("--out") + 1] == str(report), pasted
    assert main(pasted) == 0
    pasted = _pasted(_hint_line(capsys.readouterr().out, "review"))  # the results review's
    assert main(pasted) == 0
    assert "report written" in capsys.readouterr().out
    assert report.is_file() and not list((data / "reports").glob("*.md"))


def _outs(text: str) -> set[str]:
    """The ``--out`` of every printed ``review`` command in ``text`` (None: a line without)."""
    outs = set()
    for line in text.splitlines():
        if f"{APP} review " in line:
            words = _pasted(line.split("   (")[0])
            outs.add(words[words.index("--out") + 1] if "--out" in words else None)
    return outs


def test_review_and_resume_by_id_keep_the_runs_out(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # A new user's trial: ``research --review --out DIR/`` paused; ``review T`` and ``resume T``
    # by id (no --out) printed continue lines without --out, and ``review T --approve`` wrote
    # the report to the data dir's reports/. The thread records the run's --out (as it does its
    # --max-file-bytes), and continuing by id uses it.
    from app.cli import main
    from app.runs.ids import default_thread_id

    data, out = tmp_path / "data", tmp_path / "my reports"
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    args = ["--data-dir", str(data), "--corpus", str(small_corpus)]
    assert main(["research", SMALL_TOPIC, "--review", "--as-of", AS_OF, "--out", f"{out}/",
                 *args]) == 0
    assert _outs(capsys.readouterr().out) == {f"{out}/"}
    for shown in (["review", thread], ["resume", thread]):  # what it awaits, by id
        assert main([*shown, *args]) == 0
        assert _outs(capsys.readouterr().out) == {f"{out}/"}, shown
    out.write_text("a file where the run's report folder should be")  # checked before the run
    assert main(["review", thread, "--approve", *args]) == 2
    assert f"--out {out}/: {out} is a file" in capsys.readouterr().err
    out.unlink()
    assert main(["review", thread, "--approve", *args]) == 0  # the plan: on to the results
    assert _outs(capsys.readouterr().out) == {f"{out}/"}
    assert main(["review", thread, "--approve", *args]) == 0
    assert f"report written: {out / thread}.md" in capsys.readouterr().out
    assert (out / f"{thread}.md").is_file() and not (data / "reports").exists()

    # another --out given on a continue command wins, says so, and is the thread's from then on
    other = tmp_path / "other.md"
    assert main(["research", SMALL_TOPIC, "--review", "--as-of", AS_OF, *args]) == 0  # a rerun
    capsys.readouterr()
    assert main(["review", thread, "--approve", "--out", str(other), *args]) == 0
    printed = capsys.readouterr()
    assert _outs(printed.out) == {str(other)}
    assert f"note: the report goes to --out {other}, not to" not in printed.err  # the rerun's
    assert main(["review", thread, "--approve", "--out", str(out / "x.md"), *args]) == 0
    assert f"note: the report goes to --out {out / 'x.md'}, not to {other} " in (
        capsys.readouterr().err)
    assert (out / "x.md").is_file() and not other.exists()


def test_a_thread_id_of_the_topic_on_another_as_of_says_so_and_names_the_ways_that_work(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    # trial 10, finding 13: "belongs to topic 'T' as of D; use another --thread-id, or --fresh"
    # blamed the topic, the same one, and its advice left the unfinished thread behind
    from app.cli import main
    from app.runs.ids import default_thread_id

    data = ["--data-dir", str(tmp_path / "data")]
    common = ["--corpus", str(small_corpus), *data, "--quiet"]
    _run_unfinished(monkeypatch, ["research", SMALL_TOPIC, "--as-of", "2026-11-29", *common])
    capsys.readouterr()
    thread = default_thread_id(SMALL_TOPIC, "2026-11-29")
    today = ["research", SMALL_TOPIC, "--thread-id", thread, "--as-of", "2026-11-30", *common]
    assert main(today) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"error: thread {thread!r} is of this topic as of 2026-11-29, not "
                           "2026-11-30: give --as-of 2026-11-29 to run it; or continue it with "
                           f"{APP} resume "), line
    assert "belongs to topic" not in line and "--fresh" not in line
    assert line.endswith("; for a thread as of 2026-11-30, leave out --thread-id")
    resume = line.split("continue it with ", 1)[1].split(";", 1)[0]
    assert main(_pasted(resume)) == 0  # the way it names works
    capsys.readouterr()
    assert main([*today[:-len(common) - 2], "--as-of", "2026-11-29", *common]) == 0  # so does
    assert main(["research", "another topic entirely", "--thread-id", thread, "--as-of",
                 "2026-11-29", *common]) == 2  # another topic is still another topic
    assert "belongs to topic" in capsys.readouterr().err


def test_a_new_thread_names_the_unfinished_thread_of_its_topic_spelled_otherwise(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    """Trial 11, finding 38: a topic that differs from an unfinished thread's only in case or
    accents started a new thread without a word (its id hashes the topic as written)."""
    from app.cli import main

    data = ["--data-dir", str(tmp_path / "data")]
    common = ["--corpus", str(small_corpus), *data, "--quiet"]
    _run_unfinished(monkeypatch, ["research", SMALL_TOPIC, "--as-of", AS_OF, *common])
    capsys.readouterr()
    for variant, as_of in (("Zörblax  RELAY", AS_OF), ("ZORBLAX relay", "2026-12-01")):
        assert main(["research", variant, "--as-of", as_of, *common]) == 0
        notes = [line for line in capsys.readouterr().out.splitlines()
                 if line.startswith("note: thread ")]
        assert len(notes) == 1, notes
        assert f"of {SMALL_TOPIC!r}, a topic that differs from this one only in case" in notes[0]
        assert f"this run (as of {as_of}) is a new thread" in notes[0], notes
    assert main(_pasted(notes[0].split("continue it with ", 1)[1])) == 0
    assert main(["research", "Zorblax Relay", "--as-of", AS_OF, *common]) == 0
    assert "note: thread" not in capsys.readouterr().out  # finished now: no note
