"""What every chat model the app builds is fitted with: Retry-After pacing and answer checks.

Two LangChain hooks that every model call passes through, whatever the role (planner, agent
workers inside ``create_agent``, the report summary) and whatever the provider:

* the model's **rate limiter** (``BaseChatModel.rate_limiter``, asked before every request):
  :class:`PacedRateLimiter` first waits out the server's ``Retry-After`` window
  (:class:`workers.pacing.RetryAfterGate`; a run that is stopping stops waiting), then takes a
  token from LangChain's ``InMemoryRateLimiter``;
* the model's **callbacks** (``BaseChatModel.callbacks``, told about every response and error):
  :class:`ProviderGuard` records a ``Retry-After`` in the gate, and turns provider-side faults
  into the error types of :mod:`workers.errors`, so they are classified, retried and named like
  the HTTP errors they are.

Why a gate, rather than LangGraph's ``RetryPolicy`` or the ``openai`` client's own retries:

* ``RetryPolicy`` cannot wait per error: ``run_with_retry`` (``langgraph/pregel/_retry.py``)
  sleeps ``initial_interval * backoff_factor ** n`` (plus jitter), computed from the policy
  alone, never from the exception; ``retry_on`` only says *whether* to retry. So a 429 with
  ``Retry-After: 15`` was retried after 0.5 s and 1 s, inside the window, and failed for good.
* The ``openai`` client honours ``Retry-After`` (``_calculate_retry_timeout``) but only inside
  its own retries, which are off (``max_retries=0``, see :mod:`app.llm.models`: one retry count,
  honest ``attempts``); it serves OpenAI-compatible providers only; its cap is a module constant;
  and a 429 for one request does not hold back the other workers' requests, which go on
  hitting the window.
* A 429 is about the account, not one request: the gate is shared by every model built for the
  same provider endpoint in this process, so while one worker waits, none of the others (nor
  the next round, nor the report) spends a request inside the window.

A rate limit (HTTP 429, with or without ``Retry-After``) is not a failed attempt: the limiter
carries the model's :class:`workers.pacing.RateLimitPatience`, with which every caller retries
its request after the window or a backoff, up to ``RESEARCH_RATE_LIMIT_PATIENCE`` in total
(``RetryPolicy`` attempts are for the other transient errors). A single ``Retry-After`` longer
than ``RESEARCH_RETRY_PATIENCE`` fails the call with :class:`workers.errors.RetryAfterTooLong`,
whose message says how long the server asked for.

Reading and honouring ``Retry-After`` (and :func:`paced_search`, the web search API's gate) live
in :mod:`workers.pacing`; this module is the LangChain side of it.

Source: ``langchain_core.rate_limiters`` (``BaseRateLimiter``, ``InMemoryRateLimiter``),
``langchain_core.callbacks.BaseCallbackHandler`` (``raise_error``), RFC 9110 section 10.2.3
(Retry-After).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from langchain_core.rate_limiters import BaseRateLimiter
from pydantic import ValidationError

from app.llm.completion_shape import json_kind, unread_completion
from app.llm.server_faults import name_the_server
from workers.errors import (
    MalformedResponseError,
    RateLimitPatienceSpent,
    RetryAfterTooLong,
    RunCancelled,
    UnreadableAnswer,
    causes,
    mask_in_place,
)
from workers.pacing import RateLimitPatience, RetryAfterGate, honour_retry_after
from workers.usage import record_served
from workers.waits import announce_wait, await_until, wait_until

__all__ = ["PacedRateLimiter", "ProviderGuard"]


class PacedRateLimiter(BaseRateLimiter):
    """A LangChain rate limiter that waits out the gate's window, then asks ``inner``.

    It also carries the model's :class:`~workers.pacing.RateLimitPatience` (``rate_limits``):
    the callers of a model (planner, agent workers, report summary) find their rate-limit policy
    on the model itself (:func:`workers.pacing.rate_limit_patience`).

    Args:
        gate: the endpoint's :class:`RetryAfterGate`.
        inner: the requests-per-second limiter (None: no rate limit, only the gate).
        rate_limits: how long a call may be held by 429s (None: not retried here).
    """

    def __init__(self, gate: RetryAfterGate, inner: BaseRateLimiter | None = None,
                 rate_limits: RateLimitPatience | None = None) -> None:
        self.gate = gate
        self.inner = inner
        self.rate_limits = rate_limits

    def acquire(self, *, blocking: bool = True) -> bool:
        """Wait for the window, then for a token (``blocking=False``: never wait).

        Both waits end once the run stops (:func:`workers.waits.stop_waiting_when`): the
        inner limiter is asked without blocking, since its own blocking ``acquire`` sleeps
        until a token comes (1 / ``RESEARCH_REQUESTS_PER_SECOND`` seconds) whatever happens.

        Raises:
            workers.errors.RunCancelled: the run stopped while waiting.
        """
        if not blocking:
            return self.gate.remaining() <= 0 and (
                self.inner is None or self.inner.acquire(blocking=False))
        self.gate.wait()
        if self.inner is not None and not self.inner.acquire(blocking=False):
            inner = self.inner
            self._say_wait()
            wait_until(lambda: inner.acquire(blocking=False), _WAITING_FOR, self._every())
        return True

    async def aacquire(self, *, blocking: bool = True) -> bool:
        """Async :meth:`acquire`."""
        if not blocking:
            return self.gate.remaining() <= 0 and (
                self.inner is None or await self.inner.aacquire(blocking=False))
        await self.gate.await_open()
        if self.inner is not None and not self.inner.acquire(blocking=False):
            inner = self.inner
            self._say_wait()
            await await_until(lambda: inner.acquire(blocking=False), _WAITING_FOR,
                              self._every())
        return True

    def _say_wait(self) -> None:
        """Say a long wait for a token (:func:`workers.waits.announce_wait`): at a low
        ``RESEARCH_REQUESTS_PER_SECOND`` (at least 1/600) a request waits up to 600 s, the time
        its limiter's bucket takes to fill to one token (other requests waiting too come first)."""
        rate = getattr(self.inner, "requests_per_second", None)
        if isinstance(rate, (int, float)) and rate > 0:
            tokens = getattr(self.inner, "available_tokens", 0.0)
            seconds = (1.0 - (tokens if isinstance(tokens, (int, float)) else 0.0)) / rate
            announce_wait(seconds, f"for a request slot of the model rate limiter "
                          f"(RESEARCH_REQUESTS_PER_SECOND {rate:g})")

    def _every(self) -> float:
        """How often the inner limiter is asked again (its own ``check_every_n_seconds``)."""
        every = getattr(self.inner, "check_every_n_seconds", 0.1)
        return min(float(every), 0.1) if isinstance(every, (int, float)) and every > 0 else 0.1


