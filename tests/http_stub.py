"""The base of the tests' stand-in HTTP APIs (the fake OpenAI-compatible server in
``tests/llm/fake_openai.py``, the fake Tavily in ``tests/tavily_server.py``, the fake SearXNG in
``tests/searxng_server.py``): the stdlib's
``ThreadingHTTPServer`` on a free port of 127.0.0.1, served from a daemon thread, and a request
handler that reads a body and answers JSON.

Each stand-in keeps its own protocol (what it answers); only the plumbing is here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class JsonHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing (test output stays clean) and answers JSON."""

    def log_message(self, *args: Any) -> None:
        pass

    def read_body(self) -> bytes | None:
        """The request body (``Content-Length`` bytes; ``b""`` without one), or None when the
        client went away before sending all of it (a process killed mid-request): such a
        request never reached a real server's handler, so a stand-in must not count it."""
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if len(body) != length:  # urllib3 sends the headers, then the body: a kill in between
            self.close_connection = True
            return None
        return body

    def send_json(self, status: int, payload: Any,
                  headers: Mapping[str, str] | None = None) -> None:
        """Answer ``status`` with ``payload`` as JSON, plus ``headers``. A client that already
        hung up (it timed out) is not an error of the server."""
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


def serve(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """Start ``handler`` on ``127.0.0.1`` on a free port, in a daemon thread; the port is
    ``server.server_address[1]``. Stop it with :func:`stop`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    # a short poll interval: stop() returns within 50 ms
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


def stop(server: ThreadingHTTPServer) -> None:
    """Stop serving and release the port."""
    server.shutdown()
    server.server_close()
