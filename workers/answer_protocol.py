"""Hold an agent's model to the structured-output protocol: one valid answer call, or one
correction, then a named error.

``create_agent`` with ``ToolStrategy`` takes the agent's answer as one call of a tool named after
the response schema. Its own error handling (``handle_errors=True``) sends the error back and asks
again, without a bound, and misses a case:

* **the answer tool called twice in one message** (langchainjs#11020): every reply is
  "multiple structured responses", so a model that keeps doing it loops to the recursion limit
  (146 requests where 14 do) and the task ends in ``GraphRecursionError``, no cause named;
* **a normal tool call and an invalid answer call in one message** (langchain#40420/#40421): the
  error reply to the answer call is a *successful* ``ToolMessage``, so once the normal tool ran,
  the agent takes the answer as given and stops: "finished without a structured response", the
  model never told what was wrong.

:class:`AnswerProtocol` is a ``wrap_model_call`` middleware around the model step, with
``ToolStrategy(handle_errors=False)`` so that both errors reach it:

* identical duplicate answer calls are one answer;
* differing duplicates, or arguments that fail the schema, get one correction: an *error*
  ``ToolMessage`` (status ``"error"``, so the agent goes back to the model after any normal tool
  ran) saying what was wrong, naming the invalid arguments;
* a reply with no valid tool call: a call whose arguments are not JSON, of any tool, gets one
  correction; an answer written as JSON text (a fenced block) is taken when it fits the schema,
  else one correction asks for the tool call;
* the same kind of fault after that correction raises
  :class:`workers.errors.AnswerProtocolError` naming it: the task's error envelope says why, and
  its tokens are counted like any attempt's (:mod:`workers.usage`).

Source: ``langchain.agents.factory`` (``_handle_model_output``, ``_make_tools_to_model_edge``),
``langchain.agents.middleware.AgentMiddleware.wrap_model_call``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain.agents.structured_output import (
    MultipleStructuredOutputsError,
    StructuredOutputError,
    StructuredOutputValidationError,
    ToolStrategy,
)
from langchain_core.messages import AIMessage, ToolMessage
from pydantic import BaseModel, ValidationError

from workers.errors import AnswerProtocolError, causes, response_fault

__all__ = ["CORRECTION", "AnswerProtocol", "invalid_arguments", "json_error", "text_answer",
           "unanswered"]

CORRECTION = "research_correction"
"""The ``artifact`` key that marks a correction ``ToolMessage`` (how the agent's messages say
that the model was already corrected once)."""


def invalid_arguments(exc: BaseException, limit: int = 5) -> str:
    """The invalid arguments a validation error names, one line: ``"findings (Input should be a
    valid list)"``, at most ``limit`` of them; the error's own text when none are named.

    Example:
        >>> class Answer(BaseModel):
        ...     items: list[str]
        >>> try:
        ...     Answer.model_validate({"items": "x"})
        ... except ValidationError as exc:
        ...     print(invalid_arguments(exc))
        items (Input should be a valid list)
    """
    for error in causes(exc):
        if isinstance(error, ValidationError):
            parts = [f"{'.'.join(str(p) for p in e['loc']) or '(the arguments)'} ({e['msg']})"
                     for e in error.errors()[:limit]]
            more = error.error_count() - len(parts)
            return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
    return " ".join(str(exc).split())[:300]


def text_answer(message: Any, schema: Any) -> Any | None:
    """The answer a model wrote as text instead of calling its answer tool: the message's JSON
    object (bare, or in a fenced block: ``langchain_core.utils.json.parse_json_markdown``)
    when it fits ``schema`` (a pydantic class), else None. Small local models answer so (once
    read as "no answer").

    Example:
        >>> class Plan(BaseModel):
        ...     sub_questions: list[str]
        >>> text_answer(AIMessage('Here:\\n```json\\n{"sub_questions": ["a"]}\\n```'), Plan)
        Plan(sub_questions=['a'])
    """
    data = _text_json(message)
    try:
        return _parse(schema, data) if data is not None else None
    except ValidationError:
        return None


def _text_json(message: Any) -> dict[str, Any] | None:
    """The JSON object a reply without a tool call wrote as its text, or None."""
    if not isinstance(message, AIMessage) or message.tool_calls or not message.text.strip():
        return None
    from langchain_core.utils.json import parse_json_markdown

    try:
        data = parse_json_markdown(message.text)
    except ValueError:  # JSONDecodeError: no JSON object in it
        return None
    return data if isinstance(data, dict) else None


def unanswered(message: Any, schema: Any) -> str | None:
    """Why ``message`` (the model's reply) is no answer of ``schema`` (its answer tool, named
    after the class), in words for an error or a note: arguments that are not JSON (the JSON
    error, not the library's text and the cut arguments), JSON text whose fields do not fit
    (which fields), an answer in prose; None when it is not an ``AIMessage`` or holds a valid
    tool call.

    Example:
        >>> class Plan(BaseModel):
        ...     sub_questions: list[str]
        >>> unanswered(AIMessage("It is 42."), Plan)
        'answered in text instead of calling its Plan tool'
        >>> unanswered(AIMessage('```json\\n{"questions": "a"}\\n```'), Plan)
        'answered in text, with JSON that does not fit Plan: sub_questions (Field required)'
    """
    tool = getattr(schema, "__name__", "its answer")
    if not isinstance(message, AIMessage) or message.tool_calls:
        return None
    if message.invalid_tool_calls:
        call = message.invalid_tool_calls[0]
        return (f"its {call.get('name') or 'tool'} call had arguments that are not JSON "
                f"({json_error(call.get('error'))})")
    data = _text_json(message)
    if data is not None:
        try:
            _parse(schema, data)
        except ValidationError as exc:
            return (f"answered in text, with JSON that does not fit {tool}: "
                    f"{invalid_arguments(exc)}")
    if message.text.strip():
        return f"answered in text instead of calling its {tool} tool"
    return None


def json_error(error: Any) -> str:
    """The JSON decoder's own words in an invalid tool call's ``error`` (LangChain's
    "Function X arguments: <the arguments> are not valid JSON. Received JSONDecodeError
    Expecting value: line 1 column 42 (char 41) ..."), or "unparsable".

    Example:
        >>> json_error("Function P arguments: {\\n are not valid JSON. Received JSONDecodeError "
        ...            "Expecting value: line 1 column 2 (char 1)\\nFor troubleshooting, visit: x")
        'Expecting value: line 1 column 2 (char 1)'
    """
    text = str(error or "")
    found = re.search(r"JSONDecodeError:?\s*([^\n]+)", text)
    if found:
        return " ".join(found.group(1).split())[:120]
    return " ".join(text.split())[:120] if text and "arguments:" not in text else "unparsable"


class AnswerProtocol(AgentMiddleware):
    """The ``create_agent`` middleware described in the module docstring.

    Args:
        who: how errors name the agent (``"analyst"``).
        strategy: the agent's ``ToolStrategy`` (its ``handle_errors`` must be False, or the
            errors never reach this middleware).

    Raises (from the agent's run):
        workers.errors.AnswerProtocolError: a fault repeated after its correction.
    """

    def __init__(self, who: str, strategy: ToolStrategy) -> None:
        super().__init__()
        self.who = who
        self.schemas = {spec.name: spec.schema for spec in strategy.schema_specs}

    @property
    def name(self) -> str:
        """The middleware's node name (unique per agent)."""
        return f"{self.who}_answer_protocol"

    def wrap_model_call(self, request: ModelRequest,
                        handler: Callable[[ModelRequest], ModelResponse]) -> ModelResponse:
        """Run the model step; turn a broken answer into one answer, a correction or an error."""
        try:
            return self.unparsed(request, handler(request))
        except StructuredOutputError as exc:
            return self.recover(request, exc)

    async def awrap_model_call(
        self, request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelResponse:
        """Async :meth:`wrap_model_call`."""
        try:
            return self.unparsed(request, await handler(request))
        except StructuredOutputError as exc:
            return self.recover(request, exc)

    def unparsed(self, request: ModelRequest, response: ModelResponse) -> ModelResponse:
        """``response``, or what replaces a reply without a valid tool call, where the agent
        would stop without an answer and without telling the model why:

        * a call whose arguments are not JSON (the integration keeps it apart, in
          ``invalid_tool_calls``), of its answer tool or any other (e.g. a search call with a
          trailing comma): a correction;
        * an answer written as text (:func:`text_answer`): taken when it fits the schema,
          else a correction asking for the tool call."""
        message = response.result[0] if response.result else None
        if (response.structured_response is not None or not isinstance(message, AIMessage)
                or message.tool_calls):
            return response
        tool = next(iter(self.schemas), "")
        if message.invalid_tool_calls:
            broken = message.invalid_tool_calls[0]
            name = broken.get("name") or tool
            why = json_error(broken.get("error"))
            whose = f"structured output ({name})" if name in self.schemas else f"{name} call"
            fault = f"{self.who}'s {whose} had arguments that are not JSON"
            told = (f"Your {name} call had arguments that are not valid JSON ({why}). Call "
                    f"{name} once, with JSON arguments that fit its schema.")
        elif tool and message.text.strip():
            answer = text_answer(message, self.schemas[tool])
            if answer is not None:
                return ModelResponse(result=[message], structured_response=answer)
            name, broken = tool, {}
            why = unanswered(message, self.schemas[tool]) or "answered in text"
            fault = f"{self.who} {why.replace(f'its {tool} tool', 'its structured-output tool')}"
            told = (f"You {why.replace('its ', 'your ', 1)}. Call {tool} once, with your answer "
                    "as its arguments.")
        else:
            return response
        call = {"name": name, "args": {}, "id": broken.get("id") or f"{self.who}_answer",
                "type": "tool_call"}
        # The call is kept as a call (with no arguments), so the agent goes back to the model.
        fixed = message.model_copy(update={"tool_calls": [call], "invalid_tool_calls": []})
        return self._correct(request, fixed, [call], fault, told)

    def recover(self, request: ModelRequest, exc: StructuredOutputError) -> ModelResponse:
        """The response that replaces the failed model step (or raise, see the class)."""
        message = exc.ai_message
        calls = [c for c in message.tool_calls if c["name"] in self.schemas]
        if isinstance(exc, MultipleStructuredOutputsError):
            if all(c["args"] == calls[0]["args"] for c in calls):
                try:
                    answer = _parse(self.schemas[calls[0]["name"]], calls[0]["args"])
                except ValidationError as invalid:
                    return self._invalid(request, message, calls, invalid)
                return ModelResponse(result=[message, *(
                    ToolMessage(f"Returning structured response: {answer!r}",
                                tool_call_id=c["id"], name=c["name"]) for c in calls)],
                    structured_response=answer)
            names = ", ".join(dict.fromkeys(c["name"] for c in calls))
            times = "twice" if len(calls) == 2 else f"{len(calls)} times"
            fault = (f"{self.who} called its structured-output tool {times} in one message "
                     f"({names}, with different arguments)")
            told = (f"You called {names} {times} in one message, with different arguments. "
                    f"Call {names} exactly once, with your one final answer.")
            return self._correct(request, message, calls, fault, told)
        if isinstance(exc, StructuredOutputValidationError):
            return self._invalid(request, message, calls[:1], exc)
        raise exc  # pragma: no cover - no other StructuredOutputError is raised by ToolStrategy

    def _invalid(self, request: ModelRequest, message: AIMessage, calls: list[dict[str, Any]],
                 exc: BaseException) -> ModelResponse:
        names = ", ".join(dict.fromkeys(c["name"] for c in calls)) or "its answer tool"
        problems = invalid_arguments(exc)
        fault = f"{self.who}'s structured output ({names}) had invalid arguments: {problems}"
        told = (f"Your {names} call had invalid arguments: {problems}. Call {names} once, with "
                "arguments that fit its schema.")
        return self._correct(request, message, calls, fault, told)

    def _correct(self, request: ModelRequest, message: AIMessage, calls: list[dict[str, Any]],
                 fault: str, told: str) -> ModelResponse:
        """One correction per agent run; the next fault is the task's error. A provider-side
        fault (output cut at the length limit: :func:`workers.errors.response_fault`) is the
        cause instead, and raised as such: no correction cures it."""
        if (provider_fault := response_fault(message, self.who)) is not None:
            raise provider_fault
        if any(isinstance(m, ToolMessage) and isinstance(m.artifact, dict)
               and m.artifact.get(CORRECTION) for m in request.messages):
            raise AnswerProtocolError(f"{fault}, again after one correction")
        replies = [ToolMessage(told, tool_call_id=c["id"], name=c["name"], status="error",
                               artifact={CORRECTION: fault}) for c in calls]
        return ModelResponse(result=[message, *replies])


def _parse(schema: Any, args: dict[str, Any]) -> Any:
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_validate(args)
    from pydantic import TypeAdapter

    return TypeAdapter(schema).validate_python(args)
