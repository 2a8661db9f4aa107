"""LangSmith tracing that cannot hold a run hostage: check the endpoint once, say so once.

With ``LANGSMITH_TRACING=true`` and no reachable endpoint (offline, a typo, a closed port), the
LangSmith client retries every upload in the background and, at exit, waits for its queue to
drain: about 30 s after the summary and some 11 KB of connection errors on stderr. Before a run
the CLI calls :func:`check_tracing`: when tracing is on, it tries a TCP connection to the
endpoint (bounded by ``timeout`` seconds, DNS included); if that fails it turns tracing off for
this process with ``langsmith.configure(enabled=False)`` and returns the one line to print.

Source of the idea: ``langsmith.configure`` (the documented global switch) and
``langsmith.utils.tracing_is_enabled`` / ``get_api_url`` (how LangChain decides to trace and
where to).
"""

from __future__ import annotations

import socket
import threading
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
    outcome: list[str | None] = []

    def connect() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            outcome.append(None)
        except OSError as exc:
            outcome.append(exc.strerror or type(exc).__name__)

    # A thread bounds name resolution too (getaddrinfo ignores the socket timeout).
    probe = threading.Thread(target=connect, daemon=True, name="tracing-probe")
    probe.start()
    probe.join(timeout + 0.5)
    return outcome[0] if outcome else f"no answer within {timeout:g} s"


def check_tracing(timeout: float = 2.0) -> str | None:
    """If LangSmith tracing is on and its endpoint cannot be reached, turn tracing off for this
    process and return the line to print; else return None and change nothing.

    Args:
        timeout: seconds to wait for the endpoint (connection and name resolution).

    Returns:
        e.g. ``"tracing: LangSmith endpoint http://127.0.0.1:9 is unreachable (Connection
        refused); tracing is off for this run"``, or None.
    """
    from langsmith import configure
    from langsmith.utils import get_api_url, tracing_is_enabled

    if tracing_is_enabled() is not True:  # off, or "local" (nothing is sent)
        return None
    try:
        url = get_api_url(None)
    except Exception as exc:  # an empty LANGSMITH_ENDPOINT: the client would fail the same way
        why = str(exc)
        url = "(none)"
    else:
        why = _reachable(url, timeout)
    if why is None:
        return None
    configure(enabled=False)
    from workers.errors import redact  # an endpoint URL may carry a password or a token

    return redact(f"tracing: LangSmith endpoint {url} is unreachable ({why}); tracing is off "
                  "for this run")
