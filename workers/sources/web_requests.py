"""How the web search providers' HTTP answers are read: with bounds, and redirects named.

:func:`read_body` reads a search service's answer with bounds: at most ``MAX_ANSWER_BYTES``,
within a deadline.

``requests`` reads a whole body before anyone can look at it: a service answering 200 MB held
all of it, then ``json`` parsed it (a run's peak went to 700 MB) before
:mod:`workers.sources.web_answer` cut each result to size; and a request given up on by
:func:`workers.deadline.within` read on to the end on its daemon thread, a dripping service
holding the thread and its socket for as long as it went on. :func:`read_body` reads the
body itself, a socket read at a time (``urllib3``'s ``read1``, decompressed as it comes, so a
gzip bomb is bounded too), and stops past either bound, closing the connection. It acts once
the headers came: a service dripping its headers keeps the thread until the client's per-read
timeout (each header line restarts it), though the run has given up at the deadline.
:func:`refused_redirect` says what happened when ``requests`` would not follow a redirect.

This module imports only the standard library (the response is ``requests``'; ``requests``
is imported when a redirect is judged).
"""

from __future__ import annotations

import io
import time
from typing import Any

from workers.sources.web import WebSearchError, WebTimeout, WebUnreachable

__all__ = ["MAX_ANSWER_BYTES", "read_body", "refused_redirect"]

MAX_ANSWER_BYTES = 32 * 2**20
"""The largest search answer read (32 MB, decompressed): eight results with their pages' text
(Tavily's ``raw_content``, cut to 100,000 characters each once read) take a few MB; three
fields of 10 MB each are still read, and cut where they enter
(:mod:`workers.sources.web_answer`)."""

_CHUNK = 64 * 1024


def read_body(response: Any, who: str, deadline: float,
              limit: int = MAX_ANSWER_BYTES) -> None:
    """Read the body of a streamed ``requests`` response (not read yet) into it, so its
    ``content``, ``text`` and ``json()`` then read from memory.

    Args:
        response: a ``requests.Response`` whose body is unread (``stream=True``, or inside a
            response hook, which runs before ``requests`` reads it).
        who: the service, for the error line ("SearXNG at http://host:8888", "Tavily").
        deadline: ``time.monotonic()`` past which the answer is given up on.
        limit: the most bytes read, once decompressed.

    Raises:
        WebSearchError: the answer is larger than ``limit`` (not retried: the same search would
            get the same answer).
        WebTimeout: the deadline passed before the answer ended (retried, as a silent service).
        WebUnreachable: the connection broke off, or a read timed out, mid-answer (retried).
        WebSearchError: a body that does not decompress (not retried: it would come again).
    """
    chunks: list[bytes] = []
    size = 0
    try:
        while chunk := response.raw.read1(_CHUNK, decode_content=True):
            size += len(chunk)
            if size > limit:
                raise WebSearchError(f"web search: {who} sent an answer larger than "
                                     f"{limit / 2**20:g} MB; it was not read",
                                     response.status_code)
            if time.monotonic() > deadline:
                raise WebTimeout(f"{who} did not finish its answer in time")
            chunks.append(chunk)
    except Exception as exc:  # noqa: BLE001 - ours, or the connection's (urllib3's errors)
        response.close()
        if isinstance(exc, (WebSearchError, WebTimeout)):
            raise
        if type(exc).__name__ == "DecodeError":  # urllib3's: a body that does not decompress
            raise WebSearchError(f"web search: {who} sent an answer that does not decompress "
                                 f"(its {response.headers.get('Content-Encoding', 'encoding')} "
                                 "is broken)", response.status_code) from None
        raise WebUnreachable(f"{who} broke off its answer: {type(exc).__name__}") from None
    response.raw = io.BytesIO(b"".join(chunks))


def refused_redirect(exc: BaseException, who: str) -> str | None:
    """What happened, when ``requests`` would not follow where ``who`` (``"Tavily"``,
    ``"SearXNG at http://host:8888"``) sent the search: a ``file:`` or other non-HTTP URL, or a
    loop; None for any other error. Our own URL is checked before the run, so a URL that cannot
    be asked came in a redirect (SearXNG's line read "cannot reach SearXNG at ...:
    InvalidSchema", of a server that answered)."""
    import requests

    detail = " ".join(str(exc).split())[:200]
    if isinstance(exc, requests.exceptions.TooManyRedirects):
        return f"{who} redirected the search too many times ({detail})"
    if isinstance(exc, (requests.exceptions.InvalidSchema, requests.exceptions.MissingSchema,
                        requests.exceptions.InvalidURL)):
        return f"{who} redirected the search to a URL that is not followed ({detail})"
    return None
