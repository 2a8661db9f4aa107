"""The model factory: ``offline`` or any ``provider:model`` string ``init_chat_model`` accepts.

Real models get LangChain's ``InMemoryRateLimiter`` (shared by every role, so parallel workers
respect one requests-per-second budget), a request timeout, and no client-side retries: retrying
is LangGraph's ``RetryPolicy``'s job, one place, one count.

Source: ``langchain.chat_models.init_chat_model`` and
``langchain_core.rate_limiters.InMemoryRateLimiter``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

from app.config import ConfigError, Settings
from app.offline_model import OfflineChatModel

__all__ = ["ModelChoice", "describe_model", "make_model"]

OFFLINE = "offline"


@dataclass(frozen=True)
class ModelChoice:
    """A built chat model and how to name it to a user (never includes a key)."""

    model: BaseChatModel
    label: str
    offline: bool


def describe_model(spec: str, settings: Settings) -> str:
    """One-line, key-free description: ``offline (deterministic, extractive)`` or
    ``openai:gpt-4.1-mini via http://127.0.0.1:8000/v1``."""
    if spec == OFFLINE:
        return "offline (deterministic, extractive)"
    if settings.openai_base_url and spec.startswith("openai:"):
        return f"{spec} via {settings.openai_base_url}"
    return spec


_rate_limiters: dict[float, Any] = {}


def _rate_limiter(rps: float) -> Any:
    from langchain_core.rate_limiters import InMemoryRateLimiter

    if rps not in _rate_limiters:
        _rate_limiters[rps] = InMemoryRateLimiter(
            requests_per_second=rps, check_every_n_seconds=0.05, max_bucket_size=max(1, int(rps))
        )
    return _rate_limiters[rps]


def make_model(spec: str, settings: Settings) -> ModelChoice:
    """Build the chat model named by ``spec``.

    Args:
        spec: ``"offline"`` or ``"provider:model"`` (e.g. ``"openai:gpt-4.1-mini"``); a bare
            model name is passed to ``init_chat_model`` as it is.
        settings: supplies the key, base URL, timeout and requests per second.

    Raises:
        ConfigError: the spec is empty, its provider package is missing, or ``init_chat_model``
            rejects it.
    """
    spec = (spec or "").strip()
    if not spec:
        raise ConfigError("--model must not be empty")
    if spec == OFFLINE:
        return ModelChoice(OfflineChatModel(), describe_model(spec, settings), True)
    from langchain.chat_models import init_chat_model

    kwargs: dict[str, Any] = {
        "timeout": settings.timeout,
        "max_retries": 0,
        "rate_limiter": _rate_limiter(settings.requests_per_second or 1000.0),
    }
    provider = spec.split(":", 1)[0] if ":" in spec else None
    if provider in (None, "openai"):
        if settings.openai_api_key:
            kwargs["api_key"] = settings.openai_api_key
        if settings.openai_base_url:
            kwargs["base_url"] = settings.openai_base_url
    try:
        model = init_chat_model(spec, **kwargs)
    except ImportError as exc:
        raise ConfigError(f"model {spec!r} needs a provider package: {exc}") from None
    except Exception as exc:  # init_chat_model raises ValueError for unknown providers
        raise ConfigError(f"cannot use model {spec!r}: {' '.join(str(exc).split())}") from None
    return ModelChoice(model, describe_model(spec, settings), False)
