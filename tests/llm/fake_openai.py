"""A fake OpenAI-compatible server over real HTTP, scripted per test.

:class:`FakeOpenAI` is a stdlib ``ThreadingHTTPServer`` on ``127.0.0.1`` (port 0) in a thread
(``tests/http_stub.py``), implementing ``POST /v1/chat/completions`` (non-streaming) well enough
for the real ``ChatOpenAI`` client: ``tools``/``tool_choice`` (function calling) and
``response_format`` ``json_schema``, with ``usage`` in every answer.

How it decides what to answer, per request, by reading the request itself:

* **role**: the tools offered (or the ``json_schema`` name). ``Plan`` -> ``planner``;
  ``ReportSummary`` -> ``report``; ``search_corpus`` with ``Findings`` -> ``analyst``, with
  ``Caveats`` -> ``critic`` (ToolStrategy names the structured-response tool after the schema);
  the system prompt is the fallback for an agent.
* **step** of an agent's tool loop: no tool message yet -> ``search`` (answer: a call to
  ``search_corpus`` with the sub-question); otherwise -> ``answer`` (a call to the response tool
  whose claims quote passages, with their refs, from the ``search_corpus`` results *in the
  messages it received*, so every citation resolves).
* **planner**: a ``Plan`` with :attr:`FakeOpenAI.plan_questions`.
* **report**: a ``ReportSummary`` with :data:`SYNTHESIS_SENTENCE` citing the first ref of the
  prompt that the server handed out in a search result, plus :data:`UNSOURCED_SENTENCE` citing a
  ref that exists nowhere (the app must drop it).

Faults are scripted with :meth:`FakeOpenAI.fail` per role (and optionally per agent step or
sub-question): an HTTP status (429, 500, ...; with ``retry_after`` a ``Retry-After`` header),
``bad_json`` (invalid JSON in the tool-call arguments), ``bad_args`` (valid JSON that fails the
schema), a ``delay`` (``location``: a redirect's ``Location`` of a status fault, 307), the
malformed 200 answers of ``tests/llm/fake_bodies.py`` (no, null or an object of ``choices``, a
null ``message``, an ``error`` object, no ``usage`` or a ``usage`` sent as scripted, tool-call
arguments double-encoded, a list or a number, the answer as fenced JSON text), ``null_tool_id``
(a tool call whose ``id`` is null), ``length`` (output cut: ``finish_reason: "length"`` and the
tool-call arguments truncated mid-JSON), the 200s of ``RAW_BODIES`` and, at an agent's
``search`` step, ``bad_json`` (a trailing comma in the search call).
Agents' protocol faults, at the ``answer`` step: ``twice`` (the response tool called twice in one
message, with the same arguments), ``twice_differing`` (twice, with different arguments:
langchainjs#11020) and ``tool_and_bad_args`` (a ``search_corpus`` call and a response tool call
whose arguments fail the schema, in one message: langchain#40420). ``tokens`` sets the
``usage.total_tokens`` of a faulty answer. Every request records when it arrived (``Seen.at``,
``time.monotonic()``), so a test can check how long the client waited. A key check
(``expected_key``, answering 401 and echoing the key as OpenAI does) and a model check
(``known_models``, answering 404) are built in.

The ``fake_openai`` fixture of ``tests/llm/conftest.py`` starts one per test; tests that run
their own (``tests/e2e/test_langgraph_server.py``) call :meth:`FakeOpenAI.start` and
:meth:`FakeOpenAI.stop` themselves. :data:`PLAN_QUESTIONS`, :data:`SYNTHESIS_SENTENCE` and
:data:`UNSOURCED_SENTENCE` are what it answers; :data:`FAKE_KEY` is the key the tests give the
app.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from typing import Any

from tests.http_stub import JsonHandler, serve, stop
from tests.llm.fake_bodies import RAW_BODIES, edit_answer, edit_payload
from workers.tools import message_text

FAKE_KEY = "sk-test-LEAKCANARY-7f3a9c2e5b1d4e8f"
"""A distinctive fake key: tests grep every output file and stream for it."""

PLAN_QUESTIONS = [
    "What is the glimmer relay and what does it carry?",
    "How does the glimmer relay fold packets into copper envelopes?",
    "What are the limitations of the glimmer relay?",
]
SYNTHESIS_SENTENCE = "The glimmer relay folds every packet into copper envelopes before launch."
UNSOURCED_SENTENCE = "The glimmer relay was invented on Mars by a committee of seven robots."


@dataclass
class Fault:
    """One scripted misbehaviour. ``times=None`` means every matching request."""

    role: str
    kind: str = "status"  # status | bad_json | bad_args | delay | ... (see the module doc)
    status: int = 500
    retry_after: str | None = None  # the Retry-After header of a status fault
    tokens: int | None = None  # usage.total_tokens of a faulty answer (None: computed)
    times: int | None = 1
    step: str | None = None  # search | answer (agents only)
    question: str | None = None  # substring of the agent's sub-question
    delay: float = 0.0
    usage: Any = None  # what a ``usage`` fault sends as the usage object
    location: str | None = None  # the Location header of a status fault (a redirect)

    def matches(self, role: str, step: str, question: str) -> bool:
        if self.times is not None and self.times <= 0:
            return False
        if self.role not in ("*", role):
            return False
        if self.step is not None and self.step != step:
            return False
        return self.question is None or self.question.lower() in question.lower()


@dataclass
class Seen:
    """One request the server received, and what it answered."""

    role: str
    step: str
    status: int
    model: str
    authorization: str
    body: dict[str, Any]
    answer: dict[str, Any] | None = None
    total_tokens: int = 0
    fault: str | None = None
    at: float = 0.0  # time.monotonic() when the request arrived
    retry_after: float | None = None  # the Retry-After the answer carried


_ERROR_TYPES = {
    401: ("invalid_request_error", "invalid_api_key"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("rate_limit_error", "rate_limit_exceeded"),
    500: ("server_error", None),
    503: ("server_error", None),
}


def _seconds(retry_after: str | None) -> float | None:
    """A Retry-After header's seconds, or None (none, or an HTTP date)."""
    try:
        return float(retry_after) if retry_after else None
    except ValueError:
        return None


