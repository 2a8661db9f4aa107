"""A stdio MCP server for the tests, written with the ``mcp`` SDK's ``FastMCP``.

Run as ``python tests/mcp_server.py CALLS_FILE [MODE]``: one tool, ``lookup(query)``, that appends
a line (its query) to ``CALLS_FILE`` for every call it receives, so a test counts the calls the
server really answered. ``MODE``: ``ok`` (default: answers a sentence naming the query), ``fail``
(the tool raises: an MCP error result), ``slow`` (sleeps 30 s before answering), ``hang``
(never starts: sleeps 60 s before serving), ``die`` (the process exits with status 5 when the
tool is called), ``image`` (answers a PNG image only), ``mixed`` (an image, then the sentence),
``empty`` (answers no content at all). Every mode writes the server's pid to
``CALLS_FILE.pid`` first, so a test can check that the process was stopped. The environment
variable ``TEST_MCP_TOOL`` names the tool otherwise (default ``lookup``), and
``TEST_MCP_MORE_TOOLS`` lists more tools as JSON, ``{"NAME": INPUT_SCHEMA or null}``: each
answers as ``lookup`` does, and lists that ``inputSchema`` (null: ``lookup``'s), so a test
serves a tool whose schema is odd (a ``$ref`` to nowhere) or names that clash once sanitised.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from mcp.server.fastmcp import FastMCP, Image

ANSWER = "The field notes say that a zorblax relay forwards signals for: {query}"
"""What ``lookup`` answers (``{query}``: its argument)."""

server = FastMCP("notes", log_level="WARNING")


PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f7a3d90000000049454e44ae426082")
"""A 1x1 PNG: what an image answer carries."""


@server.tool(name=os.environ.get("TEST_MCP_TOOL") or "lookup", structured_output=False)
def lookup(query: str) -> Any:
    """Look up the field notes about a question."""
    calls, mode = Path(sys.argv[1]), (sys.argv[2] if len(sys.argv) > 2 else "ok")
    with calls.open("a", encoding="utf-8") as out:
        out.write(" ".join(query.split()) + "\n")
    if mode == "fail":
        raise RuntimeError("the notes are locked")
    if mode == "slow":
        time.sleep(30)
    if mode == "die":
        os._exit(5)
    if mode == "image":
        return Image(data=PNG, format="png")
    if mode == "mixed":
        return [Image(data=PNG, format="png"), ANSWER.format(query=query)]
    if mode == "empty":
        return []
    return ANSWER.format(query=query)


for _name, _schema in json.loads(os.environ.get("TEST_MCP_MORE_TOOLS") or "{}").items():
    server.add_tool(lookup, name=_name, description=f"Look up the notes ({_name}).",
                    structured_output=False)
    if _schema is not None:  # what the server lists, whatever the function takes
        server._tool_manager.get_tool(_name).parameters = _schema


if __name__ == "__main__":
    Path(sys.argv[1] + ".pid").write_text(str(os.getpid()), encoding="utf-8")
    if sys.argv[2:3] == ["hang"]:
        time.sleep(60)
    server.run()
