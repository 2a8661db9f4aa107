"""Settings, declared once: each is one dataclass field whose metadata names its environment
variable, its CLI flag, its help line and its bounds.

* :class:`RunContext` holds the per-run settings. It is the research graph's ``context_schema``:
  plain and JSON-serializable, so the CLI, LangGraph Studio and LangGraph Server configure a run
  the same way (``graph.invoke(input, config, context=RunContext(...))``, or a ``context`` dict
  from a LangGraph Server client) and nodes read it as ``runtime.context``.
* :class:`Settings` is a :class:`RunContext` plus what never travels with a run: the provider
  credentials (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``), read from the process's environment.

Each field is made by :func:`app.setting_spec.setting`. Everything else is derived from the
fields: :data:`ENV_VARS` (the environment table), the CLI flags (``app.cli.add_setting_flags``),
and the README's settings table (``app/diagram.py``). Adding a setting is one field here (plus
the code that uses it; and a line in ``.env.example`` when it has a variable): see
docs/extending.md.

Precedence, highest first: CLI flag > environment variable > ``.env`` file > default. The ``.env``
file is read with python-dotenv's ``dotenv_values`` (it is *not* loaded into ``os.environ``), so
the precedence is explicit here and a key never leaks into child processes or logs. A variable
set in the environment wins over the file even when it is empty (``RESEARCH_MODEL=``); the empty
value then means the default. (Tests rely on this to keep a developer's ``.env`` out.)

Only ``OPENAI_API_KEY``/``OPENAI_BASE_URL`` are passed to a model explicitly; another provider's
key (``ANTHROPIC_API_KEY``, ...) is read by its own client from the environment, not from ``.env``.

Source: the ``langchain-ai/react-agent`` template's ``Context`` dataclass, and LangGraph's
"runtime context" (``StateGraph(..., context_schema=...)``, ``Runtime.context``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from app.setting_spec import (
    ConfigError,
    SettingSpec,
    coerce,
    parse_setting,
    setting,
    specs_of,
    validate,
)

__all__ = [
    "DEFAULT_OPENAI_MODEL", "ENV_VARS", "SETTINGS", "ConfigError", "RunContext", "Settings",
    "SettingSpec", "as_of_or_today", "check_database_url", "load_settings", "parse_setting",
    "web_key",
]

DEFAULT_OPENAI_MODEL = "openai:gpt-4.1-mini"
DURABILITY_MODES = ("sync", "async", "exit")


def as_of_or_today(value: str | None) -> str:
    """The run's ``as_of``: ``value`` normalized to ``YYYY-MM-DD``, or today (UTC) when empty.

    The one owner of the default: the CLI (to derive the thread id) and the ``plan`` node (for a
    LangGraph Server caller that left ``as_of`` out) both call it.

    Raises:
        ValueError: ``value`` is not a ``YYYY-MM-DD`` date.
    """
    from state import normalize_as_of, today_utc  # state imports pydantic: only when asked

    return normalize_as_of(value) if value else today_utc()


def _check_crash_at(value: str) -> None:
    from app.faults import parse_crash_at  # the crash points are the fault module's

    parse_crash_at(value)


def check_database_url(url: str) -> None:
    """Refuse a database URL that is not PostgreSQL's (``postgresql://`` or ``postgres://``):
    the one check of ``RESEARCH_DATABASE_URL``/``--database-url``, also made by
    :func:`app.storage.open_storage` for callers that skip the settings.

    Raises:
        ValueError: one line naming the expected scheme.
    """
    # the database is the deployment's, not a run's: declared on Settings, never in the context
    if not url.startswith(("postgresql://", "postgres://")):
        raise ValueError("expected a postgresql:// URL")


def _check_fail_worker(spec: str) -> None:
    from app.faults import parse_fail_worker  # the fault module owns the syntax

    parse_fail_worker(spec)


@dataclass(frozen=True, kw_only=True)
class RunContext:
    """The settings of one run: the research graph's ``context_schema`` (read as
    ``runtime.context``). Plain values only (str, int, float, tuples of str), so it crosses
    LangGraph Server's API as JSON; a dict or list given for it is coerced by ``__post_init__``.

    Heavy objects (models, corpus, rate limiter) are never in it: the graph looks them up from
    these values and caches them (``app/resources.py``).

    Raises:
        ConfigError: a value is out of bounds (``rounds=0``) or not one of the choices.
    """

    model: str | None = setting(
        env="RESEARCH_MODEL", flag="--model",
        help="offline, or provider:model for init_chat_model (default: offline, or "
             f"{DEFAULT_OPENAI_MODEL} when OPENAI_API_KEY is set)")
    planner_model: str | None = setting(
        env="RESEARCH_PLANNER_MODEL", help="model for the plan node (default: RESEARCH_MODEL)")
    worker_model: str | None = setting(
        env="RESEARCH_WORKER_MODEL", help="model for the agent workers (default: RESEARCH_MODEL)")
    report_model: str | None = setting(
        env="RESEARCH_REPORT_MODEL", help="model that writes the report (default: "
                                          "RESEARCH_MODEL)")
    data_dir: str = setting(".data", env="RESEARCH_DATA_DIR", flag="--data-dir",
                            help="results DB, checkpoints, index, reports")
    corpus: str | None = setting(env="RESEARCH_CORPUS", flag="--corpus",
                                 help="folder to index (.md .txt .rst .py .html .pdf .docx) "
                                 "instead of the package docs")
    search_k: int = setting(5, env="RESEARCH_SEARCH_K", flag="--search-k", minimum=1,
                            help="passages one corpus search returns")
    max_concurrency: int = setting(4, env="RESEARCH_MAX_CONCURRENCY", flag="--max-concurrency",
                                   minimum=1, help="workers running at once")
    rounds: int = setting(2, env="RESEARCH_ROUNDS", flag="--rounds", minimum=1,
                          help="dispatch rounds (re-dispatch of failed tasks)")
    max_attempts: int = setting(3, env="RESEARCH_MAX_ATTEMPTS", minimum=1, maximum=10,
                                help="attempts per task (RetryPolicy; at most 10)")
    # maximum: the worker nodes' RetryPolicy cap, workers.retry.ATTEMPTS_CAP (a test keeps them
    # equal; this module imports no LangGraph code)
    retry_interval: float = setting(0.5, env="RESEARCH_RETRY_INTERVAL", minimum=0,
                                    help="seconds before the first retry")
    requests_per_second: float = setting(
        2.0, env="RESEARCH_REQUESTS_PER_SECOND", minimum=0,
        help="model requests per second (InMemoryRateLimiter; real models only)")
    timeout: float = setting(60.0, env="RESEARCH_TIMEOUT", minimum=0, exclusive=True,
                             help="seconds per model request")
    retry_patience: float = setting(
        60.0, env="RESEARCH_RETRY_PATIENCE", minimum=0, maximum=600,
        help="longest wait (seconds, at most 600) a provider's Retry-After may ask for; a longer "
             "one fails the call")
    max_tokens: int | None = setting(env="RESEARCH_MAX_TOKENS", flag="--max-tokens", minimum=1,
                                     help="token budget: no new rounds once spent")
    durability: str | None = setting(flag="--durability", choices=DURABILITY_MODES,
                                     help="when LangGraph saves checkpoints (default: "
                                          "LangGraph's default)")
    web: bool = setting(False, env="RESEARCH_WEB", flag="--web",
                        help="also search the web (Tavily; needs TAVILY_API_KEY): adds the "
                             "web_search worker and the agents' search_web tool")
    report_out: str | None = setting(flag="--out", help="report file, or folder (a trailing / "
                                     "makes it one) (default: DATA_DIR/reports/)")
    review: bool = setting(False, flag="--review",
                           help="pause for a human review after plan and before persist "
                                "(LangGraph interrupts; continue with: python -m app review "
                                "THREAD_ID)")
    # Fault injection (tests and workshops; see app/faults.py and docs/walkthrough.md).
    fail_rate: float = setting(0.0, flag="--fail-rate", minimum=0, maximum=1, metavar="P",
                               group="faults", help="each worker attempt raises a transient "
                               "error with probability P")
    seed: int = setting(0, flag="--seed", group="faults", help="seed for --fail-rate")
    fail_workers: tuple[str, ...] = setting(
        (), flag="--fail-worker", metavar="NAME[:ROUNDS]", group="faults",
        check=_check_fail_worker,
        help="worker NAME fails permanently (in rounds <= ROUNDS; 0 or absent: always)")
    crash_at: str | None = setting(flag="--crash-at", metavar="POINT", group="faults",
                                   check=_check_crash_at,
                                   help="kill the process hard (SIGKILL) at POINT: map:K, "
                                        "persist-commit, report")
    run_log: str | None = setting(
        flag="--run-log", metavar="FILE", group="faults",
        help="append a line each time a worker task produces its envelope: envelope_id, "
             "attempt, status, pid (tab-separated), to count re-runs")

    def __post_init__(self) -> None:
        for spec in specs_of(type(self)):
            value = getattr(self, spec.name)
            fixed = coerce(spec, value)
            if fixed is not value:
                object.__setattr__(self, spec.name, fixed)
            validate(spec.name, spec, fixed)

    def model_for(self, role: str) -> str | None:
        """The model spec for ``role`` (``planner``, ``worker`` or ``report``), else ``model``
        (None: the default, :func:`default_model` of the credentials)."""
        return getattr(self, f"{role}_model", None) or self.model


@dataclass(frozen=True, kw_only=True)
class Settings(RunContext):
    """The resolved settings of one process: the run context plus the provider credentials.
    Never printed whole: it may hold a key (see ``redacted``)."""

    openai_api_key: str | None = setting(env="OPENAI_API_KEY", secret=True,
                                         help="key for OpenAI or a compatible server")
    openai_base_url: str | None = setting(env="OPENAI_BASE_URL",
                                          help="OpenAI-compatible server URL (Ollama, vLLM, "
                                               "LM Studio, llama.cpp)")
    database_url: str | None = setting(
        env="RESEARCH_DATABASE_URL", flag="--database-url", metavar="URL", secret=True,
        check=check_database_url,
        help="postgresql://user:password@host/db: checkpoints and results in PostgreSQL "
             "instead of the data dir's SQLite files (docs/deploy.md)")
    database_direct_url: str | None = setting(
        env="RESEARCH_DATABASE_DIRECT_URL", secret=True, check=check_database_url,
        help="postgresql:// URL that bypasses a connection pooler (PgBouncer), for creating "
             "and migrating the tables; default: the database URL (docs/deploy.md)")
    tavily_api_key: str | None = setting(env="TAVILY_API_KEY", secret=True,
                                         help="Tavily key, for --web")
    tavily_base_url: str | None = setting(env="TAVILY_BASE_URL",
                                          help="Tavily API URL (default https://api.tavily.com;"
                                               " a proxy or a compatible server)")

    def context(self) -> RunContext:
        """The per-run part: what the graph gets as ``context`` (no credentials)."""
        return RunContext(**{f.name: getattr(self, f.name) for f in fields(RunContext)})

    def redacted(self) -> dict[str, Any]:
        """The settings as a dict that is safe to show or store: no key."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        for spec in specs_of(type(self)):
            if spec.secret:
                out[spec.name] = "set" if out[spec.name] else None
        return out

    def with_overrides(self, **overrides: Any) -> Settings:
        """Return a copy with the given non-None fields replaced (CLI flags)."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


def web_key(credentials: Settings | None) -> str:
    """The Tavily key that ``--web`` needs.

    Raises:
        ConfigError: none is set (the CLI says so before anything is written; a LangGraph
            Server run, when its first web search is made).
    """
    if credentials is None or not credentials.tavily_api_key:
        raise ConfigError("--web needs a Tavily key: set TAVILY_API_KEY in the environment or "
                          "in .env")
    return credentials.tavily_api_key


def default_model(credentials: Settings | None) -> str:
    """The model spec when none is set: OpenAI's default when a key is known, else offline."""
    return DEFAULT_OPENAI_MODEL if credentials and credentials.openai_api_key else "offline"


