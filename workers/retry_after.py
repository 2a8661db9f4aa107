"""The wait a server asks for before the next request: its ``Retry-After`` header (seconds or
an HTTP date) or OpenAI's ``retry-after-ms``, read from the HTTP error a request raised
(:func:`retry_after`). :mod:`workers.pacing` holds requests back by it."""

from __future__ import annotations

import email.utils
import math
import time
from typing import Any

from workers.errors import causes

__all__ = ["LONGEST_ASKED", "retry_after"]

LONGEST_ASKED = 86_400.0
"""The longest wait a header is read as asking for, in seconds (a day): ``Retry-After: 1e309``
was "asked to wait inf s" (trial 91, F6), and a window without end held every later request."""

_RETRY_AFTER_HEADERS = (("retry-after-ms", 1000.0), ("retry-after", 1.0))


def _headers(exc: BaseException) -> Any:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    return headers if headers is not None else getattr(exc, "headers", None)


def retry_after(exc: BaseException, now: float | None = None) -> float | None:
    """The seconds the server asked to wait before the next request, or None when it did not.

    Reads the ``retry-after-ms`` header (milliseconds, as OpenAI sends it) and ``Retry-After``
    (seconds, or an HTTP date) from the response an HTTP error carries (``exc.response.headers``:
    ``openai.APIStatusError``, ``httpx.HTTPStatusError``, ``requests.HTTPError``), following
    ``__cause__``/``__context__`` to a wrapped one. A date in the past gives 0; a wait past
    :data:`LONGEST_ASKED` (an infinite one included) gives that.

    Args:
        exc: any exception.
        now: the current Unix time for an HTTP-date header (default ``time.time()``).

    Example:
        >>> import httpx
        >>> response = httpx.Response(429, headers={"Retry-After": "15"},
        ...                           request=httpx.Request("GET", "http://x"))
        >>> retry_after(httpx.HTTPStatusError("429", request=response.request, response=response))
        15.0
    """
    for current in causes(exc):
        headers = _headers(current)
        if headers is not None:
            for name, unit in _RETRY_AFTER_HEADERS:
                try:
                    raw = headers.get(name)
                except Exception:  # noqa: BLE001 - an odd headers object: no header
                    raw = None
                if raw is None:
                    continue
                raw = str(raw).strip()
                try:
                    value = float(raw) / unit
                except ValueError:
                    if unit != 1.0:
                        continue
                    try:
                        when = email.utils.parsedate_to_datetime(raw).timestamp()
                    except (TypeError, ValueError, IndexError):
                        continue
                    value = when - (time.time() if now is None else now)
                if math.isfinite(value) or value > 0:
                    return min(max(0.0, value), LONGEST_ASKED)
    return None
