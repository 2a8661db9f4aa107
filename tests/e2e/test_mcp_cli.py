"""``research --mcp-config FILE``: a stdio MCP server's tool offered to the agent workers
(issue 20 §1), against ``tests/mcp_server.py`` (the ``mcp`` SDK's ``FastMCP``, launched with
``sys.executable``), which counts the calls it answers in a file.

What users rely on: the offline agents call the tool and the report cites its answers as
``mcp:NAME/TOOL``; a rerun of the thread never calls it again with the same arguments; a server
that does not start stops the run before it begins (exit 2, one line naming it), and is stopped;
a server process never outlives the CLI (Ctrl-C included); a failing tool's error goes back to
the agents, which answer from the corpus, and is named once in the notes.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.research.plan import offline_plan
from tests.conftest import AS_OF, ROOT, SEVERAL_TOPIC, SMALL_TOPIC, clean_env, run_cli
from tests.results_db import db_rows, pg_query

QUESTIONS = offline_plan(SMALL_TOPIC)
SERVER = ROOT / "tests" / "mcp_server.py"


def _quoted_tool(data: Path) -> bool:
    """Whether an analyst's finding of the run quotes the ``notes`` server's ``lookup`` answer
    ("The field notes say that a zorblax relay forwards signals for: ...")."""
    return any(str(item.get("ref", "")).startswith("mcp:notes/lookup#")
               and item["text"].startswith("The field notes say that a zorblax relay")
               for r in db_rows(data) if r["worker"] == "analyst"
               for item in (json.loads(r["structured"] or "{}").get("items") or []))


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
    # the tool's answer is a finding of the run (the report cites the corpus's page that
    # defines the relay, its strongest document, and says it left others out)
    assert _quoted_tool(data), db_rows(data)
    with sqlite3.connect(data / "mcp.sqlite") as con:
        recorded = con.execute("SELECT server, tool, args FROM mcp_calls").fetchall()
    assert sorted(json.loads(a)["query"] for _, _, a in recorded) == sorted(QUESTIONS)
    assert {(s, t) for s, t, _ in recorded} == {("notes", "lookup")}

    again = research(small_corpus, data, config)  # the same thread, run again
    assert again.returncode == 0, again.stderr
    assert len(calls_of(calls)) == len(QUESTIONS)  # 0 more calls
    assert _quoted_tool(data) and json.loads(again.stdout)["ok"]


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


@pytest.mark.parametrize(("servers", "said"), [
    # tools are offered as SERVER_TOOL: "search" + "corpus" is the agents' own search_corpus
    ({"search": {"TEST_MCP_TOOL": "corpus"}}, "the name of one of the agents' own tools"),
    ({"a_b": {}, "a": {"TEST_MCP_TOOL": "b_lookup"}}, "would both be offered as 'a_b_lookup'"),
])
def test_an_mcp_config_whose_tools_share_a_name_stops_the_run_before_it_begins(
        tmp_path: Path, small_corpus: Path, servers: dict, said: str) -> None:
    # trial 28, finding 4: every agent task failed on "tools must have unique names" at run
    # time, was sent again in round 2, and the run ended partial (exit 1) with error rows
    data, config = tmp_path / "data", tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        name: {"command": sys.executable, "env": env,
               "args": [str(SERVER), str(tmp_path / f"calls-{n}.txt")]}
        for n, (name, env) in enumerate(servers.items())}}), encoding="utf-8")
    proc = research(small_corpus, data, config)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and "rename" in lines[0], proc.stderr
    assert db_rows(data) == []  # the run never began
    for n in range(len(servers)):  # and no server outlives the CLI
        assert not alive(server_pid(tmp_path / f"calls-{n}.txt"))


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "too large"])
def test_an_mcp_config_that_is_no_small_regular_file_is_refused_in_one_line(
        tmp_path: Path, small_corpus: Path, kind: str) -> None:
    # trial 28, finding 6: a FIFO hung the run before its first line; /dev/zero took the
    # machine's memory, SIGTERM unheard, until the kernel killed it (exit 137)
    config = tmp_path / "mcp.json"
    if kind == "fifo":
        os.mkfifo(config)
    elif kind == "/dev/zero":
        config.symlink_to("/dev/zero")
    else:
        config.write_text(json.dumps({"mcpServers": {"notes": {"command": "x"}},
                                      "pad": "x" * (1 << 20)}), encoding="utf-8")
    proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                   "--data-dir", tmp_path / "data", "--mcp-config", config, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    said = "larger than 1024 KB" if kind == "too large" else "not a regular file"
    assert len(lines) == 1 and f"--mcp-config {config}: {said}" in lines[0], proc.stderr


def server_pid(calls: Path) -> int:
    return int(Path(f"{calls}.pid").read_text("utf-8"))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_server_that_misses_the_timeout_is_stopped_before_the_cli_exits(
        tmp_path: Path, small_corpus: Path) -> None:
    # Issue 21 (trial 6, finding 2): it was reported (exit 2) but left running, orphaned and
    # holding the CLI's stdout and stderr: a pipe or a captured run (as here) hung until it
    # exited on its own (60 s for this server; forever for a hung one).
    calls = tmp_path / "calls.txt"
    began = time.monotonic()
    proc = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--data-dir",
                   tmp_path / "data", "--mcp-config", mcp_config(tmp_path, calls, mode="hang"),
                   env={"RESEARCH_MCP_TIMEOUT": "2"}, timeout=40)
    pid = server_pid(calls)
    try:
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip() == (
            "error: MCP server 'notes' did not start within 2 s (RESEARCH_MCP_TIMEOUT)")
        assert time.monotonic() - began < 30
        assert not alive(pid)
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_ctrl_c_while_a_tool_call_waits_stops_the_cli_and_the_server_at_once(tmp_path: Path,
                                                         small_corpus: Path) -> None:
    calls = tmp_path / "calls.txt"
    args = ["research", SMALL_TOPIC, "--corpus", small_corpus, "--data-dir", tmp_path / "data",
            "--mcp-config", mcp_config(tmp_path, calls, mode="slow"), "--max-concurrency", "1"]
    proc = subprocess.Popen([sys.executable, "-m", "app", *map(str, args)], cwd=ROOT,
                            env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        while not calls_of(calls) and time.monotonic() < deadline:  # a tool call is waiting
            time.sleep(0.2)
        assert calls_of(calls), "no tool call began"
        pid = server_pid(calls)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, stderr = proc.communicate(timeout=40)
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    # the call's wait gives up at once (it held the Ctrl-C for RESEARCH_MCP_TIMEOUT, 30 s);
    # the server gets its stdio shutdown (stdin closed, SIGTERM after 2 s)
    assert time.monotonic() - sent < 15
    assert not alive(pid)


def test_a_failing_tool_is_handed_to_the_agents_which_answer_from_the_corpus(
        tmp_path: Path, small_corpus: Path) -> None:
    # Issue 21 (trial 6, finding 6): the tool's error failed every analyst and critic task for
    # good (6 of 9, exit 1) though their corpus tools worked.
    data, calls = tmp_path / "data", tmp_path / "calls.txt"
    proc = research(small_corpus, data, mcp_config(tmp_path, calls, mode="fail"),
                    "--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["envelopes"] == len(QUESTIONS) * 3 and not summary["errors"], summary
    assert len(calls_of(calls)) == len(QUESTIONS) * 2  # analyst and critic each asked
    rows = db_rows(data)
    assert all(r["status"] == "ok" for r in rows)
    answered = {r["worker"] for r in rows if json.loads(r["structured"])["items"]}
    assert answered >= {"analyst", "critic"}, rows
    assert all(json.loads(r["structured"])["tool_errors"] == 1 for r in rows
               if r["worker"] != "docs_search"), rows
    note = ("MCP tool lookup of server 'notes' failed: Error executing tool lookup: the notes "
            f"are locked; the agent answered without it ({len(QUESTIONS) * 2} times)")
    assert note in summary["notes"], summary["notes"]
    assert note in Path(summary["report_path"]).read_text("utf-8")
    with sqlite3.connect(data / "mcp.sqlite") as con:  # a failure is never recorded
        assert con.execute("SELECT count(*) FROM mcp_calls").fetchone() == (0,)


def test_with_postgresql_the_answers_are_recorded_in_the_database(
        tmp_path: Path, small_corpus: Path, postgres_url: str) -> None:
    data, calls = tmp_path / "data", tmp_path / "calls.txt"
    config = mcp_config(tmp_path, calls)
    for _ in range(2):  # a run, then a rerun of the same thread
        proc = research(small_corpus, data, config, "--database-url", postgres_url)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["ok"], proc.stdout
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


@pytest.mark.parametrize("server, said", [
    ("import sys, time; print('garbage', flush=True); time.sleep(60)",
     "did not start within 3 s (RESEARCH_MCP_TIMEOUT); the MCP client read a line that is not "
     "JSON-RPC: 'garbage'"),
    ("cat", "failed to start: "),  # echoes the client's own request back: a malformed request
], ids=["not-json-rpc", "echo"])
def test_a_server_that_does_not_speak_mcp_gives_one_line_not_the_sdk_s_logs(
        tmp_path: Path, small_corpus: Path, server: str, said: str) -> None:
    # Trial 10: a traceback from mcp.client.stdio, or 56 lines of pydantic errors the SDK logs
    # through the root logger, came before the one line.
    config = tmp_path / "mcp.json"
    entry = ({"command": "cat"} if server == "cat"
             else {"command": sys.executable, "args": ["-c", server]})
    config.write_text(json.dumps({"mcpServers": {"notes": entry}}), encoding="utf-8")
    proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                   "--data-dir", tmp_path / "data", "--mcp-config", config,
                   env={"RESEARCH_MCP_TIMEOUT": "3"})
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: MCP server 'notes' {said}"), (
        proc.stderr)


def test_a_server_that_exits_at_start_up_is_named_with_its_exit_status(
        tmp_path: Path, small_corpus: Path) -> None:
    # Trial 11: "error: MCP server 'notes' failed to start: BrokenResourceError: (no message)"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"notes": {
        "command": sys.executable, "args": ["-c", "raise SystemExit(3)"]}}}), encoding="utf-8")
    proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                   "--data-dir", tmp_path / "data", "--mcp-config", config)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        "error: MCP server 'notes' exited with status 3 at start-up"]


def test_a_tool_whose_schema_cannot_be_used_is_left_out_and_the_run_goes_on(
        tmp_path: Path, small_corpus: Path) -> None:
    # trial 39, F7: one tool with an unresolvable $ref failed every analyst and critic task,
    # in both rounds, with "KeyError: \"Reference '#/$defs/Nope' not found.\"" (tokens: 0)
    data, calls, config = tmp_path / "data", tmp_path / "calls.txt", tmp_path / "mcp.json"
    odd = {"refless": {"type": "object", "properties": {"query": {"$ref": "#/$defs/Nope"}}}}
    config.write_text(json.dumps({"mcpServers": {"notes": {
        "command": sys.executable, "args": [str(SERVER), str(calls)],
        "env": {"TEST_MCP_MORE_TOOLS": json.dumps(odd)}}}}), encoding="utf-8")
    proc = research(small_corpus, data, config, "--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"] and not summary["errors"], summary
    note = ("MCP server 'notes''s tool 'refless' is left out: its inputSchema has a reference "
            "that resolves nowhere (Reference '#/$defs/Nope' not found.); the agents are offered "
            "the other tools")
    assert note in summary["notes"], summary["notes"]
    assert note in Path(summary["report_path"]).read_text("utf-8")
    assert sorted(calls_of(calls)) == sorted(QUESTIONS)  # its lookup tool was called


@pytest.mark.parametrize(("mode", "note", "recorded"), [
    ("image", "MCP tool lookup of server 'notes' answered no text, only an image (image/png): "
              "the agents read text only; the agent answered without it", 0),
    ("mixed", "MCP tool lookup of server 'notes' answered an image (image/png) beside its text: "
              "the agents read its text only", len(QUESTIONS)),
])
def test_an_answer_with_no_text_is_named_and_not_recorded(
        tmp_path: Path, small_corpus: Path, mode: str, note: str, recorded: int) -> None:
    # trial 39, F13: an image-only answer was dropped without a word and recorded as an empty
    # answer, so no run asked again; an image beside text was dropped without a word
    data, calls = tmp_path / "data", tmp_path / "calls.txt"
    proc = research(small_corpus, data, mcp_config(tmp_path, calls, mode=mode), "--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert any(n.startswith(note) for n in summary["notes"]), summary["notes"]
    with sqlite3.connect(data / "mcp.sqlite") as con:  # nothing usable: nothing recorded
        assert con.execute("SELECT count(*) FROM mcp_calls").fetchone() == (recorded,)