_WAITING_FOR = "the model rate limiter (RESEARCH_REQUESTS_PER_SECOND)"


# ``langchain-openai``'s words for a 200 whose ``choices`` is null or missing (it raises a
# TypeError / KeyError saying so); an empty list reaches ``on_llm_end`` with no generation.
_NO_CHOICES = ("null value for 'choices'", "missing 'choices'")


class ProviderGuard(BaseCallbackHandler):
    """Callbacks of one chat model: pace by ``Retry-After``, name provider-side faults.

    * ``on_llm_error``: an error carrying ``Retry-After`` holds the gate for that long, or, past
      ``patience``, becomes :class:`~workers.errors.RetryAfterTooLong`; a response with a null
      or missing ``choices`` list, an error object in an HTTP 200, or any body the
      integration could not read as a chat completion (``choices`` an object, a null
      ``message``: :func:`app.llm.completion_shape.unread_completion`) becomes
      :class:`~workers.errors.MalformedResponseError` (and counts as an *unmetered* response:
      the integration raised before its usage could be read).
    * ``on_llm_end``: a response with no choices at all (``"choices": []``, which LangChain
      would surface as an ``IndexError``) becomes :class:`~workers.errors.MalformedResponseError`
      (after its tokens are counted: see :func:`workers.usage.record_served`).

    The errors are raised from the callback (``raise_error = True``, LangChain's way for a
    handler to stop a call); the original error is their ``__cause__``.

    Args:
        label: how error messages name the model (key-free, e.g. ``openai:gpt-4.1-mini``).
        gate: the endpoint's :class:`RetryAfterGate`.
        patience: the longest ``Retry-After`` (seconds) worth waiting for.
        where: the server's URL when the model has one set (``OPENAI_BASE_URL``, credentials
            masked), named in a connection error.
        secrets: the operator's secrets (``Settings.secrets()``): masked in every error's text
            before anyone formats or stores it (:func:`workers.errors.mask_in_place`).
    """

    raise_error = True

    def __init__(self, label: str, gate: RetryAfterGate, patience: float,
                 secrets: tuple[str, ...] = (), where: str = "") -> None:
        super().__init__()
        self.label = label
        self.gate = gate
        self.patience = patience
        self.secrets = secrets
        self.where = where

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Mask the error's credentials; pace by ``Retry-After``; turn an unusable answer into
        a named, transient error."""
        mask_in_place(error, self.secrets)  # a key the provider echoed in its error
        stopped = next((c for c in causes(error) if isinstance(c, RunCancelled)), None)
        if stopped is not None:  # the run stopped during the request (app.llm.deadline):
            raise stopped  # openai wrapped it as a connection error
        if (large := next((c for c in causes(error) if isinstance(c, MalformedResponseError)),
                          None)) is not None:  # too large to read (app.llm.deadline): wrapped
            record_served(LLMResult(generations=[[]]), run_id)  # served, usage unreadable
            raise MalformedResponseError(f"{self.label}: {large}") from error
        name_the_server(error, self.label, self.where)
        if isinstance(error, (MalformedResponseError, RetryAfterTooLong,
                              RateLimitPatienceSpent)):
            return
        if honour_retry_after(error, self.gate, self.patience, self.label):
            return
        if isinstance(error, (TypeError, KeyError)) and any(
            text in str(error) for text in _NO_CHOICES
        ):
            record_served(LLMResult(generations=[[]]), run_id)  # served, usage unreadable
            raise MalformedResponseError(
                f"{self.label}: the provider answered without a 'choices' list (null or "
                "missing): a malformed response"
            ) from error
        if (fault := _unreadable(error, self.label)) is not None:
            record_served(LLMResult(generations=[[]]), run_id)  # served, usage unreadable
            raise fault from error
        if type(error) is ValueError and error.args and isinstance(error.args[0], dict):
            detail = error.args[0]  # langchain-openai raises ValueError(response["error"])
            record_served(LLMResult(generations=[[]]), run_id)
            message = " ".join(str(detail.get("message") or detail).split())[:200]
            code = detail.get("code")
            raise MalformedResponseError(
                f"{self.label}: the provider answered with an error object instead of a "
                f"completion{f' (code {code})' if code is not None else ''}: {message}"
            ) from error
        if (fault := unread_completion(error, self.label)) is not None:
            record_served(LLMResult(generations=[[]]), run_id)  # served, usage unreadable
            raise fault from error  # "choices" an object, a null message

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """An answer without a single choice is a malformed response."""
        if any(not generations for generations in response.generations or [[]]):
            record_served(response, run_id)  # the handlers after this one will not see it
            raise MalformedResponseError(
                f"{self.label}: the provider answered with an empty 'choices' list: a "
                "malformed response"
            )


# langchain-openai's words for a 200 whose body is not JSON (a proxy's HTML error page)
_NOT_JSON = "Unexpected response type from OpenAI-compatible endpoint"
_TITLE = re.compile(r"<title>\s*([^<]{1,80}?)\s*</title>", re.IGNORECASE)


def _unreadable(error: BaseException, label: str) -> MalformedResponseError | None:
    """The malformed response ``error`` shows, when the integration could not read the answer
    at all, else None:

    * a body that is not JSON (``ValueError`` "Unexpected response type ... got str"): a
      proxy's or gateway's error page, named by its ``<title>`` (``502 Bad Gateway``); or one
      sent as ``application/json`` that is not (``json.JSONDecodeError``: it ended the run at
      once, unretried, trial 70);
    * a tool call whose arguments are not a JSON object (pydantic's ``dict_type`` error at
      ``tool_calls.N.args`` as the ``AIMessage`` is built): :class:`UnreadableAnswer`, naming
      what they are (:func:`_arguments`).

    Example:
        >>> page = "<html><title>502 Bad Gateway</title>"
        >>> str(_unreadable(ValueError(f"{_NOT_JSON}. Expected a dict, got str: {page!r}"),
        ...                 "m")).split(": ")[1]
        'the provider answered with a page that is not JSON (502 Bad Gateway)'
    """
    if isinstance(error, json.JSONDecodeError):  # sent as JSON (Content-Type), and not JSON
        return MalformedResponseError(
            f"{label}: the provider answered with a body that is not JSON ({error.msg} at "
            f"character {error.pos}): a malformed response")
    if type(error) is ValueError and _NOT_JSON in str(error):
        title = _TITLE.search(str(error))
        what = f" ({title.group(1)})" if title else ""
        return MalformedResponseError(
            f"{label}: the provider answered with a page that is not JSON{what}: a malformed "
            "response")
    if isinstance(error, ValidationError):
        for e in error.errors():
            if e.get("type") == "dict_type" and tuple(e.get("loc") or ())[:1] == ("tool_calls",):
                return UnreadableAnswer(f"{label}: the model's tool-call arguments are not a "
                                        f"JSON object but {_arguments(e.get('input'))}: its "
                                        "answer could not be read")
    return None


def _arguments(value: Any) -> str:
    """What tool-call arguments that are no JSON object are, for :func:`_unreadable`: a string
    is the object double-encoded (some local model servers send it so); a list or a number is
    shown as it came (``[1, 2, 3]`` and ``42`` were once said to be "a JSON string holding
    one?").

    Example:
        >>> _arguments([1, 2, 3]), _arguments(42)
        ('a list ([1, 2, 3])', 'a number (42)')
        >>> _arguments('{"a": 1}')
        'a string (the object double-encoded: a JSON string holding it?)'
    """
    if isinstance(value, str):
        return "a string (the object double-encoded: a JSON string holding it?)"
    shown = " ".join(json.dumps(value, default=str).split())
    return f"{json_kind(value)} ({shown if len(shown) <= 60 else shown[:57] + '...'})"


class _QuietGuardErrors(logging.Filter):
    """LangChain logs a warning for every handler that raises, even with ``raise_error``; the
    guard's errors are reported where they land (envelope, note, error line), not twice."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        return not (args and args[0] == ProviderGuard.__name__)


logging.getLogger("langchain_core.callbacks.manager").addFilter(_QuietGuardErrors())
