"""Waiting for a rate-limited endpoint: the one place that reads ``Retry-After``, holds the
endpoint's gate, and decides how long a rate limit may hold a call.

* :func:`retry_after` reads the wait a server asked for (``Retry-After``, ``retry-after-ms``)
  from any HTTP error that carries its response; :func:`honour_retry_after` holds the endpoint's
  gate for it, or refuses a wait longer than the run's ``RESEARCH_RETRY_PATIENCE``.
* :class:`RetryAfterGate` is a time before which no request may go to one endpoint (a model
  provider, a search API): whoever sees a ``Retry-After`` holds it; every caller waits on it
  before its next request (:func:`gate_for` gives the process's gate of an endpoint). The app fits
  every chat model with it (``app/llm/provider.py``); :func:`paced_search` puts a search API behind
  one.
* :class:`RateLimitPatience` retries one call that is rate-limited (HTTP 429), with or without a
  ``Retry-After``: exponential backoff with jitter (holding the gate, so every caller backs off)
  up to a total (``RESEARCH_RATE_LIMIT_PATIENCE``), longer than the attempts other transient
  errors get. A chat model carries its policy on its rate limiter (:func:`rate_limit_patience`),
  so every role uses the same one: the planner, the agent workers, the report summary.

A wait can be long, so it must not outlive the run: a node runs its work inside
:func:`workers.waits.stop_waiting_when` with the run's stop signal, and a wait in that context
(a gate's here; :mod:`workers.waits` owns the others: ``pause``, ``wait_until``, ``holding``,
``result_within``) raises :class:`workers.errors.RunCancelled` as soon as the run stops (Ctrl-C,
a fatal error elsewhere), instead of holding the process open until the window ends.

Source: RFC 9110 section 10.2.3 (Retry-After); the ``openai`` SDK's
``_parse_retry_after_header`` (header forms) and ``_calculate_retry_timeout`` (backoff with
jitter); the stop signal is ``workers.base.Cancellation``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from workers.errors import RateLimitPatienceSpent, RetryAfterTooLong, is_rate_limited
from workers.retry_after import retry_after
from workers.waits import STOP_SLICE, announce_wait, check_stop, sleep_or_stop

__all__ = [
    "RateLimitPatience", "RetryAfterGate", "gate_for", "honour_retry_after", "paced_search",
    "patiently", "rate_limit_patience",
]

_Result = TypeVar("_Result")


class RetryAfterGate:
    """A time before which no request may be sent to one endpoint.

    Example:
        >>> gate = RetryAfterGate()
        >>> gate.hold(0.05)
        >>> 0.0 < gate.remaining() <= 0.05
        True
        >>> gate.wait() >= 0.0 and gate.remaining() == 0.0
        True
    """

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._until = 0.0
        self._lock = threading.Lock()
        self.keep: Callable[[float], None] | None = None
        """Told the window's end (Unix time) when a hold moves it 1 s or more: it is kept for
        the next process (``app/llm/kept_windows.py``)."""
        self._unsaid: str | None = None  # what a restored window waits for, not said yet
        self._refused: BaseException | None = None  # a restored window too long to wait for

    def hold(self, seconds: float, waiting_for: str | None = None) -> None:
        """No request before ``seconds`` from now (a later hold already set is kept). With
        ``waiting_for``, a hold that moves the window's end by a second or more is said once
        (:func:`workers.waits.announce_wait`): two callers refused at once make one line."""
        left, moved = self._extend(seconds)
        if waiting_for is not None and moved >= 1.0:
            announce_wait(left, waiting_for)
        if moved >= 1.0:
            self._kept(left)

    def _extend(self, seconds: float, refused: BaseException | None = None
                ) -> tuple[float, float]:
        """Move the window's end to ``seconds`` from now unless it is later already (and set
        what every wait in it raises, when ``refused``); return the seconds left and how far
        the end moved."""
        with self._lock:
            now = self._clock()
            until = max(self._until, now + max(0.0, seconds))
            moved, self._until = until - self._until, until
            if refused is not None:
                self._refused = refused
        return until - now, moved

    def _kept(self, left: float) -> None:
        """Tell :attr:`keep` the window's end, ``left`` seconds from now."""
        if self.keep is not None:
            with contextlib.suppress(Exception):  # the window holds here all the same
                self.keep(time.time() + left)

    def restore(self, seconds: float, waiting_for: str,
                refused: BaseException | None = None) -> None:
        """Hold for a window an earlier process was asked for (see :attr:`keep`), ``seconds``
        from now; said (``waiting_for``) when a request first waits on it, inside a run; or,
        with ``refused`` (a window longer than the run waits), that raised by every wait while
        the window lasts: no request goes inside it, however short the run's patience."""
        with self._lock:
            until = self._clock() + max(0.0, seconds)
            if until > self._until:
                self._until, self._unsaid, self._refused = until, waiting_for, refused

    def refuse(self, seconds: float, refused: BaseException) -> None:
        """Hold for a window longer than the run waits (``seconds`` from now), kept for the next
        process as any window is: every wait while it lasts raises ``refused``, so no request
        goes inside it (trial 91, F1 and F2: the call that was told failed, and the other
        workers, the next round and the report's summary sent theirs at once)."""
        left, _moved = self._extend(seconds, refused)
        self._kept(left)

    def _say_restored(self) -> None:
        with self._lock:
            said, self._unsaid = self._unsaid, None
        if self._refused is not None and self.remaining() > 0:
            raise self._refused
        if said is not None:
            announce_wait(self.remaining(), said)

    def remaining(self) -> float:
        """Seconds left in the window (0 when it is open)."""
        with self._lock:
            return max(0.0, self._until - self._clock())

    def wait(self) -> float:
        """Block until the window is open (it may be extended while waiting); return the seconds
        waited.

        Raises:
            workers.errors.RunCancelled: the run stopped while waiting (see
                :func:`workers.waits.stop_waiting_when`).
        """
        self._say_restored()
        started = time.monotonic()
        while (left := self.remaining()) > 0:
            check_stop()
            sleep_or_stop(left)  # and look again: the window may have been extended
        return time.monotonic() - started

    async def await_open(self) -> float:
        """:meth:`wait` for async callers."""
        self._say_restored()
        waited = 0.0
        while (left := self.remaining()) > 0:
            check_stop()
            step = min(left, STOP_SLICE)
            await asyncio.sleep(step)
            waited += step
        return waited


