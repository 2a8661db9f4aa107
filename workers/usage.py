"""Count every token a model server served: failed attempts, retries and agent loops included.

The token budget (``--max-tokens``) is only as honest as the count. Reading ``usage_metadata``
off the messages a node ends with misses every call whose result is thrown away: an attempt that
failed and was retried (a failed LangGraph attempt leaves no writes), an agent that looped to
its recursion limit, an answer the provider sent but the integration could not use. The server
billed all of them. So the count is taken where LangChain reports each response, its
``on_llm_end`` callback, by a handler registered as a *configure hook* (LangChain's
``get_usage_metadata_callback`` pattern): every chat model invoked inside :func:`count_tokens`
reports to the tally, however deep in an agent subgraph, whatever role, whoever built the model.

A response that carries no usage at all is counted as *unmetered*: a server that omits ``usage``
would otherwise silently switch the budget off; the run says so in its notes instead. So is one
whose usage is no count of tokens (:func:`token_count`): the usage is the provider's word, read
like any input from outside. A negative count went into the state's running total and every
later command on the thread refused it ("was the state edited?"); a count of ``10**30`` passed
64 bits and the run died writing its checkpoint, its paid answers thrown away.

:class:`AttemptTokens` carries a task's tally from one ``RetryPolicy`` attempt to the next, so
the attempt that finally writes (an ``ok`` or ``error`` envelope) writes the tokens of all of them.

Example:
    >>> from langchain_core.language_models import GenericFakeChatModel
    >>> from langchain_core.messages import AIMessage
    >>> answer = AIMessage("hi", usage_metadata={"input_tokens": 3, "output_tokens": 2,
    ...                                          "total_tokens": 5})
    >>> with count_tokens() as tally:
    ...     _ = GenericFakeChatModel(messages=iter([answer])).invoke("hello")
    >>> tally.tokens, tally.responses, tally.unmetered
    (5, 1, 0)

Source: ``langchain_core.callbacks.usage`` (``UsageMetadataCallbackHandler``,
``get_usage_metadata_callback``) and ``langchain_core.tracers.context.register_configure_hook``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from langchain_core.tracers.context import register_configure_hook

from workers.attempts import KeptAcrossAttempts

__all__ = ["MAX_RESPONSE_TOKENS", "AttemptTokens", "TokenTally", "count_tokens", "record_served",
           "reports_usage", "served_tokens", "token_count", "untrusted_note"]


MAX_RESPONSE_TOKENS = 10**9
"""The most tokens one model response may report and be believed: a hundred times the largest
context window offered today (10 million). A count past it is a server's fault, not a bill (and
``10**30`` does not fit the 64-bit integers the checkpoint and the results database store)."""

_USAGE_FIELDS = ("total_tokens", "input_tokens", "output_tokens", "prompt_tokens",
                 "completion_tokens")
"""The counts a usage report holds: LangChain's ``usage_metadata`` names, then OpenAI's."""


def token_count(value: Any) -> int | None:
    """``value`` as a count of tokens: a whole number from 0 to :data:`MAX_RESPONSE_TOKENS`
    (an integral float, ``12.0``, included), else None: negative, fractional, not finite, too
    large, a string, a boolean.

    Example:
        >>> token_count(12), token_count(12.0), token_count(-5), token_count(10**30)
        (12, 12, None, None)
        >>> token_count(1e300), token_count("12"), token_count(True), token_count(0.5)
        (None, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            return None
        value = int(value)
    if isinstance(value, int) and 0 <= value <= MAX_RESPONSE_TOKENS:
        return value
    return None


def _usage_total(usage: Any) -> int | None:
    """The total a usage report (``usage_metadata``, or the provider's ``usage``) gives, or
    None when it gives none that can be believed: not a mapping, no count, or any count that
    is no :func:`token_count` (a server that reports ``prompt_tokens: -1000000`` beside a
    plausible total is not believed either). Without ``total_tokens`` its parts are added."""
    if not isinstance(usage, Mapping):
        return None
    counts = {name: token_count(usage[name]) for name in _USAGE_FIELDS
              if usage.get(name) is not None}
    if not counts or None in counts.values():
        return None
    if "total_tokens" in counts:
        return counts["total_tokens"]
    return sum(counts.values())  # some servers only give the two parts


def served_tokens(response: LLMResult) -> int | None:
    """Total tokens one model response reports, or None when it reports none it can be
    believed about (none at all, or a count that is no :func:`token_count`).

    Reads ``usage_metadata`` of the response's messages, else the provider's
    ``llm_output["token_usage"]`` (``usage``), which is there even when the response held no
    message at all (an HTTP 200 with an empty ``choices`` list). One message whose usage cannot
    be believed makes the whole response unmetered: its tokens are unknown, never guessed.

    Args:
        response: what LangChain hands ``on_llm_end``.

    Example:
        >>> from langchain_core.outputs import ChatGeneration
        >>> from langchain_core.messages import AIMessage
        >>> def answer(total):
        ...     message = AIMessage("hi")
        ...     message.usage_metadata = {"input_tokens": 1, "output_tokens": 1,
        ...                               "total_tokens": total}  # as langchain-openai sets it
        ...     return LLMResult(generations=[[ChatGeneration(message=message)]])
        >>> served_tokens(answer(2)), served_tokens(answer(-1000000)), served_tokens(answer(10**30))
        (2, None, None)
    """
    found, total = False, 0
    for generations in response.generations or []:
        for generation in generations:
            usage = getattr(getattr(generation, "message", None), "usage_metadata", None)
            if usage:
                found = True
                if (count := _usage_total(usage)) is None:
                    return None
                total += count
    if found:
        return total
    output = response.llm_output or {}
    for key in ("token_usage", "usage"):
        usage = output.get(key)
        if usage:
            return _usage_total(usage)
    return None


def reports_usage(response: LLMResult) -> bool:
    """Whether ``response`` says anything of its usage at all (a message's ``usage_metadata``,
    the provider's ``token_usage``): one that does, which :func:`served_tokens` reads as None,
    reported a count no response can have."""
    if any(getattr(getattr(g, "message", None), "usage_metadata", None)
           for generations in response.generations or [] for g in generations):
        return True
    output = response.llm_output or {}
    return any(output.get(key) for key in ("token_usage", "usage"))


def untrusted_note(who: str) -> str:
    """The run note of a writer (``"analyst"``, ``"the planner"``) whose model server reported
    a token usage no response can have: the same words for every task of it, so the run's
    notes show it once, with a count (:func:`app.research.notes.coalesce_notes`).

    Example:
        >>> untrusted_note("analyst")[:71]
        'analyst: the model server reported a token usage no response can have ('
    """
    return (f"{who}: the model server reported a token usage no response can have (negative, "
            f"fractional, past {MAX_RESPONSE_TOKENS:,} or not a number): such a response is "
            "counted as one without usage")


class TokenTally(BaseCallbackHandler):
    """Tokens served to the model calls made inside one :func:`count_tokens` block.

    Attributes:
        tokens: total tokens of every response that reported usage.
        responses: model responses seen.
        unmetered: responses that reported no usage (their tokens are unknown).
        untrusted: those of them that reported a usage no response can have
            (:func:`token_count`).

    Thread-safe; a response is counted once (by its LangChain ``run_id``) however many times it
    is reported, and is reported to the enclosing tally too (``parent``).
    """

    def __init__(self, parent: TokenTally | None = None) -> None:
        super().__init__()
        self.tokens = 0
        self.responses = 0
        self.unmetered = 0
        self.untrusted = 0
        self.parent = parent
        self._seen: set[UUID | None] = set()
        self._lock = threading.Lock()

    def record(self, response: LLMResult, run_id: UUID | None = None) -> None:
        """Count ``response`` (once per ``run_id``), here and in the enclosing tallies."""
        with self._lock:
            if run_id is not None and run_id in self._seen:
                return
            self._seen.add(run_id)
            served = served_tokens(response)
            self.responses += 1
            if served is None:
                self.unmetered += 1
                self.untrusted += reports_usage(response)
            else:
                self.tokens += served
        if self.parent is not None:
            self.parent.record(response, run_id)

    def absorb(self, other: TokenTally) -> None:
        """Add ``other``'s counts (an earlier attempt of the same task) to this tally."""
        with self._lock:
            self.tokens += other.tokens
            self.responses += other.responses
            self.unmetered += other.unmetered
            self.untrusted += other.untrusted

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """LangChain callback: every finished model call lands here."""
        self.record(response, run_id)


_current: ContextVar[TokenTally | None] = ContextVar("research_token_tally", default=None)
# Once per process: every callback manager configured while ``_current`` holds a tally gets it
# (inheritable: down into agent subgraphs and their model calls).
register_configure_hook(_current, inheritable=True)


@contextmanager
def count_tokens(tally: TokenTally | None = None) -> Iterator[TokenTally]:
    """Count the tokens of every model call made in this block (this thread and the graphs,
    threads and subgraphs it starts, which inherit the context).

    Args:
        tally: the tally to add to (e.g. one carried from an earlier attempt); a new one when
            None. Blocks nest: an inner block's responses are counted in the outer one too.

    Yields:
        The :class:`TokenTally`.
    """
    outer = _current.get()
    if tally is None:
        tally = TokenTally(parent=outer)
    elif tally.parent is None and outer is not tally:
        tally.parent = outer
    token = _current.set(tally)
    try:
        yield tally
    finally:
        _current.reset(token)


def record_served(response: LLMResult, run_id: UUID | None = None) -> None:
    """Report ``response`` to the current tally, if any: for a callback that stops a call in
    its ``on_llm_end`` (LangChain then skips the handlers after it, the tally among them)."""
    tally = _current.get()
    if tally is not None:
        tally.record(response, run_id)


class AttemptTokens:
    """Tallies of tasks whose attempt failed, kept for the task's next ``RetryPolicy`` attempt.

    A failed attempt leaves no writes in LangGraph, so its tokens can only reach the ``tokens``
    channel through the attempt that finally returns. Keyed by LangGraph's task id (the same
    for every attempt of one task, unique per run). Bounded: the oldest entries (tasks that
    never came back, e.g. the run stopped) are dropped past ``limit``. Best effort, within one
    process: the tokens of attempts a crash cut short are not counted.

    Example:
        >>> carry = AttemptTokens()
        >>> try:
        ...     with carry.attempt("task-2") as t:
        ...         t.tokens = 5
        ...         raise TimeoutError
        ... except TimeoutError:
        ...     pass
        >>> with carry.attempt("task-2") as t:
        ...     t.tokens += 1
        >>> t.tokens
        6
    """

    def __init__(self, limit: int = 4096) -> None:
        self._kept = KeptAcrossAttempts[TokenTally](limit)

    @contextmanager
    def attempt(self, key: str) -> Iterator[TokenTally]:
        """Count one attempt of task ``key``, starting from what its failed attempts cost.

        If the block raises, the tally is kept for the next attempt and the error re-raised;
        if it returns, the tally (all attempts) is the caller's to write.
        """
        tally = TokenTally()
        if (earlier := self._kept.take(key)) is not None:
            tally.absorb(earlier)
        try:
            with count_tokens(tally):
                yield tally
        except BaseException:
            self._kept.keep(key, tally)
            raise
