"""``workers.mcp_tools`` against the tests' stdio MCP server (``tests/mcp_server.py``): one
session per server for many calls, answers recorded by (server, tool, arguments) and resolved as
passages, a timeout or a failure raised and never recorded. And the config file's parsing
(``app.settings.mcp``)."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from app.settings.config import ConfigError
from app.settings.mcp import load_mcp_config
from tests.conftest import ROOT
from workers.mcp_record import McpResults, mcp_ref
from workers.mcp_tools import McpHub, make_mcp_tools

SERVER = str(ROOT / "tests" / "mcp_server.py")


def hub_for(calls: Path, mode: str = "ok", timeout: float = 20.0) -> McpHub:
    hub = McpHub({"notes": {"transport": "stdio", "command": sys.executable,
                            "args": [SERVER, str(calls), mode]}}, timeout=timeout)
    hub.start()
    return hub


def test_sync_tools_share_one_session_and_a_recorded_answer_is_never_asked_again(tmp_path):
    calls = tmp_path / "calls.txt"
    hub = hub_for(calls)
    try:
        results = McpResults(tmp_path)
        [tool] = make_mcp_tools(hub, results)
        assert tool.name == "notes_lookup"
        pid_before = hub._sessions["notes"]  # the same session object serves every call
        with ThreadPoolExecutor(4) as pool:  # the sync workers call from their own threads
            answers = list(pool.map(lambda q: tool.invoke({"query": q}), ["a", "b", "a", "a"]))
        assert hub._sessions["notes"] is pid_before
    finally:
        hub.close()
    assert sorted(calls.read_text().split()) == ["a", "b"]  # "a" answered once, then recorded
    passage = json.loads(answers[0])["results"][0]
    assert passage["ref"] == mcp_ref("notes", "lookup", {"query": "a"})
    assert passage["ref"].startswith("mcp:notes/lookup#")
    # the claim check resolves the ref from the record, in any later process
    found = McpResults(tmp_path).passage(passage["ref"])
    assert found is not None and found.text.endswith("signals for: a")
    assert found.document_key == "mcp:notes/lookup"
    assert McpResults(tmp_path).passage("mcp:notes/lookup#000000000000") is None


def test_a_timeout_or_a_failure_is_an_error_result_for_the_agent_and_is_not_recorded(tmp_path):
    # Issue 21 (trial 6, finding 6): it raised, and every agent task that called the tool
    # failed for good, though its corpus tools worked.
    calls = tmp_path / "calls.txt"
    results = McpResults(tmp_path)
    for mode, error in (("slow", "MCP tool lookup of server 'notes': no answer within 1 s"),
                        ("fail", "MCP tool lookup of server 'notes' failed: Error executing "
                                 "tool lookup: the notes are locked")):
        hub = hub_for(calls, mode)
        hub.timeout = 1.0  # per call (RESEARCH_MCP_TIMEOUT); the server sleeps 30 s
        try:
            [tool] = make_mcp_tools(hub, results)
            call = {"name": tool.name, "args": {"query": mode}, "id": "c1", "type": "tool_call"}
            message = tool.invoke(call)  # as the agent's ToolNode calls it
        finally:
            hub.close()
        assert message.status == "error" and message.content.startswith(error), message
        assert results.get("notes", "lookup", {"query": mode}) is None


@pytest.mark.parametrize(("code", "said"), [
    ("raise SystemExit(3)", "exited with status 3"),
    ("raise SystemExit(0)", "exited with status 0"),
    ("import os; os.abort()", "was killed by SIGABRT"),
], ids=["status-3", "status-0", "abort"])
def test_a_server_that_exits_at_once_is_named_with_its_exit(tmp_path, code, said):
    # "failed to start: BrokenResourceError: (no message)" said no word of the exit. Run in a
    # process of its own, as the CLI runs a hub: a child another test's event loop reaps in
    # this worker process is reported by asyncio as "returncode 255" (seen once in CI)
    script = (
        "import sys\n"
        "from workers.mcp_tools import McpError, McpHub\n"
        "hub = McpHub({'gone': {'transport': 'stdio', 'command': sys.executable,\n"
        f"                      'args': ['-c', {code!r}]}}}}, timeout=10)\n"
        "try:\n"
        "    hub.start()\n"
        "except McpError as exc:\n"
        "    print(exc)\n"
        "finally:\n"
        "    hub.close()\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.stdout.strip() == f"MCP server 'gone' {said} at start-up", done.stderr


def test_a_server_that_exits_mid_run_is_named_with_its_exit_in_the_calls_error(tmp_path):
    # the sibling of a server that exits at start-up: its tool call's error says so
    hub = hub_for(tmp_path / "calls.txt", "die")
    try:
        [tool] = make_mcp_tools(hub, McpResults(tmp_path))
        message = tool.invoke({"name": tool.name, "args": {"query": "q"}, "id": "c1",
                               "type": "tool_call"})
    finally:
        hub.close()
    assert message.status == "error", message
    assert message.content.startswith(
        "MCP tool lookup of server 'notes' failed: its session ended: the server exited with "
        "status 5 ("), message


def test_calls_on_a_session_that_ended_fail_at_once_not_after_the_timeout(tmp_path):
    # trial 28, finding 5: the server died while two agents' calls were in flight; one failed
    # at once, the other waited out the whole timeout (up to RESEARCH_MCP_TIMEOUT, 3600 s)
    import time

    hub = hub_for(tmp_path / "calls.txt", "die", timeout=60)
    try:
        [tool] = make_mcp_tools(hub, McpResults(tmp_path))
        started = time.monotonic()
        with ThreadPoolExecutor(2) as pool:
            messages = list(pool.map(
                lambda q: tool.invoke({"name": tool.name, "args": {"query": q}, "id": q,
                                       "type": "tool_call"}), ["a", "b"]))
        later = tool.invoke({"name": tool.name, "args": {"query": "c"}, "id": "c",
                             "type": "tool_call"})
        took = time.monotonic() - started
    finally:
        hub.close()
    assert took < 20, took
    assert all(m.status == "error" and "exited with status 5" in m.content
               for m in [*messages, later]), [m.content for m in [*messages, later]]
    # one cause for every call it hit, so the run's notes name it once with a count
    assert len({m.content for m in [*messages, later]}) == 1, [*messages, later]
    assert "its session ended: the server exited with status 5" in later.content, later.content


def test_the_config_file_takes_claude_desktops_shape_and_fills_in_the_transport(tmp_path):
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {
        "notes": {"command": "python", "args": ["s.py"], "env": {"K": "v"}},
        "remote": {"url": "http://127.0.0.1:9/mcp", "transport": "sse"},
    }}))
    assert load_mcp_config(str(path)) == {
        "notes": {"transport": "stdio", "command": "python", "args": ["s.py"], "env": {"K": "v"}},
        "remote": {"transport": "sse", "url": "http://127.0.0.1:9/mcp"},
    }
    for bad, says in (({"servers": {}}, "mcpServers"), ({"mcpServers": {"x": {}}}, "'x'"),
                      ({"mcpServers": {"x": {"url": "u", "transport": "ws"}}}, "transport")):
        path.write_text(json.dumps(bad))
        with pytest.raises(ConfigError, match=says):
            load_mcp_config(str(path))
    with pytest.raises(ConfigError, match="cannot read"):
        load_mcp_config(str(tmp_path / "missing.json"))


def test_a_served_run_fails_with_one_line_naming_a_server_that_does_not_start(
        tmp_path, small_corpus):
    # issue 20: "served graph: the run fails with the same line" (the plan node checks)
    import app.server.studio
    from app.settings.config import Settings
    from tests.conftest import AS_OF, SMALL_TOPIC

    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"notes": {"command": str(tmp_path / "nope")}}}))
    settings = Settings(data_dir=str(tmp_path / "data"), corpus=str(small_corpus),
                        model="offline", mcp_config=str(config))
    graph = app.server.studio.make_graph(settings)
    steps: list[str] = []
    with pytest.raises(ConfigError) as info:
        for update in graph.stream({"topic": SMALL_TOPIC, "as_of": AS_OF},
                                   stream_mode="updates"):
            steps += list(update)
    assert steps == []  # at the run's start: not even a plan
    assert str(info.value).startswith("MCP server 'notes' failed to start")
    assert "\n" not in str(info.value)


def test_a_served_process_starts_its_servers_again_when_one_died(tmp_path, small_corpus):
    # A LangGraph Server process keeps its sessions between runs; a server that died since is
    # started again at the next run's start, and the agents get the new session's tools.
    from app.graph.resources import Resources
    from app.settings.config import Settings

    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"notes": {
        "command": sys.executable, "args": [SERVER, str(tmp_path / "calls.txt")]}}}))
    resources = Resources(Settings(data_dir=str(tmp_path / "data"), corpus=str(small_corpus),
                                   model="offline", mcp_config=str(config)), served=True)
    try:
        resources.check_mcp()
        first = resources.mcp()
        first[0].close()  # the server's process ends
        resources.check_mcp()
        second = resources.mcp()
        assert second is not first
        tool = next(iter(resources.worker_deps(resources.context(None)).tools))
        assert "signals for: q" in tool.invoke({"query": "q"})
    finally:
        resources.close()


def test_an_mcp_tool_is_titled_by_tool_and_server_not_by_one_calls_arguments(tmp_path):
    # The Sources entry of mcp:notes/lookup groups every call of the tool, but was titled with
    # the first call's arguments ({"query":"What is ..."}) as if it were that call alone.
    from app.research.citations import Citations

    results = McpResults(tmp_path)
    cites = Citations()
    for query in ("What are heron colonies?", "How are heron colonies counted?"):
        results.put("notes", "lookup", {"query": query}, f"Field notes on {query}")
        passage = results.passage(mcp_ref("notes", "lookup", {"query": query}))
        assert passage is not None
        assert passage.title == passage.source == "tool lookup of MCP server notes"
        cites.cite(passage.to_dict())
    entry, calls = cites.lines()
    assert entry == "1. `mcp:notes/lookup`: tool lookup of MCP server notes"
    assert calls.startswith("   - passages: `mcp:notes/lookup#") and "heron" not in calls


def test_an_mcp_record_file_of_another_programs_tables_is_refused_untouched(tmp_path) -> None:
    # Trial 46, F1's sibling: mcp.sqlite of another program got our table added to it
    import sqlite3

    from workers.mcp_record import MCP_CACHE, McpResults
    from workers.sources.damage import DamagedFile

    with sqlite3.connect(tmp_path / MCP_CACHE) as con:
        con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    with pytest.raises(DamagedFile) as refused:
        McpResults(tmp_path)
    assert "holds tables this app does not make (photos)" in str(refused.value)
    with sqlite3.connect(tmp_path / MCP_CACHE) as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    assert tables == ["photos"]
    McpResults(tmp_path / "fresh").put("s", "t", {"q": 1}, "answer")  # ours: as before
    McpResults(tmp_path / "fresh")  # reopened: its own table