_gates: dict[tuple[str, str], RetryAfterGate] = {}
_gates_lock = threading.Lock()


def gate_for(provider: str, endpoint: str = "") -> RetryAfterGate:
    """The process's gate for one endpoint (e.g. ``("openai", base_url)``, ``("tavily", "")``):
    shared by every caller of it, since a rate limit is the account's, not one request's."""
    with _gates_lock:
        return _gates.setdefault((provider, endpoint), RetryAfterGate())


# --- reading and honouring Retry-After -----------------------------------------------------

def honour_retry_after(error: BaseException, gate: RetryAfterGate, patience: float,
                       label: str) -> bool:
    """Hold ``gate`` for the wait ``error`` asks for (its response's ``Retry-After``), so no
    caller of the endpoint sends a request inside the window. Return whether it asked for one.

    Args:
        error: the error a request raised.
        gate: the endpoint's gate.
        patience: the longest wait worth holding for, in seconds.
        label: how messages name the endpoint (key-free).

    Raises:
        RetryAfterTooLong: the server asked for more than ``patience`` (permanent for this run;
            the original error is its ``__cause__``); the gate refuses every request until
            the window ends (:meth:`RetryAfterGate.refuse`).
    """
    seconds = retry_after(error)
    if seconds is None:
        return False
    if seconds > patience:
        refused = RetryAfterTooLong(
            f"{label}: the provider asked to wait {seconds:.0f} s before the next request "
            f"(Retry-After), more than the {patience:g} s this run waits "
            "(RESEARCH_RETRY_PATIENCE); try again later",
            seconds=seconds, patience=patience,
        )
        gate.refuse(seconds, refused)  # no caller sends a request inside the window either
        raise refused from error
    gate.hold(seconds, f"for the Retry-After {label} asked for (no request to it until then; "
                       "at most RESEARCH_RETRY_PATIENCE)")
    return True


def paced_search(search: Callable[..., _Result], gate: RetryAfterGate, patience: float,
                 label: str = "web search (Tavily)",
                 rate_limits: RateLimitPatience | None = None) -> Callable[..., _Result]:
    """``search`` behind ``gate``: every call first waits out the window a ``Retry-After`` set
    (a run that is stopping stops waiting), and an error carrying one holds the gate for every
    caller (:func:`honour_retry_after`). A rate limit (HTTP 429) is waited out by
    ``rate_limits`` (backoff up to ``RESEARCH_RATE_LIMIT_PATIENCE``, as a model's is); any other
    error is raised on, for the node's ``RetryPolicy`` to retry. The web source's counterpart of
    :class:`PacedRateLimiter` plus :class:`ProviderGuard`.

    Args:
        search: the search function (``workers.sources.web.SearchFn``).
        gate: the endpoint's gate (:func:`gate_for`).
        patience: the longest ``Retry-After`` worth waiting for, in seconds.
        label: how messages name the endpoint.
        rate_limits: the rate-limit patience (None: a 429 is raised at once). A search
            rate-limited for its whole patience raises
            :class:`workers.errors.RateLimitPatienceSpent` (else a SearXNG limiter's 429s
            failed the agents' tasks after 3 attempts in 8 s).
    """

    def attempt(*args: Any, **kwargs: Any) -> _Result:
        gate.wait()
        try:
            return search(*args, **kwargs)
        except RetryAfterTooLong:
            raise
        except Exception as exc:
            honour_retry_after(exc, gate, patience, label)
            raise

    if rate_limits is None:
        return attempt

    def paced(*args: Any, **kwargs: Any) -> _Result:
        return rate_limits.call(lambda: attempt(*args, **kwargs), label)

    return paced


