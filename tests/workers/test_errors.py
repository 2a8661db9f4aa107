"""The error policy's pieces for providers: Retry-After parsing, the three-way classification,
answers that show a provider-side fault, and the token tally. (The same pieces over real HTTP:
``tests/llm/test_provider_faults.py``.)"""

from __future__ import annotations

import email.utils
import time

import httpx
import pytest
import requests
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import LLMResult

import app.llm.provider
import workers.errors
import workers.pacing
import workers.usage
import workers.waits
from workers.errors import (
    FatalModelError,
    MalformedResponseError,
    OutputCutOff,
    RetryAfterTooLong,
    RunCancelled,
    TransientWorkerError,
    classify,
    response_fault,
)
from workers.retry_after import retry_after
from workers.usage import AttemptTokens, TokenTally, count_tokens, served_tokens


def _httpx_error(status: int, headers: dict[str, str]) -> httpx.HTTPStatusError:
    request = httpx.Request("GET", "http://search.invalid/")
    response = httpx.Response(status, headers=headers, request=request)
    return httpx.HTTPStatusError(str(status), request=request, response=response)


def _requests_error(status: int, headers: dict[str, str]) -> requests.HTTPError:
    response = requests.Response()
    response.status_code = status
    response.headers.update(headers)
    return requests.HTTPError(str(status), response=response)


@pytest.mark.parametrize("make", [_httpx_error, _requests_error])
@pytest.mark.parametrize(("headers", "expected"), [
    ({"Retry-After": "15"}, 15.0),
    ({"retry-after": " 2.5 "}, 2.5),
    ({"retry-after-ms": "1500", "Retry-After": "9"}, 1.5),  # milliseconds win, as in openai
    ({"Retry-After": "soon"}, None),
    ({}, None),
])
def test_retry_after_of_any_http_error(make, headers, expected):
    assert retry_after(make(429, headers)) == expected


def test_retry_after_as_an_http_date_and_through_a_wrapped_error():
    now = time.time()
    when = email.utils.formatdate(now + 30, usegmt=True)
    got = retry_after(_httpx_error(503, {"Retry-After": when}), now=now)
    assert got is not None and 29 <= got <= 30
    past = email.utils.formatdate(now - 30, usegmt=True)
    assert retry_after(_httpx_error(503, {"Retry-After": past}), now=now) == 0.0
    try:
        try:
            raise _httpx_error(429, {"Retry-After": "4"})
        except httpx.HTTPStatusError as inner:
            raise RuntimeError("search failed") from inner
    except RuntimeError as outer:
        assert retry_after(outer) == 4.0
    assert retry_after(ValueError("no response")) is None


@pytest.mark.parametrize(("exc", "kind"), [
    (FatalModelError("bad key"), "fatal"),
    (_httpx_error(401, {}), "fatal"),
    (_httpx_error(429, {"Retry-After": "1"}), "transient"),
    (_requests_error(503, {}), "transient"),
    (TransientWorkerError("flaky"), "transient"),
    (MalformedResponseError("no choices"), "transient"),
    (RetryAfterTooLong("wait 900 s", seconds=900, patience=60), "permanent"),
    (OutputCutOff("cut"), "permanent"),
    (_httpx_error(400, {}), "permanent"),
    (ValueError("a bug"), "permanent"),
])
def test_classify(exc, kind):
    assert classify(exc) == kind


def test_response_fault_names_length_cuts_and_tool_calls_without_id():
    assert response_fault(AIMessage("fine", response_metadata={"finish_reason": "stop"})) is None
    anthropic = AIMessage("", response_metadata={"stop_reason": "max_tokens"})
    assert isinstance(response_fault(anthropic, "critic"), OutputCutOff)
    assert 'stop_reason "max_tokens"' in str(response_fault(anthropic, "critic"))
    no_id = AIMessage("", tool_calls=[{"name": "search_corpus", "args": {}, "id": None}])
    fault = response_fault(no_id, "analyst")
    assert isinstance(fault, MalformedResponseError) and classify(fault) == "transient"
    assert str(fault) == ("analyst: the provider sent a tool call (search_corpus) without an id: "
                          "a malformed response")
    assert response_fault("not a message") is None


def _answer(tokens: int | None) -> AIMessage:
    usage = None if tokens is None else {"input_tokens": tokens - 1, "output_tokens": 1,
                                         "total_tokens": tokens}
    return AIMessage("ok", usage_metadata=usage)


def test_tally_counts_every_response_nested_and_unmetered():
    model = GenericFakeChatModel(messages=iter([_answer(5), _answer(7), _answer(None)]))
    with count_tokens() as outer:
        model.invoke("a")
        with count_tokens() as inner:
            model.invoke("b")
            model.invoke("c")
    assert (inner.tokens, inner.responses, inner.unmetered) == (7, 2, 1)
    assert (outer.tokens, outer.responses, outer.unmetered) == (12, 3, 1)
    GenericFakeChatModel(messages=iter([_answer(3)])).invoke("d")  # outside: not counted
    assert (outer.tokens, outer.responses) == (12, 3)


def test_served_tokens_reads_provider_usage_when_there_is_no_message():
    empty = LLMResult(generations=[[]], llm_output={"token_usage": {"total_tokens": 51}})
    assert served_tokens(empty) == 51
    parts = LLMResult(generations=[[]], llm_output={"usage": {"prompt_tokens": 3,
                                                               "completion_tokens": 4}})
    assert served_tokens(parts) == 7
    assert served_tokens(LLMResult(generations=[[]])) is None


