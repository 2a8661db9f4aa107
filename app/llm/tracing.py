"""LangSmith tracing that cannot hold a run hostage: check the endpoint once, say so once.

With ``LANGSMITH_TRACING=true`` and no reachable endpoint (offline, a typo, a closed port), the
LangSmith client retries every upload in the background and, at exit, waits for its queue to
drain: about 30 s after the summary and some 11 KB of connection errors on stderr. Before a run
the CLI calls :func:`check_tracing`: when tracing is on, it tries a TCP connection to the
endpoint (bounded by ``timeout`` seconds, DNS included), then ``GET /info`` (an endpoint that
answers but is not LangSmith floods stderr the same way); if either fails it turns tracing off
for this process with ``langsmith.configure(enabled=False)`` and returns the one line to print.

Source of the idea: ``langsmith.configure`` (the documented global switch) and
``langsmith.utils.tracing_is_enabled`` / ``get_api_url`` (how LangChain decides to trace and
where to).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from urllib.parse import urlsplit

__all__ = ["check_tracing"]


def _reachable(url: str, timeout: float) -> str | None:
    """None when a TCP connection to ``url``'s host and port opens within ``timeout`` seconds,
    else why not (one short phrase)."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        return "it is not a URL"
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return "its port is not a number"

    def connect() -> str | None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError as exc:
            return exc.strerror or type(exc).__name__
        return None

    # A thread bounds name resolution too (getaddrinfo ignores the socket timeout).
    return _within(timeout, connect, "tracing-probe", f"no answer within {timeout:g} s")


def _answers_info(url: str, timeout: float, key: str | None = None) -> str | None:
    """None when ``GET url/info`` (what the LangSmith client asks first, with the API ``key``)
    answers 2xx with a JSON object within ``timeout`` seconds, else why not: an endpoint that
    answers, but not as LangSmith (a typo'd port, a proxy: 404; a captive portal or a server
    that answers every path with a page: 200 and HTML), made the client print its errors for
    every upload (3 to 14 KB of them per run)."""
    import json
    import urllib.error
    import urllib.request


    def get() -> str | None:
        try:
            headers = {"Accept": "application/json", **({"x-api-key": key} if key else {})}
            request = urllib.request.Request(url.rstrip("/") + "/info", headers=headers)
            with urllib.request.urlopen(request, timeout=timeout) as response:
                body = response.read(1 << 16)
            try:
                info = json.loads(body)
            except ValueError:
                info = None
            return (None if isinstance(info, dict) else
                    f"GET /info answered HTTP {response.status} without LangSmith's JSON")
        except urllib.error.HTTPError as exc:
            return f"GET /info answered HTTP {exc.code}"
        except (OSError, ValueError) as exc:
            return f"GET /info failed: {getattr(exc, 'reason', None) or exc}"

    return _within(timeout, get, "tracing-info", f"no answer to GET /info within {timeout:g} s")


def _within(timeout: float, probe: Callable[[], str | None], name: str,
            late: str) -> str | None:
    """What ``probe`` returns (None: the endpoint answered; else why not), run in a daemon
    thread named ``name`` and waited for ``timeout`` seconds and half a second more; ``late``
    when it has not returned by then, or raised. The thread is left to end on its own: a
    socket's timeout does not bound name resolution, and a run must not wait for it."""
    outcome: list[str | None] = []
    thread = threading.Thread(target=lambda: outcome.append(probe()), daemon=True, name=name)
    thread.start()
    thread.join(timeout + 0.5)
    return outcome[0] if outcome else late


def check_tracing(timeout: float = 2.0) -> str | None:
    """If LangSmith tracing is on and its endpoint cannot be reached, or does not answer
    ``GET /info`` as LangSmith does, turn tracing off for this process and return the line to
    print; else return None and change nothing.

    Args:
        timeout: seconds to wait for the endpoint (connection and name resolution).

    Returns:
        e.g. ``"tracing: LangSmith endpoint http://127.0.0.1:9 is unreachable (Connection
        refused); tracing is off for this run"``, or None.
    """
    from langsmith import configure
    from langsmith.utils import get_api_key, get_api_url, tracing_is_enabled

    if tracing_is_enabled() is not True:  # off, or "local" (nothing is sent)
        return None
    try:
        url = get_api_url(None)
    except Exception as exc:  # an empty LANGSMITH_ENDPOINT: the client would fail the same way
        why = str(exc)
        url = "(none)"
    else:
        why = _reachable(url, timeout)
    state = "is unreachable"
    if why is None:
        why = _answers_info(url, timeout, get_api_key(None))
        state = "does not answer as a LangSmith API"
    if why is None:
        return None
    configure(enabled=False)
    from workers.errors import redact  # an endpoint URL may carry a password or a token

    return redact(f"tracing: LangSmith endpoint {url} {state} ({why}); tracing is off for "
                  "this run")