SETTINGS: tuple[SettingSpec, ...] = specs_of(Settings)
"""Every setting, in declaration order."""

ENV_VARS: dict[str, SettingSpec] = {s.env: s for s in SETTINGS if s.env}
"""Environment variable name -> its setting (the README table and ``.env.example`` follow it)."""


# --- environment and .env ----------------------------------------------------------------------

def _check_dotenv_lines(env_file: Path) -> None:
    """Refuse a ``.env`` line python-dotenv cannot parse (it would warn, without naming the
    file, and drop the line: a setting written there would silently not apply).

    Raises:
        ConfigError: names the file and the line.
    """
    from dotenv.parser import parse_stream

    with env_file.open(encoding="utf-8") as stream:
        for binding in parse_stream(stream):
            if binding.error:
                # the line itself is not shown: it may hold a key
                raise ConfigError(f"{env_file}: line {binding.original.line} is not NAME=value")


def load_settings(
    env: Mapping[str, str] | None = None, env_file: Path | str | None = ".env"
) -> Settings:
    """Resolve settings from the environment over the ``.env`` file over the defaults.

    Args:
        env: the environment (default ``os.environ``).
        env_file: the dotenv file (default ``./.env``; missing is fine; None skips it).

    Raises:
        ConfigError: a variable cannot be converted (``RESEARCH_ROUNDS=two``) or is out of
            range (``RESEARCH_MAX_CONCURRENCY=0``, ``RESEARCH_TIMEOUT=0``), or ``env_file`` is
            not UTF-8 text; the message names it.
    """
    environ = dict(os.environ if env is None else env)
    file_values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        try:
            _check_dotenv_lines(Path(env_file))
            file_values = {k: v for k, v in dotenv_values(env_file).items() if v is not None}
        except (UnicodeDecodeError, OSError) as exc:  # not text, or not readable
            why = exc.reason if isinstance(exc, UnicodeDecodeError) else exc.strerror
            raise ConfigError(f"{env_file}: cannot be read as UTF-8 text ({why}); fix or "
                              "remove it") from None
    # A variable set in the environment wins over the file even when it is empty (as with
    # python-dotenv's ``load_dotenv(override=False)``); an empty value then means the default.
    merged = {**file_values, **environ}
    values: dict[str, Any] = {}
    for name, spec in ENV_VARS.items():
        raw = merged.get(name)
        value = parse_setting(name, spec, raw) if raw is not None else None
        if value is not None:
            values[spec.name] = value
    settings = Settings(**values)
    if settings.model is None:
        settings = replace(settings, model=default_model(settings))
    return settings
