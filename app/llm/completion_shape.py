"""A chat completion the model integration could not read is the provider's malformed response,
named by what is wrong with it, never an error of the app.

``langchain-openai`` reads an HTTP 200's body in ``_create_chat_result`` (with
``_convert_dict_to_message`` for each choice's message and ``_create_usage_metadata`` for
``usage``), trusting its shape: ``"choices": {"0": {...}}`` (an object where a list belongs)
raised ``TypeError: string indices must be integers``, ``"message": null`` raised
``AttributeError: 'NoneType' object has no attribute 'get'``, and the run ended on that line as
if the app had a bug: the planner with no retry and no fallback, an agent's task with no retry,
the report's summary with a note quoting it. The README's promise for an
empty or null ``choices`` list (a malformed response: retried like a 5xx, then named) holds for
every shape: :func:`unread_completion` tells an error raised while the integration read the
body (by the reader's frame in the error's traceback) from any other, and
:func:`shape_fault` says, from the body itself, what in it is not a chat completion.

Source: the OpenAI chat completion object (``choices`` a list of objects, each with a
``message`` object; ``usage`` an object of counts); ``langchain_openai.chat_models.base``.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import Any

from workers.errors import MalformedResponseError, one_line

__all__ = ["READERS", "json_kind", "shape_fault", "unread_completion"]

READERS = frozenset({"_create_chat_result", "_convert_dict_to_message",
                     "_create_usage_metadata"})
"""The functions of ``langchain_openai`` that read a completion's body: an error raised inside
one (and not caught there) is the body's fault. ``tests/llm/test_completion_shapes.py`` pins
them against the installed ``langchain-openai``."""

_BODY = "response_dict"
"""``_create_chat_result``'s name for the body it reads, as a dict."""


def json_kind(value: Any) -> str:
    """How a message names a JSON value's type: ``null``, ``a string``, ``an object``...

    Example:
        >>> json_kind([1, 2]), json_kind(42), json_kind(None), json_kind(False)
        ('a list', 'a number', 'null', 'false')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    for types, name in ((str, "a string"), (Mapping, "an object"), (list | tuple, "a list"),
                        (int | float, "a number")):
        if isinstance(value, types):
            return name
    return type(value).__name__


def shape_fault(body: Any) -> str | None:
    """What in ``body`` (a chat completion as a dict) is not where a chat completion has it,
    in a few words, or None when its shape is one.

    Example:
        >>> shape_fault({"choices": {"0": {"message": {}}}})
        "'choices' is an object, not a list"
        >>> shape_fault({"choices": [{"message": None}]})
        'choices[0].message is null, not an object'
        >>> shape_fault({"choices": [{"message": {}}], "usage": "lots"})
        "'usage' is a string, not an object"
        >>> shape_fault({"choices": [{"message": {"content": 42}}]})
        'choices[0].message.content is a number, not text'
        >>> shape_fault({"choices": [{"message": {"tool_calls": {"0": {}}}}]})
        'choices[0].message.tool_calls is an object, not a list'
        >>> shape_fault({"choices": [{"message": {"content": "hi"}}]}) is None
        True
    """
    if not isinstance(body, Mapping):
        return f"the body is {json_kind(body)}, not an object"
    choices = body.get("choices")
    if not isinstance(choices, list):
        return f"'choices' is {json_kind(choices)}, not a list"
    for n, choice in enumerate(choices):
        if not isinstance(choice, Mapping):
            return f"choices[{n}] is {json_kind(choice)}, not an object"
        if why := _message_fault(choice.get("message"), f"choices[{n}].message"):
            return why
    usage = body.get("usage")
    if usage is not None and not isinstance(usage, Mapping):
        return f"'usage' is {json_kind(usage)}, not an object"
    for part in ("prompt_tokens_details", "completion_tokens_details"):
        value = usage.get(part) if isinstance(usage, Mapping) else None
        if value is not None and not isinstance(value, Mapping):
            return f"usage.{part} is {json_kind(value)}, not an object"
    return None


def _message_fault(message: Any, where: str) -> str | None:
    """What in one choice's ``message`` (named ``where``) is not where a message has it: the
    message an object, its ``content`` text (a string, a list of parts, or null), its
    ``tool_calls`` a list of objects."""
    if not isinstance(message, Mapping):
        return f"{where} is {json_kind(message)}, not an object"
    content = message.get("content")
    if content is not None and not isinstance(content, str | list):
        return f"{where}.content is {json_kind(content)}, not text"
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        return f"{where}.tool_calls is {json_kind(calls)}, not a list"
    for n, call in enumerate(calls or []):
        if not isinstance(call, Mapping):
            return f"{where}.tool_calls[{n}] is {json_kind(call)}, not an object"
    return None


def unread_completion(error: BaseException, label: str) -> MalformedResponseError | None:
    """The malformed response ``error`` shows when it was raised while the integration read a
    completion's body (one of :data:`READERS` is in its traceback), else None.

    Its message names the model and what in the body is wrong (:func:`shape_fault`, read from
    the reader's frame), else the integration's own error on one line.

    Args:
        error: what the model call raised (``on_llm_error``'s error, with its traceback).
        label: how the message names the model (``openai:gpt-4.1-mini``).
    """
    if not isinstance(error, Exception):
        return None
    body, read = None, False
    for frame, _line in traceback.walk_tb(error.__traceback__):
        code = frame.f_code
        if code.co_name in READERS and "langchain_openai" in code.co_filename:
            read = True
            body = frame.f_locals.get(_BODY, body) if body is None else body
    if not read:
        return None
    what = shape_fault(body) if body is not None else None
    return MalformedResponseError(
        f"{label}: the provider's answer is no chat completion "
        f"({what or 'the client could not read it: ' + one_line(error, 160)}): a malformed "
        "response")
