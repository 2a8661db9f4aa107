"""The stand-in servers count only requests that arrived whole: a client killed between sending
the headers and the body (urllib3 sends them apart; the crash tests SIGKILL clients mid-search)
never reached a real server's handler, and counting it made a resume look like a repeated
search. And they say nothing when a client hangs up: socketserver printed the traceback of a
reset kept-alive connection to the process's stderr, and a test running the CLI in process read
it as the CLI's own ("Traceback" beside a bad key's one-line error; seen once in CI)."""

from __future__ import annotations

import contextlib
import socket
import struct
import time
from urllib.parse import urlsplit

from tests.http_stub import JsonHandler, serve, stop
from tests.tavily_server import FakeTavily


def test_a_request_cut_short_is_not_counted():
    with FakeTavily() as server:
        where = urlsplit(server.url)
        with socket.create_connection((where.hostname, where.port)) as sock:
            sock.sendall(b"POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 40\r\n\r\n")  # the headers, then the client dies
        time.sleep(0.3)
        assert server.requests == [] and server.arrivals == []


class _Ok(JsonHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.send_json(200, {"ok": True})


def test_a_client_resetting_a_kept_alive_connection_prints_nothing(capsys) -> None:
    server = serve(_Ok)
    try:
        with contextlib.closing(socket.create_connection(server.server_address)) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert b"200" in sock.recv(1000)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(0.3)  # the server's thread reads the reset
    finally:
        stop(server)
    assert "Traceback" not in capsys.readouterr().err
