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

Source of the idea: ``langgraph.types.RetryPolicy`` and ``default_retry_on`` in
``langgraph/_internal/_retry.py``; ``langchain_core/exceptions.py``; provider error classes from the
``openai`` SDK.
"""

from __future__ import annotations

import re

__all__ = [
    "FatalModelError",
    "RunCancelled",
    "TransientWorkerError",
    "describe_fatal",
    "is_fatal",
    "is_transient",
    "one_line",
    "redact",
]


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


_TRANSIENT_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 529}


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
    try:
        from langchain_core.exceptions import ModelError

        if isinstance(exc, ModelError) and exc.is_retryable:
            return True
    except ImportError:  # pragma: no cover - langchain_core ships with langgraph
        pass
    try:
        import httpx

        if isinstance(exc, (httpx.TimeoutException, httpx.NetworkError)):
            return True
    except ImportError:  # pragma: no cover - httpx ships with langgraph
        pass
    try:
        import openai

        if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError)):
            return True
    except ImportError:  # pragma: no cover - openai ships with langchain-openai
        pass
    code = _status_code(exc)
    return code is not None and (code in _TRANSIENT_STATUS or code >= 500)


def is_fatal(exc: BaseException) -> bool:
    """True when ``exc`` means no model call can succeed: HTTP 401/403, or 404 (unknown model).

    Args:
        exc: the exception a worker or node raised.
    """
    if isinstance(exc, FatalModelError):
        return True
    try:
        from langchain_core.exceptions import (
            ModelAuthenticationError,
            ModelNotFoundError,
            ModelPermissionDeniedError,
        )

        if isinstance(
            exc, (ModelAuthenticationError, ModelPermissionDeniedError, ModelNotFoundError)
        ):
            return True
    except ImportError:  # pragma: no cover
        pass
    code = _status_code(exc)
    if code in (401, 403, 404):
        return True
    try:
        import openai

        return isinstance(
            exc, (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError)
        )
    except ImportError:  # pragma: no cover
        return False


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
    code = _status_code(exc)
    if code not in _FATAL_HINTS:
        try:
            from langchain_core.exceptions import (
                ModelAuthenticationError,
                ModelNotFoundError,
                ModelPermissionDeniedError,
            )

            for cls, guess in ((ModelAuthenticationError, 401), (ModelPermissionDeniedError, 403),
                               (ModelNotFoundError, 404)):
                if isinstance(exc, cls):
                    code = guess
                    break
        except ImportError:  # pragma: no cover
            pass
    message = getattr(exc, "message", None)
    text = message if isinstance(message, str) and message else str(exc)
    text = redact(" ".join(text.split())) or type(exc).__name__
    hint = _FATAL_HINTS.get(code) if isinstance(code, int) else None
    line = f"{hint}: {text}" if hint else one_line(exc)
    return line if len(line) <= 300 else line[:297] + "..."


# Things that look like credentials: OpenAI-style keys (sk-..., sk-proj-...) and bearer tokens.
_SECRET = re.compile(r"\b((?:sk|rk|pk)-[A-Za-z0-9_\-]{6})[A-Za-z0-9_\-]{6,}|(Bearer\s+)\S+")


def redact(text: str, secrets: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` with credential-like strings masked, and each of ``secrets`` replaced by ``***``.

    A provider may echo (part of) the key it rejected; the error text ends up in envelopes, the
    results database and the terminal, so it is masked before it goes anywhere.
    """
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    return _SECRET.sub(lambda m: f"{m.group(1)}***" if m.group(1) else f"{m.group(2)}***", text)


def one_line(exc: BaseException, limit: int = 300) -> str:
    """``"TypeName: message"`` on one line, at most ``limit`` characters, credentials masked."""
    text = redact(" ".join(str(exc).split())) or "(no message)"
    line = f"{type(exc).__name__}: {text}"
    return line if len(line) <= limit else line[: limit - 3] + "..."