def test_a_response_reported_twice_is_counted_once():
    from uuid import uuid4

    tally, run_id = TokenTally(), uuid4()
    response = LLMResult(generations=[[]], llm_output={"token_usage": {"total_tokens": 9}})
    tally.record(response, run_id)
    tally.record(response, run_id)
    assert (tally.tokens, tally.responses) == (9, 1)


def test_attempt_tokens_carry_failed_attempts_to_the_one_that_returns():
    carry = AttemptTokens(limit=2)
    model = GenericFakeChatModel(messages=iter([_answer(10), _answer(20), _answer(30)]))
    for _ in range(2):
        with pytest.raises(TimeoutError), carry.attempt("task") as tally:
            model.invoke("x")
            raise TimeoutError
    with carry.attempt("task") as tally:
        model.invoke("x")
    assert (tally.tokens, tally.responses) == (60, 3)
    with carry.attempt("task") as fresh:  # the carried tally was handed over once
        pass
    assert fresh.tokens == 0
    for key in ("a", "b", "c"):  # bounded: the oldest kept tally is dropped
        with pytest.raises(TimeoutError), carry.attempt(key) as tally:
            tally.tokens = 7
            raise TimeoutError
    for key, kept in (("a", 0), ("b", 7), ("c", 7)):
        with carry.attempt(key) as tally:
            assert tally.tokens == kept, key


def test_gate_blocks_every_request_until_the_window_is_open():
    gate = workers.pacing.RetryAfterGate()
    limiter = app.llm.provider.PacedRateLimiter(gate)
    gate.hold(0.3)
    assert limiter.acquire(blocking=False) is False
    started = time.monotonic()
    assert limiter.acquire() is True
    assert time.monotonic() - started >= 0.29
    assert limiter.acquire(blocking=False) is True


def test_a_gate_wait_ends_when_the_run_stops():
    import threading

    from workers.base import Cancellation

    gate, stop = workers.pacing.RetryAfterGate(), Cancellation()
    gate.hold(30)
    threading.Timer(0.2, stop.set, args=(TimeoutError("stopped"),)).start()
    started = time.monotonic()
    with pytest.raises(RunCancelled) as info, workers.waits.stop_waiting_when(stop):
        gate.wait()
    assert time.monotonic() - started < 5 and isinstance(info.value.cause, TimeoutError)
    assert gate.remaining() > 20  # the window stays for the other runs of the process


def _stopping_soon():
    import threading

    from workers.base import Cancellation

    stop = Cancellation()
    threading.Timer(0.2, stop.set, args=(TimeoutError("stopped"),)).start()
    return stop


def test_a_rate_limiter_wait_ends_when_the_run_stops():
    """LangChain's InMemoryRateLimiter sleeps until its token comes (1 / rate seconds): the
    model's limiter must not, or a low RESEARCH_REQUESTS_PER_SECOND holds a Ctrl-C for hours."""
    import asyncio
    import threading

    from langchain_core.rate_limiters import InMemoryRateLimiter

    for waiting in ("acquire", "aacquire"):
        inner = InMemoryRateLimiter(requests_per_second=0.0001, check_every_n_seconds=0.05)
        limiter = app.llm.provider.PacedRateLimiter(workers.pacing.RetryAfterGate(), inner)
        stop, raised = _stopping_soon(), []

        def wait(how: str = waiting, limiter=limiter, stop=stop, raised=raised) -> None:
            try:
                with workers.waits.stop_waiting_when(stop):
                    limiter.acquire() if how == "acquire" else asyncio.run(limiter.aacquire())
            except RunCancelled as exc:
                raised.append(exc)

        waiter = threading.Thread(target=wait, daemon=True)
        waiter.start()
        waiter.join(5)
        assert not waiter.is_alive(), f"{waiting} still waits for its token after the stop"
        assert "RESEARCH_REQUESTS_PER_SECOND" in str(raised[0])
        assert isinstance(raised[0].cause, TimeoutError)
        assert limiter.acquire(blocking=False) is False  # still no token, nor a wait


def test_the_rate_limiter_still_paces_requests():
    from langchain_core.rate_limiters import InMemoryRateLimiter

    inner = InMemoryRateLimiter(requests_per_second=5, check_every_n_seconds=0.01)
    limiter = app.llm.provider.PacedRateLimiter(workers.pacing.RetryAfterGate(), inner)
    started = time.monotonic()
    for _ in range(3):
        assert limiter.acquire() is True
    assert 0.5 <= time.monotonic() - started < 3  # one token per 0.2 s, the first too


def test_a_wait_for_a_worker_slot_ends_when_the_run_stops():
    import threading

    slot = threading.Semaphore(1)
    slot.acquire()  # a worker holds the only slot, stuck in a call
    stop, started = _stopping_soon(), time.monotonic()
    with pytest.raises(RunCancelled, match="free worker slot"), \
            workers.waits.stop_waiting_when(stop), \
            workers.waits.holding(slot, "a free worker slot"):
        pass
    assert time.monotonic() - started < 5
    slot.release()
    with workers.waits.holding(slot, "a free worker slot"):  # no stop signal: a plain slot
        assert slot.acquire(blocking=False) is False
    assert slot.acquire(blocking=False) is True


def test_a_retry_after_past_a_day_or_infinite_asks_for_a_day() -> None:
    # trial 91, F6: "Retry-After: 1e309" was "asked to wait inf s", a window without end
    import httpx

    from workers.retry_after import LONGEST_ASKED

    for raw in ("1e309", "inf", "9999999"):
        response = httpx.Response(429, headers={"Retry-After": raw},
                                  request=httpx.Request("GET", "http://x"))
        error = httpx.HTTPStatusError("429", request=response.request, response=response)
        assert retry_after(error) == LONGEST_ASKED, raw
