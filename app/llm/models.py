"""The model factory: ``offline`` or any ``provider:model`` string ``init_chat_model`` accepts.

Real models get LangChain's ``InMemoryRateLimiter`` (shared by every role, so parallel workers
respect one requests-per-second budget) behind the provider endpoint's ``Retry-After`` gate, the
:class:`app.llm.provider.ProviderGuard` callbacks (Retry-After pacing, provider-side faults named:
see :mod:`app.llm.provider`), a request timeout, and no client-side retries
(``max_retries=0``): retrying is LangGraph's ``RetryPolicy``'s job, one place, one count. (The
``openai`` SDK retries twice by default; with its retries on, a 429 would be retried inside one
node attempt and the ``attempts`` an envelope records would lie.) The one exception is a rate limit
(HTTP 429), which is no failed attempt: each caller retries it within its request, up to the
rate-limit patience the limiter carries (:class:`workers.pacing.RateLimitPatience`,
``RESEARCH_RATE_LIMIT_PATIENCE``).

Also here: :func:`structured_output`, the one way the app asks a model for a pydantic object (the
planner's ``Plan``, the report's ``ReportSummary``), and :func:`parse_structured`, the one way
its answer is read. Tokens are counted by :mod:`workers.usage`.

Source: ``langchain.chat_models.init_chat_model``,
``langchain_core.rate_limiters.InMemoryRateLimiter`` and
``langchain_openai.ChatOpenAI.with_structured_output``.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ValidationError

from app.llm.offline import OfflineChatModel
from app.research.text import clip
from app.settings.config import ConfigError, Settings
from app.settings.credentials import redact
from app.settings.model_spec import no_model_name, unknown_provider
from app.settings.spec import shown
from workers.answer_protocol import invalid_arguments, text_answer, unanswered
from workers.errors import response_fault

__all__ = [
    "OFFLINE",
    "STRUCTURED_OUTPUT_METHOD",
    "ModelChoice",
    "describe_model",
    "make_model",
    "model_provider",
    "other_answers",
    "parse_structured",
    "structured_output",
]

OFFLINE = "offline"

LOCAL_SERVER_API_KEY = "not-needed"
"""Sent as the key when ``OPENAI_BASE_URL`` is set and no key is: local OpenAI-compatible servers
(Ollama, vLLM, llama.cpp) accept any key, and the ``openai`` client refuses to start without one."""

STRUCTURED_OUTPUT_METHOD = "function_calling"
"""How the planner and the report ask for structured output: a forced tool call. The agent
workers need tool calling anyway (``create_agent`` + ``ToolStrategy``), so this asks nothing more
of an OpenAI-compatible server; ``json_schema`` (``response_format``) is not supported by every
one of them."""

# Model-name prefixes ``init_chat_model`` maps to OpenAI when the spec names no provider.
_OPENAI_PREFIXES = ("gpt-", "o1", "o3", "o4", "chatgpt", "text-davinci")


@dataclass(frozen=True)
class ModelChoice:
    """A built chat model and how to name it to a user (never includes a key)."""

    model: BaseChatModel
    label: str
    offline: bool


def model_provider(spec: str) -> str | None:
    """The provider of a model spec: the part before ``:`` (``"openai:gpt-4.1-mini"`` ->
    ``"openai"``), ``"openai"`` for a bare OpenAI model name (``"gpt-4.1-mini"``), else None."""
    spec = spec.strip()
    if ":" in spec:
        return spec.split(":", 1)[0].strip().lower().replace("-", "_")
    if spec.lower().startswith(_OPENAI_PREFIXES):
        return "openai"
    return None


def _safe_url(url: str) -> str:
    """``url`` without user info, query or fragment (where a token could hide)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(unparsable URL)"
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def describe_model(spec: str, settings: Settings) -> str:
    """One-line, key-free description: ``offline (deterministic, extractive)`` or
    ``openai:gpt-4.1-mini via http://127.0.0.1:8000/v1``."""
    spec = (spec or "").strip()
    if spec == OFFLINE:
        return "offline (deterministic, extractive)"
    if settings.openai_base_url and model_provider(spec) == "openai":
        return f"{spec} via {_safe_url(settings.openai_base_url)}"
    return spec


_rate_limiters: dict[float, Any] = {}
_paced_limiters: dict[tuple[float, str, str, float, float], Any] = {}


def _rate_limiter(rps: float) -> Any:
    """One limiter per requests-per-second value, shared by every model built with it."""
    from langchain_core.rate_limiters import InMemoryRateLimiter

    if rps not in _rate_limiters:
        _rate_limiters[rps] = InMemoryRateLimiter(
            requests_per_second=rps, check_every_n_seconds=0.05, max_bucket_size=max(1, int(rps))
        )
    return _rate_limiters[rps]


