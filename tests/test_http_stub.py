"""The stand-in servers count only requests that arrived whole: a client killed between sending
the headers and the body (urllib3 sends them apart; the crash tests SIGKILL clients mid-search)
never reached a real server's handler, and counting it made a resume look like a repeated
search."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

from tests.tavily_server import FakeTavily


def test_a_request_cut_short_is_not_counted():
    with FakeTavily() as server:
        where = urlsplit(server.url)
        with socket.create_connection((where.hostname, where.port)) as sock:
            sock.sendall(b"POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 40\r\n\r\n")  # the headers, then the client dies
        time.sleep(0.3)
        assert server.requests == [] and server.arrivals == []