# --- rate limits: their own bounded patience ---------------------------------------------------

@dataclass(frozen=True)
class RateLimitPatience:
    """How long one call may be held by rate limits (HTTP 429) before it fails for good.

    Each 429 is waited out, on the endpoint's gate (so every caller of it backs off too, and the
    wait stops with the run): the ``Retry-After`` the server asked for when it sent one, else
    exponential backoff with jitter, ``first_delay * 2 ** n`` times 1 to 1.5. Once the next wait
    would pass ``total`` seconds since the call started, the call fails with
    :class:`workers.errors.RateLimitPatienceSpent`, naming the setting. Other errors are raised
    at once (the node's ``RetryPolicy`` attempts are for them).

    Attributes:
        total: seconds a call may spend rate-limited (``RESEARCH_RATE_LIMIT_PATIENCE``).
        first_delay: seconds of the first backoff (the app uses twice the run's
            ``retry_interval``: 1 s by default, as OpenAI's own client starts near).
        gate: the endpoint's gate (default: a private one).
        clock: seconds, monotonic (tests may pass their own).

    Example:
        >>> calls = []
        >>> def flaky():
        ...     calls.append(1)
        ...     if len(calls) < 3:
        ...         from langchain_core.exceptions import ModelRateLimitError
        ...         raise ModelRateLimitError("429")
        ...     return "ok"
        >>> RateLimitPatience(total=5, first_delay=0.01).call(flaky, "demo"), len(calls)
        ('ok', 3)
    """

    total: float = 60.0
    first_delay: float = 1.0
    gate: RetryAfterGate = field(default_factory=lambda: RetryAfterGate(), compare=False)
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)

    def backoff(self, refused: int) -> float:
        """Seconds to wait after the ``refused``-th 429 without a ``Retry-After`` (1-based)."""
        return self.first_delay * 2 ** (refused - 1) * random.uniform(1.0, 1.5)

    def call(self, fn: Callable[[], _Result], who: str) -> _Result:
        """``fn()``, retried after each rate limit while the patience lasts.

        Args:
            fn: the call (a model request).
            who: how the error names the caller, e.g. ``"the planner (openai:gpt-4.1-mini)"``.

        Raises:
            workers.errors.RateLimitPatienceSpent: still rate-limited when the patience ran out
                (the last 429 is its ``__cause__``).
            workers.errors.RunCancelled: the run stopped during a wait.
            Exception: any other error of ``fn``, at once.
        """
        started, refused = self.clock(), 0
        while True:
            try:
                return fn()
            except Exception as exc:
                if not is_rate_limited(exc):
                    raise
                refused += 1
                wait = self._next_wait(exc, refused, self.clock() - started, who)
                self.gate.hold(wait, f"for the rate limit of {who} to lift (HTTP 429, "
                               f"{refused} time(s); {self.total:g} s in all at most: "
                               "RESEARCH_RATE_LIMIT_PATIENCE)")
                self.gate.wait()

    def _next_wait(self, exc: BaseException, refused: int, spent: float, who: str) -> float:
        """Seconds to wait after the ``refused``-th 429 (``exc``), ``spent`` seconds into the
        call: the ``Retry-After`` the server asked for, else the backoff, cut to the patience
        left. A ``Retry-After`` of 0, a negative one or a date already past is no usable hint
        ("retry now"): the backoff applies, as without one (it failed the call at once, saying
        a wait of 0.0 s "would pass the 60 s").

        Raises:
            workers.errors.RateLimitPatienceSpent: the asked wait would pass the patience, or
                none is left (the last 429 is its ``__cause__``).
        """
        asked = retry_after(exc)
        asked = asked if asked is not None and asked > 0 else None
        left = self.total - spent
        if asked is not None and asked <= left:
            return asked
        if asked is None and left > 0:
            return min(self.backoff(refused), left)
        patience = (f"the {self.total:g} s this run waits for rate limits "
                    "(RESEARCH_RATE_LIMIT_PATIENCE)")
        said = (f"the next wait ({asked:.1f} s, asked by Retry-After) would pass {patience}"
                if asked is not None else f"{patience} are spent")
        raise RateLimitPatienceSpent(f"{who}: rate-limited (HTTP 429) {refused} time(s) in "
                                     f"{spent:.1f} s; {said}; try again later") from exc


def rate_limit_patience(model: Any) -> RateLimitPatience | None:
    """The rate-limit policy a chat model carries on its rate limiter (the app's
    ``PacedRateLimiter.rate_limits``), or None (the offline model, a test's fake)."""
    policy = getattr(getattr(model, "rate_limiter", None), "rate_limits", None)
    return policy if isinstance(policy, RateLimitPatience) else None


def patiently(model: Any, fn: Callable[[], _Result], who: str) -> _Result:
    """``fn()`` (a request to ``model``), retried after rate limits by the model's
    :func:`rate_limit_patience`; called once when the model carries none.

    Raises:
        See :meth:`RateLimitPatience.call`.
    """
    policy = rate_limit_patience(model)
    return fn() if policy is None else policy.call(fn, who)
