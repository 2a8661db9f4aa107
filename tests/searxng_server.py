"""A SearXNG-compatible JSON API over real HTTP on 127.0.0.1, counting every request.

``FakeSearxng`` answers ``GET /search?q=...&format=json`` the way a SearXNG instance does: the
results (``{"query", "number_of_results", "results": [{"url", "title", "content", "engine",
"score"}], "answers", "suggestions", "unresponsive_engines"}``) are :func:`tests.tavily_server.
pages_for`'s pages, so a test can predict what a report cites. With ``json_allowed=False`` it
answers what an instance without ``json`` in ``search.formats`` answers: 403 and an HTML page.
``fail(status, times=, retry_after=)`` scripts errors. The plumbing is ``tests/http_stub.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.http_stub import JsonHandler, ScriptedServer, fault_headers
from tests.tavily_server import pages_for

FORBIDDEN_HTML = (b"<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1><p>You don't "
                  b"have the permission to access the requested resource.</p>")
"""What SearXNG (Flask's ``abort(403)``) answers for a format not in ``search.formats``."""


class FakeSearxng(ScriptedServer):
    """The server (``fail``, ``counts``, ``close``: :class:`tests.http_stub.ScriptedServer`).

    Attributes:
        url: ``http://127.0.0.1:PORT`` (what ``SEARXNG_URL`` is set to).
        requests: the query parameters (``{name: value}``) of every ``/search`` request.
        json_allowed: False: every JSON request gets 403 (``search.formats`` without ``json``).
        results_for: ``query -> results`` (default :func:`tests.tavily_server.pages_for`'s
            pages); a test sets its own (e.g. one page under several URL spellings).
    """

    def __init__(self, json_allowed: bool = True) -> None:
        super().__init__()
        self.json_allowed = json_allowed
        self.results_for: Callable[[str], list[dict[str, Any]]] = pages_for
        server = self

        class Handler(JsonHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server API
                parts = urlsplit(self.path)
                params = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                if parts.path != "/search":
                    return self.send_json(404, {"error": "not found"})
                fault = server.record(params)
                if params.get("format") == "json" and not server.json_allowed:
                    return self._send_html(403, FORBIDDEN_HTML)
                if fault is not None:
                    return self.send_json(fault[0], {"error": f"scripted {fault[0]}"},
                                          fault_headers(fault))
                query = params.get("q", "")
                if server.scripted_answer(self, query):
                    return None
                results = [{"url": p.get("url"), "title": p.get("title"),
                            "content": p.get("content"), "engine": "duckduckgo",
                            "engines": ["duckduckgo"], "score": p.get("score", 0.5),
                            "category": "general"} if isinstance(p, dict) else p
                           for p in server.results_for(query)]  # what is no object, as it is
                self.send_json(200, {"query": query, "number_of_results": len(results),
                                     "results": results, "answers": [], "corrections": [],
                                     "infoboxes": [], "suggestions": [],
                                     "unresponsive_engines": []})

            def _send_html(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.start(Handler)

    def query_of(self, request: dict[str, Any]) -> str:
        """A search's ``q`` parameter."""
        return request.get("q", "")


def searxng_env(server: FakeSearxng) -> dict[str, Any]:
    """The environment of a run that searches ``server`` (and has no Tavily key)."""
    return {"RESEARCH_SEARCH_PROVIDER": "searxng", "SEARXNG_URL": server.url,
            "TAVILY_API_KEY": ""}
