"""Provider-side faults over real HTTP, for every model role (planner, agent workers, report):
malformed 200 answers, Retry-After, token counting, and the causes named in errors.

Each test scripts the fake OpenAI-compatible server (``fake_openai.py``) and runs the real CLI
(``cli_in_process``) or the real model pieces against it; waits are checked on the server's own
clock (when each request arrived).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.expected import worker_names
from tests.llm.conftest import llm_env, research_args
from tests.llm.fake_openai import PLAN_QUESTIONS, SYNTHESIS_SENTENCE
from tests.results_db import db_rows

N_TASKS = len(PLAN_QUESTIONS) * len(worker_names())


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]




def _gaps_after_429(requests) -> list[tuple[float, float]]:
    """For each 429 with Retry-After: (seconds until the next request arrived, Retry-After)."""
    out = []
    for i, seen in enumerate(requests):
        if seen.status == 429 and i + 1 < len(requests):
            out.append((requests[i + 1].at - seen.at, seen.retry_after))
    return out


# --- 5. a 200 without choices is a malformed response: retried, then named -----------------------

@pytest.mark.parametrize(("role", "kind"), [
    ("planner", "empty_choices"), ("planner", "null_choices"), ("planner", "error_200"),
    ("analyst", "empty_choices"), ("critic", "null_choices"),
    ("report", "empty_choices"), ("report", "null_choices"),
    # trial 23: a proxy's HTML page with status 200, and tool-call arguments double-encoded
    # (a JSON string holding the JSON): the run ended in "ValueError: Unexpected response
    # type" or pydantic's "ValidationError: ... tool_calls.0.args"
    ("planner", "html_200"), ("critic", "html_200"), ("report", "html_200"),
    ("analyst", "args_string"), ("report", "args_string"),
])
def test_malformed_200_is_retried_in_every_role(fake_openai, run, role, kind):
    fake_openai.fail(role, kind=kind)  # once
    proc, summary, data = run()
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert summary["errors"] == [] and summary["db_rows"] == N_TASKS
    assert summary["sub_questions"] == PLAN_QUESTIONS  # not the offline fallback plan
    assert not any(n.startswith("round 2") for n in summary["notes"])  # retried in its task
    if role in ("analyst", "critic"):
        retried = [(r["worker"], r["attempts"]) for r in db_rows(data) if r["attempts"] > 1]
        assert retried == [(role, 2)]
    if role == "report":
        assert len(fake_openai.requests("report")) == 2
        report = Path(summary["report_path"]).read_text(encoding="utf-8")
        assert SYNTHESIS_SENTENCE in report
    # every token the server served is counted, the malformed answer's too; when the client
    # library raised before it could read the answer's usage, the notes say so
    (bad,) = [s for s in fake_openai.seen if s.fault == kind]
    if kind == "empty_choices":
        assert summary["tokens"] == fake_openai.total_tokens
    else:
        assert summary["tokens"] == fake_openai.total_tokens - bad.total_tokens
        assert summary["notes"][-1].startswith(
            "1 model response(s) gave no token usage the client could read")


@pytest.mark.parametrize("kind", ["empty_choices", "null_choices"])
def test_planner_that_never_answers_properly_ends_with_one_named_line(fake_openai, run, kind):
    fake_openai.fail("planner", kind=kind, times=None)
    proc, _summary, data = run()
    assert proc.returncode == 1
    (line,) = _error_lines(proc.stderr)
    assert "MalformedResponseError" in line and "'choices' list" in line
    assert "malformed response" in line and "IndexError" not in line
    assert "Traceback" not in proc.stderr
    assert len(fake_openai.requests("planner")) == 3  # retried by the RetryPolicy


def test_a_planner_whose_tool_call_arguments_cannot_be_read_falls_back_to_its_own_plan(
        fake_openai, run):
    # trial 23, finding 1: double-encoded arguments ended the run at the planner with pydantic's
    # text; an answer that cannot be read is one that does not fit (as bad JSON is)
    fake_openai.fail("planner", kind="args_string", times=None)
    proc, summary, _data = run()
    assert proc.returncode == 0, proc.stderr
    assert "ValidationError" not in proc.stderr and "Traceback" not in proc.stderr
    assert summary["sub_questions"] != PLAN_QUESTIONS and summary["db_rows"] > 0
    (note,) = [n for n in summary["notes"] if n.startswith("the planner's answer was unusable")]
    assert "tool-call arguments are not a JSON object" in note, note
    assert len(fake_openai.requests("planner")) == 1


@pytest.mark.parametrize(("kind", "said", "unsaid"), [
    ("html_200", "a page that is not JSON (502 Bad Gateway)", "Unexpected response type"),
    # trial 70, F1: "JSONDecodeError: Expecting value", at once, unretried
    ("not_json_200", "a body that is not JSON", "JSONDecodeError"),
    # trial 70, F4: half a body, then the connection closed, was "cannot reach the model
    # server ...: is it running, at that address?"
    ("cut_200", "closed the connection before its answer was complete", "is it running"),
])
def test_a_planner_whose_answer_cannot_be_read_ends_with_one_named_line(fake_openai, run, kind,
                                                                         said, unsaid):
    fake_openai.fail("planner", kind=kind, times=None)
    proc, _summary, _data = run()
    assert proc.returncode == 1
    (line,) = _error_lines(proc.stderr)
    assert said in line and unsaid not in line and "Traceback" not in proc.stderr, line
    assert len(fake_openai.requests("planner")) == 3  # transient: retried by the RetryPolicy


def test_a_workers_answer_sent_as_json_that_is_not_json_is_a_malformed_response(fake_openai,
                                                                                 run):
    # trial 70, F1: each worker's task ended after one attempt with a bare JSONDecodeError
    fake_openai.fail("analyst", kind="not_json_200", times=None, question=PLAN_QUESTIONS[0])
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert error["worker"] == "analyst" and "a body that is not JSON" in error["error"]
    (row,) = [r for r in db_rows(data) if r["status"] == "error"]
    assert row["attempts"] == 3 and "malformed response" in row["error"]


def test_malformed_worker_answer_names_the_cause_in_the_envelope(fake_openai, run):
    fake_openai.fail("analyst", kind="empty_choices", times=None, question=PLAN_QUESTIONS[0])
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert error["worker"] == "analyst" and "empty 'choices' list" in error["error"]
    (row,) = [r for r in db_rows(data) if r["status"] == "error"]
    assert row["attempts"] == 3 and "malformed response" in row["error"]


# --- 6. Retry-After is honoured, within a bounded patience ---------------------------------------

def test_planner_waits_out_retry_after(fake_openai, run):
    fake_openai.fail("planner", status=429, retry_after="2", times=2)
    proc, summary, _data = run()
    assert proc.returncode == 0, proc.stderr
    assert summary["sub_questions"] == PLAN_QUESTIONS
    planner = fake_openai.requests("planner")
    assert [s.status for s in planner] == [429, 429, 200]
    gaps = _gaps_after_429(planner)
    assert len(gaps) == 2 and all(gap >= wait for gap, wait in gaps), gaps


def test_retry_after_holds_back_retries_other_workers_and_the_next_round(fake_openai, run):
    """One worker at a time, so every request after a 429 was sent after the client saw it:
    none may arrive inside the window, whatever its role, attempt or round."""
    question = PLAN_QUESTIONS[1]
    fake_openai.fail("critic", status=429, retry_after="1", times=3, question=question)
    proc, summary, data = run(RESEARCH_MAX_CONCURRENCY="1")
    assert proc.returncode == 0, proc.stderr
    assert summary["errors"] == [] and summary["db_rows"] == N_TASKS
    # the 3 429s were waited out within the task's first attempt (the rate-limit patience)
    assert not any(n.startswith("round 2") for n in summary["notes"])
    (row,) = [r for r in db_rows(data) if r["worker"] == "critic" and r["task_key"] == question]
    assert (row["status"], row["round"], row["attempts"]) == ("ok", 1, 1)
    seen = sorted(fake_openai.seen, key=lambda s: s.at)
    limited = [s for s in seen if s.status == 429]
    assert len(limited) == 3
    for s in limited:
        inside = [o for o in seen if s.at < o.at < s.at + 1.0]
        assert inside == [], [(o.role, o.step, round(o.at - s.at, 3)) for o in inside]
    assert len({s.role for s in seen if s.at > limited[0].at}) >= 2  # others were held too


def test_report_summary_waits_out_retry_after(fake_openai):
    from app.research.synthesis import make_summarizer
    from tests.llm.test_model_calls_over_http import _input, _model

    fake_openai.fail("report", status=429, retry_after="1")
    fake_openai.handed_out_refs = ["relay.md#0"]
    summarize = make_summarizer(_model(fake_openai), max_attempts=3, retry_interval=0.01)
    assert list(summarize(_input())) == [(SYNTHESIS_SENTENCE, ["relay.md#0"])]
    ((gap, wait),) = _gaps_after_429(fake_openai.requests("report"))
    assert gap >= wait == 1.0


@pytest.mark.parametrize("role", ["planner", "analyst"])
def test_retry_after_beyond_patience_is_reported_not_retried(fake_openai, run, role):
    fake_openai.fail(role, status=429, retry_after="900", times=None)
    proc, summary, data = run("--rounds", "1", RESEARCH_RETRY_PATIENCE="5")
    # the planner's stops the run: try later (75); an analyst's fails its tasks: exit 1
    assert proc.returncode == (75 if role == "planner" else 1), proc.stderr
    expected = "asked to wait 900 s before the next request (Retry-After), more than the 5 s"
    if role == "planner":
        (line,) = _error_lines(proc.stderr)
        assert expected in line and "RESEARCH_RETRY_PATIENCE" in line
        assert len(fake_openai.requests("planner")) == 1  # no attempt spent inside the window
    else:
        errors = [e for e in summary["errors"] if e["worker"] == "analyst"]
        assert len(errors) == len(PLAN_QUESTIONS)
        assert all(expected in e["error"] for e in errors)
        assert {r["attempts"] for r in db_rows(data) if r["worker"] == "analyst"} == {1}


def test_ctrl_c_during_a_retry_after_wait_stops_at_once_and_the_run_resumes(
    fake_openai, llm_corpus, tmp_path, cli_in_process
):
    """A Retry-After wait must not outlive the run: Ctrl-C ends it now, not after the window."""
    import signal
    import subprocess
    import sys
    import time

    fault = fake_openai.fail("critic", status=429, retry_after="60", times=None)
    env = llm_env(fake_openai, RESEARCH_RETRY_PATIENCE="120")
    args = research_args(llm_corpus, tmp_path / "data")
    proc = subprocess.Popen([sys.executable, "-m", "app", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not fake_openai.requests(status=429) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fake_openai.requests(status=429), "the critic never met its 429"
        time.sleep(0.5)  # the workers are now waiting out the 60 s window
        interrupted = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _out, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert time.monotonic() - interrupted < 45  # well inside the window it was waiting out
    assert proc.returncode == 130, stderr
    assert "interrupted: the run can be resumed with: uv run python -m app research" in stderr
    assert "Traceback" not in stderr

    # the window outlives the stopped run (tests/llm/test_kept_windows.py waits one out);
    # here the provider recovers at once, and the window is let go
    kept = tmp_path / "data" / "retry-after.json"
    assert list(json.loads(kept.read_text(encoding="utf-8")).values())[0] > time.time() + 10
    kept.unlink()
    fault.times = 0
    done = cli_in_process(args + ["--json"], env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["db_rows"] == N_TASKS


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_a_run_waiting_in_the_rate_limiter_stops_on_a_signal(
    fake_openai, llm_corpus, tmp_path, signum
):
    """A planner waiting for its rate limiter's token (RESEARCH_REQUESTS_PER_SECOND=0.002:
    500 s per request, the first too) stops at SIGTERM / Ctrl-C, as any wait does; it used to
    hold the process until SIGKILL (finding 16 of trial 8, at 0.0001, now refused)."""
    import signal
    import subprocess
    import sys
    import time

    from tests.cli_env import clean_env
    from tests.results_db import db_runs

    env = clean_env(llm_env(fake_openai, RESEARCH_REQUESTS_PER_SECOND="0.002"))
    args = research_args(llm_corpus, tmp_path / "data")
    proc = subprocess.Popen([sys.executable, "-m", "app", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not db_runs(tmp_path / "data") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert db_runs(tmp_path / "data"), "the thread never started"
        time.sleep(1.0)  # the planner now waits for its token
        assert fake_openai.requests() == []
        stopped = time.monotonic()
        proc.send_signal(getattr(signal, signum))
        _out, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert time.monotonic() - stopped < 15, stderr
    assert proc.returncode == (143 if signum == "SIGTERM" else 130), stderr
    assert "can be resumed with: uv run python -m app research" in stderr
    assert "Traceback" not in stderr


def test_a_request_rate_whose_wait_passes_600_s_is_refused():
    from app.settings.config import ConfigError
    from app.settings.env import load_settings

    for rate in ("0", "0.002", str(1 / 600)):
        assert load_settings({"RESEARCH_REQUESTS_PER_SECOND": rate}, env_file=None)
    with pytest.raises(ConfigError, match=r"^RESEARCH_REQUESTS_PER_SECOND: 0.0001 makes each "
                                          r"model request wait 10000 s for its turn.*0 for no"):
        load_settings({"RESEARCH_REQUESTS_PER_SECOND": "0.0001"}, env_file=None)


def test_retry_patience_is_bounded(tmp_path):
    from app.settings.config import ConfigError
    from app.settings.env import load_settings

    assert load_settings({}, env_file=None).retry_patience == 60
    assert load_settings({"RESEARCH_RETRY_PATIENCE": "600"}, env_file=None).retry_patience == 600
    with pytest.raises(ConfigError, match="RESEARCH_RETRY_PATIENCE must be <= 600"):
        load_settings({"RESEARCH_RETRY_PATIENCE": "601"}, env_file=None)


# --- 7. every token served is counted, so the budget stops the run ------------------------------

def test_tokens_of_failed_and_retried_attempts_are_counted(fake_openai, run):
    fake_openai.fail("analyst", kind="null_tool_id", times=None)  # every analyst attempt fails
    proc, summary, data = run()
    assert proc.returncode == 1
    assert len(fake_openai.requests("analyst")) == 2 * 3 * len(PLAN_QUESTIONS)
    assert summary["tokens"] == fake_openai.total_tokens
    # A row holds its latest dispatch (round 2): its 3 failed attempts' tokens, not 0.
    analyst = sorted(fake_openai.requests("analyst"), key=lambda s: s.at)
    round_2 = analyst[len(analyst) // 2:]
    rows = [r for r in db_rows(data) if r["worker"] == "analyst"]
    assert {(r["round"], r["attempts"], r["status"]) for r in rows} == {(2, 3, "error")}
    assert sum(r["tokens"] for r in rows) == sum(s.total_tokens for s in round_2) > 0


def test_budget_counts_failed_attempts_and_stops_round_2_and_the_summary(fake_openai, run):
    # Each failed analyst answer costs 1,000 tokens: round 1 alone spends over 9,000.
    fake_openai.fail("analyst", kind="null_tool_id", times=None, tokens=1000)
    proc, summary, _data = run("--max-tokens", "5000")
    assert proc.returncode == 1
    assert summary["tokens"] == fake_openai.total_tokens > 9000
    assert not any(n.startswith("round 2") for n in summary["notes"])
    assert any(n.startswith("token budget spent (") and "were not dispatched again" in n
               for n in summary["notes"])
    assert "no model summary: the token budget is spent" in summary["notes"]
    assert fake_openai.requests("report") == []
    assert len(fake_openai.requests("analyst")) == 3 * len(PLAN_QUESTIONS)  # round 1 only


def test_server_without_usage_is_named_in_the_notes(fake_openai, run):
    fake_openai.fail("*", kind="no_usage", times=None)
    proc, summary, _data = run("--max-tokens", "100000")
    assert proc.returncode == 0, proc.stderr
    answered = len(fake_openai.requests(status=200))
    note = (f"{answered} model response(s) gave no token usage the client could read (none, "
            "or not a whole number from 0 to 1,000,000,000): the token count is incomplete and "
            "the token budget (--max-tokens) cannot count them")
    assert note in summary["notes"]
    assert note in Path(summary["report_path"]).read_text(encoding="utf-8")


# --- 8. the provider-side cause is named --------------------------------------------------------

def test_tool_call_without_id_is_named(fake_openai, run):
    fake_openai.fail("analyst", kind="null_tool_id", times=None, question=PLAN_QUESTIONS[0])
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert "the provider sent a tool call (search_corpus) without an id" in error["error"]
    assert "unexpected type" not in error["error"]
    (row,) = [r for r in db_rows(data) if r["status"] == "error"]
    assert row["attempts"] == 3  # a malformed answer is transient: retried


def test_agent_output_cut_at_the_length_limit_is_named(fake_openai, run):
    fake_openai.fail("analyst", kind="length", times=None, step="answer",
                     question=PLAN_QUESTIONS[0])
    proc, summary, data = run("--rounds", "1")
    assert proc.returncode == 1
    (error,) = summary["errors"]
    assert ("analyst's output was cut off at its length limit (finish_reason \"length\")"
            in error["error"])
    assert "without a structured response" not in error["error"]
    (row,) = [r for r in db_rows(data) if r["status"] == "error"]
    assert row["attempts"] == 1  # the same request would hit the same limit


def test_planner_and_report_output_cut_at_the_length_limit_is_named(fake_openai, run):
    fake_openai.fail("planner", kind="length")
    fake_openai.fail("report", kind="length")
    proc, summary, _data = run()
    assert proc.returncode == 0, proc.stderr
    cut = 'output was cut off at its length limit (finish_reason "length")'
    assert summary["notes"][0] == (
        f"the planner's answer was unusable (the planner's {cut}): used the offline plan")
    assert f"no model summary: unusable answer (the report model's {cut})" in summary["notes"]


def test_a_planner_retry_is_said_as_a_workers_is(fake_openai, cli_in_process, llm_corpus,
                                                 tmp_path):
    # trial 23, finding 12: the planner's retries printed nothing (20-40 s of silence)
    fake_openai.fail("planner", status=500)  # once
    proc = cli_in_process(research_args(llm_corpus, tmp_path / "data"), llm_env(fake_openai))
    assert proc.returncode == 0, proc.stderr
    said = proc.stdout + proc.stderr
    (line,) = [n for n in said.splitlines() if "planner" in n and " retry " in n]
    assert "(attempt 1 of 3 failed:" in line and "500" in line, line
