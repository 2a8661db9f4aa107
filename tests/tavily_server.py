"""A Tavily-compatible search server over real HTTP on 127.0.0.1, counting every request.

``FakeTavily`` is a stdlib ``ThreadingHTTPServer`` (port 0, in a thread: ``tests/http_stub.py``)
answering ``POST /search`` the way Tavily's API does for ``tavily-python``: a ``Bearer`` key
check (401, with the key echoed in the error as a careless server might), then ``{"query",
"results": [{"url", "title", "content", "raw_content", "score"}]}``. The results are made from
the query's words, so every query gets its own pages, deterministically.

``requests`` records each request's JSON body: the tests count them to prove that a search
already answered is never asked again. ``fail(status, times=, retry_after=)`` scripts errors (429
with ``Retry-After``, 500...), ``delay`` makes it slow (timeouts).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from tests.http_stub import Fault, JsonHandler, ScriptedServer, fault_headers

TAVILY_KEY = "tvly-test-LEAKCANARY-52c1e0d9a7"
"""A distinctive fake key: tests grep every output file and stream for it."""


def pages_for(query: str) -> list[dict[str, Any]]:
    """The results the server returns for ``query``: two pages named after its words."""
    words = re.findall(r"[a-z0-9]+", query.lower())
    slug = "-".join(words[:6]) or "empty"
    subject = " ".join(words[-3:]) or "nothing"
    return [
        {
            "url": f"https://example.org/{slug}",
            "title": f"All about {subject}",
            "content": f"A field guide to {subject}: what {subject} is and why it matters.",
            "raw_content": (
                f"# All about {subject}\n\nA field guide to {subject}: what {subject} is and why "
                f"it matters.\n\nThe {subject} is observed every spring by volunteers who record "
                f"each sighting in a shared ledger.\n\nWarning: the {subject} must not be "
                "disturbed during the nesting season."
            ),
            "score": 0.9,
        },
        {
            "url": f"https://news.example.net/{slug}?ref=1",
            "title": f"News: {subject}",
            "content": f"Recent reports on {subject} from the valley observers.",
            "raw_content": "",
            "score": 0.5,
        },
    ]


class FakeTavily(ScriptedServer):
    """The server (``fail``, ``counts``, ``close``: :class:`tests.http_stub.ScriptedServer`).

    Attributes:
        url: ``http://127.0.0.1:PORT`` (what ``TAVILY_BASE_URL`` is set to).
        requests: the JSON bodies of every ``/search`` request, in arrival order.
        arrivals: ``(time.monotonic(), query, scripted status or None)`` of each request, in
            arrival order: when each came, and which got a scripted error.
        expected_key: the only key accepted (``TAVILY_KEY``).
        delay: seconds to wait before answering.
        results_for: ``query -> results`` (default :func:`pages_for`); a test sets its own.
    """

    def __init__(self, expected_key: str = TAVILY_KEY) -> None:
        super().__init__()
        self.expected_key = expected_key
        self.arrivals: list[tuple[float, str, int | None]] = []
        self.delay = 0.0
        self.results_for: Callable[[str], list[dict[str, Any]]] = pages_for
        server = self

        class Handler(JsonHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                raw = self.read_body()
                if raw is None:  # the client was killed mid-request: nothing to count or answer
                    return
                body = json.loads(raw or b"{}")
                fault = server.record(body)
                if server.delay:
                    time.sleep(server.delay)
                if self.path != "/search":
                    return self.send_json(404, {"detail": {"error": "not found"}})
                auth = self.headers.get("Authorization", "")
                if auth != f"Bearer {server.expected_key}":
                    return self.send_json(
                        401, {"detail": {"error": f"Unauthorized: bad key {auth}"}})
                if fault is not None:
                    return self.send_json(fault[0], {"detail": {"error": f"scripted {fault[0]}"}},
                                          fault_headers(fault))
                query = str(body.get("query", ""))
                if server.scripted_answer(self, query):
                    return None
                results = server.results_for(query)[: int(body.get("max_results") or 5)]
                if not body.get("include_raw_content"):
                    results = [{k: v for k, v in r.items() if k != "raw_content"} for r in results]
                self.send_json(200, {"query": query, "results": results, "response_time": 0.01})

        self.start(Handler)

    def noted(self, request: dict[str, Any], fault: Fault | None) -> None:
        """Log the request's arrival (see :attr:`arrivals`)."""
        self.arrivals.append((time.monotonic(), str(request.get("query", "")),
                              fault[0] if fault else None))

    def query_of(self, request: dict[str, Any]) -> str:
        """A search's ``query`` field (``"None"`` when it has none)."""
        return str(request.get("query"))
