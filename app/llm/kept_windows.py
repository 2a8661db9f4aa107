"""A provider's ``Retry-After`` window outlives the process it was sent to.

The gate that holds back every request to a provider until its window is over
(:class:`workers.pacing.RetryAfterGate`) lives in memory: a run killed (or stopped with Ctrl-C)
while it waited out a 40 s window, then continued by the command it printed, sent its first
request 6 s after the 429, inside the window. The README promises that
a ``Retry-After`` "holds back every request to that provider, whatever its role, until the
window is over".

:func:`keep_windows` gives a gate a keeper: each window's end (Unix time) is written to the
data dir's :data:`FILE`, under a digest of the endpoint (its URL may hold a credential: never
written), and the next process that builds a model of that endpoint holds its gate until then,
saying so when a request waits. Best effort: a data dir that cannot be written (read-only, not
made yet, deleted) keeps nothing, and the window still holds in the process that was told it.

Source: RFC 9110 section 10.2.3 (Retry-After); the gate of :mod:`workers.pacing`.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import threading
import time
from pathlib import Path
from typing import Any

from workers.errors import RetryAfterTooLong
from workers.pacing import RetryAfterGate

__all__ = ["FILE", "LONGEST", "keep_windows"]

FILE = "retry-after.json"
"""The data dir's file of windows: ``{endpoint digest: Unix time the window ends}``."""

LONGEST = 600.0
"""The longest window kept and restored, in seconds: ``RESEARCH_RETRY_PATIENCE``'s bound; a
window longer than the patience fails its call, and every call inside it, for this long at most
(a clock set back is no reason to wait an hour)."""


def _key(provider: str, endpoint: str) -> str:
    return hashlib.sha256(f"{provider}\n{endpoint}".encode()).hexdigest()[:16]


_MOST_BYTES = 1 << 16
"""A windows file larger than this is none this module wrote: it is not read."""


def _until(value: Any, now: float) -> float | None:
    """A kept window's end if it is one to wait for: a finite Unix time after ``now`` and at most
    :data:`LONGEST` seconds after it (a clock corrected since, or an edited file, is no reason
    to wait until some date); None otherwise (a number too large for a float included)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        until = float(value)
    except OverflowError:
        return None
    return until if math.isfinite(until) and now < until <= now + LONGEST else None


def _read(path: Path) -> dict[str, float]:
    """The windows kept at ``path`` still to come; {} when there is no such regular file or it
    is not one this module wrote (a damaged file is rewritten on the next window; a FIFO or a
    device in its place is never opened for reading)."""
    try:
        if not path.is_file() or path.stat().st_size > _MOST_BYTES:
            return {}
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    now = time.time()
    windows = {str(key): _until(value, now) for key, value in data.items()}
    return {key: until for key, until in windows.items() if until is not None}


def _write(path: Path, key: str, until: float) -> None:
    """Keep ``until`` for ``key`` in ``path``: read, merged and replaced (a temporary file of
    this process and thread renamed over it) under an exclusive lock of ``path``'s lock file,
    so two processes keeping windows at once lose none; a data dir that cannot be written
    keeps nothing."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(path.with_name(f".{path.name}.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            windows = _read(path)
            windows[key] = max(until, windows.get(key, 0.0))
            temporary.write_text(json.dumps(windows), encoding="utf-8")
            os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


def keep_windows(gate: RetryAfterGate, data_dir: Path | str, provider: str, endpoint: str,
                 label: str, patience: float = LONGEST) -> None:
    """Hold ``gate`` for the window an earlier process kept for this endpoint in ``data_dir``,
    and keep each new window there (:attr:`workers.pacing.RetryAfterGate.keep`).

    Args:
        gate: the endpoint's gate (:func:`workers.pacing.gate_for`).
        data_dir: the run's data dir (``Settings.data_dir``).
        provider: the gate's provider (``"openai"``).
        endpoint: the gate's endpoint (the base URL, or ``""``).
        label: how the wait line names the endpoint (``openai:gpt-4.1-mini``, key-free).
        patience: the longest wait the run allows a Retry-After (``RESEARCH_RETRY_PATIENCE``,
            seconds): a kept window longer than that refuses every request while it lasts
            (:class:`workers.errors.RetryAfterTooLong`, exit 75), never sends one inside it (a
            run given 0 s sent its first request 42 s inside the window, trial 83, F1).

    Example:
        >>> import tempfile
        >>> folder = tempfile.mkdtemp()
        >>> first, second = RetryAfterGate(), RetryAfterGate()
        >>> keep_windows(first, folder, "openai", "http://127.0.0.1:1/v1", "openai:m")
        >>> first.hold(30)  # a Retry-After of 30 s, then the process ends
        >>> keep_windows(second, folder, "openai", "http://127.0.0.1:1/v1", "openai:m")
        >>> 29 < second.remaining() <= 30
        True
    """
    path, key = Path(data_dir) / FILE, _key(provider, endpoint)
    left = _read(path).get(key, 0.0) - time.time()
    if left > 0:  # longer than the run waits: refused, as a Retry-After in the run is
        refused = RetryAfterTooLong(
            f"{label}: the provider asked an earlier run to wait {left:.0f} s more before the "
            f"next request (Retry-After), more than the {patience:g} s this run waits "
            "(RESEARCH_RETRY_PATIENCE); try again later", seconds=left, patience=patience,
        ) if left > patience else None
        gate.restore(min(left, LONGEST), f"for the Retry-After {label} asked for in an "
                     "earlier run (no request to it until then)", refused)
    # a window past LONGEST (one refused: trial 91, F1) is kept to LONGEST, as it is read
    gate.keep = lambda until: _write(path, key, min(until, time.time() + LONGEST))
