"""LangSmith tracing switched on with no reachable endpoint costs one line, not half a minute.

Before the fix the LangSmith client retried every upload against the dead endpoint and, at exit,
waited for its queue: about 30 s after the summary and 11 KB of connection errors on stderr."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC, run_cli

EXIT_OVERHEAD_BOUND = 20.0
"""Seconds allowed outside the run itself (interpreter start, imports, exit). A dead endpoint
added about 30 s here; a loaded 2-core machine needs well under 10."""


def _closed_port() -> int:
    with socket.socket() as s:  # bind port 0, note the port, close: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tracing_to_a_closed_port_says_one_line_and_does_not_wait(tmp_path: Path,
                                                                  small_corpus: Path) -> None:
    endpoint = f"http://127.0.0.1:{_closed_port()}"
    env = {"LANGSMITH_TRACING": "true", "LANGSMITH_ENDPOINT": endpoint,
           "LANGSMITH_API_KEY": "lsv2-not-a-real-key"}
    started = time.monotonic()
    proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                   "--data-dir", tmp_path / "data", "--json", "--quiet", env=env, timeout=120)
    wall = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)
    assert summary["db_rows"] == summary["expected"]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr[-2000:]
    assert lines[0].startswith("tracing: ") and endpoint in lines[0]
    assert "tracing is off for this run" in lines[0]
    assert wall - summary["elapsed_seconds"] < EXIT_OVERHEAD_BOUND, (wall, summary)


@pytest.mark.parametrize(("info_page", "why"), [
    (None, "answered HTTP 404"),
    ("<html>portal</html>", "answered HTTP 200 without LangSmith's JSON"),
])
def test_tracing_to_an_endpoint_that_is_not_langsmith_says_one_line(
        tmp_path: Path, small_corpus: Path, info_page: str | None, why: str) -> None:
    # trial 8: an endpoint that answers, but not as LangSmith (a typo'd port, a proxy: 404 to
    # GET /info, 501 to the uploads), got no tracing: line, tracing stayed on, and 3 to 14 KB
    # of LangSmith's errors went to stderr; trial 9: the same when /info answers 200 with a
    # page (a captive portal, a server that answers every path)
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    empty = tmp_path / "www"
    empty.mkdir()
    if info_page is not None:
        (empty / "info").write_text(info_page, encoding="utf-8")

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(empty), **kwargs)

        def log_message(self, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        endpoint = f"http://127.0.0.1:{server.server_address[1]}"
        env = {"LANGSMITH_TRACING": "true", "LANGSMITH_ENDPOINT": endpoint,
               "LANGSMITH_API_KEY": "lsv2-not-a-real-key"}
        proc = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                       "--data-dir", tmp_path / "data", "--json", "--quiet", env=env,
                       timeout=120)
    finally:
        server.shutdown()
        server.server_close()
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr.strip().splitlines() == [
        f"tracing: LangSmith endpoint {endpoint} does not answer as a LangSmith API (GET /info "
        f"{why}); tracing is off for this run"], proc.stderr[-2000:]
