"""Self-hosted web search: a SearXNG instance's JSON API, no key, behind the same cache as Tavily.

:func:`searxng_search` is a :data:`workers.sources.web.SearchFn`: ``GET {base}/search?q=...&
format=json`` through ``requests``, its answer reshaped into the Tavily answer
:class:`~workers.sources.web.WebSource` stores (``{"results": [{"url", "title", "content"}]}``).
So a SearXNG search is kept in the data dir's ``web.sqlite`` exactly like a Tavily one, under
``(query, as_of)``, and never asked twice (whichever provider answered it first: the cache is
shared, so switching providers mid-thread repeats no search).

SearXNG gives a snippet per result, no page text: each page has one passage, ``<url>#0``.

Errors keep the meaning :mod:`workers.errors` gives an HTTP status: a 403 is fatal (an instance
answers it when ``json`` is not in its ``search.formats``; the message says so), a 429 (its
limiter) and 5xx are retried, with the ``Retry-After`` on the response for the pacing gate. An
answer with no results while engines failed (``unresponsive_engines``) is a transient
``ConnectionError``, not an empty answer to cache for good.

Source: SearXNG's "Search API" (docs.searxng.org/dev/search_api.html) and its ``search.formats``
setting (docs.searxng.org/admin/settings/settings_search.html; searxng/searxng#3749).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from workers.sources.web import (
    SearchFn,
    WebSearchError,
    WebTimeout,
    WebUnreachable,
)
from workers.sources.web_answer import unusable
from workers.sources.web_requests import read_body, refused_redirect

__all__ = ["searxng_search"]

_HEADERS = {
    "Accept": "application/json",
    "Accept-Language": "en",  # SearXNG's bot detection refuses a request without one
    "User-Agent": "mapreduce-research-agent",
}


def _hint(status: int, where: str) -> str:
    if status == 403:
        return (f"SearXNG at {where} refused the JSON API (HTTP 403): add json to search.formats "
                "in the instance's settings.yml (docs/deploy.md)")
    if status == 429:
        return f"SearXNG at {where} is rate-limiting (HTTP 429): its limiter (server.limiter)"
    if status == 404:
        return f"SearXNG at {where} has no /search (HTTP 404): check SEARXNG_URL"
    return f"SearXNG at {where} answered HTTP {status}"


def _where(base_url: str) -> str:
    """The instance as messages name it: scheme, host and path, never a userinfo part."""
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path.rstrip('/')}"


def _results(answer: dict[str, Any], where: str) -> dict[str, Any]:
    """The answer in Tavily's shape, each result object cut to its ``url``, ``title`` and
    ``content``. What is not a result object is passed on as it is: the web source's one gate
    (:func:`workers.sources.web_answer.answer_results`) names an answer of the wrong shape and
    bounds the rest, for SearXNG as for Tavily (before, ``"results": "none"`` was read as an
    empty answer and cached for good)."""
    results = answer.get("results")
    if results is not None and not isinstance(results, list):
        return {"results": results}
    results = results or []
    if not any(isinstance(item, dict) for item in results) and answer.get(
            "unresponsive_engines"):
        engines = answer["unresponsive_engines"]
        failed = ", ".join(" ".join(str(part) for part in engine)
                           if isinstance(engine, (list, tuple)) else str(engine)
                           for engine in (engines if isinstance(engines, list) else [engines])[:20]
                           )[:200]
        raise WebUnreachable(f"web search: SearXNG at {where} found nothing because its engines "
                             f"did not answer ({failed})")
    return {"results": [{"url": item.get("url"), "title": item.get("title"),
                         "content": item.get("content")} if isinstance(item, dict) else item
                        for item in results]}


def searxng_search(base_url: str, timeout: float = 30.0) -> SearchFn:
    """A :data:`~workers.sources.web.SearchFn` over a SearXNG instance's JSON API.

    Args:
        base_url: the instance's root, e.g. ``http://127.0.0.1:8888`` or
            ``https://host/searxng`` (``/search`` is appended).
        timeout: seconds per request.

    The returned function raises :class:`~workers.sources.web.WebSearchError` (with the HTTP
    status and the response, for ``Retry-After``), ``TimeoutError`` or ``ConnectionError``.
    """
    import requests

    endpoint = base_url.rstrip("/") + "/search"
    where = _where(base_url)

    def search(query: str, max_results: int) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        try:
            response = requests.get(endpoint, params={"q": query, "format": "json"},
                                    headers=_HEADERS, timeout=timeout, stream=True)
        except requests.exceptions.Timeout:
            raise WebTimeout(f"SearXNG at {where} did not answer within {timeout:g} s") from None
        except requests.exceptions.RequestException as exc:
            if said := refused_redirect(exc, f"SearXNG at {where}"):  # it answered: no retry
                raise WebSearchError(f"web search: {said}") from None
            raise WebUnreachable(f"cannot reach SearXNG at {where}: "
                                 f"{type(exc).__name__}") from None
        read_body(response, f"SearXNG at {where}", deadline)
        if response.status_code != 200:
            raise WebSearchError(f"web search: {_hint(response.status_code, where)}",
                                 response.status_code, response)
        try:
            answer = response.json()
        except RecursionError:  # valid JSON nested past Python's recursion limit
            raise WebSearchError(f"web search: SearXNG at {where} sent an answer the app cannot "
                                 "use: its JSON is nested too deep to read", response.status_code
                                 ) from None
        except ValueError:
            raise WebSearchError(f"web search: SearXNG at {where} did not answer JSON: is "
                                 "SEARXNG_URL the instance's root?", response.status_code
                                 ) from None
        if not isinstance(answer, dict):  # JSON, of another shape: said so (the web source's)
            raise WebSearchError(f"web search: SearXNG at {where} sent an answer the app cannot "
                                 f"use: {unusable(answer)}", response.status_code)
        return _results(answer, where)

    return search