def _pacing(spec: str, settings: Settings, label: str) -> dict[str, Any]:
    """The rate limiter and callbacks of a real model (see :mod:`app.llm.provider`).

    The limiter carries the rate-limit patience (``settings.rate_limit_patience`` seconds in
    all, the first backoff twice ``settings.retry_interval``, at least 0.05 s)."""
    from app.llm.kept_windows import keep_windows
    from app.llm.provider import PacedRateLimiter, ProviderGuard
    from workers.pacing import RateLimitPatience, gate_for

    provider = model_provider(spec) or spec
    endpoint = (settings.openai_base_url or "") if provider == "openai" else ""
    gate = gate_for(provider, endpoint)
    # a Retry-After window outlives a run stopped inside it (the data dir keeps its end)
    keep_windows(gate, settings.data_dir, provider, endpoint, label, settings.retry_patience)
    rps = settings.requests_per_second
    first_delay = max(2 * settings.retry_interval, 0.05)
    key = (rps, provider, endpoint, settings.rate_limit_patience, first_delay)
    if key not in _paced_limiters:  # one per endpoint and rate: every role shares it
        _paced_limiters[key] = PacedRateLimiter(
            gate, _rate_limiter(rps) if rps else None,
            RateLimitPatience(settings.rate_limit_patience, first_delay, gate))
    return {
        "rate_limiter": _paced_limiters[key],
        "callbacks": [ProviderGuard(label, gate, settings.retry_patience,
                                    tuple(settings.secrets()),
                                    _safe_url(endpoint) if endpoint else "")],
    }


def make_model(spec: str, settings: Settings) -> ModelChoice:
    """Build the chat model named by ``spec``.

    Args:
        spec: ``"offline"`` or ``"provider:model"`` (e.g. ``"openai:gpt-4.1-mini"``); a bare
            model name is passed to ``init_chat_model`` as it is.
        settings: supplies the key, base URL, timeout, requests per second, and the rate-limit
            patience (``rate_limit_patience``, ``retry_interval``).

    Raises:
        ConfigError: the spec is empty, its provider package is missing, an OpenAI model has
            neither a key nor a base URL, or ``init_chat_model`` rejects it. The message never
            holds the key.
    """
    spec = (spec or "").strip()
    if not spec:
        raise ConfigError("--model must not be empty")
    if spec == OFFLINE:
        return ModelChoice(OfflineChatModel(), describe_model(spec, settings), True)
    if spec.endswith(":"):  # "openai:" sent "model": "" to the provider
        raise ConfigError(no_model_name(spec))
    from langchain.chat_models import init_chat_model

    from app.llm.deadline import deadline_client

    kwargs: dict[str, Any] = {
        "timeout": settings.timeout,
        "max_retries": 0,  # LangGraph's RetryPolicy retries (see the module docstring)
        **_pacing(spec, settings, spec),
    }
    if model_provider(spec) == "openai":
        # RESEARCH_TIMEOUT bounds each whole request, and a stopping run stops waiting for it
        kwargs["http_client"] = deadline_client(settings.timeout)
        if settings.openai_base_url:
            kwargs["base_url"] = settings.openai_base_url
        if settings.openai_api_key:
            kwargs["api_key"] = settings.openai_api_key
        elif settings.openai_base_url:
            kwargs["api_key"] = LOCAL_SERVER_API_KEY
        else:
            raise ConfigError(
                f"model {shown(spec)} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local "
                "OpenAI-compatible server); use --model offline to run without one"
            )
    try:
        model = init_chat_model(spec, **kwargs)
    except ImportError as exc:
        raise ConfigError(f"model {shown(spec)} needs a provider package: {exc}") from None
    except Exception as exc:  # init_chat_model raises ValueError for unknown providers
        if "infer model provider" in str(exc):  # its line lists ~30 providers: 330 characters
            raise ConfigError(unknown_provider(spec)) from None
        text = redact(" ".join(str(exc).split()), settings)
        raise ConfigError(f"cannot use model {shown(spec)}: {text[:200]}") from None
    return ModelChoice(model, describe_model(spec, settings), False)


