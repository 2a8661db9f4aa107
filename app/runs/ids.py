"""Names derived from a topic: the default ``thread_id`` and the report's file name stem.

Both are deterministic, so running the same command again lands on the same thread (and resumes
it if it did not finish) and rewrites the same report file.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata

from app.research.text import utf8_problem

__all__ = ["INVISIBLE", "MAX_THREAD_ID_CHARS", "ascii_letters", "check_thread_id",
           "default_thread_id", "fresh_thread_id", "legacy_thread_id", "sha8", "topic_key",
           "topic_slug", "visible_topic"]

MAX_THREAD_ID_CHARS = 200

_NOT_DECOMPOSED = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                                 "ß": "ss", "ẞ": "SS", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
                                 "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i", "ħ": "h",
                                 "Ħ": "H"})
"""Latin letters that Unicode does not decompose into a base letter and a mark (NFKD leaves
``ø`` whole): their usual ASCII spelling."""


INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
"""Characters a topic can hold that print as nothing: the zero-width space, non-joiner and
joiner, the word joiner, the zero-width no-break space (a BOM) and the soft hyphen. A topic
pasted from a web page or a word processor brings them (left in, "retry\\u200b policy nodes"
started a thread of its own beside the unfinished "retry policy nodes", with no note, though the
two print alike)."""

_DROP_INVISIBLE = str.maketrans("", "", INVISIBLE)


def visible_topic(topic: str) -> str:
    """``topic`` as it prints: in Unicode's composed form (NFC), without the :data:`INVISIBLE`
    characters, its white space runs made one space (the topic a CLI run takes, so that its
    thread id, report and rows are of what the user sees). "Café" pasted from macOS is "Cafe"
    and a combining accent (NFD): it started a thread of its own beside the typed "Café"'s,
    which prints alike.

    Example:
        >>> visible_topic("retry\\u200b  policy\\u00ad nodes ")
        'retry policy nodes'
        >>> visible_topic("Cafe\\u0301 census") == "Caf\\u00e9 census"
        True
    """
    return " ".join(unicodedata.normalize("NFC", topic.translate(_DROP_INVISIBLE)).split())


def ascii_letters(text: str) -> str:
    """``text`` with each accented Latin letter spelled by its base letter: NFKD (``é`` is
    ``e`` and a combining acute; ``ﬁ`` is ``fi``), the combining marks dropped, and the few
    Latin letters NFKD leaves whole (``ø``, ``æ``, ``ß``, ``ł``...) spelled in ASCII. ASCII text
    is returned unchanged; letters of other scripts are kept as they are; the :data:`INVISIBLE`
    characters are dropped ("check\\u00adpointer" is one word, as it prints).

    Example:
        >>> ascii_letters("Café Zürich, Øresund, Straße")
        'Cafe Zurich, Oresund, Strasse'
    """
    if text.isascii():
        return text
    text = text.translate(_DROP_INVISIBLE)
    decomposed = unicodedata.normalize("NFKD", text.translate(_NOT_DECOMPOSED))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_SPACE_BY_A_MARK = re.compile(r" (?=[^\w\s])|(?<=[^\w\s]) ")
"""A space before or after a character that is neither a word's nor a space (``?``, ``,``,
``+``): spacing that no word owns."""


def topic_key(topic: str) -> str:
    """What two topics (or two sub-questions) share when they differ only in case, accents,
    white space or :data:`INVISIBLE` characters: the topic's :func:`ascii_letters` (which drops
    the last), case-folded, its white space runs made one space and the spaces beside a mark
    dropped ("relay ?" is "relay?": a planner's "What is the glimmer relay ?" was once
    asked beside "What is the glimmer relay?"). Two such topics name two threads (the id hashes
    the topic as written); a run of one names the other's unfinished thread
    (:func:`app.runs.run.run_research`'s notes).

    Example:
        >>> topic_key(" Café  RELAY ") == topic_key("cafe re\\u200blay")
        True
        >>> topic_key("What is the relay ?"), topic_key("What is C++?") == topic_key("What is C#?")
        ('what is the relay?', False)
    """
    return _SPACE_BY_A_MARK.sub("", " ".join(ascii_letters(topic).casefold().split()))


def question_key(question: str) -> str:
    """What two sub-questions of one plan share when they differ only in case, white space,
    :data:`INVISIBLE` characters or their closing mark (NFKC: a full-width "？" is "?";
    case-folded, white space runs made one space, the spaces beside a mark dropped, as
    :func:`topic_key` does; "What is Send" asks what "What is Send?" asks, trial 67, F3),
    accents kept: "año" (a year) and "ano" are two words, and a plan asking both asks two
    questions.

    Example:
        >>> question_key("What is the  Relay ?") == question_key("what is the relay")
        True
        >>> question_key("What is Send\uff1f") == question_key("What is Send")
        True
        >>> question_key("¿Qué es un año?") == question_key("¿Qué es un ano?")
        False
    """
    shown = "".join(ch for ch in unicodedata.normalize("NFKC", question) if ch not in INVISIBLE)
    return _SPACE_BY_A_MARK.sub("", " ".join(shown.casefold().split())).rstrip("?.!")


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
    """``<slug>-<as_of>-<hash8>``: lowercase ``[a-z0-9]`` runs of the topic's
    :func:`ascii_letters` (at most ``max_chars``: "Café" is ``cafe``, not ``caf``), the date,
    and 8 hex digits of the topic's sha256 (as written) so that two topics with the same slug
    stay apart. Safe as a file name and as a ``thread_id``: no separators, no dot. An ASCII
    topic's slug is what it always was.

    Example:
        >>> topic_slug("../../etc/passwd", "2026-11-30")[:22]
        'etc-passwd-2026-11-30-'
        >>> topic_slug("Café", "2026-11-30")[:16]
        'cafe-2026-11-30-'
        >>> topic_slug("日本語", "2026-11-30").startswith("topic-2026-11-30-")
        True
    """
    return _slug_id(ascii_letters(topic), topic, as_of, max_chars)


def _slug_id(spelled: str, topic: str, as_of: str, max_chars: int) -> str:
    slug = "-".join(re.findall(r"[a-z0-9]+", spelled.lower()))[:max_chars].strip("-") or "topic"
    return f"{slug}-{as_of}-{sha8(topic)}"


def default_thread_id(topic: str, as_of: str) -> str:
    """The default ``thread_id`` of a run: derived from the topic and ``as_of`` only."""
    return topic_slug(topic, as_of, max_chars=40)


def legacy_thread_id(topic: str, as_of: str) -> str | None:
    """The default ``thread_id`` an earlier version gave ``topic``, when it differs from
    :func:`default_thread_id`: its slug dropped accented letters ("Café" was ``caf``). A
    thread started then keeps its id (:func:`app.runs.threads.run_thread_id` finds it). None
    for a topic whose id did not change (every ASCII topic).

    Example:
        >>> legacy_thread_id("Café", "2026-11-30")[:15]
        'caf-2026-11-30-'
        >>> legacy_thread_id("Cafe", "2026-11-30") is None
        True
    """
    old = _slug_id(topic, topic, as_of, 40)
    return None if old == default_thread_id(topic, as_of) else old


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
