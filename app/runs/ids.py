"""Names derived from a topic: the default ``thread_id`` and the report's file name stem.

Both are deterministic, so running the same command again lands on the same thread (and resumes
it if it did not finish) and rewrites the same report file.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time

from app.research.text import utf8_problem

__all__ = ["MAX_THREAD_ID_CHARS", "check_thread_id", "default_thread_id", "fresh_thread_id", "sha8",
           "topic_slug"]

MAX_THREAD_ID_CHARS = 200


def check_thread_id(text: str) -> str:
    """``text`` if it can name a thread, else ValueError with a one-line reason.

    A thread id is a key (of checkpoints, rows, a lock), shown one per line by ``threads``: 1 to
    :data:`MAX_THREAD_ID_CHARS` characters, none of them white space or a control character.
    (An empty ``--thread-id`` used to run on no thread at all and file its rows under ``-``.)

    Example:
        >>> check_thread_id("my-run-2")
        'my-run-2'
        >>> check_thread_id("")
        Traceback (most recent call last):
        ...
        ValueError: a thread id cannot be empty
    """
    if not text:
        raise ValueError("a thread id cannot be empty")
    if len(text) > MAX_THREAD_ID_CHARS:
        raise ValueError(f"a thread id has at most {MAX_THREAD_ID_CHARS} characters, "
                         f"got {len(text)}")
    if where := utf8_problem(text):  # not a control character: a byte that was not UTF-8
        raise ValueError(f"a thread id is not valid UTF-8 ({where}), got {text!r}")
    if any(ch.isspace() or not ch.isprintable() for ch in text):
        raise ValueError(f"a thread id has no spaces or control characters, got {text!r}")
    return text


def sha8(text: str) -> str:
    """The first 8 hex digits of the sha256 of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def topic_slug(topic: str, as_of: str, max_chars: int = 60) -> str:
    """``<slug>-<as_of>-<hash8>``: lowercase ``[a-z0-9]`` runs of the topic (at most
    ``max_chars``), the date, and 8 hex digits of the topic's sha256 so that two topics with the
    same slug stay apart. Safe as a file name and as a ``thread_id``: no separators, no dot.

    Example:
        >>> topic_slug("../../etc/passwd", "2026-11-30")[:22]
        'etc-passwd-2026-11-30-'
        >>> topic_slug("日本語", "2026-11-30").startswith("topic-2026-11-30-")
        True
    """
    slug = "-".join(re.findall(r"[a-z0-9]+", topic.lower()))[:max_chars].strip("-") or "topic"
    return f"{slug}-{as_of}-{sha8(topic)}"


def default_thread_id(topic: str, as_of: str) -> str:
    """The default ``thread_id`` of a run: derived from the topic and ``as_of`` only."""
    return topic_slug(topic, as_of, max_chars=40)


def fresh_thread_id(topic: str, as_of: str) -> str:
    """A new ``thread_id`` for ``--fresh``: the default id, the UTC time to the second, and four
    random hex digits, so two fresh runs of one topic started in the same second still get two
    threads (the caller also skips an id that happens to exist).

    Example:
        >>> a, b = fresh_thread_id("x", "2026-11-30"), fresh_thread_id("x", "2026-11-30")
        >>> a[:22] == b[:22] == "x-2026-11-30-2d711642-" and a != b
        True
    """
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    return f"{default_thread_id(topic, as_of)}-{stamp}-{secrets.token_hex(2)}"
