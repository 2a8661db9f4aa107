"""Tavily, the default web search provider: its ``/search`` endpoint through the official
``tavily-python`` client (``TavilyClient``, whose ``api_base_url`` points it at
``TAVILY_BASE_URL``: a self-hosted proxy, or the tests' local server), as a
:data:`workers.sources.web.SearchFn` that :class:`~workers.sources.web.WebSource` caches.

The client reads its answers with ``requests`` through a session of ours: its response hook
reads each body with bounds (:func:`workers.sources.web_requests.read_body`: a 200 MB answer
was read and parsed whole) and keeps the last response, whose status and ``Retry-After`` the
client's own errors drop.
"""

from __future__ import annotations

import time
from typing import Any

from workers.sources.web import SearchFn, WebSearchError, WebTimeout, WebUnreachable
from workers.sources.web_answer import unusable
from workers.sources.web_requests import read_body, refused_redirect

__all__ = ["tavily_search"]


_HINTS = {
    400: "the search request was rejected (HTTP 400)",
    401: "Tavily rejected the key (HTTP 401): check TAVILY_API_KEY",
    403: "Tavily refused the request (HTTP 403): the key's plan may not allow it",
    429: "Tavily rate limit (HTTP 429)",
}


def tavily_search(api_key: str, base_url: str | None = None, timeout: float = 30.0) -> SearchFn:
    """A :data:`SearchFn` over ``tavily-python``'s ``TavilyClient``.

    Args:
        api_key: the Tavily key (kept in memory only; masked out of every error message).
        base_url: the API root (default Tavily's own); e.g. ``http://127.0.0.1:8765``.
        timeout: seconds per request.

    Each call uses a fresh ``requests`` session whose response hook reads the answer with
    bounds (:func:`~workers.sources.web_requests.read_body`: at most ``MAX_ANSWER_BYTES``,
    within ``timeout`` in all) and keeps the last response, so an error raised by the client
    (which drops the headers) still reaches the retry policy with its status and
    ``Retry-After``.
    """
    import requests
    from tavily import TavilyClient
    from tavily import errors as tavily_errors

    def search(query: str, max_results: int) -> dict[str, Any]:
        seen: list[Any] = []
        deadline = time.monotonic() + timeout

        def read(response: Any, *args: Any, **kwargs: Any) -> None:
            seen.append(response)
            read_body(response, "Tavily", deadline)

        session = requests.Session()
        session.hooks["response"].append(read)
        client = TavilyClient(api_key=api_key, api_base_url=base_url or None, session=session,
                              client_source="mapreduce-research-agent")
        try:
            return client.search(query, max_results=max_results, include_raw_content=True,
                                 timeout=timeout)
        except tavily_errors.TimeoutError:
            raise WebTimeout(f"Tavily did not answer within {timeout:g} s") from None
        except requests.exceptions.ConnectionError as exc:
            raise WebUnreachable(f"cannot reach Tavily at {base_url or 'api.tavily.com'}: "
                                  f"{type(exc).__name__}") from None
        except (WebSearchError, WebTimeout, WebUnreachable):  # read_body's, said in its words
            raise
        except Exception as exc:  # noqa: BLE001 - every client error becomes a WebSearchError
            response = seen[-1] if seen else getattr(exc, "response", None)
            status = getattr(response, "status_code", None)
            detail = " ".join(str(exc).split()).replace(api_key, "***")[:200]
            hint = _HINTS.get(status) or (f"Tavily error (HTTP {status})" if status else
                                          "Tavily search failed")
            said = refused_redirect(exc, "Tavily") or (status == 200 and _unreadable(response))
            message = f"web search: {said}" if said else (
                f"web search: {hint}" + (f": {detail}" if detail else ""))
            raise WebSearchError(message, status, response) from None
        finally:
            session.close()

    return search


def _unreadable(response: Any) -> str:
    """Why a 200 answer the Tavily client could not read is no answer: not JSON, or JSON of
    another shape (:func:`~workers.sources.web_answer.answer_results`'s words), so its line says
    what came, not the client's ``'list' object has no attribute 'setdefault'``."""
    try:
        why = unusable(response.json())
    except ValueError:
        why = "it is not JSON"
    except RecursionError:  # valid JSON nested past Python's recursion limit
        why = "its JSON is nested too deep to read"
    return f"Tavily sent an answer the app cannot use: {why}" if why else ""
