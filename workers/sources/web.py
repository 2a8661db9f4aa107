"""The web source (``--web``): Tavily search, every answer kept in the data dir so it is paid once.

Tavily's :data:`SearchFn` is :func:`workers.sources.tavily.tavily_search`. (A self-hosted
SearXNG instance is the other provider, ``RESEARCH_SEARCH_PROVIDER=searxng``: its
:data:`SearchFn` is :func:`workers.sources.searxng.searxng_search`, behind this same cache.)

:class:`WebSource` keeps the :class:`~workers.sources.base.Source` protocol over Tavily's
``/search`` endpoint, called through the official ``tavily-python`` client (``TavilyClient``,
whose ``api_base_url`` points it at ``TAVILY_BASE_URL``: a self-hosted proxy, or the tests'
local server).

The cache (``web.sqlite`` in the data dir) is the point. Each search's answer is stored under
``(query, as_of)`` and each page it returned under its URL, committed *before* the search
returns. So a rerun of the same thread, a resume after SIGKILL and a re-dispatch of a failed task
ask the cache, not Tavily: no second HTTP request, no second charge, the same results. Concurrent
searches for the same key in one process wait for the first (a per-key lock).

Refs: a page is a document whose doc_id is its URL, spelled one way
(:func:`workers.sources.urls.page_url`: scheme and host lower-cased, no default port, no fragment,
no trailing slash), so the spellings of one page a search returns are one page (an older cache is
re-keyed so on open). ``<url>#0`` is the snippet Tavily returned for it, ``<url>#1``, ``#2``... the
passages of the page's full text (``raw_content``), so a claim quoted from a read page cites the
passage that holds it. The report cites a page by title and URL, once per URL
(:meth:`Passage.citation`).

What a service answers enters through one gate, :func:`workers.sources.web_answer.answer_results`:
an answer of another shape is a :class:`WebSearchError` naming the provider (never cached), and
every size is bounded (results kept, a URL's, a title's, a snippet's and a page text's length).

Errors keep their HTTP meaning for :mod:`workers.errors`: :class:`WebSearchError` carries the
``status_code`` (401/403 stop the run like a bad model key; 429 and 5xx are retried) and, for a
429 or 503, the response with its ``Retry-After`` header; a timeout is a :class:`TimeoutError`, a
connection failure a :class:`ConnectionError` (both retried). The key never appears in a message,
the cache or a log line.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workers.sources.base import Document, Passage
from workers.sources.chunks import chunk_text
from workers.sources.recording import KeyedLocks, refuse_foreign, sqlite_transaction
from workers.sources.urls import page_url
from workers.sources.web_answer import (
    MAX_PAGE_CHARS,
    MAX_SNIPPET_CHARS,
    MAX_TITLE_CHARS,
    UnusableAnswer,
    answer_results,
    clip,
)

__all__ = [
    "CURRENT_AS_OF",
    "MAX_WEB_RESULTS",
    "WEB_CACHE",
    "SearchFn",
    "WebSearchError",
    "WebSource",
    "WebTimeout",
    "WebUnreachable",
    "UNREACHED",
    "unreached_source",
]

WEB_CACHE = "web.sqlite"
"""The cache file in the data dir."""

MAX_WEB_RESULTS = 8
"""Results asked of every search (a smaller ``k`` is served from them: one request per key)."""

CURRENT_AS_OF: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "research_as_of", default=None
)
"""The ``as_of`` of the task being run; set by the worker node (``workers.base``) so a search
made by an agent's ``search_web`` tool is cached under its task's date."""

SearchFn = Callable[[str, int], dict[str, Any]]
"""``search(query, max_results) -> Tavily /search JSON`` (``{"results": [{"url", "title",
"content", "raw_content"?}, ...]}``); raises :class:`WebSearchError`, ``TimeoutError`` or
``ConnectionError``."""


class WebSearchError(RuntimeError):
    """The search API (Tavily, SearXNG) answered with an error. ``status_code`` is the HTTP
    status; ``response`` the ``requests`` response (headers included: ``Retry-After``), or None."""

    def __init__(self, message: str, status_code: int | None = None,
                 response: Any = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.response = response


class WebTimeout(TimeoutError):
    """The search API did not answer in time (retried)."""


class WebUnreachable(ConnectionError):
    """The search API could not be reached, or could not search (retried)."""


UNREACHED = (WebUnreachable, WebTimeout, WebSearchError)
"""The errors of a web search that did not answer (unreachable, too slow, or an HTTP error): a
task that failed on one has no answer from the web, which is not an empty answer."""


def unreached_source(error: str) -> str | None:
    """What a failed task's error line (``workers.errors.one_line``'s ``"TypeName: message"``)
    says about a search that did not answer: its message (``"cannot reach SearXNG at URL:
    ConnectionError"``), or None when the task failed for another reason.

    Example:
        >>> unreached_source("WebUnreachable: cannot reach Tavily at http://x: ConnectionError")
        'cannot reach Tavily at http://x: ConnectionError'
        >>> unreached_source("ValueError: bad") is None
        True
    """
    kind, sep, message = str(error or "").partition(": ")
    if not sep or kind not in {cls.__name__ for cls in UNREACHED}:
        return None
    return message.removeprefix("web search: ").strip() or kind


def _today() -> str:
    # for a direct caller (a run's task gives CURRENT_AS_OF); state.today_utc's rule, stdlib only
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


_DDL = """
CREATE TABLE IF NOT EXISTS searches (
    query TEXT NOT NULL, as_of TEXT NOT NULL, response TEXT NOT NULL, fetched_at TEXT NOT NULL,
    PRIMARY KEY (query, as_of)
);
CREATE TABLE IF NOT EXISTS pages (
    url TEXT PRIMARY KEY, title TEXT NOT NULL, snippet TEXT NOT NULL, content TEXT NOT NULL,
    fetched_at TEXT NOT NULL
);
"""


_URL_SCHEMA = 1
"""The cache's ``PRAGMA user_version``: 1 since pages are keyed by :func:`page_url` (0: by the
URL as the provider spelled it)."""


def _rekey_pages(con: sqlite3.Connection) -> None:
    """Re-key a cache written before URLs were normalized: its pages under :func:`page_url`
    (the first row of several spellings wins) and its answers' URL lists likewise, so a rerun
    of an older thread finds its pages and cites each once. Done once (``user_version``)."""
    if con.execute("PRAGMA user_version").fetchone()[0] >= _URL_SCHEMA:
        return  # re-keyed already: no write lock taken
    con.execute("BEGIN IMMEDIATE")  # one process re-keys; another waits, then sees version 1
    if con.execute("PRAGMA user_version").fetchone()[0] >= _URL_SCHEMA:
        return
    rows = con.execute("SELECT url, title, snippet, content, fetched_at FROM pages "
                       "ORDER BY rowid").fetchall()
    con.execute("DELETE FROM pages")
    con.executemany("INSERT OR IGNORE INTO pages VALUES (?, ?, ?, ?, ?)",
                    [(key, *rest) for url, *rest in rows if (key := page_url(url))])
    for query, as_of, response in con.execute("SELECT query, as_of, response FROM searches"
                                              ).fetchall():
        urls = list(dict.fromkeys(key for url in json.loads(response) if (key := page_url(url))))
        con.execute("UPDATE searches SET response = ? WHERE query = ? AND as_of = ?",
                    (json.dumps(urls), query, as_of))
    con.execute(f"PRAGMA user_version = {_URL_SCHEMA}")


@dataclass(frozen=True)
class _Page:
    url: str
    title: str
    snippet: str
    content: str

    def passages(self) -> list[str]:
        """``[snippet, chunk 1, chunk 2, ...]``: the texts of refs ``#0``, ``#1``, ..."""
        chunks = chunk_text(self.content) if self.content.strip() != self.snippet.strip() else []
        return [self.snippet, *chunks]


