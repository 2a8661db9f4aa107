"""The SearXNG provider over a local stand-in of its JSON API: its answers cited by URL, stored
in the same cache as Tavily's (one request per query and date), and its errors classified the
way the run's retry policy reads them (403 fatal and naming ``search.formats``, 429 retried
with its ``Retry-After``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.searxng_server import FakeSearxng
from tests.tavily_server import TAVILY_KEY, FakeTavily, pages_for
from workers.errors import is_fatal, is_transient
from workers.pacing import RetryAfterGate, paced_search
from workers.retry_after import retry_after
from workers.sources.searxng import searxng_search
from workers.sources.tavily import tavily_search
from workers.sources.web import WEB_CACHE, WebSearchError, WebSource

AS_OF = "2026-11-30"


@pytest.fixture
def searxng():
    with FakeSearxng() as fake:
        yield fake


def web(data: Path, server: FakeSearxng) -> WebSource:
    return WebSource(data, searxng_search(server.url, timeout=10.0), "web search (SearXNG)")


def test_answers_are_passages_cited_by_url_and_asked_once(tmp_path: Path,
                                                          searxng: FakeSearxng) -> None:
    hits = web(tmp_path, searxng).search("heron census", k=5, as_of=AS_OF)
    expected = pages_for("heron census")
    assert [h.ref for h in hits] == [f"{p['url']}#0" for p in expected]
    assert hits[0].citation() == f"[{expected[0]['title']}]({expected[0]['url']})"
    assert hits[0].text == expected[0]["content"]
    assert searxng.requests == [{"q": "heron census", "format": "json"}]
    # a new process on the same data dir (a rerun, a resume) asks the cache, not the instance
    assert web(tmp_path, searxng).search("heron census", k=2, as_of=AS_OF) == hits
    assert searxng.counts() == {"heron census": 1}


def test_the_cache_is_shared_with_tavily(tmp_path: Path, searxng: FakeSearxng) -> None:
    # a thread started on Tavily and resumed on SearXNG repeats none of its searches
    with FakeTavily() as tavily:
        first = WebSource(tmp_path, tavily_search(TAVILY_KEY, tavily.url)).search(
            "heron census", as_of=AS_OF)
    assert web(tmp_path, searxng).search("heron census", as_of=AS_OF) == first
    assert searxng.counts() == {}


def test_json_not_in_search_formats_is_fatal_and_says_so(tmp_path: Path) -> None:
    with FakeSearxng(json_allowed=False) as server, pytest.raises(WebSearchError) as caught:
        web(tmp_path, server).search("heron census", as_of=AS_OF)
    assert is_fatal(caught.value)
    message = str(caught.value)
    assert "\n" not in message and "HTTP 403" in message
    assert "add json to search.formats" in message and server.url in message
    with sqlite3.connect(tmp_path / WEB_CACHE) as con:  # a failure is never a stored answer
        assert con.execute("SELECT COUNT(*) FROM searches").fetchone() == (0,)


def test_a_rate_limit_is_transient_and_holds_the_gate(tmp_path: Path,
                                                      searxng: FakeSearxng) -> None:
    searxng.fail(429, retry_after="7")
    gate = RetryAfterGate()
    search = paced_search(searxng_search(searxng.url), gate, 60.0, "web search (SearXNG)")
    with pytest.raises(WebSearchError) as caught:
        WebSource(tmp_path, search).search("heron census", as_of=AS_OF)
    assert is_transient(caught.value) and not is_fatal(caught.value)
    assert retry_after(caught.value) == 7.0 and gate.remaining() > 6
    assert "limiter" in str(caught.value)


def test_an_unreachable_instance_is_transient(tmp_path: Path) -> None:
    with pytest.raises(ConnectionError) as caught:
        WebSource(tmp_path, searxng_search("http://user:pw@127.0.0.1:9/sx", timeout=2)).search(
            "heron census", as_of=AS_OF)
    assert is_transient(caught.value)
    assert "127.0.0.1:9/sx" in str(caught.value) and "pw" not in str(caught.value)


def test_no_results_because_engines_failed_is_retried_not_cached(tmp_path: Path) -> None:
    answers = iter([{"results": [], "unresponsive_engines": [["duckduckgo", "timeout"]]},
                    {"results": [{"url": "https://a.example/x", "title": "A",
                                  "content": "found"}]}])

    def fake_search(query: str, max_results: int) -> dict:
        from workers.sources.searxng import _results

        return _results(next(answers), "http://sx")

    source = WebSource(tmp_path, fake_search)
    with pytest.raises(ConnectionError, match="duckduckgo timeout"):
        source.search("heron census", as_of=AS_OF)
    assert [h.doc_id for h in source.search("heron census", as_of=AS_OF)] == [
        "https://a.example/x"]


HERONS = "https://example.org/herons"
SPELLINGS = [  # one page as a search engine may spell it, then another page (its query differs)
    {"url": HERONS, "title": "Herons", "content": "Heron colonies are called heronries."},
    {"url": "https://EXAMPLE.org/herons#top", "title": "Herons", "content": "Counted yearly."},
    {"url": "HTTPS://example.org:443/herons/", "title": "Herons", "content": "Nest in trees."},
    {"url": f"{HERONS}?page=2", "title": "Herons, page 2", "content": "Egrets nest nearby."},
]


def test_one_page_under_several_url_spellings_is_one_document(tmp_path: Path,
                                                              searxng: FakeSearxng) -> None:
    searxng.results_for = lambda query: SPELLINGS
    source = web(tmp_path, searxng)
    hits = source.search("heron colonies", as_of=AS_OF)
    assert [h.ref for h in hits] == [f"{HERONS}#0", f"{HERONS}?page=2#0"]
    assert hits[0].source == HERONS and hits[0].text == SPELLINGS[0]["content"]  # the first wins
    # a ref or a URL written with another spelling finds the same page
    for ref in ("https://Example.ORG/herons/#0", "https://EXAMPLE.org/herons#top#0"):
        found = source.passage(ref)
        assert found is not None and (found.ref, found.text) == (hits[0].ref, hits[0].text)
    page = source.read("https://example.org:443/herons")
    assert page is not None and page.doc_id == HERONS


def test_a_cache_written_before_urls_were_normalized_is_rekeyed(tmp_path: Path,
                                                                searxng: FakeSearxng) -> None:
    # an older web.sqlite (user_version 0) kept each spelling as a page of its own
    with sqlite3.connect(tmp_path / WEB_CACHE) as con:
        con.executescript(
            "CREATE TABLE searches (query TEXT NOT NULL, as_of TEXT NOT NULL, response TEXT NOT "
            "NULL, fetched_at TEXT NOT NULL, PRIMARY KEY (query, as_of));"
            "CREATE TABLE pages (url TEXT PRIMARY KEY, title TEXT NOT NULL, snippet TEXT NOT "
            "NULL, content TEXT NOT NULL, fetched_at TEXT NOT NULL);")
        con.executemany("INSERT INTO pages VALUES (?, ?, ?, ?, 'then')",
                        [(p["url"], p["title"], p["content"], p["content"]) for p in SPELLINGS])
        con.execute("INSERT INTO searches VALUES ('heron colonies', ?, ?, 'then')",
                    (AS_OF, json.dumps([p["url"] for p in SPELLINGS])))
    hits = web(tmp_path, searxng).search("heron colonies", as_of=AS_OF)
    assert [h.ref for h in hits] == [f"{HERONS}#0", f"{HERONS}?page=2#0"]
    assert hits[0].text == SPELLINGS[0]["content"]
    assert searxng.counts() == {}  # the rerun still asks the cache, not the instance
    with sqlite3.connect(tmp_path / WEB_CACHE) as con:
        assert con.execute("SELECT COUNT(*) FROM pages").fetchone() == (2,)
        assert con.execute("PRAGMA user_version").fetchone() == (1,)
