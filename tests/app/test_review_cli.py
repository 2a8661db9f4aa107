"""The ``review`` command's decisions, refused or taken as a reviewer expects (trial 10):

* a replacing question the plan check would refuse at dispatch (a control character) is
  refused at the review, the thread still awaiting the plan review: it used to be taken, and
  the thread then failed at dispatch for good, every way on refused with "was the state
  edited?";
* ``--approve`` with a decision that goes on otherwise (``--question``, ``--redo``) is refused
  in one line: it was ignored without a word;
* dropping every result at the results review ends ``ok`` (exit 0), with one warning line and a
  report that says so: it ended ``failed``, exit 1, with no failed task and no line saying why.

The CLI runs in-process (``app.cli.main``) with the environment cleaned as for a subprocess.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC


def _paused(main, capsys: pytest.CaptureFixture[str], args: list[str]) -> dict:
    assert main([*args, "--json"]) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "awaiting_review", out
    return out


def _refused(main, capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert main(args) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    return line


@pytest.fixture
def thread(tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
           cli_env: None) -> tuple[str, list[str]]:
    """A thread paused at its plan review, and the flags that find it."""
    from app.cli import main

    data = ["--data-dir", str(tmp_path / "data"), "--corpus", str(small_corpus)]
    out = _paused(main, capsys, ["research", SMALL_TOPIC, "--as-of", AS_OF, "--review", *data])
    assert out["review"]["stage"] == "plan"
    return out["thread_id"], data


@pytest.mark.parametrize("bad", ["a\x1bb resume", "ring\x07 relay", "zorblax\x7f relay",
                                 "\u202ezorblax relay", "zorblax\x9b relay"],
                         ids=["esc", "bel", "del", "rlo", "c1"])
def test_a_question_the_plan_check_refuses_is_refused_at_the_review(
        thread: tuple[str, list[str]], capsys: pytest.CaptureFixture[str], bad: str) -> None:
    from app.cli import main

    thread_id, data = thread
    line = _refused(main, capsys, ["review", thread_id, *data, "--question", "What is a relay?",
                                   "--question", bad])
    assert line == f"error: sub-question 2 ({bad!r}) contains control characters", line
    assert "\x1b" not in line and "\x07" not in line  # shown escaped, never sent to a terminal
    plan = _paused(main, capsys, ["review", thread_id, *data])  # still awaiting that review
    assert plan["review"]["stage"] == "plan" and "error" not in plan["review"]
    results = _paused(main, capsys, ["review", thread_id, *data, "--question",
                                     "What is a zorblax relay?"])
    assert {e["task_key"] for e in results["review"]["envelopes"]} == {"What is a zorblax relay?"}


def test_approve_with_a_decision_that_goes_on_otherwise_is_refused(
        thread: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    thread_id, data = thread
    line = _refused(main, capsys, ["review", thread_id, *data, "--approve", "--question",
                                   "What is a relay?"])
    assert line == ("error: --approve and --question contradict each other: --approve runs the "
                    "plan as it is, --question replaces it; give one of them")
    results = _paused(main, capsys, ["review", thread_id, *data, "--approve"])["review"]
    assert results["stage"] == "results"  # the refusal changed nothing
    first, second = (e["envelope_id"] for e in results["envelopes"][:2])
    line = _refused(main, capsys, ["review", thread_id, *data, "--approve", "--redo", first])
    assert line.startswith("error: --approve and --redo contradict each other: ")
    # with --drop, --approve means what --drop alone does: persist all but those
    assert main(["review", thread_id, *data, "--approve", "--drop", second, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "ok" and out["db_rows"] == len(results["envelopes"]) - 1


def test_dropping_every_result_at_review_is_no_failure(
        thread: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main
    from app.research.relevance import DROPPED_AT_REVIEW

    thread_id, data = thread
    results = _paused(main, capsys, ["review", thread_id, *data, "--approve"])["review"]
    drops = [flag for e in results["envelopes"] for flag in ("--drop", e["envelope_id"])]
    assert main(["review", thread_id, *data, *drops, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    count = len(results["envelopes"])
    assert (out["status"], out["exit_code"], out["outcome"], out["ok"]) == ("ok", 0, "ok", True)
    assert out["failed_tasks"] == [] and out["db_rows"] == 0
    assert out["warnings"] == [{"code": DROPPED_AT_REVIEW, "message": (
        f"every result ({count}) was dropped at review: nothing was persisted, and the report "
        "has no finding")}]
    report = Path(out["report_path"]).read_text(encoding="utf-8")
    assert "No sourced answer was found" not in report
    assert "No limitations or warnings were found" not in report
    answer = report.split("## Answer\n\n", 1)[1].split("\n", 1)[0]
    assert answer == (f"- _Every result ({count}) was dropped at review: nothing was persisted, "
                      "and no finding is reported (see Notes)._")
    assert report.count("dropped at review, not persisted: ") == count  # the Notes name each
    assert main(["threads", *data[:2], "--json"]) == 0
    assert [t["status"] for t in json.loads(capsys.readouterr().out)] == ["finished"]


def test_a_plan_refused_at_dispatch_names_the_plan_review_to_decide_again(
        thread: tuple[str, list[str]], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a thread a review let a bad plan through (before the review asked the plan check; or a
    # check that differs again one day) said "was the state edited? edit it again with
    # update_state" to a user who edited nothing, and every way on was refused
    import app.research.topics
    from app.cli import main
    from app.settings.hints import APP

    thread_id, data = thread
    monkeypatch.setattr(app.research.topics, "question_problem", lambda question: None)
    line = _refused(main, capsys, ["review", thread_id, *data, "--question", "a\x1bb resume"])
    monkeypatch.undo()
    assert "was the state edited" not in line and "update_state" not in line, line
    assert line.startswith("error: the thread's plan cannot run: sub-question 1 ('a\\x1bb "
                           "resume') is no question to research: the question contains control "
                           "characters; decide its plan review again: "), line
    review = line.split("decide its plan review again: ", 1)[1].split(" (or --approve", 1)[0]
    assert review.startswith(f"{APP} review {thread_id} ") and "--checkpoint " in review
    assert _refused(main, capsys, ["resume", thread_id, *data]) == line  # said again, the same
    pasted = review.replace(APP + " ", "", 1).replace("--question TEXT", "--question "
                                                      "'What is a zorblax relay?'")
    results = _paused(main, capsys, shlex.split(pasted))  # the way it names works
    assert {e["task_key"] for e in results["review"]["envelopes"]} == {"What is a zorblax relay?"}


def test_a_question_with_control_characters_reaches_a_terminal_escaped() -> None:
    # a state edit (Studio, update_state) can still write one: the pause and the progress lines
    # show it escaped (trial 10 saw the ESC sent to the terminal as it was)
    import io

    from app.cli.progress import Progress
    from app.cli.summary import print_pause

    bad = "a\x1bb \u202ec\x9b resume"
    pause = {"thread_id": "t", "review": {"stage": "plan", "sub_questions": [bad]}}
    out = io.StringIO()
    print_pause(pause, out)
    Progress(out)("planned", {"sub_questions": [bad], "total": 3})
    Progress(out)("envelope", {"envelope": {"worker": "critic", "task_key": bad, "status": "ok"},
                               "done": 1, "total": 3})
    text = out.getvalue()
    assert not any(ch in text for ch in "\x1b\u202e\x9b"), text
    assert text.count("a\\x1bb \\u202ec\\x9b resume") == 3, text


def test_a_drop_at_a_reruns_review_says_the_earlier_row_was_removed(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # Trial 11: on a rerun, dropping a result at review removes the row the earlier run wrote
    # (a drop keeps a result out of the database), and the lines said only "not persisted".
    from app.cli import main
    from tests.results_db import db_rows

    data = ["--data-dir", str(tmp_path / "data"), "--corpus", str(small_corpus)]
    run = ["research", SMALL_TOPIC, "--as-of", AS_OF, *data]
    assert main([*run, "--quiet"]) == 0
    before = {r["envelope_id"] for r in db_rows(tmp_path / "data")}
    capsys.readouterr()
    thread_id = _paused(main, capsys, [*run, "--review"])["thread_id"]
    results = _paused(main, capsys, ["review", thread_id, *data, "--approve"])["review"]
    critic = next(e["envelope_id"] for e in results["envelopes"] if e["worker"] == "critic")
    assert critic in before
    assert main(["review", thread_id, *data, "--drop", critic, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["envelope_id"] for r in db_rows(tmp_path / "data")} == before - {critic}
    assert ("dropped at review: 1 row(s) an earlier run of the thread had written were removed "
            "from the results database") in out["notes"], out["notes"]


def test_the_drop_line_at_the_results_pause_says_the_rest_are_approved(
        thread: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    # Trial 17, finding 5: the pause listed --approve, --drop and --redo as if a drop waited
    # for an --approve; `review T --drop ID` alone persisted the rest and wrote the report.
    from app.cli import main

    thread_id, data = thread
    assert main(["review", thread_id, *data, "--approve"]) == 0
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if " --drop ENVELOPE_ID" in line]
    assert "the rest are approved: persisted and reported" in line, out
    dropped, *kept = [line.split()[0] for line in out.splitlines()
                      if line.startswith("  ") and ":" in line.split()[0]]
    command = shlex.split(line.split("   (")[0].replace("ENVELOPE_ID ...", dropped))
    assert main([*command[command.index("review"):], *data]) == 0  # pasted: the run ends
    assert "report written" in capsys.readouterr().out
    assert main(["inspect", thread_id, *data[:2], "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert sorted(r["envelope_id"] for r in rows) == sorted(kept)


def test_a_reruns_results_review_counts_its_own_rounds_and_says_what_is_persisted(
        thread: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    # Trial 35, F5: a finished thread run again with --review showed its results as "round 2"
    # (the thread's count; the run's own lines count from 1) under "nothing persisted yet",
    # though rows of the earlier run stood for those very tasks
    from app.cli import main

    thread_id, data = thread
    for _ in range(2):
        assert main(["review", thread_id, *data, "--approve", "--quiet"]) == 0
    capsys.readouterr()
    again = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--review", *data]
    assert _paused(main, capsys, again)["review"]["stage"] == "plan"
    assert main(["review", thread_id, *data, "--approve"]) == 0
    out = capsys.readouterr().out
    assert "results (3) of this run, not persisted until approved:" in out, out
    lines = [line for line in out.splitlines() if line.startswith(f"  {'docs_search'}")]
    assert lines and all(" round 1 " in line for line in lines), out
    summary = _paused(main, capsys, ["review", thread_id, *data])
    assert {e["run_round"] for e in summary["review"]["envelopes"]} == {1}
    assert {e["round"] for e in summary["review"]["envelopes"]} == {2}  # the thread's count