class WebSource:
    """A :class:`~workers.sources.base.Source` over web search, cached in the data dir.

    Args:
        data_dir: where ``web.sqlite`` lives (created if missing).
        search_fn: the HTTP search (:func:`tavily_search`,
            :func:`workers.sources.searxng.searxng_search`); tests pass their own.
        description: one line for the tools and the run summary.
        provider: who answers, as an error names it (``"Tavily"``, ``"SearXNG"``).
    """

    def __init__(self, data_dir: Path, search_fn: SearchFn,
                 description: str = "web search (Tavily)", provider: str = "Tavily") -> None:
        self._path = Path(data_dir).expanduser() / WEB_CACHE
        self._path.parent.mkdir(parents=True, exist_ok=True)
        self._search_fn = search_fn
        self.description = description
        self.provider = provider
        self._lock = KeyedLocks()  # one per (query, as_of): one request per question
        refuse_foreign(self._path, ("searches", "pages"), "web search record")
        with self._db() as con:
            con.executescript(_DDL)
        with self._db() as con:
            _rekey_pages(con)

    def _db(self) -> AbstractContextManager[sqlite3.Connection]:
        return sqlite_transaction(self._path, "web search record")

    # -- the Source protocol ---------------------------------------------------------------

    def search(self, query: str, k: int = 5, as_of: str | None = None, *,
               focus: str | None = None) -> list[Passage]:
        """The top ``k`` web results for ``query`` as passages (their snippets, ref ``<url>#0``).

        ``as_of`` (default: the current task's, else today UTC) is part of the cache key: the
        same query on the same date is answered from the cache, never asked twice. ``focus``
        is ignored: the web search engine ranks the whole query.

        Raises:
            WebSearchError, TimeoutError, ConnectionError: the search failed (nothing cached).
        """
        query = " ".join(str(query).split())
        if not query or k < 1:
            return []
        as_of = as_of or CURRENT_AS_OF.get() or _today()
        key = (query, as_of)
        with self._lock(key):
            with self._db() as con:
                row = con.execute("SELECT response FROM searches WHERE query = ? AND as_of = ?",
                                  key).fetchone()
            if row is not None:
                urls = json.loads(row[0])
            else:
                urls = self._fetch(query, as_of)
        out = []
        for rank, url in enumerate(urls[:k]):
            page = self._page(url)
            if page is not None:
                out.append(self._passage(page, 0, score=float(len(urls) - rank)))
        return out

    def passage(self, ref: str) -> Passage | None:
        """The passage a web ref names (``<url>#n``), from the cache; None when unknown."""
        split = Passage.split_ref(ref)
        if split is None or not split[1].isdigit():
            return None
        page = self._page(split[0])
        if page is None or int(split[1]) >= len(page.passages()):
            return None
        return self._passage(page, int(split[1]))

    def read(self, ref_or_doc_id: str, max_chars: int = 6000) -> Document | None:
        """A fetched page (a URL, or a ref of one of its passages), from the cache."""
        key = str(ref_or_doc_id).strip()
        page = self._page(key)
        if page is None and (split := Passage.split_ref(key)):
            page = self._page(split[0])
        if page is None:
            return None
        text = page.content or page.snippet
        if len(text) > max_chars:
            text = text[:max_chars].rstrip() + "\n\n[…]"
        return Document(page.url, page.title, page.url, text)

    # -- cache -----------------------------------------------------------------------------

    def _fetch(self, query: str, as_of: str) -> list[str]:
        """Ask the search service, and cache its usable results (shape checked, every size
        bounded: :func:`workers.sources.web_answer.answer_results`) with the answer that lists
        them, in one transaction; their URLs, in its order.

        Raises:
            WebSearchError: the answer is of another shape (nothing cached: asked again later).
        """
        answer = self._search_fn(query, MAX_WEB_RESULTS)
        try:
            results = answer_results(answer, MAX_WEB_RESULTS)
        except UnusableAnswer as exc:  # named as a search that failed; the agents carry on
            raise WebSearchError(f"web search: {self.provider} sent an answer the app "
                                 f"cannot use: {exc}") from None
        now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        pages = [(r.url, r.title, r.snippet, r.content, now) for r in results]
        with self._db() as con:  # one transaction: the pages and the answer that lists them
            con.executemany("INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?, ?)", pages)
            con.execute("INSERT OR REPLACE INTO searches VALUES (?, ?, ?, ?)",
                        (query, as_of, json.dumps([r.url for r in results]), now))
        return [r.url for r in results]

    def _page(self, url: str) -> _Page | None:
        key = page_url(url)  # a ref written with another spelling of the URL still resolves
        if key is None:
            return None
        with self._db() as con:
            row = con.execute("SELECT url, title, snippet, content FROM pages WHERE url = ?",
                              (key,)).fetchone()
        if row is None:
            return None
        url, title, snippet, content = row  # an older cache's page is cut as a new one is
        return _Page(url, clip(title, MAX_TITLE_CHARS), clip(snippet, MAX_SNIPPET_CHARS),
                     clip(content, MAX_PAGE_CHARS))

    @staticmethod
    def _passage(page: _Page, seq: int, score: float = 0.0) -> Passage:
        return Passage(Passage.make_ref(page.url, seq), page.url, page.title, page.url,
                       page.passages()[seq], score)