def structured_output(model: BaseChatModel, schema: type[BaseModel]) -> Runnable:
    """``model.with_structured_output(schema, include_raw=True)``, by function calling where the
    model lets us choose (:data:`STRUCTURED_OUTPUT_METHOD`).

    The runnable returns ``{"raw": AIMessage, "parsed": schema | None, "parsing_error": ...}``:
    ``raw`` carries the token usage, and an answer that does not fit the schema comes back as
    ``parsing_error`` instead of an exception. Errors of the call itself (HTTP 429, 401, a
    timeout) are raised, for the retry policy and the error classification.
    """
    kwargs: dict[str, Any] = {"include_raw": True}
    try:
        params = inspect.signature(model.with_structured_output).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        params = {}
    if "method" in params:
        kwargs["method"] = STRUCTURED_OUTPUT_METHOD
    return model.with_structured_output(schema, **kwargs)


def other_answers(out: Any, schema: type[BaseModel]) -> int:
    """How many answers other than the first the raw message of a :func:`structured_output`
    call holds: calls of the schema's tool with other arguments in one message (identical ones
    are one answer, as :class:`workers.answer_protocol.AnswerProtocol` counts them for the
    workers). LangChain's parser takes the first; the caller says so in a note (trial 58, F6:
    a planner's second, conflicting plan was dropped without a word; langchainjs#11020).

    Example:
        >>> from langchain_core.messages import AIMessage
        >>> class Plan(BaseModel):
        ...     sub_questions: list[str]
        >>> call = lambda q, i: {"name": "Plan", "args": {"sub_questions": [q]}, "id": i}
        >>> raw = AIMessage("", tool_calls=[call("a?", "1"), call("a?", "2"), call("b?", "3")])
        >>> other_answers({"raw": raw, "parsed": None}, Plan)
        1
    """
    raw = out.get("raw") if isinstance(out, dict) else None
    calls = [c for c in getattr(raw, "tool_calls", None) or [] if c.get("name") == schema.__name__]
    answers = {json.dumps(c.get("args"), sort_keys=True, default=str) for c in calls}
    return max(len(answers) - 1, 0)


Schema = TypeVar("Schema", bound=BaseModel)

REASON_CHARS = 200
"""The most characters of the reason :func:`parse_structured` gives for an unusable answer."""


def parse_structured(out: Any, schema: type[Schema], who: str) -> tuple[Schema | None, str]:
    """Read what a :func:`structured_output` runnable returned: ``(answer, "")`` when it fits
    ``schema``, else ``(None, why)``.

    ``why`` is one line of at most :data:`REASON_CHARS` characters: the provider-side fault the
    raw message shows (:func:`workers.errors.response_fault`: output cut at the length limit, a
    tool call without an id) when there is one, else the parsing error, or the invalid fields,
    else what the raw message did instead (arguments that are not JSON, an answer in text:
    :func:`workers.answer_protocol.unanswered`), else ``"no answer"``. An answer that fits is
    used even when the raw message shows a fault, and so is one written as JSON text
    (:func:`workers.answer_protocol.text_answer`).

    Args:
        out: ``{"raw": AIMessage, "parsed": schema | dict | None, "parsing_error": ...}``; a
            model whose ``with_structured_output`` ignores ``include_raw`` may return the parsed
            object (or a dict) itself.
        schema: the pydantic class asked for (a dict answer is validated against it).
        who: how the reason names the model's role, e.g. ``"the planner"``.

    Raises:
        Nothing: an answer that does not fit is the caller's to handle (each falls back its own
        way), never an exception.

    Example:
        >>> class Plan(BaseModel):
        ...     sub_questions: list[str]
        >>> parse_structured({"raw": None, "parsed": {"sub_questions": ["a"]}}, Plan, "p")[0]
        Plan(sub_questions=['a'])
        >>> parse_structured({"raw": None, "parsed": None, "parsing_error": None}, Plan, "p")
        (None, 'no answer')
    """
    if isinstance(out, dict) and "raw" in out:
        raw, parsed, error = out.get("raw"), out.get("parsed"), out.get("parsing_error")
        fault = response_fault(raw, who)
    else:  # a model whose with_structured_output ignores include_raw
        raw, parsed, error, fault = None, out, None, None
    if parsed is None and error is None:  # the answer written as text (small local models)
        parsed = text_answer(raw, schema)
    if isinstance(parsed, dict):
        try:
            parsed = schema.model_validate(parsed)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            parsed, error = None, exc
    if isinstance(parsed, schema):
        return parsed, ""
    if isinstance(error, ValidationError):  # its fields, not pydantic's text and URL
        error = f"invalid arguments: {invalid_arguments(error)}"
    why = fault or error or unanswered(raw, schema) or "no answer"
    return None, clip(" ".join(str(why).split()), REASON_CHARS)
