"""A web search API's ``Retry-After`` is honoured like a model provider's (``app/llm/provider.py``;
both gates are ``workers/pacing.py``'s): the wait it asks for holds every later search of the
endpoint, and a wait longer than the run's patience fails the search for good, saying how long
was asked."""

from __future__ import annotations

import time

import httpx
import pytest

from workers.errors import RetryAfterTooLong, classify
from workers.pacing import RetryAfterGate, paced_search


def _rate_limited(seconds: str) -> httpx.HTTPStatusError:
    request = httpx.Request("POST", "http://127.0.0.1:1/search")
    response = httpx.Response(429, headers={"Retry-After": seconds}, request=request)
    return httpx.HTTPStatusError("429 Too Many Requests", request=request, response=response)


def test_a_retry_after_holds_the_next_search_of_every_caller():
    calls: list[float] = []

    def search(query: str, k: int) -> dict:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise _rate_limited("0.4")
        return {"results": []}

    gate = RetryAfterGate()
    paced = paced_search(search, gate, patience=60)
    with pytest.raises(httpx.HTTPStatusError):  # raised on, for the node's RetryPolicy
        paced("q", 5)
    assert 0 < gate.remaining() <= 0.4
    other_caller = paced_search(search, gate, patience=60)  # the same endpoint's gate
    assert other_caller("another query", 5) == {"results": []}
    assert calls[1] - calls[0] >= 0.35


def test_a_wait_past_the_patience_fails_the_search_for_good_naming_it():
    gate = RetryAfterGate()

    def search(query: str, k: int) -> dict:
        raise _rate_limited("3600")

    with pytest.raises(RetryAfterTooLong) as info:
        paced_search(search, gate, patience=60)("q", 5)
    assert classify(info.value) == "permanent"
    assert "3600 s" in str(info.value) and "RESEARCH_RETRY_PATIENCE" in str(info.value)
    # the window is held all the same, refused: no search goes inside it (trial 91, F2)
    assert gate.remaining() > 3500
    with pytest.raises(RetryAfterTooLong):
        paced_search(lambda query, k: pytest.fail("a search inside the window"), gate,
                     patience=60)("q", 5)
