"""``OfflineChatModel``: the ``BaseChatModel`` itself and its three-turn tool-calling loop.

See :mod:`app.llm.offline` for what it does and why.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.caches import BaseCache
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from app.llm.offline.relevance import code_stems, entry_stems, select
from app.llm.offline.schema_fill import SchemaFiller
from app.llm.offline.sentences import Sentence, candidate_sentences
from app.llm.offline.words import asked_stems
from workers.sources import Passage
from workers.sources.asking import asks_task
from workers.sources.operators import asked_symbols
from workers.tools import (
    READ_TOOL,
    SEARCH_TOOL,
    WEB_TOOL,
    message_text,
    parse_read_passages,
    parse_search_passages,
)

__all__ = ["OfflineChatModel"]

_SEARCH_TOOLS = (SEARCH_TOOL, WEB_TOOL)
"""Tools whose results are passages to quote (``search_web`` is bound with ``--web``)."""
_DATA_TOOLS = (SEARCH_TOOL, WEB_TOOL, READ_TOOL)
"""Tools that fetch text; any other bound tool is a text tool (one string argument: called with
the question, like a search) or the structured-response tool."""


def _tool_name(tool: dict[str, Any]) -> str:
    fn = tool.get("function")
    if isinstance(fn, dict) and isinstance(fn.get("name"), str):
        return fn["name"]
    return str(tool.get("name") or "")


def _tool_parameters(tool: dict[str, Any]) -> dict[str, Any]:
    fn = tool.get("function")
    params = fn.get("parameters") if isinstance(fn, dict) else tool.get("parameters")
    return params if isinstance(params, dict) else {}


def _string_arg(tool: dict[str, Any], preferred: str) -> str:
    """The argument to pass text in: ``preferred`` if the tool has it, else its first string arg."""
    params = _tool_parameters(tool)
    props = params.get("properties") or {}
    if preferred in props or not props:
        return preferred
    ordered = [*(params.get("required") or []), *props]
    for name in ordered:
        if isinstance(props.get(name), dict) and props[name].get("type", "string") == "string":
            return name
    return preferred


def _is_text_tool(tool: dict[str, Any]) -> bool:
    """A tool of one string argument (``query``, ``question``...): the offline model calls it
    with the question, as it calls the search tools. A structured-response tool takes objects."""
    props = _tool_parameters(tool).get("properties") or {}
    return len(props) == 1 and all(isinstance(v, dict) and v.get("type") == "string"
                                   for v in props.values())


def _forced_tool(tool_choice: Any) -> str | None:
    """The tool name a ``tool_choice`` forces, if it names one."""
    if isinstance(tool_choice, dict):
        fn = tool_choice.get("function")
        name = fn.get("name") if isinstance(fn, dict) else tool_choice.get("name")
        return name if isinstance(name, str) else None
    if isinstance(tool_choice, str) and tool_choice not in ("auto", "any", "required", "none"):
        return tool_choice
    return None


def _estimate_tokens(text: str) -> int:
    return len(text) // 4


_Call = tuple[str, dict[str, Any]]
"""A tool call of the turn: ``(tool name, args)``."""


def _current_turn(
    messages: list[BaseMessage],
) -> tuple[str, dict[str, _Call], list[tuple[str, dict[str, Any], ToolMessage]]]:
    """The turn after the last human message: its question, its calls and their results.

    Returns:
        ``(question, calls, results)``: the human message's text ("" without one), the tool
        calls made since (``{call id: (name, args)}``) and each tool result as
        ``(name, args, message)`` (a result whose call is not in the turn keeps its own name).
    """
    start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    question = message_text(messages[start].content) if start >= 0 else ""
    turn = messages[start + 1 :]
    calls: dict[str, _Call] = {}
    for m in turn:
        if isinstance(m, AIMessage):
            for tc in m.tool_calls:
                calls[tc.get("id") or ""] = (tc["name"], tc.get("args") or {})
    results: list[tuple[str, dict[str, Any], ToolMessage]] = []
    for m in turn:
        if isinstance(m, ToolMessage):
            name, args = calls.get(m.tool_call_id, (m.name or "", {}))
            results.append((name, args, m))
    return question, calls, results


def _ranked_passages(
    results: list[tuple[str, dict[str, Any], ToolMessage]], passage_tools: Sequence[str]
) -> list[tuple[int, Passage]]:
    """``(rank, passage)`` pairs: each search's results ranked in their order, then the passages
    a read named, all ranked after the search results (failed tool calls give none)."""
    ranked: list[tuple[int, Passage]] = []
    for name, _, m in results:
        if name in passage_tools and m.status != "error":
            ranked.extend(enumerate(parse_search_passages(m.content)))
    searched = len(ranked)
    for name, _, m in results:
        if name == READ_TOOL and m.status != "error":
            ranked.extend((searched, p) for p in parse_read_passages(m.content))
    return ranked


def _response_tools(
    by_name: dict[str, dict[str, Any]], text_tools: list[str], tool_choice: Any
) -> list[dict[str, Any]]:
    """The bound tools an answer may go through: neither data nor text tools, or only the one
    ``tool_choice`` forces when it forces such a tool."""
    forced = _forced_tool(tool_choice)
    if forced in by_name and forced not in _DATA_TOOLS:
        return [by_name[forced]]
    return [t for n, t in by_name.items() if n not in _DATA_TOOLS and n not in text_tools]


class OfflineChatModel(BaseChatModel):
    """A deterministic, extractive, tool-calling chat model for zero-key runs (see module doc).

    Example:
        ``create_agent(OfflineChatModel(), tools=[search_corpus, read_document],
        response_format=ToolStrategy(Findings))``
    """

    model_name: str = "offline-extractive"
    """Reported in ``response_metadata`` and the identifying params."""

    read_top_result: bool = True
    """Whether turn 2 reads the top search result's document (when the read tool is bound)."""

    cache: BaseCache | bool | None = Field(default=False, exclude=True)
    """Never cached: a cached generation would replay its message and tool-call ids."""

    @property
    def _llm_type(self) -> str:
        return "offline-extractive"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "read_top_result": self.read_top_result}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | dict[str, Any] | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools (converted to the OpenAI tool format) and the other call options.

        ``create_agent`` passes ``tool_choice`` (``"any"`` under ``ToolStrategy``) and, under
        ``ProviderStrategy``, ``response_format``; ``with_structured_output`` passes
        ``ls_structured_output_format`` (consumed by ``BaseChatModel``). Others (``strict``,
        ``parallel_tool_calls``) are accepted and ignored.
        """
        formatted: list[dict[str, Any]] = []
        for tool in tools:
            try:
                formatted.append(convert_to_openai_tool(tool))
            except Exception:  # a provider built-in tool dict: keep it as is
                if not isinstance(tool, dict):
                    raise
                formatted.append(dict(tool))
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self._respond(messages, kwargs)
        input_tokens = sum(_estimate_tokens(message_text(m.content)) for m in messages)
        output_text = message_text(message.content) + "".join(
            json.dumps(tc["args"], sort_keys=True) for tc in message.tool_calls
        )
        output_tokens = _estimate_tokens(output_text)
        message.usage_metadata = {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        }
        return ChatResult(generations=[ChatGeneration(message=message)])

    # ---- the loop -----------------------------------------------------------------------------

    def _respond(self, messages: list[BaseMessage], options: dict[str, Any]) -> AIMessage:
        """The next message of the loop: turn 1 searches, turn 2 reads, turn 3 answers.

        Args:
            messages: the conversation so far; the turn is what follows the last human message.
            options: the bound call options (``tools``, ``tool_choice``, ``response_format``).
        """
        tools = [t for t in options.get("tools") or [] if isinstance(t, dict)]
        by_name = {_tool_name(t): t for t in tools if _tool_name(t)}
        tool_choice = options.get("tool_choice")
        may_call_tools = tool_choice != "none"
        question, calls, results = _current_turn(messages)
        called = {name for name, _ in calls.values()}

        # Tools of one string argument beside the data tools (a tool of your own, docs/
        # extending.md "Add a tool"): called with the question, like a search; their answers
        # count as passages when they come in a search's shape ({"results": [...]}).
        text_tools = [n for n, t in by_name.items() if n not in _DATA_TOOLS and _is_text_tool(t)]
        passage_tools = (*_SEARCH_TOOLS, *text_tools)
        ranked = _ranked_passages(results, passage_tools)
        response_tools = _response_tools(by_name, text_tools, tool_choice)
        response_names = {_tool_name(t) for t in response_tools}
        # create_agent ends the loop on a valid structured response, so being called again after
        # calling a response tool means it was rejected (the ToolMessage carrying the validation
        # error has status "success"). Answering the same again would loop until the recursion
        # limit (9999 steps by default in langgraph 1.2).
        rejected = any(name in response_names for name, _ in calls.values())

        # Turn 1: search (the corpus and, when bound, the web and the text tools: all the calls
        # in one message).
        searches = [n for n in passage_tools if n in by_name and n not in called]
        if may_call_tools and searches and not called & set(passage_tools):
            return self._tool_calls(
                [(n, {_string_arg(by_name[n], "query"): question}) for n in searches]
            )
        # Turn 2: read the top result once.
        if (
            may_call_tools
            and self.read_top_result
            and READ_TOOL in by_name
            and READ_TOOL not in called
            and ranked
        ):
            arg = _string_arg(by_name[READ_TOOL], "ref")
            return self._tool_call(READ_TOOL, {arg: min(ranked, key=lambda pair: pair[0])[1].ref})
        # Turn 3: answer.
        # the structured-response tool is the last: create_agent appends the response format's
        # tools after the agent's own (langchain.agents.factory); an MCP tool whose arguments are
        # not one string (an int, an object) stood first, and every structured answer went to it
        response_tool = response_tools[-1] if may_call_tools and response_tools else None
        return self._answer(ranked, question, response_tool, options.get("response_format"),
                            rejected)

    def _answer(self, ranked: list[tuple[int, Passage]], question: str,
                response_tool: dict[str, Any] | None, native: Any, rejected: bool) -> AIMessage:
        """Turn 3: the answer from the ranked passages' sentences.

        In order: a call of ``response_tool`` (the structured-response tool, when one may be
        called) with its schema filled, the JSON of a native ``response_format`` json_schema, or
        a plain bulleted answer; a rejected structured response gets a plain refusal instead of
        the same answer again.

        Args:
            ranked: ``(rank, passage)`` pairs, see :func:`_ranked_passages`.
            question: the turn's human message text.
            response_tool: the tool to answer through (OpenAI format), or None.
            native: the ``response_format`` call option, or None.
            rejected: a response tool was called in this turn already.
        """
        sentences = candidate_sentences(ranked, asked_symbols(question), asks_task(question))
        if response_tool is not None and not rejected:
            schema = _tool_parameters(response_tool)
            filler = SchemaFiller(schema, sentences, question)
            args = filler.fill(schema)
            return self._tool_call(_tool_name(response_tool), args)

        if isinstance(native, dict) and native.get("type") == "json_schema" and not rejected:
            spec = native.get("json_schema") or {}
            schema = spec.get("schema") if isinstance(spec, dict) else None
            if isinstance(schema, dict):
                filler = SchemaFiller(schema, sentences, question)
                data = filler.fill(schema)
                return self._text(json.dumps(data, ensure_ascii=False))

        if rejected:
            return self._text(
                "The structured response could not be validated; no other answer is available "
                "offline."
            )
        return self._text(self._plain_answer(sentences, question))

    @staticmethod
    def _plain_answer(sentences: list[Sentence], question: str) -> str:
        if not sentences:
            return "No passages were found for this question."
        chosen = select(sentences, asked_stems(question), frozenset(), (1, 3), set(),
                        code_stems(question), entry_stems(question))
        return "\n".join(f"- {s.text} [{s.ref}]" for s in chosen)

    def _tool_call(self, name: str, args: dict[str, Any]) -> AIMessage:
        return self._tool_calls([(name, args)])

    def _tool_calls(self, calls: list[tuple[str, dict[str, Any]]]) -> AIMessage:
        return AIMessage(
            content="",
            id=str(uuid.uuid4()),
            tool_calls=[
                {"name": name, "args": args, "id": f"call_{uuid.uuid4().hex}", "type": "tool_call"}
                for name, args in calls
            ],
            response_metadata={"model_name": self.model_name, "finish_reason": "tool_calls"},
        )

    def _text(self, text: str) -> AIMessage:
        return AIMessage(
            content=text,
            id=str(uuid.uuid4()),
            response_metadata={"model_name": self.model_name, "finish_reason": "stop"},
        )
