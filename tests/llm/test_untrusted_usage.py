"""A provider's token usage is read as untrusted input (trial 39, finding 3), over real HTTP.

A model server reports ``usage`` with every answer, and the app sums it into the run's
``tokens`` (state, the rows, the budget). A count no response can have (negative, ``10**30``,
``1e300``, a fraction, a string) is no count: the response is *unmetered*, as one without
usage, and the run's notes say so. It used to be trusted: a negative count from the analyst
made every later command on the thread refuse it ("tokens must be a whole number >= 0 ... was
the state edited?"), and ``10**30`` crashed the run after every paid request
(``OverflowError`` writing the rows, ``TypeError: Integer exceeds 64-bit range`` writing the
checkpoint), so the same command paid for all of it again.
"""

from __future__ import annotations

import pytest

from tests.expected import worker_names
from tests.llm.fake_openai import PLAN_QUESTIONS
from tests.results_db import db_rows

N_TASKS = len(PLAN_QUESTIONS) * len(worker_names())
UNTRUSTED = ("analyst: the model server reported a token usage no response can have (negative, "
             "fractional, past 1,000,000,000 or not a number): such a response is counted as one "
             "without usage")
NOTE_END = ("not a whole number from 0 to 1,000,000,000): the token count is incomplete and "
            "the token budget (--max-tokens) cannot count them")




def _unmetered_note(summary: dict) -> str:
    (note,) = [n for n in summary["notes"] if "gave no token usage the client could read" in n]
    return note


def test_a_negative_usage_from_the_analyst_is_not_counted_and_the_thread_runs_again(
        fake_openai, run, tmp_path):
    fake_openai.fail("analyst", kind="usage", times=None,
                     usage={"prompt_tokens": -1000000, "completion_tokens": 0,
                            "total_tokens": -1000000})
    proc, summary, _ = run("--max-tokens", "100000")
    assert proc.returncode == 0, proc.stderr
    assert "was the state edited" not in proc.stderr and "Traceback" not in proc.stderr
    assert summary["db_rows"] == N_TASKS and summary["errors"] == []
    analyst = fake_openai.requests("analyst", status=200)
    assert summary["tokens"] == fake_openai.total_tokens > 0  # the analyst's count none
    assert _unmetered_note(summary) == (
        f"{len(analyst)} model response(s) gave no token usage the client could read (none, or "
        + NOTE_END)
    # which model's server, and what it did: once, however many of its tasks met it
    (said,) = [n for n in summary["notes"] if "usage no response can have" in n]
    assert said == (f"{UNTRUSTED} ({len(PLAN_QUESTIONS)} times)"), said
    assert all(r["tokens"] == 0 for r in db_rows(tmp_path / "data") if r["worker"] == "analyst")
    # the thread is not broken: the same command runs it again, on a server that now behaves
    fake_openai.faults.clear()
    again, summary, _ = run("--max-tokens", "100000")
    assert again.returncode == 0, again.stderr
    assert summary["db_rows"] == N_TASKS


@pytest.mark.parametrize("usage", [
    {"prompt_tokens": 10**30, "completion_tokens": 0, "total_tokens": 10**30},
    {"prompt_tokens": "many", "completion_tokens": -5, "total_tokens": 1e300},
    {"prompt_tokens": 3, "completion_tokens": 4.5},
], ids=["10**30", "garbage", "fraction"])
def test_a_usage_no_response_can_have_in_every_role_never_ends_the_run(fake_openai, run,
                                                                     usage):
    fake_openai.fail("*", kind="usage", times=None, usage=usage)
    proc, summary, _ = run()
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr
    assert summary["sub_questions"] == PLAN_QUESTIONS  # the planner's answer was used
    assert summary["db_rows"] == N_TASKS and summary["errors"] == []
    assert summary["tokens"] == 0
    answered = len(fake_openai.requests(status=200))
    assert _unmetered_note(summary).startswith(f"{answered} model response(s) ")
    said = {n.split(":")[0] for n in summary["notes"] if "usage no response can have" in n}
    assert said == {"the planner", "analyst", "critic", "the report model"}, summary["notes"]
    assert len(fake_openai.requests("report")) == 1  # the summary too, asked once
