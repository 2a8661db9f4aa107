"""What of the MCP servers' tools the agents are offered, and under which name: an MCP server is a
service like a search API, and what it lists is checked where it enters (trial 39).

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
  and their answer tool need room).

Sources: the MCP specification, "Tools" (``inputSchema``; revision 2025-06-18); OpenAI's chat
completions reference (``tools``: "A max of 128 functions are supported").
"""

from __future__ import annotations

import json
import re

from langchain_core.tools import BaseTool

from workers.sources.web_answer import clip

__all__ = ["MAX_DESCRIPTION", "MAX_SCHEMA_CHARS", "MAX_TOOLS", "NAMING", "offered_name",
           "schema_problem"]

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
