"""Which worker errors are worth retrying, and which must stop the run.

LangGraph's ``RetryPolicy`` takes a ``retry_on`` predicate. Its default (``default_retry_on``)
refuses a short list of built-in error types (``ValueError``, ``RuntimeError``, ``OSError``, ...)
and ``httpx`` 4xx, and retries everything else. That is wrong twice for model calls: it retries
the SDK errors that can never succeed (``openai.AuthenticationError``, an unknown model's
``NotFoundError``), spending attempts on a dead key, and it refuses a ``RuntimeError`` subclass
such as this module's :class:`TransientWorkerError`. This module is the predicate that retries
exactly the transient failures, plus the opposite question: which errors mean "stop now" (a bad
key, an unknown model) because every other call would fail the same way.

Provider-neutral first: LangChain integrations raise ``langchain_core.exceptions.ModelError``
subclasses (``ModelRateLimitError``, ``ModelAuthenticationError``, ...; ``langchain-openai``'s
``OpenAIRateLimitError`` is both ``openai.RateLimitError`` and ``ModelRateLimitError``), whose
``is_retryable`` says what a retry may cure. HTTP status codes and the ``openai``/``httpx`` types
cover clients that raise their own errors.

Provider-side faults that arrive as an HTTP 200 get their own types here, so they are classified
like the HTTP errors they are: :class:`MalformedResponseError` (no ``choices``, an error object in a
200, a tool call without an id: transient), :class:`OutputCutOff` (``finish_reason: "length"``:
permanent) and :class:`RetryAfterTooLong` (the server asked for a longer wait than the run's
patience: permanent), like :class:`RateLimitPatienceSpent` (rate-limited for longer than the run's
rate-limit patience). :func:`classify` answers the three-way question for any exception, and
:func:`is_rate_limited` says whether it is a rate limit (which gets its own patience:
:mod:`workers.pacing`, where the ``Retry-After`` a server sent is read).

Source of the idea: ``langgraph.types.RetryPolicy`` and ``default_retry_on`` in
``langgraph/_internal/_retry.py``; ``langchain_core/exceptions.py``; provider error classes from the
``openai`` SDK.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any, Literal

from langchain_core.exceptions import (
    ModelAPIError,
    ModelAuthenticationError,
    ModelError,
    ModelNotFoundError,
    ModelPermissionDeniedError,
    ModelRateLimitError,
)

from workers.redaction import redact  # re-exported: the one mask of an error's text

__all__ = [
    "ANSWERED_WITHOUT",
    "AnswerProtocolError",
    "ErrorKind",
    "FatalModelError",
    "MalformedResponseError",
    "OutputCutOff",
    "RateLimitPatienceSpent",
    "RetryAfterTooLong",
    "RunCancelled",
    "TransientWorkerError",
    "UnreadableAnswer",
    "causes",
    "classify",
    "describe_fatal",
    "is_fatal",
    "is_rate_limited",
    "is_transient",
    "mask_in_place",
    "one_line",
    "redact",
    "response_fault",
]

ANSWERED_WITHOUT = "; the agent answered without it"
"""How an agent worker's note about a failed tool of the operator's (an MCP tool) ends: the
tool gave no answer, which the report must not read as an empty one."""

ErrorKind = Literal["fatal", "transient", "permanent"]


class TransientWorkerError(RuntimeError):
    """A failure worth retrying: raised by fault injection and usable by any worker."""


class FatalModelError(RuntimeError):
    """The model cannot be used at all (bad credentials, unknown model): stop the run."""


class RunCancelled(FatalModelError):
    """A worker gave up before starting because the run is stopping (see ``RunScope.cancel``).

    ``cause`` is the error that stopped the run (None for Ctrl-C): LangGraph may surface this
    exception rather than the cause, so callers report ``cause`` when there is one.
    """

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


class MalformedResponseError(ModelAPIError):
    """The provider answered (often HTTP 200) but not with a usable completion: an empty or null
    ``choices`` list, an error object instead of a completion, a tool call without an ``id``.

    A server-side fault like a 5xx (``ModelAPIError``, ``is_retryable``): retried. The message
    names what was wrong, so the last attempt's error line says it.
    """


class UnreadableAnswer(MalformedResponseError):
    """The provider's answer could not be read as a message: a tool call whose arguments are
    not a JSON object (a JSON *string* holding one, double-encoded: some local model servers
    send it so). Retried like any malformed response; the planner, which has an answer of its
    own to fall back on, uses it at once."""


class OutputCutOff(ModelError):
    """The model's output stopped at its length limit (``finish_reason: "length"``) before the
    answer was complete. Permanent: the same request hits the same limit."""


class AnswerProtocolError(ModelError):
    """The model kept breaking the structured-output protocol after it was told once what was
    wrong (its answer tool called twice in one message, arguments that fail the schema), or
    never answered within the agent's step limit. Permanent: the message names the fault.

    Source: ``langchain.agents.structured_output`` (``MultipleStructuredOutputsError``,
    ``StructuredOutputValidationError``); langchainjs#11020, langchain#40420.
    """


class RetryAfterTooLong(ModelRateLimitError):
    """The provider asked to wait (``Retry-After``) longer than the run is willing to.

    Permanent for this run (``is_retryable`` False): no retry inside the patience can succeed.

    Attributes:
        seconds: the wait the provider asked for.
        patience: the longest wait the run accepts (seconds).
    """

    is_retryable = False

    def __init__(self, message: str, *, seconds: float, patience: float) -> None:
        super().__init__(message)
        self.seconds = seconds
        self.patience = patience


class RateLimitPatienceSpent(ModelRateLimitError):
    """Rate-limited (HTTP 429) for longer than the run waits for rate limits
    (``RESEARCH_RATE_LIMIT_PATIENCE``, :class:`workers.pacing.RateLimitPatience`).

    Permanent (``is_retryable`` False): the patience is the whole bound, not one attempt's.
    """

    is_retryable = False


_TRANSIENT_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 529}

# How providers say "the output hit its length limit": OpenAI-compatible ``finish_reason``,
# Anthropic ``stop_reason``, Google ``finish_reason`` (upper case).
_CUT_OFF_REASONS = {"length", "max_tokens", "max_output_tokens"}


def response_fault(message: Any, who: str = "the model") -> ModelError | None:
    """The provider-side fault an answer shows, as the error to raise or name, else None.

    * the output was cut at the length limit (``finish_reason: "length"``, ``stop_reason:
      "max_tokens"``): :class:`OutputCutOff`;
    * a tool call has no ``id`` (the tool's result could not be matched to it):
      :class:`MalformedResponseError`.

    Args:
        message: an ``AIMessage`` (anything else: None).
        who: how the message names the model's role, e.g. ``"analyst"``.

    Example:
        >>> from langchain_core.messages import AIMessage
        >>> print(response_fault(AIMessage("", response_metadata={"finish_reason": "length"})))
        the model's output was cut off at its length limit (finish_reason "length")
    """
    metadata = getattr(message, "response_metadata", None)
    if not isinstance(metadata, dict):
        return None
    for key in ("finish_reason", "stop_reason"):
        reason = metadata.get(key)
        if isinstance(reason, str) and reason.lower() in _CUT_OFF_REASONS:
            return OutputCutOff(
                f'{who}\'s output was cut off at its length limit ({key} "{reason}")'
            )
    for call in getattr(message, "tool_calls", None) or []:
        if not call.get("id"):
            return MalformedResponseError(
                f"{who}: the provider sent a tool call ({call.get('name') or 'unnamed'}) "
                "without an id: a malformed response"
            )
    return None


def causes(exc: BaseException | None) -> Iterator[BaseException]:
    """``exc``, then the errors it was raised from or during (``__cause__``, else
    ``__context__``), each once: where a wrapped HTTP error or a full disk is found.

    Example:
        >>> try:
        ...     try:
        ...         raise TimeoutError("slow")
        ...     except TimeoutError as inner:
        ...         raise RuntimeError("wrapped") from inner
        ... except RuntimeError as outer:
        ...     [type(e).__name__ for e in causes(outer)]
        ['RuntimeError', 'TimeoutError']
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def _loaded(module: str) -> Any:
    """The module if some code already imported it, else None: an exception can only be one of
    its classes if it was (cheaper than importing ``openai`` to ask)."""
    return sys.modules.get(module)


def _status_code(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    if isinstance(code, int):
        return code
    response = getattr(exc, "response", None)
    code = getattr(response, "status_code", None)
    return code if isinstance(code, int) else None


def is_transient(exc: BaseException) -> bool:
    """True when ``exc`` is a transient failure that a retry may cure.

    Covers: :class:`TransientWorkerError`, ``TimeoutError`` and ``ConnectionError`` (and their
    ``httpx`` and ``openai`` equivalents: ``httpx.TimeoutException``, ``httpx.NetworkError``,
    ``openai.APITimeoutError``, ``openai.APIConnectionError``), and any error carrying an HTTP
    status of 408, 409, 425, 429 or 5xx (``openai.RateLimitError``, ``InternalServerError``,
    ``httpx.HTTPStatusError``).

    Args:
        exc: the exception a worker raised.
    """
    if isinstance(exc, FatalModelError) or is_fatal(exc):
        return False
    if isinstance(exc, (TransientWorkerError, TimeoutError, ConnectionError)):
        return True
    if isinstance(exc, ModelError) and exc.is_retryable:
        return True
    httpx, openai = _loaded("httpx"), _loaded("openai")
    if httpx is not None and isinstance(exc, (httpx.TimeoutException, httpx.NetworkError)):
        return True
    if openai is not None and isinstance(exc, (openai.APITimeoutError,
                                               openai.APIConnectionError)):
        return True
    code = _status_code(exc)
    return code is not None and (code in _TRANSIENT_STATUS or code >= 500)


def is_rate_limited(exc: BaseException) -> bool:
    """True when ``exc`` (or an error it wraps) is a rate limit that waiting may cure: HTTP
    429, ``ModelRateLimitError`` (``openai.RateLimitError`` through ``langchain-openai``), but
    not the run's own verdicts :class:`RetryAfterTooLong` and :class:`RateLimitPatienceSpent`.

    Example:
        >>> from langchain_core.exceptions import ModelRateLimitError
        >>> is_rate_limited(ModelRateLimitError("slow down")), is_rate_limited(TimeoutError())
        (True, False)
    """
    for error in causes(exc):
        if isinstance(error, (RetryAfterTooLong, RateLimitPatienceSpent)):
            return False
        if isinstance(error, ModelRateLimitError) or _status_code(error) == 429:
            return True
    return False


def classify(exc: BaseException) -> ErrorKind:
    """What to do about ``exc``: ``"fatal"`` (stop the run: no call can succeed, e.g. a bad
    key), ``"transient"`` (retry it) or ``"permanent"`` (this task fails; the run goes on).

    Works for any exception: model SDK errors, ``httpx``/``requests`` HTTP errors (e.g. a
    search API's), the types of this module.

    Example:
        >>> classify(TimeoutError()), classify(ValueError("bad")), classify(FatalModelError("x"))
        ('transient', 'permanent', 'fatal')
    """
    if is_fatal(exc):
        return "fatal"
    return "transient" if is_transient(exc) else "permanent"


_FATAL_CLASSES = ((ModelAuthenticationError, 401), (ModelPermissionDeniedError, 403),
                  (ModelNotFoundError, 404))
_FATAL_STATUS = (401, 403, 404)


def _fatal_status(exc: BaseException) -> int | None:
    """The HTTP status that makes ``exc`` fatal (401, 403 or 404), read from the error or
    implied by its class (LangChain's ``Model*Error``, ``openai``'s), else None."""
    code = _status_code(exc)
    if code in _FATAL_STATUS:
        return code
    for cls, status in _FATAL_CLASSES:
        if isinstance(exc, cls):
            return status
    openai = _loaded("openai")
    if openai is not None:
        for cls, status in ((openai.AuthenticationError, 401),
                            (openai.PermissionDeniedError, 403), (openai.NotFoundError, 404)):
            if isinstance(exc, cls):
                return status
    return None


def is_fatal(exc: BaseException) -> bool:
    """True when ``exc`` means no model call can succeed: HTTP 401/403, or 404 (unknown model);
    or that no task can (an error whose class sets ``stops_run``, such as
    :class:`workers.sources.damage.DamagedFile`: a damaged corpus index).

    Args:
        exc: the exception a worker or node raised.
    """
    return (isinstance(exc, FatalModelError) or getattr(type(exc), "stops_run", False) is True
            or _fatal_status(exc) is not None)


_FATAL_HINTS = {
    401: "authentication failed (HTTP 401): check the API key",
    403: "permission denied (HTTP 403): the key may not use this model",
    404: "not found (HTTP 404): check the model name and the base URL",
}


def describe_fatal(exc: BaseException) -> str:
    """One line for a fatal model error: what it means, then the provider's message.

    Example: ``authentication failed (HTTP 401): check the API key: Incorrect API key provided``.
    """
    if isinstance(exc, FatalModelError):  # already described by whoever raised it
        return redact(" ".join(str(exc).split()))[:300] or "fatal model error"
    code = _fatal_status(exc)
    message = getattr(exc, "message", None)
    text = message if isinstance(message, str) and message else str(exc)
    text = redact(" ".join(text.split())) or type(exc).__name__
    hint = _FATAL_HINTS.get(code) if code is not None else None
    line = f"{hint}: {text}" if hint else one_line(exc)
    return line if len(line) <= 300 else line[:297] + "..."


def mask_in_place(exc: BaseException, secrets: tuple[str, ...] | list[str] = ()) -> None:
    """Mask credentials (:func:`redact`, and each of ``secrets``) in the text ``exc`` and the
    errors it was raised from carry: their string ``args`` and an SDK's ``message``. LangGraph
    keeps a failed task's error in the checkpoint's pending writes as ``repr(exc)``, made of its
    args, so a key a provider echoed in a 401 was saved there in full.

    Example:
        >>> err = RuntimeError("Incorrect API key provided: local-KEY-123", 401)
        >>> mask_in_place(err, ["local-KEY-123"])
        >>> err.args
        ('Incorrect API key provided: ***', 401)
    """
    for error in causes(exc):
        if any(isinstance(a, str) for a in error.args):
            error.args = tuple(redact(a, secrets) if isinstance(a, str) else a
                               for a in error.args)
        message = getattr(error, "message", None)
        if isinstance(message, str):
            try:
                error.message = redact(message, secrets)  # type: ignore[attr-defined]
            except AttributeError:  # a read-only property
                pass


def one_line(exc: BaseException, limit: int = 300) -> str:
    """``"TypeName: message"`` on one line, at most ``limit`` characters, credentials masked."""
    text = redact(" ".join(str(exc).split())) or "(no message)"
    line = f"{type(exc).__name__}: {text}"
    return line if len(line) <= limit else line[: limit - 3] + "..."
