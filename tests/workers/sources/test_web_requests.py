"""A search service's answer is read with bounds (``workers.sources.web_requests``): a 200 MB
answer was read whole and parsed (a run's peak went to 700 MB) before each result was cut to
size, and a search given up on at ``RESEARCH_TIMEOUT`` read on to the end on its thread."""

from __future__ import annotations

import threading
import time
import tracemalloc

import pytest

from app.graph.sources import open_web
from app.settings.config import Settings
from tests.http_stub import DripHandler, HugeHandler, serve, stop
from workers.sources.web import WebSearchError, WebTimeout
from workers.sources.web_requests import MAX_ANSWER_BYTES

AS_OF = "2026-11-30"


def web(tmp_path, provider: str, url: str, timeout: float = 30.0):
    settings = Settings(data_dir=tmp_path, timeout=timeout, search_provider=provider,
                        tavily_api_key="tvly-test", tavily_base_url=url, searxng_url=url)
    return open_web(settings)


@pytest.mark.parametrize("provider", ["tavily", "searxng"])
def test_an_answer_past_the_size_limit_is_not_read_and_is_named(tmp_path, provider):
    server = serve(HugeHandler)
    try:
        source = web(tmp_path, provider, f"http://127.0.0.1:{server.server_address[1]}")
        tracemalloc.start()
        try:
            with pytest.raises(WebSearchError) as info:
                source.search("heron census", 3, as_of=AS_OF)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    finally:
        stop(server)
    assert f"larger than {MAX_ANSWER_BYTES // 2**20} MB" in str(info.value)
    assert peak < 3 * MAX_ANSWER_BYTES, f"peak {peak:,} bytes"


def test_a_gzip_bomb_is_bounded_as_it_is_decompressed(tmp_path):
    server = serve(HugeHandler)
    try:
        source = web(tmp_path, "searxng", f"http://127.0.0.1:{server.server_address[1]}/gzip")
        with pytest.raises(WebSearchError, match="larger than"):
            source.search("heron census", 3, as_of=AS_OF)
    finally:
        stop(server)


@pytest.mark.parametrize("provider", ["tavily", "searxng"])
def test_a_search_given_up_on_stops_reading(tmp_path, provider):
    gave_up = DripHandler.gave_up
    gave_up.clear()
    before = set(threading.enumerate())
    server = serve(DripHandler)
    try:
        source = web(tmp_path, provider, f"http://127.0.0.1:{server.server_address[1]}", 1.0)
        started = time.monotonic()
        with pytest.raises(WebTimeout):
            source.search("heron census", 3, as_of=AS_OF)
        deadline = time.monotonic() + 10
        while (not gave_up or left_behind(before)) and time.monotonic() < deadline:
            time.sleep(0.05)  # the server's next write fails; the search's thread ends
    finally:
        stop(server)
    assert gave_up and gave_up[0] - started < 4, "the search's thread read on past its deadline"
    assert not left_behind(before)


def left_behind(before: set[threading.Thread]) -> list[threading.Thread]:
    return [t for t in threading.enumerate()
            if t.name == "deadline-call" and t.is_alive() and t not in before]


def test_an_answer_that_does_not_decompress_is_named_not_retried_as_a_broken_connection(tmp_path):
    # trial 44: a complete answer with a broken gzip body read "broke off its answer:
    # DecodeError", a transient error, and was asked again for the same answer
    server = serve(HugeHandler)
    try:
        source = web(tmp_path, "searxng", f"http://127.0.0.1:{server.server_address[1]}/badgzip")
        with pytest.raises(WebSearchError, match="does not decompress"):
            source.search("heron census", 3, as_of=AS_OF)
    finally:
        stop(server)
