"""What the operator's credentials decide: the default model, what ``--web`` needs of the
search provider, and the one redaction of secrets in what the app prints or stores.

Functions of :class:`app.settings.config.Settings` (which lists its secrets,
:meth:`~app.settings.config.Settings.secrets`), kept out of the declaration.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from app.settings.spec import ConfigError

if TYPE_CHECKING:
    from app.settings.config import Settings

__all__ = ["DEFAULT_OPENAI_MODEL", "default_model", "redact", "redact_url", "secrets_of",
           "url_secrets", "web_key"]

DEFAULT_OPENAI_MODEL = "openai:gpt-4.1-mini"


_SECRET_KEY = re.compile(r"password|secret|token", re.IGNORECASE)
"""A URL query key whose value is a secret (``password``, ``sslpassword``, ``api_token``...)."""


def _split_url(url: str) -> tuple[str, str, str, str] | None:
    """``(scheme "://", userinfo, host and the rest of the authority, path query fragment)``,
    the userinfo read as libpq reads it: up to an ``@`` before the first ``/``, so a password
    may hold ``?`` or ``#`` (an RFC 3986 reading ended the authority there and left the password
    in view), and up to the *last* such ``@`` (a password may hold one). A password holding a
    ``/`` (libpq cannot read it; the settings refuse it) ends at an ``@`` before the query.
    None: not a URL."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return None
    slash = rest.find("/")
    slash = len(rest) if slash < 0 else slash
    at = rest.rfind("@", 0, slash)
    if at < 0:
        path_end = min((i for i in (rest.find(c, slash) for c in "?#") if i >= 0),
                       default=len(rest))
        at = rest.rfind("@", slash, path_end)
    after = rest[at + 1:]
    end = min((i for i in (after.find(c) for c in "/?#") if i >= 0), default=len(after))
    return scheme + sep, rest[:at + 1], after[:end], after[end:]


def url_secrets(value: str) -> list[str]:
    """The secrets of a URL such as ``postgresql://user:password@host/db?sslpassword=x``: the
    userinfo's password and the value of each query key naming a password, secret or token
    (empty: none, or not a URL).

    Example:
        >>> url_secrets("postgresql://u:p@ss@h/d?password=q&sslmode=require")
        ['p@ss', 'q']
    """
    parts = _split_url(value)
    if parts is None:
        return []
    userinfo, tail = parts[1], parts[3]
    password = userinfo[:-1].partition(":")[2] if ":" in userinfo else ""
    out = [password, unquote(password)]
    query = tail.partition("?")[2].partition("#")[0]
    for pair in query.split("&"):
        key, _, secret = pair.partition("=")
        if _SECRET_KEY.search(unquote(key)):
            out += [secret, unquote(secret)]
    return [s for s in dict.fromkeys(out) if s]


def redact_url(url: str) -> str:
    """``url`` with its password and every secret query value replaced by ``***`` (safe to
    print).

    Example:
        >>> redact_url("postgresql://u:p@ss@h:5/d?sslpassword=x&sslmode=require")
        'postgresql://u:***@h:5/d?sslpassword=***&sslmode=require'
    """
    parts = _split_url(url)
    if parts is None:
        return url
    scheme, userinfo, host, tail = parts
    if ":" in userinfo:
        userinfo = userinfo.partition(":")[0] + ":***@"
    path, q, query = tail.partition("?")
    query, h, fragment = query.partition("#")
    pairs = [(k, "=***" if _SECRET_KEY.search(unquote(k)) and eq else eq + v)
             for k, eq, v in (pair.partition("=") for pair in query.split("&"))]
    query = "&".join(k + rest for k, rest in pairs) if q else ""
    return f"{scheme}{userinfo}{host}{path}{q}{query}{h}{fragment}"


def redact(text: str, settings: Settings | None) -> str:
    """``text`` with every secret of ``settings`` (:meth:`Settings.secrets`) replaced by ``***``
    and credential-like strings masked (:func:`workers.errors.redact`): the one redaction of
    what the app prints or stores."""
    from workers.errors import redact as mask  # workers never import app/: the mask is theirs

    return mask(text, settings.secrets() if settings is not None else ())


def web_key(credentials: Settings | None) -> str:
    """What ``--web`` needs of the operator's search provider (``RESEARCH_SEARCH_PROVIDER``):
    the Tavily key (``tavily``), or the instance's URL (``searxng``, which needs no key).

    Raises:
        ConfigError: it is not set (the CLI says so before anything is written, exit 2; a
            LangGraph Server run, when its first web search is made).
    """
    if credentials is not None and credentials.search_provider == "searxng":
        if not credentials.searxng_url:
            raise ConfigError("--web with RESEARCH_SEARCH_PROVIDER=searxng needs SEARXNG_URL "
                              "(the instance's URL, e.g. http://127.0.0.1:8888) in the "
                              "environment or in .env")
        return credentials.searxng_url
    if credentials is None or not credentials.tavily_api_key:
        # "set by its thread": a resume continues with the thread's --web
        raise ConfigError("web search (--web, set for this run or by its thread) needs a Tavily "
                          "key: set TAVILY_API_KEY in the environment or in .env (or "
                          "RESEARCH_SEARCH_PROVIDER=searxng and SEARXNG_URL, for a SearXNG "
                          "instance)")
    return credentials.tavily_api_key


def default_model(credentials: Settings | None) -> str:
    """The model spec when none is set: OpenAI's default when a key is known, else offline.
    The one owner of that default (``load_settings`` fills ``Settings.model`` with it)."""
    return DEFAULT_OPENAI_MODEL if credentials and credentials.openai_api_key else "offline"


def secrets_of(settings: Any, specs: Iterable[Any]) -> list[str]:
    """Every secret value ``settings`` holds, longest first: each ``secret`` setting of
    ``specs`` (:class:`~app.settings.spec.SettingSpec`), each API token of a ``TOKEN=USER``
    pair, and the password or token any URL setting carries, such as a database URL's or
    ``OPENAI_BASE_URL=https://user:password@proxy/v1``'s (the rest of a URL is shown): what
    :func:`redact` masks. Values shorter than 4 characters are left out."""
    from app.settings.checks import split_api_token

    out: list[str] = []
    for spec in specs:
        value = getattr(settings, spec.name)
        for item in value if isinstance(value, tuple) else (value,):
            if not isinstance(item, str) or not item:
                continue
            if "://" in item:  # a URL is shown, its credentials never (a database
                out += url_secrets(item)  # URL without a password names its server)
            elif spec.secret:
                out.append(item)
                # an API token of a TOKEN=USER pair
                out += [split_api_token(item)[0]] if spec.repeated else []
    return sorted({s for s in out if len(s) >= 4}, key=len, reverse=True)
