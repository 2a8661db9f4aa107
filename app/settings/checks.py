"""The checks of single setting values (a setting's ``check=``, :func:`app.settings.spec.setting`)
and the run's ``as_of`` default: plain functions of one value, raising ``ValueError`` with one
line (the settings name the variable or flag in front of it).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

__all__ = [
    "CORPUS_NAME", "as_of_or_today", "check_api_token", "check_as_of", "check_corpora_item",
    "check_crash_at", "check_database_url", "check_fail_worker", "check_given",
    "check_searxng_url", "check_url_credentials", "split_api_token",
]

def check_given(name: str, value: object) -> None:
    """Refuse a value given empty (blank text): the one rule for every flag (``--model ""``,
    ``--as-of "$UNSET"``) and every value a served run's client gives (its input's ``as_of``,
    a context key, a checkpoint id). Given empty, a value silently fell back to its default
    (``as_of: ""`` ran as of today, trial 58, F2); the line names ``name`` as the caller spells
    it (``--as-of`` on the command line, ``as_of`` on LangGraph Server).

    Raises:
        ValueError: ``NAME needs a value, got an empty one``.

    Example:
        >>> check_given("as_of", " ")
        Traceback (most recent call last):
        ...
        ValueError: as_of needs a value, got an empty one
    """
    if isinstance(value, str) and not value.strip():
        raise ValueError(f"{name} needs a value, got an empty one")


def check_as_of(value: object, name: str = "as_of") -> str | None:
    """The one rule of a run's ``as_of``, for the CLI's ``--as-of``, a served run's input (the
    pre-run hook and ``plan``) and a state edit: None (left out) is None, the run's default
    (today, :func:`as_of_or_today`); given empty it is refused (:func:`check_given`), else it is
    :func:`state.normalize_as_of`'s (no such date, a year outside 1970-2100: one line each).

    Raises:
        ValueError: one line: empty (naming ``name``), or no ``YYYY-MM-DD`` date.

    Example:
        >>> check_as_of(" 2026-03-07 ")
        '2026-03-07'
        >>> check_as_of(None) is None
        True
    """
    if value is None:
        return None
    check_given(name, value)
    from state import normalize_as_of  # state imports pydantic: only when asked

    return normalize_as_of(value)  # type: ignore[arg-type]  # a served int: refused in one line


def as_of_or_today(value: str | None) -> str:
    """The run's ``as_of``: ``value`` as :func:`check_as_of` reads it, or today (UTC) when left
    out (None).

    The one owner of the default: the CLI (to derive the thread id) and the ``plan`` node (for a
    LangGraph Server caller that left ``as_of`` out) both call it.

    Raises:
        ValueError: ``value`` is empty, or not a ``YYYY-MM-DD`` date.
    """
    from state import today_utc  # state imports pydantic: only when asked

    return check_as_of(value) or today_utc()


def check_crash_at(value: str) -> None:
    """Refuse a ``--crash-at`` point :func:`app.runs.faults.parse_crash_at` does not know.

    Raises:
        ValueError: one line naming the known points.
    """
    from app.runs.faults import parse_crash_at  # the crash points are the fault module's

    parse_crash_at(value)


def check_database_url(url: str) -> None:
    """Refuse a database URL that is not PostgreSQL's (``postgresql://`` or ``postgres://``),
    or that libpq would read otherwise than it is written: a reserved character in the user or
    password unencoded. libpq takes the user and password up to the first ``@`` before any
    ``/``; so a second ``@`` there, or a ``/`` in the password (libpq then reads no password: the
    host is ``user``, the port the password's start, and the rest lands in the database name
    or the query, which libpq's own errors print), is refused, as is what such a misreading
    leaves: an ``@`` before the query, a port that is no number, a query item without ``=``,
    a ``%`` that starts no ``%XX``. ``?`` and ``#`` in a password are read as written. The one
    check of ``RESEARCH_DATABASE_URL``/``--database-url``, also made by
    :func:`app.storage.open_storage` for callers that skip the settings.

    Raises:
        ValueError: one line naming the expected scheme, or how to write the URL (never
            showing it: it may hold a password).
    """
    # the database is the deployment's, not a run's: declared on Settings, never in the context
    if not url.startswith(("postgresql://", "postgres://")):
        raise ValueError("expected a postgresql:// URL")
    rest = url.partition("://")[2]
    authority, slash, tail = rest.partition("/")
    path, _, query = (tail if slash else "").partition("?")
    hosts = authority.rpartition("@")[2].partition("?")[0]
    misread = (authority.count("@") > 1 or "@" in path
               or any(item and "=" not in item for item in query.split("&"))
               or re.search(r"%(?![0-9A-Fa-f]{2})", rest))
    if misread or ("@" not in authority and ":" in authority and "/" in tail
                   and not all(_port_ok(host) for host in hosts.split(","))):
        raise ValueError("the URL does not read as postgresql://user:password@host:port/db: "
                         "write an '@', '/' or '%' of the user or password percent-encoded "
                         "(%40, %2F, %25)")
    if bad := next((host for host in hosts.split(",") if not _port_ok(host)), None):
        # after the one '@': a host's own port, no part of a password (trial 66, F4: ':abc'
        # and ':99999' were told to percent-encode the password)
        raise ValueError(f"the port of host {bad.rpartition(':')[0] or bad!r} must be a number "
                         "from 1 to 65535")
    _libpq_reads(url)


def _libpq_reads(url: str) -> None:
    """Refuse a URL libpq's own parser refuses (psycopg's ``conninfo_to_dict``: an unclosed
    ``[`` of an IPv6 host, a query parameter libpq does not know), in one line without the URL
    (such a URL passed the check above and ended as ``run failed: ProgrammingError``, exit 1,
    not a bad setting's exit 2)."""
    try:
        from psycopg import ProgrammingError
        from psycopg.conninfo import conninfo_to_dict
    except ImportError:  # pragma: no cover - psycopg is a dependency; a fork may drop it
        return
    try:
        conninfo_to_dict(url)
    except ProgrammingError as exc:
        reason = " ".join(str(exc).replace(url, "URL").split(" in URI", 1)[0].split())
        raise ValueError(f"the URL does not read as a PostgreSQL URL: {reason}") from None


def _port_ok(host: str) -> bool:
    """Whether ``host`` (``name``, ``name:port``, ``[v6]``, ``[v6]:port``) has no port, or a
    port number (1 to 65535: 99999 otherwise failed only when a run connected)."""
    if host.startswith("["):
        host = host.partition("]")[2]
    _, colon, port = host.rpartition(":")
    return (not colon or port == ""
            or (port.isascii() and port.isdigit() and 0 < int(port) < 65536))


def check_searxng_url(url: str) -> None:
    """Refuse a ``SEARXNG_URL`` that is not an http(s) URL with a host, or whose user and
    password would be misread (:func:`check_url_credentials`).

    Raises:
        ValueError: one line with an example.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("SEARXNG_URL: expected the instance's http:// or https:// URL, e.g. "
                         "http://127.0.0.1:8888")
    check_url_credentials(url)


def check_url_credentials(url: str) -> None:
    """Refuse an HTTP URL (``OPENAI_BASE_URL``, ``TAVILY_BASE_URL``, ``SEARXNG_URL``) whose
    user or password holds an unencoded ``/``, ``@``, ``?`` or ``#``: the client would read the
    password's start as the port and print it in its error ("Invalid port: 'pa'"), where the
    masking cannot know it (the sibling of :func:`check_database_url`).

    Raises:
        ValueError: one line on how to write the URL (never showing it: it holds a password).
    """
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - urlsplit checks the port when it is read
    except ValueError:
        misread = True
    else:
        misread = "@" in parts.path or "@" in parts.query or parts.netloc.count("@") > 1
    if misread:
        raise ValueError("the URL does not read as scheme://user:password@host:port/path: write "
                         "an '@', '/', '?' or '#' of the user or password percent-encoded "
                         "(%40, %2F, %3F, %23)")


def split_api_token(item: str) -> tuple[str, str]:
    """A ``RESEARCH_API_TOKENS`` item as ``(TOKEN, USER)``, split at its last ``=``: a token
    may end in base64's ``=`` padding (``openssl rand -base64``), a user name holds none.

    Example:
        >>> split_api_token("c2VjcmV0dG9rZW4==alice")
        ('c2VjcmV0dG9rZW4=', 'alice')
    """
    token, _, user = item.rpartition("=")
    return token.strip(), user.strip()


def check_api_token(item: str) -> None:
    """Refuse a ``RESEARCH_API_TOKENS`` item that is not ``TOKEN=USER`` (TOKEN of 8 characters
    or more, USER not empty: :func:`split_api_token`); the item is never shown, it holds a
    token.

    Raises:
        ValueError: one line.
    """
    token, user = split_api_token(item)
    if "=" not in item or len(token) < 8 or not user:
        # the item itself is not shown: it holds a token
        raise ValueError("RESEARCH_API_TOKENS: expected TOKEN=USER pairs, each TOKEN at least "
                         "8 characters and USER a name after the token's last '='")


def check_fail_worker(spec: str) -> None:
    """Refuse a ``--fail-worker`` spec :func:`app.runs.faults.parse_fail_worker` cannot parse.

    Raises:
        ValueError: one line.
    """
    from app.runs.faults import parse_fail_worker  # the fault module owns the syntax

    parse_fail_worker(spec)


def check_corpora_item(item: str) -> None:
    """Refuse a ``RESEARCH_CORPORA`` item that is not ``NAME=FOLDER`` (NAME: :data:`CORPUS_NAME`).

    Raises:
        ValueError: one line naming the item.
    """
    name, eq, path = item.partition("=")
    if not eq or not CORPUS_NAME.fullmatch(name.strip()) or not path.strip():
        raise ValueError(f"RESEARCH_CORPORA: expected NAME=FOLDER (NAME of letters, digits, - or "
                         f"_), got {item!r}")


def check_language(value: str) -> None:
    """Refuse a ``RESEARCH_CORPUS_LANGUAGE`` that is no language tag (``fr``, ``pt-br``,
    ``de_DE``: :func:`workers.sources.languages.language_tag`), nor ``all`` (every language
    indexed, side by side).

    Raises:
        ValueError: one line naming the value.
    """
    from workers.sources.languages import ALL, language_tag

    if language_tag(value.strip()) is None and value.strip().lower() != ALL:
        raise ValueError(f"expected a language tag such as en, fr, ja or pt-br (a two-letter "
                         f"ISO 639-1 code, perhaps a region), or all, got {value!r}")


CORPUS_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a corpus name in ``RESEARCH_CORPORA`` may be."""


LONGEST_WAIT = 600.0
"""Seconds: the longest a run ever waits before one request (``RESEARCH_RETRY_PATIENCE``'s
bound)."""


def check_request_rate(rate: float) -> None:
    """Refuse a ``RESEARCH_REQUESTS_PER_SECOND`` (0: no rate limit) so low that each model
    request would wait more than :data:`LONGEST_WAIT` for its turn (1 / rate seconds: at
    0.0001, close to 3 hours per request).

    Raises:
        ValueError: one line saying the wait and the smallest rate allowed.

    Example:
        >>> check_request_rate(0.0); check_request_rate(1 / 600)
        >>> try:
        ...     check_request_rate(0.0001)
        ... except ValueError as exc:
        ...     print(str(exc).split(",")[0])
        0.0001 makes each model request wait 10000 s for its turn
    """
    if 0 < rate < 1 / LONGEST_WAIT * (1 - 1e-9):
        raise ValueError(
            f"{rate:g} makes each model request wait {1 / rate:.0f} s for its turn, more than "
            f"the {LONGEST_WAIT:.0f} s a run waits for anything; the lowest rate is "
            f"{1 / LONGEST_WAIT:.3g} (one request per {LONGEST_WAIT / 60:.0f} minutes), 0 for "
            "no limit")
