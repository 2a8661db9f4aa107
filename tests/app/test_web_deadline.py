"""``RESEARCH_TIMEOUT`` bounds a whole web search request (``app.graph.sources``), Tavily's and
SearXNG's: a service that sent its headers and then a byte a second held a run for 150 s under
``RESEARCH_TIMEOUT=5`` (the clients time out per read), the analyst and the critic waiting on
the same query's lock behind it."""

from __future__ import annotations

import time

import pytest

from app.graph.sources import open_web
from app.settings.config import Settings
from tests.http_stub import DripHandler, serve, stop
from workers.sources.web import WebTimeout


@pytest.mark.parametrize("provider", ["tavily", "searxng"])
def test_a_dripping_search_answer_times_out_at_the_timeout_of_the_whole_request(
        tmp_path, provider):
    server = serve(DripHandler)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        settings = Settings(data_dir=tmp_path, timeout=1.0, search_provider=provider,
                            tavily_api_key="tvly-test", tavily_base_url=url, searxng_url=url)
        source = open_web(settings)
        started = time.monotonic()
        with pytest.raises(WebTimeout) as info:
            source.search("heron census", 3, as_of="2026-11-30")
        assert time.monotonic() - started < 3.0, info.value  # each byte came within 0.2 s
        assert "RESEARCH_TIMEOUT" in str(info.value)
    finally:
        stop(server)
