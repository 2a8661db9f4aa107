"""``RESEARCH_TIMEOUT`` bounds a whole model request, and a stopping run stops waiting for one
(``app.llm.deadline``). A server that sent its headers and then a byte a second held the
planner's first request for 200 s under ``RESEARCH_TIMEOUT=5`` (httpx times out per read), and
a Ctrl-C waited for the rest of a request in flight: 58 s on a silent server."""

from __future__ import annotations

import threading
import time
import tracemalloc

import openai
import pytest

from app.llm.models import make_model
from app.settings.config import Settings
from tests.http_stub import DripHandler, HugeHandler, serve, stop
from tests.llm.fake_openai import FAKE_KEY
from workers.base import Cancellation
from workers.errors import MalformedResponseError, RunCancelled, is_transient
from workers.sources.web_requests import MAX_ANSWER_BYTES
from workers.waits import stop_waiting_when


@pytest.fixture
def drip():
    server = serve(DripHandler)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    stop(server)


def _model(base_url: str, timeout: float):
    settings = Settings(model="openai:gpt-4.1-mini", openai_api_key=FAKE_KEY,
                        openai_base_url=base_url, timeout=timeout, requests_per_second=1000)
    return make_model(settings.model, settings).model


def test_a_dripping_answer_times_out_at_the_timeout_of_the_whole_request(drip):
    model = _model(f"{drip}/v1", timeout=1.0)
    started = time.monotonic()
    with pytest.raises(openai.APITimeoutError) as info:
        model.invoke("hello")
    assert time.monotonic() - started < 3.0  # each read came within 0.2 s: httpx never timed out
    assert is_transient(info.value)
    assert "RESEARCH_TIMEOUT" in str(info.value), info.value
    # the call given up on ends with its connection, not when the server stops dripping (a
    # thread and a socket each, 72 threads after 58 requests)
    deadline = time.monotonic() + 3
    while _left_behind() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _left_behind()


def _left_behind() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "deadline-call" and t.is_alive()]


def test_a_stopping_run_stops_waiting_for_a_request_in_flight(drip):
    model = _model(f"{drip}/silent/v1", timeout=60.0)
    cancel, outcome = Cancellation(), []

    def call() -> None:
        with stop_waiting_when(cancel):
            try:
                model.invoke("hello")
            except BaseException as exc:  # noqa: BLE001 - what the worker would see
                outcome.append((exc, time.monotonic()))

    worker = threading.Thread(target=call)
    worker.start()
    time.sleep(0.5)
    stopped = time.monotonic()
    cancel.set()
    worker.join(10)
    [(error, ended)] = outcome
    assert isinstance(error, RunCancelled), repr(error)  # not a connection error to retry
    assert ended - stopped < 1.5  # it was waiting out the rest of a 60 s timeout


@pytest.mark.parametrize("path", ["/v1", "/gzip/v1"])
def test_an_answer_past_the_size_limit_is_not_read_and_is_named(path):
    # a server answering 200 MB was read whole before openai parsed it (the web search's
    # sibling: workers.sources.web_requests); trial 44, F1: counted as sent, a gzip answer of
    # 2 MB inflated to 2 GB (a run's memory went to 10.6 GB)
    server = serve(HugeHandler)
    try:
        model = _model(f"http://127.0.0.1:{server.server_address[1]}{path}", timeout=30.0)
        started = time.monotonic()
        tracemalloc.start()
        try:
            with pytest.raises(MalformedResponseError) as info:
                model.invoke("hello")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    finally:
        stop(server)
    assert time.monotonic() - started < 10
    assert f"larger than {MAX_ANSWER_BYTES // 2**20} MB" in str(info.value), info.value
    assert is_transient(info.value)
    assert peak < 4 * MAX_ANSWER_BYTES, f"peak {peak:,} bytes"
