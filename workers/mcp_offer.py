"""What of the MCP servers' tools the agents are offered, under which name, and what of an answer
they can read: an MCP server is a service like a search API, and what it lists and answers is
checked where it enters.

- **A schema that cannot be used** (:func:`schema_problem`): the MCP specification's
  ``inputSchema`` is a JSON Schema of ``"type": "object"``. One that is not, that is no valid
  JSON Schema (``jsonschema``'s check against its meta-schema), that LangChain cannot turn into a
  tool's parameters (a ``$ref`` that resolves nowhere), or that is longer than
  :data:`MAX_SCHEMA_CHARS`, leaves its tool out, with a note naming the server, the tool and why.
  Before, one such tool failed every agent task with a raw ``KeyError: "Reference '#/$defs/Nope'
  not found."`` (F7), and the server's other tools and the corpus tools were offered to no one.
  Left out, not refused before the run: the operator's config cannot mend a server's schema, and
  the server's other tools work (a clash of two servers' tool names is refused, since renaming a
  server in the config mends it).
- **Two tools of one server under one name** (:func:`offered_name`: ``смотреть`` and ``🔍`` are
  both ``notes__``): the first listed is offered, the other left out with a note. The refusal
  said "rename a server in the MCP config", which cannot help (F12).
- **Sizes**: a description is cut at :data:`MAX_DESCRIPTION` characters (every model request
  carries every tool's); at most :data:`MAX_TOOLS` tools are offered in all, the rest left out
  with one note (OpenAI's chat completions take at most 128 tools a request, and the agents' own
  and their answer tool need room); an answer is kept at ``workers.mcp_record.MAX_TEXT``.
- **An answer's content** (:func:`answer_parts`): its text blocks (an embedded text resource's
  included) are the answer; an image, a file or a link is named, never quoted. An answer with no
  text is no answer (F13: an image-only answer was recorded as ``""``, so never asked again).

Sources: the MCP specification, "Tools" (``inputSchema``, content types; revision 2025-06-18);
``langchain_mcp_adapters.tools._convert_call_tool_result`` (the content blocks it makes);
OpenAI's chat completions reference (``tools``: "A max of 128 functions are supported").
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.tools import BaseTool

from workers.sources.web_answer import clip

__all__ = ["MAX_DESCRIPTION", "MAX_SCHEMA_CHARS", "MAX_TOOLS", "NAMING", "answer_parts",
           "offered_name", "schema_problem"]

MAX_TOOLS = 100
"""MCP tools offered to the agents at most, all servers together (the first listed)."""
MAX_DESCRIPTION = 4000
"""Characters of a tool's description offered to the model."""
MAX_SCHEMA_CHARS = 20_000
"""Characters of a tool's ``inputSchema`` (as JSON) at most; a longer one leaves it out."""

_NAME = re.compile(r"[^A-Za-z0-9_-]+")
NAMING = ("tools are offered as SERVER_TOOL, in letters, digits, _ and -, at most 64 "
          "characters")
"""How a tool's offered name is made, for the lines that name a clash."""


def offered_name(server: str, tool: str) -> str:
    """The name the agents are offered an MCP tool under: ``SERVER_TOOL``, every run of other
    characters one ``_``, at most 64 characters (what the model providers accept).

    Example:
        >>> offered_name("notes", "look up"), offered_name("notes", "смотреть")
        ('notes_look_up', 'notes__')
    """
    return _NAME.sub("_", f"{server}_{tool}")[:64]


def schema_problem(tool: BaseTool) -> str | None:
    """Why ``tool``'s ``inputSchema`` (its ``args_schema``, a dict) cannot be offered to a model,
    in words that follow "left out: "; None when it can.

    Example:
        >>> from langchain_core.tools import StructuredTool
        >>> def make(schema):
        ...     return StructuredTool(name="t", description="d", args_schema=schema,
        ...                           func=lambda **kw: "")
        >>> schema_problem(make({"type": "object", "properties": {"q": {"type": "string"}}}))
        >>> schema_problem(make({"type": "object", "properties": {"q": {"$ref": "#/$defs/No"}}}))
        "its inputSchema has a reference that resolves nowhere (Reference '#/$defs/No' not found.)"
    """
    from jsonschema import SchemaError
    from jsonschema.validators import validator_for
    from langchain_core.utils.function_calling import convert_to_openai_tool

    schema = tool.args_schema
    if not isinstance(schema, dict):  # a pydantic model: made here, not by the server
        return None
    if schema.get("type") != "object":
        return (f"its inputSchema is not an object's (type {schema.get('type')!r}): an MCP "
                "tool takes its arguments as an object")
    if (size := len(json.dumps(schema, default=str))) > MAX_SCHEMA_CHARS:
        return f"its inputSchema is {size:,} characters long, more than {MAX_SCHEMA_CHARS:,}"
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        said = clip(" ".join(exc.message.split()), 200)
        return f"its inputSchema is no valid JSON Schema ({said})"
    try:
        convert_to_openai_tool(tool)
    except KeyError as exc:  # langchain_core's dereference_refs
        return f"its inputSchema has a reference that resolves nowhere ({exc.args[0]})"
    except Exception as exc:  # noqa: BLE001 - whatever it is, the tool cannot be offered
        return f"its inputSchema cannot be read ({type(exc).__name__}: {clip(str(exc), 200)})"
    return None


def _part(block: Any) -> str:
    """What a non-text content block is, for a note: ``"an image (image/png)"``."""
    if not isinstance(block, dict):
        return f"a {type(block).__name__}"
    kind = str(block.get("type") or "block")
    mime = block.get("mime_type") or block.get("mimeType")
    where = block.get("url")
    what = {"image": "an image", "file": "a file", "audio": "an audio clip"}.get(
        kind, f"a {kind!r} block")
    if where:
        what = f"a link to {what}"
    return f"{what} ({mime})" if mime else what


def answer_parts(content: Any) -> tuple[str, list[str]]:
    """The text of an MCP tool's answer (a string, or LangChain content blocks, as
    ``langchain-mcp-adapters`` hands them over), and what else it held, each named once in
    order (``["an image (image/png)"]``): the agents read text only.

    Example:
        >>> answer_parts([{"type": "image", "base64": "AAAA", "mime_type": "image/png"},
        ...               {"type": "text", "text": "the notes"}])
        ('the notes', ['an image (image/png)'])
    """
    if isinstance(content, str):
        return content, []
    texts: list[str] = []
    others: list[str] = []
    for block in content if isinstance(content, list) else [content]:
        if isinstance(block, str):
            texts.append(block)
        elif isinstance(block, dict) and block.get("type", "text") == "text":
            texts.append(str(block.get("text") or ""))
        else:
            others.append(_part(block))
    return "\n".join(t for t in texts if t), list(dict.fromkeys(others))
