"""Configuration: one :class:`Settings` from CLI flags, the environment, a ``.env`` file, defaults.

Precedence, highest first: CLI flag > environment variable > ``.env`` file > default. The ``.env``
file is read with python-dotenv's ``dotenv_values`` (it is *not* loaded into ``os.environ``), so
the precedence is explicit here and a key never leaks into child processes or logs. A variable
set in the environment wins over the file even when it is empty (``RESEARCH_MODEL=``); the empty
value then means the default. (Tests rely on this to keep a developer's ``.env`` out.)

Only ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` are passed to a model explicitly; another provider's
key (``ANTHROPIC_API_KEY``, ...) is read by its own client from the environment, not from ``.env``.

Every variable is listed in ``ENV_VARS`` (the README's configuration table and ``.env.example``
are checked against it by a test).
"""

from __future__ import annotations

import datetime as dt
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

__all__ = ["ENV_VARS", "ConfigError", "Settings", "load_settings", "today_utc"]

DEFAULT_OPENAI_MODEL = "openai:gpt-4.1-mini"


class ConfigError(ValueError):
    """A setting has an unusable value; the message is one line naming it."""


def today_utc() -> str:
    """Today's date in UTC, ``YYYY-MM-DD`` (the default ``as_of``)."""
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


# name -> (Settings field, type, default, help)
ENV_VARS: dict[str, tuple[str, type, Any, str]] = {
    "RESEARCH_MODEL": ("model", str, None, "offline, or provider:model for init_chat_model "
                       "(default: offline, or openai:gpt-4.1-mini when OPENAI_API_KEY is set)"),
    "RESEARCH_PLANNER_MODEL": ("planner_model", str, None, "model for the plan node "
                               "(default: RESEARCH_MODEL)"),
    "RESEARCH_WORKER_MODEL": ("worker_model", str, None, "model for the agent workers "
                              "(default: RESEARCH_MODEL)"),
    "RESEARCH_REPORT_MODEL": ("report_model", str, None, "model that writes the report "
                              "(default: RESEARCH_MODEL)"),
    "OPENAI_API_KEY": ("openai_api_key", str, None, "key for OpenAI or a compatible server"),
    "OPENAI_BASE_URL": ("openai_base_url", str, None, "OpenAI-compatible server URL "
                        "(Ollama, vLLM, LM Studio, llama.cpp)"),
    "RESEARCH_DATA_DIR": ("data_dir", Path, Path(".data"), "results DB, checkpoints, index, "
                          "reports"),
    "RESEARCH_CORPUS": ("corpus", Path, None, "folder to index instead of the package docs"),
    "RESEARCH_MAX_CONCURRENCY": ("max_concurrency", int, 4, "workers running at once"),
    "RESEARCH_ROUNDS": ("rounds", int, 2, "dispatch rounds (re-dispatch of failed tasks)"),
    "RESEARCH_MAX_ATTEMPTS": ("max_attempts", int, 3, "attempts per task (RetryPolicy)"),
    "RESEARCH_RETRY_INTERVAL": ("retry_interval", float, 0.5, "seconds before the first retry"),
    "RESEARCH_REQUESTS_PER_SECOND": ("requests_per_second", float, 2.0, "model requests per "
                                     "second (InMemoryRateLimiter; real models only)"),
    "RESEARCH_TIMEOUT": ("timeout", float, 60.0, "seconds per model request"),
    "RESEARCH_MAX_TOKENS": ("max_tokens", int, None, "token budget: no new rounds once spent"),
}


@dataclass(frozen=True)
class Settings:
    """Resolved settings of one run. Never printed whole: it may hold a key (see ``redacted``)."""

    model: str = "offline"
    planner_model: str | None = None
    worker_model: str | None = None
    report_model: str | None = None
    openai_api_key: str | None = field(default=None, repr=False)
    openai_base_url: str | None = None
    data_dir: Path = Path(".data")
    corpus: Path | None = None
    max_concurrency: int = 4
    rounds: int = 2
    max_attempts: int = 3
    retry_interval: float = 0.5
    requests_per_second: float = 2.0
    timeout: float = 60.0
    max_tokens: int | None = None
    durability: str | None = None

    def model_for(self, role: str) -> str:
        """The model spec for ``role`` (``planner``, ``worker`` or ``report``), else ``model``."""
        return getattr(self, f"{role}_model", None) or self.model

    def redacted(self) -> dict[str, Any]:
        """The settings as a dict that is safe to show or store: no key."""
        out = {k: (str(v) if isinstance(v, Path) else v) for k, v in self.__dict__.items()}
        out["openai_api_key"] = "set" if self.openai_api_key else None
        return out

    def with_overrides(self, **overrides: Any) -> Settings:
        """Return a copy with the given non-None fields replaced (CLI flags)."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


# Lower bounds of the numeric settings (a value below them is rejected with one line).
_MINIMUM: dict[str, tuple[float, bool]] = {
    # attr: (bound, inclusive)
    "max_concurrency": (1, True),  # 0 would block every worker forever
    "rounds": (1, True),
    "max_attempts": (1, True),
    "max_tokens": (1, True),
    "retry_interval": (0, True),
    "requests_per_second": (0, True),  # 0 = no limit
    "timeout": (0, False),  # 0 would time out every request
}


def _convert(name: str, attr: str, typ: type, raw: str) -> Any:
    raw = raw.strip()
    if raw == "":
        return None
    try:
        value = typ(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a {typ.__name__}, got {raw!r}") from None
    if typ in (int, float):
        if not math.isfinite(value):
            raise ConfigError(f"{name} must be a finite number, got {raw!r}")
        bound, inclusive = _MINIMUM.get(attr, (0, True))
        if value < bound or (value == bound and not inclusive):
            relation = ">=" if inclusive else ">"
            raise ConfigError(f"{name} must be {relation} {bound:g}, got {raw!r}")
    return value


def load_settings(
    env: Mapping[str, str] | None = None, env_file: Path | str | None = ".env"
) -> Settings:
    """Resolve settings from the environment over the ``.env`` file over the defaults.

    Args:
        env: the environment (default ``os.environ``).
        env_file: the dotenv file (default ``./.env``; missing is fine; None skips it).

    Raises:
        ConfigError: a variable cannot be converted (``RESEARCH_ROUNDS=two``) or is out of
            range (``RESEARCH_MAX_CONCURRENCY=0``, ``RESEARCH_TIMEOUT=0``); the message names it.
    """
    environ = dict(os.environ if env is None else env)
    file_values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        file_values = {k: v for k, v in dotenv_values(env_file).items() if v is not None}
    # A variable set in the environment wins over the file even when it is empty (as with
    # python-dotenv's ``load_dotenv(override=False)``); an empty value then means the default.
    merged = {**file_values, **environ}
    values: dict[str, Any] = {}
    for name, (attr, typ, default, _help) in ENV_VARS.items():
        raw = merged.get(name)
        value = _convert(name, attr, typ, raw) if raw is not None else None
        if value is not None:
            values[attr] = value
        elif default is not None:
            values[attr] = default
    if "model" not in values:
        values["model"] = DEFAULT_OPENAI_MODEL if values.get("openai_api_key") else "offline"
    return Settings(**values)
