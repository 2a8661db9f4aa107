"""The web source over a local Tavily-compatible server: cached by (query, as_of) and URL, so no
search is paid twice; Tavily's errors classified like model errors; the key never shown."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.tavily_server import TAVILY_KEY, FakeTavily, pages_for
from workers.errors import is_fatal, is_transient
from workers.sources import Passage
from workers.sources.combined import CombinedSource
from workers.sources.tavily import tavily_search
from workers.sources.web import CURRENT_AS_OF, WEB_CACHE, WebSearchError, WebSource
from workers.tools import make_web_tools, parse_search_passages

AS_OF = "2026-11-30"


@pytest.fixture
def server():
    with FakeTavily() as fake:
        yield fake


def web(data: Path, server: FakeTavily, key: str = TAVILY_KEY, timeout: float = 10.0):
    return WebSource(data, tavily_search(key, server.url, timeout=timeout))


def test_results_are_passages_cited_by_url(tmp_path: Path, server: FakeTavily) -> None:
    source = web(tmp_path, server)
    hits = source.search("heron census", k=5, as_of=AS_OF)
    expected = pages_for("heron census")
    assert [h.ref for h in hits] == [f"{p['url']}#0" for p in expected]
    first = hits[0]
    assert first.doc_id == first.source == expected[0]["url"] and first.is_web
    assert first.title == expected[0]["title"] and first.text == expected[0]["content"]
    assert first.citation() == f"[{expected[0]['title']}]({expected[0]['url']})"
    assert first.citation_key == expected[0]["url"]
    # the fetched page is kept: its passages resolve, and reading it gives the page text
    page = source.read(first.ref)
    assert page is not None and "observed every spring" in page.text
    sibling = source.passage(Passage.make_ref(first.doc_id, 1))
    assert sibling is not None and "observed every spring" in sibling.text
    assert source.passage(first.ref) == Passage(first.ref, first.doc_id, first.title,
                                                first.source, first.text)
    assert source.passage("https://nowhere.example/#0") is None
    assert server.requests[0]["include_raw_content"] is True


def test_a_damaged_web_record_stops_with_the_file_named(tmp_path: Path,
                                                         server: FakeTavily) -> None:
    # the sibling of trial 8's damaged corpus index: every search failed with "database disk
    # image is malformed", each task's error row replacing a good one. It holds paid answers:
    # named, with the way out, never removed
    import sqlite3

    from workers.sources.damage import DamagedFile

    source = web(tmp_path, server)
    source.search("heron census", k=2, as_of=AS_OF)
    path = tmp_path / WEB_CACHE
    with sqlite3.connect(path) as con:
        (size,) = con.execute("PRAGMA page_size").fetchone()
        roots = [r for (r,) in con.execute("SELECT rootpage FROM sqlite_master WHERE rootpage")]
    with open(path, "r+b") as handle:
        for root in roots[1:]:
            handle.seek((root - 1) * size)
            handle.write(b"\xa5" * size)
    with pytest.raises(DamagedFile) as info:
        source.search("heron census", k=2, as_of=AS_OF)
    assert is_fatal(info.value)
    assert str(info.value).startswith(f"the web search record {path} is damaged (")
    assert f"move it aside (mv {path} {path}.damaged)" in str(info.value)
    assert path.exists() and server.counts() == {"heron census": 1}


def test_a_search_is_asked_once_per_query_and_as_of(tmp_path: Path, server: FakeTavily) -> None:
    source = web(tmp_path, server)
    first = source.search("heron census", k=2, as_of=AS_OF)
    assert source.search("  heron   census ", k=1, as_of=AS_OF) == first[:1]
    assert server.counts() == {"heron census": 1}
    # a new process on the same data dir (a rerun, a resume) asks the cache, not Tavily
    assert web(tmp_path, server).search("heron census", k=2, as_of=AS_OF) == first
    assert server.counts() == {"heron census": 1}
    # another date is another search
    web(tmp_path, server).search("heron census", k=2, as_of="2026-12-01")
    assert server.counts() == {"heron census": 2}
    # the task's as_of (set by the worker node) is the default
    token = CURRENT_AS_OF.set("2026-12-01")
    try:
        source.search("heron census")
    finally:
        CURRENT_AS_OF.reset(token)
    assert server.counts() == {"heron census": 2}


def test_concurrent_searches_of_one_key_make_one_request(tmp_path: Path,
                                                        server: FakeTavily) -> None:
    source = web(tmp_path, server)
    server.delay = 0.2
    results: list[list[Passage]] = []
    threads = [threading.Thread(target=lambda: results.append(
        source.search("ledger audit", as_of=AS_OF))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert server.counts() == {"ledger audit": 1}
    assert all(r == results[0] for r in results) and results[0]


def test_bad_key_is_fatal_and_never_shown(tmp_path: Path, server: FakeTavily) -> None:
    wrong = "tvly-WRONG-secret-0123456789"
    with pytest.raises(WebSearchError) as err:
        web(tmp_path, server, key=wrong).search("heron census", as_of=AS_OF)
    assert err.value.status_code == 401 and is_fatal(err.value) and not is_transient(err.value)
    assert "TAVILY_API_KEY" in str(err.value)
    assert wrong not in str(err.value)  # the server echoed it; the message masks it
    assert wrong.encode() not in (tmp_path / WEB_CACHE).read_bytes()


def test_rate_limit_is_transient_with_its_retry_after(tmp_path: Path,
                                                     server: FakeTavily) -> None:
    source = web(tmp_path, server)
    server.fail(429, retry_after="7")
    with pytest.raises(WebSearchError) as err:
        source.search("heron census", as_of=AS_OF)
    assert err.value.status_code == 429 and is_transient(err.value) and not is_fatal(err.value)
    assert err.value.response.headers["Retry-After"] == "7"
    server.fail(503)
    with pytest.raises(WebSearchError) as err:
        source.search("heron census", as_of=AS_OF)
    assert err.value.status_code == 503 and is_transient(err.value)
    # nothing was cached by the failures: the next call asks again, and then never again
    assert source.search("heron census", as_of=AS_OF)
    assert source.search("heron census", as_of=AS_OF)
    assert server.counts() == {"heron census": 3}


def test_timeouts_and_unreachable_servers_are_transient(tmp_path: Path,
                                                       server: FakeTavily) -> None:
    server.delay = 2.0
    with pytest.raises(TimeoutError) as err:
        web(tmp_path, server, timeout=0.3).search("slow query", as_of=AS_OF)
    assert is_transient(err.value)
    dead = WebSource(tmp_path, tavily_search(TAVILY_KEY, "http://127.0.0.1:9", timeout=2))
    with pytest.raises(ConnectionError) as err:
        dead.search("anything", as_of=AS_OF)
    assert is_transient(err.value)


def test_the_search_web_tool_and_a_combined_source(tmp_path: Path, server: FakeTavily) -> None:
    source = web(tmp_path, server)
    [tool] = make_web_tools(source, k=1)
    token = CURRENT_AS_OF.set(AS_OF)
    try:
        [hit] = parse_search_passages(tool.invoke({"query": "heron census"}))
    finally:
        CURRENT_AS_OF.reset(token)
    assert hit.ref == pages_for("heron census")[0]["url"] + "#0"

    class Empty:
        description = "nothing"

        def search(self, query, k=5):
            return []

        def passage(self, ref):
            return None

        def read(self, ref, max_chars=6000):
            return None

    both = CombinedSource(Empty(), source)
    assert both.description == "nothing" and both.search("heron census") == []
    assert both.passage(hit.ref) == source.passage(hit.ref)
    assert both.read(hit.ref).doc_id == hit.doc_id


def test_tavily_spellings_of_one_url_are_one_page(tmp_path: Path, server: FakeTavily) -> None:
    url = "https://example.org/herons"
    server.results_for = lambda query: [
        {"url": spelled, "title": "Herons", "content": f"Heron colonies, take {n}.",
         "raw_content": f"# Herons\n\nHeron colonies, take {n}."}
        for n, spelled in enumerate((url, "https://EXAMPLE.org/herons#top", f"{url}/"))]
    hits = web(tmp_path, server).search("heron colonies", as_of=AS_OF)
    assert [(h.ref, h.source, h.text) for h in hits] == [
        (f"{url}#0", url, "Heron colonies, take 0.")]


def test_a_web_record_of_another_layout_is_named_with_the_way_out(
        tmp_path: Path, server: FakeTavily) -> None:
    # trial 28, finding 8 (a sibling): web.sqlite with another program's ``searches`` table
    # failed the run with a raw "OperationalError: no such column: query"
    import sqlite3

    from workers.sources.damage import DamagedFile

    with sqlite3.connect(tmp_path / WEB_CACHE) as conn:
        conn.execute("CREATE TABLE searches (a)")
    with pytest.raises(DamagedFile) as info:
        web(tmp_path, server).search("zorblax relay")
    said = str(info.value)
    assert str(tmp_path / WEB_CACHE) in said and "move it aside" in said, said
    assert not server.requests  # nothing asked (and paid for) before the record was found bad


def test_a_web_record_of_another_programs_tables_is_refused_untouched(tmp_path: Path) -> None:
    # Sibling of trial 46, F1: web.sqlite of another program got the record's tables added
    import sqlite3

    from workers.sources.damage import DamagedFile

    with sqlite3.connect(tmp_path / WEB_CACHE) as con:
        con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    with pytest.raises(DamagedFile, match=r"holds tables this app does not make \(photos\)"):
        WebSource(tmp_path, lambda query, k: [])
    with sqlite3.connect(tmp_path / WEB_CACHE) as con:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    assert tables == ["photos"]
