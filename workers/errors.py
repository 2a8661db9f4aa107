"""Which worker errors are worth retrying, and which must stop the run.

LangGraph's ``RetryPolicy`` takes a ``retry_on`` predicate. Its default retries ``ConnectionError``
and HTTP 5xx only; real providers also fail transiently with timeouts and rate limits (429), which
the default would treat as permanent for the ``httpx``/``openai`` exception types. This module is
that predicate, plus the opposite question: which errors mean "stop now" (a bad key, an unknown
model) because every other call would fail the same way.

Source of the idea: ``langgraph.types.RetryPolicy`` and ``default_retry_on`` in
``langgraph/_internal/_retry.py``; provider error classes from the ``openai`` SDK.
"""

from __future__ import annotations

__all__ = ["FatalModelError", "TransientWorkerError", "is_fatal", "is_transient", "one_line"]


class TransientWorkerError(RuntimeError):
    """A failure worth retrying: raised by fault injection and usable by any worker."""


class FatalModelError(RuntimeError):
    """The model cannot be used at all (bad credentials, unknown model): stop the run."""


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
    if isinstance(exc, FatalModelError):
        return False
    if isinstance(exc, (TransientWorkerError, TimeoutError, ConnectionError)):
        return True
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


def one_line(exc: BaseException, limit: int = 300) -> str:
    """``"TypeName: message"`` on one line, at most ``limit`` characters."""
    text = " ".join(str(exc).split()) or "(no message)"
    line = f"{type(exc).__name__}: {text}"
    return line if len(line) <= limit else line[: limit - 3] + "..."
