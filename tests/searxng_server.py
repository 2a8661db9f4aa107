"""A SearXNG-compatible JSON API over real HTTP on 127.0.0.1, counting every request.

``FakeSearxng`` answers ``GET /search?q=...&format=json`` the way a SearXNG instance does: the
results (``{"query", "number_of_results", "results": [{"url", "title", "content", "engine",
"score"}], "answers", "suggestions", "unresponsive_engines"}``) are :func:`tests.tavily_server.
pages_for`'s pages, so a test can predict what a report cites. With ``json_allowed=False`` it
answers what an instance without ``json`` in ``search.formats`` answers: 403 and an HTML page.
``fail(status, times=, retry_after=)`` scripts errors. The plumbing is ``tests/http_stub.py``'s.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.http_stub import JsonHandler, serve, stop
from tests.tavily_server import pages_for

FORBIDDEN_HTML = (b"<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1><p>You don't "
                  b"have the permission to access the requested resource.</p>")
"""What SearXNG (Flask's ``abort(403)``) answers for a format not in ``search.formats``."""


class FakeSearxng:
    """The server. Use as a context manager or call :meth:`close`.

    Attributes:
        url: ``http://127.0.0.1:PORT`` (what ``SEARXNG_URL`` is set to).
        requests: the query parameters (``{name: value}``) of every ``/search`` request.
        json_allowed: False: every JSON request gets 403 (``search.formats`` without ``json``).
    """

    def __init__(self, json_allowed: bool = True) -> None:
        self.requests: list[dict[str, str]] = []
        self.json_allowed = json_allowed
        self._faults: list[tuple[int, str | None]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(JsonHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server API
                parts = urlsplit(self.path)
                params = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                if parts.path != "/search":
                    return self.send_json(404, {"error": "not found"})
                with server._lock:
                    server.requests.append(params)
                    fault = server._faults.pop(0) if server._faults else None
                if params.get("format") == "json" and not server.json_allowed:
                    return self._send_html(403, FORBIDDEN_HTML)
                if fault is not None:
                    status, retry_after = fault
                    headers = {"Retry-After": retry_after} if retry_after else {}
                    return self.send_json(status, {"error": f"scripted {status}"}, headers)
                query = params.get("q", "")
                results = [{"url": p["url"], "title": p["title"], "content": p["content"],
                            "engine": "duckduckgo", "engines": ["duckduckgo"],
                            "score": p["score"], "category": "general"}
                           for p in pages_for(query)]
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

        self._server = serve(Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def fail(self, status: int, times: int = 1, retry_after: str | None = None) -> None:
        """Answer the next ``times`` searches with ``status`` (and ``Retry-After``)."""
        with self._lock:
            self._faults += [(status, retry_after)] * times

    def counts(self) -> Counter[str]:
        """How many requests each query got."""
        with self._lock:
            return Counter(r.get("q", "") for r in self.requests)

    def close(self) -> None:
        """Stop serving and release the port."""
        stop(self._server)

    def __enter__(self) -> FakeSearxng:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def searxng_env(server: FakeSearxng) -> dict[str, Any]:
    """The environment of a run that searches ``server`` (and has no Tavily key)."""
    return {"RESEARCH_SEARCH_PROVIDER": "searxng", "SEARXNG_URL": server.url,
            "TAVILY_API_KEY": ""}
