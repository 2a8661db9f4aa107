"""``research --mcp-config FILE``: a stdio MCP server's tool offered to the agent workers
(issue 20 §1), against ``tests/mcp_server.py`` (the ``mcp`` SDK's ``FastMCP``, launched with
``sys.executable``), which counts the calls it answers in a file.

What users rely on: the offline agents call the tool and the report cites its answers as
``mcp:NAME/TOOL``; a rerun of the thread never calls it again with the same arguments; a server
that does not start stops the run before it begins (exit 2, one line naming it); a failing tool
ends as its tasks' error envelopes while the other tasks go on.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

from app.research.plan import offline_plan
from tests.conftest import AS_OF, ROOT, SEVERAL_TOPIC, SMALL_TOPIC, run_cli
from tests.results_db import db_rows, pg_query

QUESTIONS = offline_plan(SMALL_TOPIC)
SERVER = ROOT / "tests" / "mcp_server.py"


def mcp_config(tmp_path: Path, calls: Path, mode: str = "ok", command: str | None = None) -> Path:
    config = tmp_path / "mcp.json"
    entry = {"command": command or sys.executable, "args": [str(SERVER), str(calls), mode]}
    config.write_text(json.dumps({"mcpServers": {"notes": entry}}), encoding="utf-8")
    return config


def research(corpus: Path, data: Path, config: Path, *extra: str, topic: str = SMALL_TOPIC):
    return run_cli("research", topic, "--as-of", AS_OF, "--corpus", corpus,
                   "--data-dir", data, "--mcp-config", config, "--json", *extra)


def calls_of(calls: Path) -> list[str]:
    return calls.read_text("utf-8").splitlines() if calls.exists() else []


def test_the_agents_call_an_mcp_tool_cite_it_and_a_rerun_never_calls_it_again(
        tmp_path: Path, small_corpus: Path) -> None:
    data, calls = tmp_path / "data", tmp_path / "calls.txt"
    config = mcp_config(tmp_path, calls)
    proc = research(small_corpus, data, config)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"] and not summary["errors"], summary
    assert summary["corpus"].endswith(" + MCP tools of notes")
    # analyst and critic ask the same sub-question: one call answers both
    assert sorted(calls_of(calls)) == sorted(QUESTIONS)
    report = Path(summary["report_path"]).read_text("utf-8")
    sources = report.split("## Sources", 1)[1]
    assert "`mcp:notes/lookup`" in sources or "`mcp:notes/lookup#" in sources
    assert "The field notes say that a zorblax relay forwards signals for" in report
    with sqlite3.connect(data / "mcp.sqlite") as con:
        recorded = con.execute("SELECT server, tool, args FROM mcp_calls").fetchall()
    assert sorted(json.loads(a)["query"] for _, _, a in recorded) == sorted(QUESTIONS)
    assert {(s, t) for s, t, _ in recorded} == {("notes", "lookup")}

    again = research(small_corpus, data, config)  # the same thread, run again
    assert again.returncode == 0, again.stderr
    assert len(calls_of(calls)) == len(QUESTIONS)  # 0 more calls
    assert "mcp:notes/lookup" in Path(json.loads(again.stdout)["report_path"]).read_text()


def test_a_server_that_does_not_start_stops_the_run_with_one_line_naming_it(
        tmp_path: Path, small_corpus: Path) -> None:
    data = tmp_path / "data"
    config = mcp_config(tmp_path, tmp_path / "calls.txt", command=str(tmp_path / "no-such-srv"))
    proc = research(small_corpus, data, config)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "MCP server 'notes'" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr
    assert db_rows(data) == []  # the run never began


def test_a_failing_tool_ends_as_its_tasks_error_envelopes_and_is_not_recorded(
        tmp_path: Path, small_corpus: Path) -> None:
    data, calls = tmp_path / "data", tmp_path / "calls.txt"
    proc = research(small_corpus, data, mcp_config(tmp_path, calls, mode="fail"),
                    "--rounds", "1")
    assert proc.returncode == 1, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["envelopes"] == len(QUESTIONS) * 3  # every task ended, none lost
    # analyst and critic: the tool failed
    assert len(summary["errors"]) == len(QUESTIONS) * 2, summary
    rows = db_rows(data)
    assert {r["worker"] for r in rows if r["status"] == "ok"} == {"docs_search"}
    failed = [r for r in rows if r["status"] != "ok"]
    assert len(failed) == len(QUESTIONS) * 2
    assert all("MCP tool lookup of server 'notes' failed" in r["error"] for r in failed), failed
    with sqlite3.connect(data / "mcp.sqlite") as con:
        assert con.execute("SELECT count(*) FROM mcp_calls").fetchone() == (0,)


def test_with_postgresql_the_answers_are_recorded_in_the_database(
        tmp_path: Path, small_corpus: Path, postgres_url: str) -> None:
    data, calls = tmp_path / "data", tmp_path / "calls.txt"
    config = mcp_config(tmp_path, calls)
    for _ in range(2):  # a run, then a rerun of the same thread
        proc = research(small_corpus, data, config, "--database-url", postgres_url)
        assert proc.returncode == 0, proc.stderr
        assert "mcp:notes/lookup" in Path(json.loads(proc.stdout)["report_path"]).read_text()
    assert sorted(calls_of(calls)) == sorted(QUESTIONS)  # the rerun called nothing
    recorded = pg_query(postgres_url, "SELECT server, tool, args FROM mcp_calls")
    assert sorted(json.loads(r["args"])["query"] for r in recorded) == sorted(QUESTIONS)
    assert not (data / "mcp.sqlite").exists()


def test_a_resume_after_sigkill_never_calls_a_tool_again_with_the_same_arguments(
        tmp_path: Path, small_corpus: Path) -> None:
    data, calls = tmp_path / "data", tmp_path / "calls.txt"
    config = mcp_config(tmp_path, calls)
    killed = research(small_corpus, data, config, "--crash-at", "map:5",
                      "--max-concurrency", "1", topic=SEVERAL_TOPIC)  # several tool calls
    assert killed.returncode in (-9, 137), killed.stderr  # SIGKILL mid-map
    asked = calls_of(calls)
    assert asked  # some agent tasks had called the tool before the kill
    resumed = research(small_corpus, data, config, topic=SEVERAL_TOPIC)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming thread" in resumed.stderr + resumed.stdout
    several = offline_plan(SEVERAL_TOPIC)
    assert sorted(calls_of(calls)) == sorted(several)  # one call per question, in all
