"""The base of the tests' stand-in HTTP APIs (the fake OpenAI-compatible server in
``tests/llm/fake_openai.py``, the fake Tavily in ``tests/tavily_server.py``, the fake SearXNG in
``tests/searxng_server.py``): the stdlib's
``ThreadingHTTPServer`` on a free port of 127.0.0.1, served from a daemon thread, and a request
handler that reads a body and answers JSON.

Each stand-in keeps its own protocol (what it answers); only the plumbing is here, and for the
search stand-ins the bookkeeping they share (:class:`ScriptedServer`: the recorded requests, the
scripted faults, the per-query counts).
"""

from __future__ import annotations

import functools
import json
import sys
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

Fault = tuple[int, str | None]
"""A scripted error: ``(HTTP status, Retry-After value or None)``."""


class Truncated(bytes):
    """A body :meth:`JsonHandler.send_json` sends under a ``Content-Length`` twice its size,
    then closes the connection: an answer cut mid-way."""


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
        hung up (it timed out) is not an error of the server. A ``bytes`` payload is sent as it
        is (a body that says it is JSON and is not)."""
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        cut = isinstance(payload, Truncated)
        try:
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data) * (2 if cut else 1)))
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = self.close_connection or cut
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_redirect(self, location: str, status: int = 302) -> None:
        """Answer ``status`` with ``Location: location`` and an empty body."""
        try:
            self.send_response(status)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
        except (BrokenPipeError, ConnectionResetError):
            pass


class DripHandler(JsonHandler):
    """A server too slow to trip a read timeout: a 200's headers, then its body a byte every
    0.2 s (150 bytes), to GET and POST alike; with a path starting ``/silent``, nothing at
    all for 30 s. For the whole-request deadline (``workers.deadline``)."""

    protocol_version = "HTTP/1.1"
    gave_up: list[float] = []
    """When a client left before the body ended (``time.monotonic()``), across instances."""

    def _drip(self) -> None:
        if self.command == "POST":
            self.read_body()
        if self.path.startswith("/silent"):
            time.sleep(30)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "150")
        self.end_headers()
        try:
            for _ in range(150):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:  # the client gave up
            DripHandler.gave_up.append(time.monotonic())

    do_GET = do_POST = _drip  # noqa: N815


class HugeHandler(JsonHandler):
    """A 200 whose body is 200 MB of spaces, 1 MB a write, to GET and POST alike; at a path
    holding ``gzip``, a gzip body that decompresses to 100 MB (``badgzip``: a gzip header and
    garbage). For the bounds on what an
    answer's body may hold (``workers.sources.web_requests``, ``app.llm.deadline``)."""

    protocol_version = "HTTP/1.1"

    def _answer(self) -> None:
        if self.command == "POST":
            self.read_body()
        zipped = "gzip" in self.path
        bomb = (b"\x1f\x8b\x08\x00not gzip at all" if "badgzip" in self.path
                else _gzip_bomb() if zipped else b"")
        try:  # the client stops reading (and may close) at any point
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if zipped:
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(bomb)))
            else:
                self.send_header("Content-Length", str(200 * 2**20))
            self.end_headers()
            if zipped:
                self.wfile.write(bomb)
            else:
                for _ in range(200):
                    self.wfile.write(b" " * 2**20)
        except OSError:
            self.close_connection = True

    do_GET = do_POST = _answer  # noqa: N815


@functools.cache
def _gzip_bomb() -> bytes:
    """100 MB of spaces, gzipped (about 100 KB), compressed a MB at a time: no 100 MB buffer."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # 16+: a gzip header
    chunk = b" " * 2**20
    return b"".join([*(packer.compress(chunk) for _ in range(100)), packer.flush()])


class _Server(ThreadingHTTPServer):
    """A ``ThreadingHTTPServer`` for which a client hanging up is no error: socketserver
    printed its traceback to the process's stderr, where a test of the CLI run in process read
    it as the CLI's ("Traceback" in a bad key's one-line error, when the client reset a
    kept-alive connection while the server waited for its next request)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def serve(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """Start ``handler`` on ``127.0.0.1`` on a free port, in a daemon thread; the port is
    ``server.server_address[1]``. Stop it with :func:`stop`."""
    server = _Server(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    # a short poll interval: stop() returns within 50 ms
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


def stop(server: ThreadingHTTPServer) -> None:
    """Stop serving and release the port."""
    server.shutdown()
    server.server_close()


def fault_headers(fault: Fault) -> dict[str, str]:
    """The headers of a scripted error's answer: ``Retry-After`` when the fault has one.

    Example:
        >>> fault_headers((429, "2")), fault_headers((500, None))
        ({'Retry-After': '2'}, {})
    """
    return {"Retry-After": fault[1]} if fault[1] else {}


class ScriptedServer:
    """A stand-in API that records every request and answers scripted faults, in order.

    A subclass builds its request handler, calls :meth:`start` with it, and in the handler calls
    :meth:`record` once per request (which returns the fault to answer, if one is scripted). It
    says which field of a recorded request is its query with :meth:`query_of`. Use it as a
    context manager or call :meth:`close`.

    Attributes:
        url: ``http://127.0.0.1:PORT``, once started.
        requests: every recorded request, in arrival order.
        body_for: ``query -> JSON body`` answered (200) in place of the stand-in's own answer:
            a service that sends another shape (``{"results": "none"}``, a list, null); bytes
            are sent as they are.
        redirect_to: a ``Location`` every search is redirected to (302), e.g. ``file:///x``.
    """

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.body_for: Callable[[str], Any] | None = None
        self.redirect_to: str | None = None
        self._faults: list[Fault] = []
        self._lock = threading.Lock()

    def start(self, handler: type[BaseHTTPRequestHandler]) -> None:
        """Serve ``handler`` (see :func:`serve`) and set :attr:`url`."""
        self._server = serve(handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def record(self, request: dict[str, Any]) -> Fault | None:
        """Record ``request``; return the next scripted fault (taken off the script), or None."""
        with self._lock:
            self.requests.append(request)
            fault = self._faults.pop(0) if self._faults else None
            self.noted(request, fault)
        return fault

    def noted(self, request: dict[str, Any], fault: Fault | None) -> None:
        """Called by :meth:`record` under the lock, for a subclass's own log: nothing here."""

    def query_of(self, request: dict[str, Any]) -> str:
        """The query of a recorded request (for :meth:`counts`)."""
        raise NotImplementedError

    def scripted_answer(self, handler: JsonHandler, query: str) -> bool:
        """Answer :attr:`redirect_to` or :attr:`body_for`, when set, through ``handler``; True
        when it did (the stand-in's own answer is then not sent)."""
        if self.redirect_to is not None:
            handler.send_redirect(self.redirect_to)
            return True
        if self.body_for is not None:
            body = self.body_for(query)
            if isinstance(body, bytes):  # sent as it is: JSON no Python value dumps to
                handler.send_response(200)
                handler.send_header("Content-Type", "application/json")
                handler.send_header("Content-Length", str(len(body)))
                handler.end_headers()
                handler.wfile.write(body)
            else:
                handler.send_json(200, body)
            return True
        return False

    def fail(self, status: int, times: int = 1, retry_after: str | None = None) -> None:
        """Answer the next ``times`` requests with ``status`` (and ``Retry-After``)."""
        with self._lock:
            self._faults += [(status, retry_after)] * times

    def counts(self) -> Counter[str]:
        """How many requests each query got."""
        with self._lock:
            return Counter(self.query_of(r) for r in self.requests)

    def close(self) -> None:
        """Stop serving and release the port."""
        stop(self._server)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
