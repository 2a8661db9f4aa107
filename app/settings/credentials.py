"""What the operator's credentials decide: the default model, what ``--web`` needs of the
search provider, and the one redaction of secrets in what the app prints or stores.

Functions of :class:`app.settings.config.Settings` (which lists its secrets,
:meth:`~app.settings.config.Settings.secrets`), kept out of the declaration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from app.settings.spec import ConfigError

if TYPE_CHECKING:
    from app.settings.config import Settings

__all__ = ["DEFAULT_OPENAI_MODEL", "default_model", "redact", "url_password", "web_key"]

DEFAULT_OPENAI_MODEL = "openai:gpt-4.1-mini"


def url_password(value: str) -> str | None:
    """The password of a URL such as ``postgresql://user:password@host/db`` (None: none, or
    not a URL)."""
    try:
        return urlsplit(value).password if "://" in value else None
    except ValueError:
        return None


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
        raise ConfigError("--web needs a Tavily key: set TAVILY_API_KEY in the environment or "
                          "in .env")
    return credentials.tavily_api_key


def default_model(credentials: Settings | None) -> str:
    """The model spec when none is set: OpenAI's default when a key is known, else offline.
    The one owner of that default (``load_settings`` fills ``Settings.model`` with it)."""
    return DEFAULT_OPENAI_MODEL if credentials and credentials.openai_api_key else "offline"
