"""What a search service answers is checked where it enters the web source, for Tavily and
SearXNG alike (``workers/sources/web_answer.py``), against the local stand-ins of their APIs:
an answer of another shape is named as a failed search, never cached and never a raw error in
the agents' tasks; every size it sends is bounded; a redirect the client will not follow is
named as one (trial 39, F4, F6 and F12)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.searxng_server import FakeSearxng
from tests.tavily_server import TAVILY_KEY, FakeTavily, pages_for
from workers.errors import is_transient
from workers.sources.searxng import searxng_search
from workers.sources.tavily import tavily_search
from workers.sources.web import WEB_CACHE, WebSearchError, WebSource
from workers.sources.web_answer import (
    MAX_PAGE_CHARS,
    MAX_SNIPPET_CHARS,
    MAX_TITLE_CHARS,
    MAX_URL_CHARS,
)
from workers.tools import READ_MAX_CHARS, make_web_tools

AS_OF = "2026-11-30"
PROVIDERS = ["Tavily", "SearXNG"]


@pytest.fixture(params=PROVIDERS)
def served(request, tmp_path: Path) -> Iterator[tuple[FakeTavily | FakeSearxng, WebSource]]:
    """A stand-in of one provider, and the web source over it (as ``open_web`` names it)."""
    if request.param == "Tavily":
        with FakeTavily() as server:
            yield server, WebSource(tmp_path, tavily_search(TAVILY_KEY, server.url, 10.0))
    else:
        with FakeSearxng() as server:
            yield server, WebSource(tmp_path, searxng_search(server.url, 10.0),
                                    "web search (SearXNG)", provider="SearXNG")


WRONG_SHAPES = [  # (the body, what the error says came)
    ({"query": "q", "results": {"url": "https://example.org/x"}},
     "its results are a JSON object, not a list"),
    ({"query": "q", "results": "none"}, "its results are a string, not a list"),
    ({"query": "q", "results": [None, "https://example.org/str-item", 5]},
     "none of its 3 result(s) is a JSON object (the first is null)"),
    ([{"url": "https://example.org/x"}], "it is a list, not a JSON object"),
    (None, "it is null, not a JSON object"),
]


@pytest.mark.parametrize(("body", "said"), WRONG_SHAPES)
def test_an_answer_of_another_shape_is_a_named_search_error_and_not_cached(
        served, body, said: str) -> None:
    # trial 39, F6: Tavily's {"results": {...}} failed web_search, the analyst and the critic
    # with "AttributeError: 'str' object has no attribute 'get'"; SearXNG read "results": "none"
    # as an empty answer and cached it for good
    server, source = served
    server.body_for = lambda query: body
    for _ in range(2):
        with pytest.raises(WebSearchError) as info:
            source.search("heron census", as_of=AS_OF)
        message = str(info.value)
        assert said in message and source.provider in message, message
        assert not is_transient(info.value)  # the same answer again: not retried in the task
    assert server.counts() == {"heron census": 2}  # nothing was cached: asked again
    # the agents' search_web tool hands it back as an error result: the agent carries on
    [tool] = make_web_tools(source)
    answer = tool.invoke({"query": "heron census"})
    assert said in answer and "Error" not in answer.split(":")[0], answer


def test_results_that_are_no_objects_or_carry_fields_of_other_types_are_left_out(
        served) -> None:
    server, source = served
    good = pages_for("heron census")[0]
    server.results_for = lambda query: [
        None, "https://example.org/str-item", 5,
        {"url": 12345, "title": ["a"], "content": {"x": 1}, "raw_content": 7},
        {"url": "https://example.org/empty", "title": None, "content": None},
        {**good, "title": ["not", "a", "string"]}]
    hits = source.search("heron census", as_of=AS_OF)
    assert [(h.source, h.title, h.text) for h in hits] == [
        (good["url"], good["url"], good["content"])]  # no title: titled by its URL


def test_every_size_a_service_sends_is_bounded_where_it_enters(served, tmp_path: Path) -> None:
    # trial 39, F4: one result's 10 MB snippet was one passage; the offline model spun on it
    # for over 900 s, and a run with a model wrote 190 MB to the data dir for a 1.7 KB report
    server, source = served
    huge = "checkpointer pending writes are saved. " * (10 * 1024 * 1024 // 39)
    long_url = "https://example.org/" + "a" * MAX_URL_CHARS
    server.results_for = lambda query: [
        {"url": long_url, "title": "Long URL", "content": "left out"},
        {"url": "https://example.org/huge", "title": huge, "content": huge, "raw_content": huge},
        *({"url": f"https://example.org/{n}", "title": f"Page {n}", "content": f"Page {n}."}
          for n in range(10_000))]
    started = time.monotonic()
    hits = source.search("heron census", k=20, as_of=AS_OF)
    assert time.monotonic() - started < 10
    # the results asked of every search (MAX_WEB_RESULTS); Tavily's stand-in sends 8 only, the
    # first with a URL too long
    assert len(hits) == (7 if isinstance(server, FakeTavily) else 8)
    assert hits[0].source == "https://example.org/huge"  # the long URL's result is left out
    assert len(hits[0].title) <= MAX_TITLE_CHARS and hits[0].title.endswith(" […]")
    assert len(hits[0].text) <= MAX_SNIPPET_CHARS and hits[0].text.endswith(" […]")
    page = source.read(hits[0].ref)
    assert page is not None and len(page.text) <= READ_MAX_CHARS + 10
    with sqlite3.connect(tmp_path / WEB_CACHE) as con:
        (content,) = con.execute("SELECT max(length(content)) FROM pages").fetchone()
    assert content <= MAX_PAGE_CHARS
    assert (tmp_path / WEB_CACHE).stat().st_size < 1024 * 1024


def test_a_cache_written_before_the_bounds_is_cut_as_it_is_read(tmp_path: Path) -> None:
    # a data dir that met F4 before: its web.sqlite holds the 10 MB snippet, and a rerun of the
    # thread reads it from there, never from the service
    def never(query: str, max_results: int) -> dict:
        raise AssertionError("the cache answers")

    WebSource(tmp_path, never)  # the tables
    huge = "pending writes sentence. " * 400_000
    with sqlite3.connect(tmp_path / WEB_CACHE) as con:
        con.execute("INSERT INTO pages VALUES ('https://example.org/huge', ?, ?, ?, 'then')",
                    (huge, huge, huge))
        con.execute("INSERT INTO searches VALUES ('heron census', ?, ?, 'then')",
                    (AS_OF, json.dumps(["https://example.org/huge"])))
    [hit] = WebSource(tmp_path, never).search("heron census", as_of=AS_OF)
    assert len(hit.title) <= MAX_TITLE_CHARS and len(hit.text) <= MAX_SNIPPET_CHARS
    assert len(WebSource(tmp_path, never)._page(hit.source).content) <= MAX_PAGE_CHARS


def test_a_redirect_the_client_will_not_follow_is_named_as_one(served) -> None:
    # trial 39, F12: SearXNG's redirect to file: read "cannot reach SearXNG at URL:
    # InvalidSchema", for a server that answered
    server, source = served
    server.redirect_to = "file:///etc/passwd"
    with pytest.raises(WebSearchError) as info:
        source.search("heron census", as_of=AS_OF)
    message = str(info.value)
    assert "redirected the search to a URL that is not followed" in message, message
    assert "'file:///etc/passwd'" in message and "cannot reach" not in message
    assert not is_transient(info.value)  # it answered; the same redirect again is no cure


def test_an_answer_nested_too_deep_to_read_is_a_named_search_error(served) -> None:
    # valid JSON nested 100,000 levels deep: the client's json() raised RecursionError, which
    # no handler took for an unusable answer, and the analyst, the critic and the web task
    # each failed on it
    server, source = served
    deep = b'{"query": "q", "results": ' + b"[" * 100000 + b"]" * 100000 + b"}"
    server.body_for = lambda query: deep
    with pytest.raises(WebSearchError) as info:
        source.search("heron census", as_of=AS_OF)
    assert "nested too deep" in str(info.value) and source.provider in str(info.value)