def _first_sentence(text: str, limit: int = 200) -> str:
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    flat = " ".join(" ".join(lines).split())
    match = re.match(r"(.{20,}?[.!?])(\s|$)", flat)
    return (match.group(1) if match else flat)[:limit]


class FakeOpenAI:
    """The fake server's state: scripted answers and faults, and every request it saw."""

    def __init__(self) -> None:
        self.plan_questions = list(PLAN_QUESTIONS)
        self.expected_key: str | None = None
        self.known_models: set[str] | None = None
        self.faults: list[Fault] = []
        self.seen: list[Seen] = []
        self.handed_out_refs: list[str] = []  # refs seen in search results, in order
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self.url = ""

    # --- scripting -------------------------------------------------------------------------
    def fail(self, role: str, kind: str = "status", **kwargs: Any) -> Fault:
        """Script a fault, e.g. ``fail("critic", status=429)`` (once) or
        ``fail("analyst", status=500, times=None, question="fold")`` (always)."""
        fault = Fault(role=role, kind=kind, **kwargs)
        self.faults.append(fault)
        return fault

    # --- what it saw -----------------------------------------------------------------------
    def requests(self, role: str | None = None, status: int | None = None) -> list[Seen]:
        with self._lock:
            return [
                s for s in self.seen
                if (role is None or s.role == role) and (status is None or s.status == status)
            ]

    @property
    def total_tokens(self) -> int:
        """The sum of ``usage.total_tokens`` over every answer the server gave."""
        return sum(s.total_tokens for s in self.requests(status=200))

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(JsonHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                raw = self.read_body()
                if raw is None:  # the client was killed mid-request
                    return
                status, payload, *extra = fake.handle(self.path, self.headers, raw)
                headers = {**(extra[0] if extra else {}),
                           "x-request-id": f"req_{uuid.uuid4().hex[:12]}"}
                self.send_json(status, payload, headers)

        self._server = serve(Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        return self

    def stop(self) -> None:
        if self._server is not None:
            stop(self._server)

    # --- the protocol ----------------------------------------------------------------------
    def handle(self, path: str, headers: Mapping[str, str], raw: bytes) -> tuple:
        """Answer one request: ``(status, payload)`` or ``(status, payload, headers)``."""
        arrived = time.monotonic()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return 400, self._error(400, "invalid JSON body")
        if path.rstrip("/") != "/v1/chat/completions":
            return 404, self._error(404, f"no route {path}")
        role, step, question = self._classify(body)
        seen = Seen(role=role, step=step, status=200, model=str(body.get("model")),
                    authorization=headers.get("Authorization", ""), body=body, at=arrived)
        with self._lock:
            self.seen.append(seen)
            fault = next((f for f in self.faults if f.matches(role, step, question)), None)
            if fault is not None and fault.times is not None:
                fault.times -= 1
        key = seen.authorization.removeprefix("Bearer ").strip()
        if self.expected_key is not None and key != self.expected_key:
            # Real OpenAI echoes (a masked form of) the key it rejected; echo all of it, so a
            # test proves the app masks it.
            seen.status = 401
            return 401, self._error(401, f"Incorrect API key provided: {key}.")
        if self.known_models is not None and body.get("model") not in self.known_models:
            seen.status = 404
            return 404, self._error(404, f"The model `{body.get('model')}` does not exist.")
        if body.get("stream"):
            seen.status = 400
            return 400, self._error(400, "streaming is not supported by the fake server")
        kind = None
        if fault is not None:
            seen.fault = kind = fault.kind
            if fault.kind == "status":
                seen.status = fault.status
                extra = {"Retry-After": fault.retry_after} if fault.retry_after else {}
                if fault.location:  # a redirect
                    extra["Location"] = fault.location
                seen.retry_after = _seconds(fault.retry_after)
                return fault.status, self._error(fault.status, f"scripted {fault.status}"), extra
            if fault.kind == "delay":
                time.sleep(fault.delay)
        answer = self._answer(body, role, step, kind)
        if answer is None:
            seen.status = 400
            return 400, self._error(400, f"the fake server cannot answer a {role!r} request")
        if kind in RAW_BODIES:  # a 200 that is no completion (no usage)
            seen.answer = answer
            return 200, RAW_BODIES[kind]
        answer = edit_answer(kind, answer)  # tests/llm/fake_bodies.py
        completion_text = json.dumps(answer)
        usage = {
            "prompt_tokens": 10 + len(raw) // 50,
            "completion_tokens": 5 + len(completion_text) // 20,
        }
        if fault is not None and fault.tokens is not None:
            usage["prompt_tokens"] = fault.tokens - usage["completion_tokens"]
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        seen.answer, seen.total_tokens = answer, usage["total_tokens"]
        finish = "tool_calls" if answer.get("tool_calls") else "stop"
        if kind == "null_tool_id":
            for call in answer.get("tool_calls") or []:
                call["id"] = None
        if kind == "length":  # the output hit max_tokens: arguments cut mid-JSON
            finish = "length"
            for call in answer.get("tool_calls") or []:
                arguments = call["function"]["arguments"]
                call["function"]["arguments"] = arguments[: max(1, len(arguments) // 2)]
        payload = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:16]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": answer, "finish_reason": finish,
                         "logprobs": None}],
            "usage": usage,
        }
        if kind in ("no_usage", "usage"):  # no usage, or none a client can believe
            seen.total_tokens = 0
        return 200, edit_payload(kind, payload, fault.usage if fault else None)

    @staticmethod
    def _error(status: int, message: str) -> dict:
        etype, code = _ERROR_TYPES.get(status, ("invalid_request_error", None))
        return {"error": {"message": message, "type": etype, "param": None, "code": code}}

    @staticmethod
    def _names(body: dict) -> tuple[list[str], str | None]:
        tools = [t.get("function", {}).get("name", "") for t in body.get("tools") or []]
        fmt = body.get("response_format") or {}
        schema_name = fmt.get("json_schema", {}).get("name") if isinstance(fmt, dict) else None
        return tools, schema_name

    def _classify(self, body: dict) -> tuple[str, str, str]:
        tools, schema_name = self._names(body)
        names = set(tools) | ({schema_name} if schema_name else set())
        messages = body.get("messages") or []
        question = next((message_text(m.get("content")) for m in messages
                         if m.get("role") == "user"), "")
        if "Plan" in names:
            return "planner", "plan", question
        if "ReportSummary" in names:
            return "report", "summary", question
        if "search_corpus" in names:
            system = next((message_text(m.get("content")) for m in messages
                           if m.get("role") in ("system", "developer")), "")
            if "Findings" in names or "research analyst" in system:
                role = "analyst"
            elif "Caveats" in names or "skeptical reviewer" in system:
                role = "critic"
            else:
                role = "agent"
            step = "answer" if any(m.get("role") == "tool" for m in messages) else "search"
            return role, step, question
        return "unknown", "", question

    def _search_results(self, messages: list[dict]) -> list[dict]:
        results: list[dict] = []
        for m in messages:
            if m.get("role") != "tool":
                continue
            try:
                data = json.loads(message_text(m.get("content")))
            except ValueError:
                continue
            if isinstance(data, dict) and isinstance(data.get("results"), list):
                results += [r for r in data["results"] if isinstance(r, dict) and r.get("ref")]
        with self._lock:
            for r in results:
                if r["ref"] not in self.handed_out_refs:
                    self.handed_out_refs.append(r["ref"])
        return results

    @staticmethod
    def _tool_call(name: str, arguments: str, *more: tuple[str, str]) -> dict:
        """An assistant message calling ``name`` with ``arguments``, then each ``(name,
        arguments)`` of ``more``, in one message."""
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": f"call_{uuid.uuid4().hex[:20]}", "type": "function",
                            "function": {"name": n, "arguments": a}}
                           for n, a in ((name, arguments), *more)],
        }

    def _structured(self, body: dict, name: str, args: dict) -> dict:
        """Answer with ``args`` as the tool call ``name``, or as JSON content when the request
        asked for ``response_format`` json_schema instead of a tool."""
        tools, schema_name = self._names(body)
        if name not in tools and schema_name == name:
            return {"role": "assistant", "content": json.dumps(args), "refusal": None}
        return self._tool_call(name, json.dumps(args))

    def _answer(self, body: dict, role: str, step: str, fault: str | None) -> dict | None:
        messages = body.get("messages") or []
        if role in ("planner", "report") and fault in ("bad_json", "bad_args"):
            name, field_name = ("Plan", "sub_questions") if role == "planner" else (
                "ReportSummary", "sentences")
            if fault == "bad_json":
                return self._tool_call(name, '{"' + field_name + '": ["unterminated')
            return self._tool_call(name, json.dumps({field_name: "not a list"}))
        if role == "planner":
            return self._structured(body, "Plan", {"sub_questions": self.plan_questions})
        if role == "report":
            prompt = "\n".join(message_text(m.get("content")) for m in messages)
            with self._lock:
                refs = [r for r in self.handed_out_refs if f"ref: {r})" in prompt]
            sentences = [{"sentence": UNSOURCED_SENTENCE, "refs": ["made/up.md#9"]}]
            if refs:
                sentences.insert(0, {"sentence": SYNTHESIS_SENTENCE, "refs": [refs[0]]})
            return self._structured(body, "ReportSummary", {"sentences": sentences})
        if role not in ("analyst", "critic", "agent"):
            return None
        question = next((message_text(m.get("content")) for m in messages
                         if m.get("role") == "user"), "")
        if step == "search":
            if fault == "bad_json":  # a trailing comma, as small models write
                return self._tool_call("search_corpus", json.dumps({"query": question})[:-1] + ",}")
            return self._tool_call("search_corpus", json.dumps({"query": question}))
        response_tool, field_name = ("Findings", "findings") if role == "analyst" else (
            "Caveats", "caveats")
        results = self._search_results(messages)
        claims = [{"claim": _first_sentence(r.get("text", "")), "ref": r["ref"]}
                  for r in results[: 2 if role == "analyst" else 1]]
        if fault == "bad_json":
            return self._tool_call(response_tool, '{"' + field_name + '": [{"claim": "unterminated')
        if fault == "bad_args":
            return self._tool_call(response_tool, json.dumps({field_name: "not a list"}))
        if fault == "twice":
            args = json.dumps({field_name: claims})
            return self._tool_call(response_tool, args, (response_tool, args))
        if fault == "twice_differing":
            return self._tool_call(response_tool, json.dumps({field_name: claims}),
                                   (response_tool, json.dumps({field_name: []})))
        if fault == "tool_and_bad_args":
            return self._tool_call("search_corpus", json.dumps({"query": question}),
                                   (response_tool, json.dumps({field_name: "not a list"})))
        return self._tool_call(response_tool, json.dumps({field_name: claims}))
