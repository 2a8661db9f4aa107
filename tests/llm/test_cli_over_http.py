"""The CLI with a real model client (``ChatOpenAI``) talking real HTTP to the fake server.

Each test runs ``python -m app research ... --model openai:gpt-4.1-mini`` with
``OPENAI_BASE_URL`` pointing at the fake server (see ``fake_openai.py``), from a temp folder (no
``.env``): in a subprocess for the full run, the bad key and the settings precedence; in this
process (``cli_in_process``, same ``main``, no interpreter start) for the other failure modes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.app.report_rows import listed_refs
from tests.cli_env import run_cli
from tests.expected import worker_names
from tests.llm.conftest import llm_env, research_args
from tests.llm.fake_openai import FAKE_KEY, PLAN_QUESTIONS, SYNTHESIS_SENTENCE, UNSOURCED_SENTENCE
from tests.results_db import db_rows, db_runs

N_TASKS = len(PLAN_QUESTIONS) * len(worker_names())  # one task per worker per sub-question


def _summary(stdout: str) -> dict:
    return json.loads(stdout)


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def test_full_research_run_over_http(fake_openai, llm_corpus, tmp_path):
    data = tmp_path / "data"
    proc = run_cli(*research_args(llm_corpus, data, "--json"), env=llm_env(fake_openai),
                   cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    summary = _summary(proc.stdout)
    assert "Traceback" not in proc.stderr

    # The run says which provider and model it uses (and where), never the key.
    assert f"model: openai:gpt-4.1-mini via {fake_openai.url}" in proc.stderr
    assert summary["model"] == f"openai:gpt-4.1-mini via {fake_openai.url}"

    # Every role went over HTTP, with the key from the environment.
    planner = fake_openai.requests("planner")
    assert len(planner) == 1 and planner[0].status == 200
    body = planner[0].body
    # Structured output by function calling: the Plan tool, forced.
    assert [t["function"]["name"] for t in body["tools"]] == ["Plan"]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "Plan"}}
    assert "response_format" not in body
    for role, schema in (("analyst", "Findings"), ("critic", "Caveats")):
        seen = fake_openai.requests(role)
        searches = [s for s in seen if s.step == "search"]
        answers = [s for s in seen if s.step == "answer"]
        assert len(searches) == len(answers) == len(PLAN_QUESTIONS)
        for s in searches:
            assert s.answer["tool_calls"][0]["function"]["name"] == "search_corpus"
            tools = {t["function"]["name"] for t in s.body["tools"]}
            assert {"search_corpus", "read_document", schema} <= tools
            assert s.body["tool_choice"] == "required"  # ToolStrategy forces a tool call
        for s in answers:  # the tool loop: the answer follows the search result it received
            assert any(m["role"] == "tool" for m in s.body["messages"])
            assert s.answer["tool_calls"][0]["function"]["name"] == schema
    report_requests = fake_openai.requests("report")
    assert len(report_requests) == 1
    assert {s.authorization for s in fake_openai.seen} == {f"Bearer {FAKE_KEY}"}
    assert {s.model for s in fake_openai.seen} == {"gpt-4.1-mini"}

    # The report: the planner's sub-questions, the synthesis with a valid citation, and the
    # unsourced synthesis sentence dropped.
    assert summary["sub_questions"] == PLAN_QUESTIONS
    assert summary["envelopes"] == summary["db_rows"] == N_TASKS and summary["duplicates"] == 0
    report = Path(summary["report_path"]).read_text(encoding="utf-8")
    # each sub-question has its section, or a note when its evidence adds nothing the
    # sections above do not show (the fake analyst quotes the same passages for all three)
    sections = re.findall(r"^## \d+\. (.+)$", report, re.MULTILINE)
    notes = report.partition("## Notes")[2]
    assert sections and sections[0] == PLAN_QUESTIONS[0]
    for question in PLAN_QUESTIONS:
        assert question in sections or f'"{question}"' in notes, question
    match = re.search(re.escape(SYNTHESIS_SENTENCE) + r" \[(\d+)\]", report)
    assert match, report
    # Sources: a document per number, its cited passages listed under it
    entries = re.findall(r"^(\d+)\. `[^`]+`[^\n]*\n   - passages: ([^\n]+)", report,
                         re.MULTILINE)
    cited = listed_refs(dict(entries)[match.group(1)])
    assert cited and all(ref in fake_openai.handed_out_refs for ref in cited)  # real passages
    assert any(ref in report_requests[0].body["messages"][-1]["content"] for ref in cited)
    assert UNSOURCED_SENTENCE not in report
    assert "made/up.md#9" not in report

    # Tokens: the sum of the usage the server returned (planner + agents + synthesis), in the
    # summary and in the runs table.
    assert fake_openai.total_tokens > 0
    assert summary["tokens"] == fake_openai.total_tokens
    assert db_runs(data)[0]["tokens"] == fake_openai.total_tokens
    agent_tokens = sum(r["tokens"] for r in db_rows(data))
    assert 0 < agent_tokens < summary["tokens"]  # the planner's and the report's are added

    # The key reaches no file of the data dir (checkpoints, results, index, report) and no
    # output stream.
    assert FAKE_KEY not in proc.stdout and FAKE_KEY not in proc.stderr
    files = [p for p in data.rglob("*") if p.is_file()]
    assert any(p.name == "checkpoints.sqlite" for p in files)
    assert any(p.suffix == ".md" for p in files)
    for path in files:
        blob = path.read_bytes()
        assert FAKE_KEY.encode() not in blob, path
        assert b"LEAKCANARY" not in blob, path


def test_rate_limited_worker_request_is_retried_within_its_task_attempt(
    fake_openai, llm_corpus, tmp_path, cli_in_process
):
    fake_openai.fail("critic", status=429)  # the first critic request gets a 429, once
    data = tmp_path / "data"
    proc = cli_in_process(research_args(llm_corpus, data, "--json"), llm_env(fake_openai))
    assert proc.returncode == 0, proc.stderr
    summary = _summary(proc.stdout)
    assert summary["errors"] == [] and summary["duplicates"] == 0

    rows = db_rows(data)
    ids = [r["envelope_id"] for r in rows]
    assert len(ids) == len(set(ids)) == N_TASKS
    # A rate limit is no failed attempt: the request is sent again after a backoff, within the
    # task's attempt (workers.pacing.RateLimitPatience), and no RetryPolicy attempt is spent.
    assert {(r["attempts"], r["status"]) for r in rows} == {(1, "ok")}
    assert all(r["write_count"] == 1 for r in rows)

    # One 429, and the openai client did not retry it by itself (max_retries=0): the one
    # refused request was sent again, nothing else.
    assert len(fake_openai.requests(status=429)) == 1
    assert len(fake_openai.requests("critic")) == 2 * len(PLAN_QUESTIONS) + 1


@pytest.mark.parametrize("where", ["planner", "worker"])
def test_bad_key_stops_the_run_with_one_line(
    fake_openai, llm_corpus, tmp_path, cli_in_process, where
):
    data = tmp_path / "data"
    if where == "planner":  # a real process: exit code, streams
        fake_openai.expected_key = "sk-the-right-key-000000000000"  # every request is a 401
        proc = run_cli(*research_args(llm_corpus, data), env=llm_env(fake_openai), cwd=tmp_path,
                       timeout=60)
    else:  # the planner passes, the analyst's first request is rejected
        fake_openai.fail("analyst", status=401, times=None)
        proc = cli_in_process(research_args(llm_corpus, data), llm_env(fake_openai))
    assert proc.returncode == 1
    errors = _error_lines(proc.stderr)
    assert len(errors) == 1, proc.stderr
    assert errors[0].startswith("error: model error: authentication failed (HTTP 401)")
    assert "Traceback" not in proc.stderr
    assert FAKE_KEY not in proc.stderr + proc.stdout  # the server echoed it; the app masks it
    assert db_rows(data) == []  # nothing half-done was persisted
    if where == "planner":  # stopped at once: no retry of a 401, no worker started
        assert len(fake_openai.seen) == 1


@pytest.mark.parametrize("key", [FAKE_KEY, "local-gateway-LEAKCANARY-0042"])
def test_a_key_the_server_echoes_reaches_no_file(fake_openai, llm_corpus, tmp_path,
                                                 cli_in_process, key):
    # trial 23, finding 4: the 401's message, with the key echoed in full, was kept by
    # LangGraph as the failed task's error write in checkpoints.sqlite; a key in no known
    # form (a local gateway's) is masked as one of the operator's secrets
    fake_openai.expected_key = "sk-the-right-key-000000000000"  # every request is a 401
    data = tmp_path / "data"
    proc = cli_in_process(research_args(llm_corpus, data),
                          llm_env(fake_openai, OPENAI_API_KEY=key))
    assert proc.returncode == 1 and "HTTP 401" in proc.stderr, proc.stderr
    assert key not in proc.stderr + proc.stdout
    files = [p for p in data.rglob("*") if p.is_file()]
    assert any(p.name == "checkpoints.sqlite" for p in files)
    for path in files:
        assert b"LEAKCANARY" not in path.read_bytes(), path


def test_unknown_model_stops_the_run(fake_openai, llm_corpus, tmp_path, cli_in_process):
    fake_openai.known_models = {"gpt-4.1-mini"}
    data = tmp_path / "data"
    args = research_args(llm_corpus, data)
    args[args.index("openai:gpt-4.1-mini")] = "openai:gpt-nonexistent"
    proc = cli_in_process(args, llm_env(fake_openai))
    assert proc.returncode == 1
    errors = _error_lines(proc.stderr)
    assert len(errors) == 1 and "not found (HTTP 404)" in errors[0], proc.stderr
    assert "gpt-nonexistent" in errors[0]
    assert db_rows(data) == [] and len(fake_openai.seen) == 1


def test_persistent_500_for_one_worker(fake_openai, llm_corpus, tmp_path, cli_in_process):
    question = PLAN_QUESTIONS[1]
    fake_openai.fail("analyst", status=500, times=None, question=question)
    data = tmp_path / "data"
    proc = cli_in_process(research_args(llm_corpus, data, "--json"), llm_env(fake_openai))
    assert proc.returncode == 1
    summary = _summary(proc.stdout)
    assert [(e["worker"], e["sub_question"]) for e in summary["errors"]] == [
        ("analyst", question)
    ]
    assert "500" in summary["errors"][0]["error"]
    rows = db_rows(data)
    assert len(rows) == N_TASKS  # the error envelope and every other result are persisted
    failed = [r for r in rows if r["status"] == "error"]
    assert len(failed) == 1 and failed[0]["attempts"] == 3 and failed[0]["round"] == 2
    assert all(r["status"] == "ok" for r in rows if r is not failed[0])
    report = Path(summary["report_path"]).read_text(encoding="utf-8")
    assert "## Failures" in report and "`analyst`" in report
    # 3 attempts in each of 2 rounds, each failing at its first request
    assert len(fake_openai.requests("analyst", status=500)) == 6


@pytest.mark.parametrize("kind", ["bad_json", "bad_args"])
def test_malformed_tool_call_arguments_are_one_workers_problem(
    fake_openai, llm_corpus, tmp_path, cli_in_process, kind
):
    fake_openai.fail("analyst", kind=kind, step="answer")  # once
    data = tmp_path / "data"
    proc = cli_in_process(research_args(llm_corpus, data, "--json"), llm_env(fake_openai))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 0, proc.stderr
    summary = _summary(proc.stdout)
    assert summary["errors"] == [] and summary["db_rows"] == N_TASKS
    # Arguments that are not JSON (kept apart by ChatOpenAI as an invalid tool call) or that
    # fail the schema: the agent tells the model once what was wrong (workers.answer_protocol),
    # and it answers again within the same task.
    assert not any(n.startswith("round 2") for n in summary["notes"])
    retry = [s for s in fake_openai.requests("analyst")
             if any(m["role"] == "tool" and "Call Findings once" in str(m.get("content"))
                    for m in s.body["messages"])]
    assert len(retry) == 1
    assert "without a structured response" not in proc.stderr


def test_token_budget_note_reaches_the_report(
    fake_openai, llm_corpus, tmp_path, cli_in_process
):
    data = tmp_path / "data"
    proc = cli_in_process(research_args(llm_corpus, data, "--json", "--max-tokens", "100"),
                          llm_env(fake_openai))
    assert proc.returncode == 0, proc.stderr
    summary = _summary(proc.stdout)
    assert summary["errors"] == []  # no task failed, and still the budget is reported
    assert any(n.startswith("token budget spent (") for n in summary["notes"])
    assert "no model summary: the token budget is spent" in summary["notes"]
    assert fake_openai.requests("report") == []  # no spending past the budget
    report = Path(summary["report_path"]).read_text(encoding="utf-8")
    assert "token budget spent (" in report
    assert summary["tokens"] == fake_openai.total_tokens


def test_settings_precedence_flag_env_dotenv(fake_openai, llm_corpus, tmp_path):
    """A flag beats the environment, which beats ``.env``, which beats the default."""
    dotenv_key = "sk-from-dotenv-0000000000000000"
    (tmp_path / ".env").write_text(
        f"OPENAI_API_KEY={dotenv_key}\n"  # only here: the file beats the default
        f"OPENAI_BASE_URL={fake_openai.url}\n"
        "RESEARCH_MODEL=openai:model-from-dotenv\n"  # the environment beats it
        f"RESEARCH_DATA_DIR={tmp_path / 'dotenv-data'}\n",
        encoding="utf-8",
    )
    env = llm_env(fake_openai, RESEARCH_MODEL="openai:model-from-env",
                  RESEARCH_DATA_DIR=str(tmp_path / "env-data"),
                  OPENAI_API_KEY=None, OPENAI_BASE_URL=None)  # unset: the .env file gives them
    flag_dir = tmp_path / "flag-data"
    args = ["research", "glimmer relay", "--corpus", str(llm_corpus), "--as-of", "2026-01-15",
            "--data-dir", str(flag_dir), "--rounds", "1"]
    proc = run_cli(*args, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert {s.model for s in fake_openai.seen} == {"model-from-env"}
    assert {s.authorization for s in fake_openai.seen} == {f"Bearer {dotenv_key}"}
    assert f"model: openai:model-from-env via {fake_openai.url}" in proc.stdout
    assert len(db_rows(flag_dir)) == N_TASKS
    assert not (tmp_path / "env-data").exists() and not (tmp_path / "dotenv-data").exists()
    assert dotenv_key not in proc.stdout + proc.stderr


def test_credentials_in_the_base_url_reach_no_file(fake_openai, llm_corpus, tmp_path,
                                                   cli_in_process):
    # trial 24, finding 3: httpx sends a URL's user:password as "Authorization: Basic <base64>",
    # which a proxy's 401 echoed into checkpoints.sqlite (the password itself was masked)
    import base64

    fake_openai.expected_key = "sk-the-right-key-000000000000"  # every request is a 401
    url = fake_openai.url.replace("http://", "http://bob:pw-LEAKCANARY-9@")
    basic = base64.b64encode(b"bob:pw-LEAKCANARY-9")
    data = tmp_path / "data"
    proc = cli_in_process(research_args(llm_corpus, data), llm_env(fake_openai,
                                                                   OPENAI_BASE_URL=url))
    assert proc.returncode == 1 and "HTTP 401" in proc.stderr, proc.stderr
    assert fake_openai.seen[0].authorization == f"Basic {basic.decode()}"
    assert basic.decode() not in proc.stderr and "LEAKCANARY" not in proc.stderr
    for path in (p for p in data.rglob("*") if p.is_file()):
        blob = path.read_bytes()
        assert basic not in blob and b"LEAKCANARY" not in blob, path


def test_a_model_server_that_is_not_running_is_named(fake_openai, llm_corpus, tmp_path,
                                                     cli_in_process):
    # trial 23, finding 8: "run failed: OpenAIConnectionError: Connection error." named neither
    # the model nor the server
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    proc = cli_in_process(research_args(llm_corpus, tmp_path / "data"),
                          llm_env(fake_openai, OPENAI_BASE_URL=url))
    assert proc.returncode == 1
    (line,) = _error_lines(proc.stderr)
    assert f"openai:gpt-4.1-mini: cannot reach the model server at {url}" in line, line
    assert "is it running, at that address?" in line and "Traceback" not in proc.stderr
