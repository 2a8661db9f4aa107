"""Secrets never reach a checkpoint through a node's error.

LangGraph saves the error a task raised in the checkpoint's pending writes, as ``repr(exc)``
(made of its ``args``), so that a resume knows the task failed. A provider that echoes the key
it rejected ("Incorrect API key provided: <the key>") put that key in ``checkpoints.sqlite``
in full, while the printed line was masked. :func:`masked` wraps a node so that whatever it
raises has the operator's secrets masked first, whichever node, model, search API or database it
came from.

A provider's fatal error (a bad key, an unknown model) leaves the node as
:class:`workers.errors.FatalModelError`, whose message LangGraph Server shows its client; a
provider's refusal no retry cures (HTTP 400, 413, 422: a server without tool calling, a request
too large) as :class:`ProviderRefused`, with its status and message (trial S, H5).

LangGraph's control flow is no error: a ``GraphBubbleUp`` (``interrupt()``'s
``GraphInterrupt``, a ``Command(graph=Command.PARENT)``'s ``ParentCommand``) is an
``Exception`` the loop catches to pause or to hand a command up, not a task's failure; it
leaves the node untouched, whatever its arguments hold.

Source: ``langgraph/pregel/_loop.py`` (``put_writes`` of ``ERROR``),
``langgraph/checkpoint/serde/jsonplus.py`` (an exception is stored as its repr) and
``langgraph/errors.py`` (``GraphBubbleUp``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from langgraph.errors import GraphBubbleUp

from workers.errors import (
    FatalModelError,
    describe_fatal,
    is_fatal,
    is_transient,
    mask_in_place,
)

__all__ = ["ProviderRefused", "masked"]


class ProviderRefused(RuntimeError):
    """A provider refused a node's request for good (an HTTP 4xx that is neither fatal nor
    worth a retry), raised from the provider's own error, whose class LangGraph Server hides:
    the message is one line, ``the provider refused the request (HTTP 400): <its message>``."""


def masked(node: Callable[..., Any], secrets: tuple[str, ...]) -> Callable[..., Any]:
    """``node`` (a sync LangGraph node: a function or a ``functools.partial``), raising what it
    raises with ``secrets`` and credential-like text masked in place
    (:func:`workers.errors.mask_in_place`), but for LangGraph's ``GraphBubbleUp``, re-raised as
    it is. Its signature is the node's (``functools.wraps``):
    LangGraph still passes it ``config`` or ``runtime`` as it asks.

    Example:
        >>> def node(state):
        ...     raise RuntimeError("Incorrect API key provided: local-KEY-123")
        >>> try:
        ...     masked(node, ("local-KEY-123",))({})
        ... except RuntimeError as exc:
        ...     print(exc)
        Incorrect API key provided: ***
    """

    @functools.wraps(node)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return node(*args, **kwargs)
        except GraphBubbleUp:  # LangGraph's control flow (an interrupt, a parent command)
            raise
        except Exception as exc:
            mask_in_place(exc, secrets)
            if _hidden_fatal(exc):
                raise FatalModelError(describe_fatal(exc)) from exc
            if code := _hidden_refusal(exc):
                raise ProviderRefused(_refusal_line(exc, code)) from exc
            raise

    return run


def _hidden_fatal(exc: Exception) -> bool:
    """Whether ``exc`` is a provider's fatal error (HTTP 401, 403, 404: a bad key, an unknown
    model) of a class whose message LangGraph Server does not show its client: it answers
    "An internal error occurred" for any error but the builtin kinds (``ValueError``,
    ``RuntimeError``, ...; ``langgraph_api/serde.py``), so a served run's client read
    ``OpenAIAuthenticationError: An internal error occurred``. Raised as
    :class:`workers.errors.FatalModelError` (a ``RuntimeError``, its message described by
    :func:`workers.errors.describe_fatal`), the client reads what the CLI prints."""
    return (is_fatal(exc) and not isinstance(exc, (RuntimeError, ValueError))
            and getattr(type(exc), "stops_run", False) is not True)


def _hidden_refusal(exc: Exception) -> int | None:
    """The HTTP status of a provider's refusal that no retry cures (4xx, neither fatal nor
    transient: :func:`workers.errors.is_transient`) of a class LangGraph Server hides (it
    answered ``OpenAIInvalidRequestError: An internal error occurred`` for a planner's 400,
    where the CLI prints the provider's line), else None."""
    if isinstance(exc, (RuntimeError, ValueError)) or is_fatal(exc) or is_transient(exc):
        return None
    code = getattr(exc, "status_code", None)
    if not isinstance(code, int):
        code = getattr(getattr(exc, "response", None), "status_code", None)
    return code if isinstance(code, int) and 400 <= code < 500 else None


def _refusal_line(exc: Exception, code: int) -> str:
    message = getattr(exc, "message", None)
    text = " ".join((message if isinstance(message, str) and message else str(exc)).split())
    line = f"the provider refused the request (HTTP {code}): {text or type(exc).__name__}"
    return line if len(line) <= 300 else line[:297] + "..."
