"""What an MCP server lists and answers is checked where it enters (``workers/mcp_offer.py``,
``workers.mcp_tools``): a tool whose schema cannot be used, or a second tool of one server under
one name, is left out with a note, never a raw error in every agent task; an answer with no
text is no answer, said so and not recorded; every size a server sends is bounded (trial 39,
F7, F12, F13 and F4's siblings). Against the tests' stdio server (``tests/mcp_server.py``) and,
for what needs no call, tools made here."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from tests.conftest import ROOT
from workers.mcp_offer import MAX_DESCRIPTION, MAX_TOOLS
from workers.mcp_record import MAX_TEXT, McpResults
from workers.mcp_tools import McpError, McpHub, make_mcp_tools

SERVER = str(ROOT / "tests" / "mcp_server.py")
QUERY = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}


def started(calls: Path, mode: str = "ok", more: dict | None = None) -> McpHub:
    """The hub of one server ``notes`` (``tests/mcp_server.py`` in ``mode``, with the tools
    ``more`` lists: ``{name: inputSchema or None}``), started."""
    env = {"TEST_MCP_MORE_TOOLS": json.dumps(more or {})}
    hub = McpHub({"notes": {"transport": "stdio", "command": sys.executable, "env": env,
                            "args": [SERVER, str(calls), mode]}}, timeout=20.0)
    hub.start()
    return hub


def listed(**servers: list[StructuredTool]) -> SimpleNamespace:
    """A hub that lists ``servers``' tools (what :func:`make_mcp_tools` reads), never called."""
    return SimpleNamespace(tools=servers, notes=[])


def tool(name: str, schema: dict | None = None, description: str = "Look it up.") -> StructuredTool:
    return StructuredTool(name=name, description=description, args_schema=schema or QUERY,
                          func=lambda **args: "")


def test_a_tool_whose_schema_cannot_be_used_is_left_out_with_a_note(tmp_path: Path) -> None:
    # trial 39, F7: one tool whose inputSchema held "$ref": "#/$defs/Nope" failed every agent
    # task with a raw KeyError, and the server's other tools were offered to no one
    odd = {"refless": {"type": "object", "properties": {"query": {"$ref": "#/$defs/Nope"}}},
           "stringy": {"type": "string"},
           "typo": {"type": "object", "properties": {"query": {"type": "strin"}}}}
    hub = started(tmp_path / "calls.txt", more={**odd, "second": None})
    try:
        tools = make_mcp_tools(hub, McpResults(tmp_path))
        assert [t.name for t in tools] == ["notes_lookup", "notes_second"]
        for made in tools:  # what the agents' models are bound with
            convert_to_openai_tool(made)
        assert "signals for: q" in tools[1].invoke({"query": "q"})  # the others are called
    finally:
        hub.close()
    notes = dict(zip(odd, hub.notes, strict=True))
    assert notes["refless"] == (
        "MCP server 'notes''s tool 'refless' is left out: its inputSchema has a reference that "
        "resolves nowhere (Reference '#/$defs/Nope' not found.); the agents are offered the "
        "other tools")
    assert "its inputSchema is not an object's (type 'string')" in notes["stringy"]
    assert "its inputSchema is no valid JSON Schema ('strin' is not valid" in notes["typo"]


def test_two_tools_of_one_server_under_one_name_the_second_is_left_out_with_a_note(
        tmp_path: Path) -> None:
    # trial 39, F12: смотреть and 🔍 of one server are both notes__; the refusal's advice,
    # "rename a server in the MCP config", could not help
    hub = listed(notes=[tool("смотреть"), tool("🔍"), tool("lookup")])
    tools = make_mcp_tools(hub, McpResults(tmp_path))
    assert [t.name for t in tools] == ["notes__", "notes_lookup"]
    assert hub.notes == [
        "MCP server 'notes''s tool '🔍' is left out: it would be offered as 'notes__', as its "
        "tool 'смотреть' is (tools are offered as SERVER_TOOL, in letters, digits, _ and -, at "
        "most 64 characters); the agents are offered the other tools"]
    # two servers' tools under one name: renaming a server mends it, so the run is refused
    with pytest.raises(McpError, match="rename one of the servers in the MCP config"):
        make_mcp_tools(listed(a_b=[tool("lookup")], a=[tool("b_lookup")]), McpResults(tmp_path))


def test_what_a_server_lists_is_bounded(tmp_path: Path) -> None:
    # F4's sibling: every model request carries every tool's description and schema
    huge = {"type": "object", "properties": {f"p{n}": {"type": "string", "description": "x" * 40}
                                             for n in range(1000)}}
    hub = listed(notes=[tool("long", description="Look it up. " * 10_000), tool("wide", huge),
                        *(tool(f"t{n}") for n in range(MAX_TOOLS + 5))])
    tools = make_mcp_tools(hub, McpResults(tmp_path))
    assert len(tools) == MAX_TOOLS and tools[0].name == "notes_long"
    assert len(tools[0].description) < MAX_DESCRIPTION + 200
    assert hub.notes[0].startswith("MCP server 'notes''s tool 'wide' is left out: its "
                                   "inputSchema is 86,924 characters long, more than 20,000")
    assert hub.notes[1:] == ["6 MCP tool(s) past the first 100 are left out (the agents are "
                             "offered 100 at most): notes/t99, notes/t100, notes/t101, ..."]


def test_an_answer_is_recorded_at_most_max_text_characters(tmp_path: Path) -> None:
    # F4's sibling: a 20 MB answer was stored whole in mcp.sqlite; its passage showed 6,000
    results = McpResults(tmp_path)
    kept = results.put("notes", "lookup", {"query": "q"}, "pending writes note. " * 1_000_000)
    assert len(kept) <= MAX_TEXT and kept.endswith(" […]")
    assert results.get("notes", "lookup", {"query": "q"}) == kept
    assert (tmp_path / "mcp.sqlite").stat().st_size < 200_000


@pytest.mark.parametrize(("mode", "said"), [
    ("image", "MCP tool lookup of server 'notes' answered no text, only an image (image/png): "
              "the agents read text only"),
    ("empty", "MCP tool lookup of server 'notes' answered nothing (no content)"),
])
def test_an_answer_with_no_text_is_an_error_result_and_is_not_recorded(
        tmp_path: Path, mode: str, said: str) -> None:
    # trial 39, F13: an image-only answer was dropped without a word and recorded as "", so a
    # rerun never asked again
    results = McpResults(tmp_path)
    hub = started(tmp_path / "calls.txt", mode)
    try:
        [lookup] = make_mcp_tools(hub, results)
        message = lookup.invoke({"name": lookup.name, "args": {"query": "q"}, "id": "c1",
                                 "type": "tool_call"})
    finally:
        hub.close()
    assert message.status == "error" and message.content == said, message
    assert results.get("notes", "lookup", {"query": "q"}) is None


def test_an_image_beside_text_is_named_in_a_note_and_the_text_recorded(tmp_path: Path) -> None:
    results = McpResults(tmp_path)
    hub = started(tmp_path / "calls.txt", "mixed")
    try:
        [lookup] = make_mcp_tools(hub, results)
        answer = json.loads(lookup.invoke({"query": "q"}))
    finally:
        hub.close()
    assert answer["results"][0]["text"].endswith("signals for: q")
    assert answer["note"] == ("MCP tool lookup of server 'notes' answered an image (image/png) "
                              "beside its text: the agents read its text only")
    assert results.get("notes", "lookup", {"query": "q"}).endswith("signals for: q")
