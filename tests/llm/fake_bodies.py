"""The scripted fake OpenAI server's answers that break the protocol in their body (HTTP 200),
kept apart from its protocol (``tests/llm/fake_openai.py``). Each is a fault ``kind`` of
:meth:`tests.llm.fake_openai.FakeOpenAI.fail`:

* in the assistant message (:func:`edit_answer`): ``args_string`` (tool-call arguments
  double-encoded: a JSON string holding the JSON, as some local model servers send them),
  ``args_list`` and ``args_number`` (arguments that are valid JSON but a list, ``[...]``, or a
  number, ``42``), ``text_json`` (the answer as a fenced JSON block in the text, no tool call);
* in the completion around it (:func:`edit_payload`): ``empty_choices`` / ``null_choices``
  (``"choices": []`` / ``null``), ``choices_object`` (``"choices": {"0": {...}}``, an object
  where a list belongs), ``message_null`` (``"message": null``), ``content_number`` and
  ``tool_calls_object`` (the message's ``content`` a number, its ``tool_calls`` an object),
  ``error_200`` (an ``error``
  object in a 200, as some gateways send), ``no_usage`` (no ``usage`` object) and ``usage``
  (the fault's ``usage`` sent as the ``usage`` object as it is: a negative count,
  ``10**30``, a string: trial 39).

Source: the shapes a hostile stand-in sent in trial 39 (``/work/findings39/fakellm.py``), and
the OpenAI chat completion object (``choices`` a list, ``message`` an object, ``usage`` an
object of counts).
"""

from __future__ import annotations

import json
from typing import Any

from tests.http_stub import Truncated

__all__ = ["ANSWER_KINDS", "PAYLOAD_KINDS", "RAW_BODIES", "edit_answer", "edit_payload"]

ANSWER_KINDS = ("args_string", "args_list", "args_number", "text_json")
PAYLOAD_KINDS = ("empty_choices", "null_choices", "choices_object", "message_null",
                 "content_number", "tool_calls_object", "error_200", "no_usage", "usage")


def edit_answer(kind: str | None, answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` (an assistant message) as fault ``kind`` sends it; as it is for any other.

    Example:
        >>> call = {"function": {"name": "Plan", "arguments": '{"a": 1}'}}
        >>> edit_answer("args_list", {"tool_calls": [call]})["tool_calls"][0]["function"]
        {'name': 'Plan', 'arguments': '[{"a": 1}]'}
    """
    calls = answer.get("tool_calls") or []
    for call in calls if kind in ("args_string", "args_list", "args_number") else []:
        arguments = call["function"]["arguments"]
        call["function"]["arguments"] = {
            "args_string": json.dumps(arguments), "args_number": "42",
            "args_list": f"[{arguments}]"}[kind]
    if kind == "text_json" and calls:  # the answer as fenced text
        arguments = calls[0]["function"]["arguments"]
        answer = {"role": "assistant", "content": f"Here it is:\n```json\n{arguments}\n```"}
    return answer


def edit_payload(kind: str | None, payload: dict[str, Any], usage: Any = None) -> dict[str, Any]:
    """The completion ``payload`` as fault ``kind`` sends it (``usage``: what the ``usage``
    fault sends as the ``usage`` object); as it is for any other kind.

    Example:
        >>> edit_payload("message_null", {"choices": [{"message": {}}]})
        {'choices': [{'message': None}]}
        >>> edit_payload("usage", {"usage": {"total_tokens": 5}}, {"total_tokens": -5})
        {'usage': {'total_tokens': -5}}
    """
    if kind in ("empty_choices", "null_choices"):
        payload["choices"] = [] if kind == "empty_choices" else None
    if kind == "choices_object":
        payload["choices"] = {str(n): choice for n, choice in enumerate(payload["choices"])}
    if kind == "message_null":
        for choice in payload["choices"]:
            choice["message"] = None
    if kind in ("content_number", "tool_calls_object"):
        message = payload["choices"][0]["message"]
        if kind == "content_number":
            message["content"] = 42
        else:
            message["tool_calls"] = dict(enumerate(message.get("tool_calls") or [{}]))
    if kind == "error_200":
        payload = {"error": {"message": "upstream provider overloaded", "code": 502},
                   "usage": payload["usage"]}
    if kind == "no_usage":
        del payload["usage"]
    if kind == "usage":
        payload["usage"] = usage
    return payload


RAW_BODIES = {
    "html_200": "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
    "not_json_200": b"not json at all",  # sent as application/json
    "cut_200": Truncated(b'{"id": "chatcmpl-cut", "object": "chat.completion", '),  # then closed
}
"""The answers with status 200 that are no completion: a proxy's error page, a body that is not
JSON, half of a body before the connection closes."""
