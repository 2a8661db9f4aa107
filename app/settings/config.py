"""Settings, declared once: each is one dataclass field whose metadata names its environment
variable, its CLI flag, its help line and its bounds.

Two owners, one declaration each:

* :class:`RunContext` holds what a run's *client* may choose (the review flag, rounds,
  search_k, max_tokens, max_concurrency, the models, the web flag, a corpus by name). It is the
  research graph's ``context_schema``: plain and JSON-serializable, so the CLI, LangGraph Studio
  and LangGraph Server configure a run the same way (``graph.invoke(input, config,
  context=RunContext(...))``, or a ``context`` dict from a LangGraph Server client). Nodes read
  it as ``res.context(runtime)``: ``runtime.context`` alone is what the client sent over the
  *declared* defaults; ``Resources.context`` puts it over the operator's ``RESEARCH_*`` ones and
  checks it against their bounds (``bound=``) and lists (:mod:`app.settings.client`).
* :class:`Settings` is the *operator's*: the deployment (data dir, database URL, corpus folders,
  report folder, keys, timeouts and retries, fault injection, the bounds and the allowed
  models), plus the default of each client choice. It comes from the process's environment
  only; the CLI's flags are the operator's too.

Each field is made by :func:`app.settings.spec.setting`. Everything else is derived from the
fields: :data:`ENV_VARS` (the environment table, and the names a misspelt ``RESEARCH_*``
variable is compared with), the CLI flags (``app.cli.add_setting_flags``), the README's settings
table (``app/graph/diagram.py``), the defaults (:func:`default_of`) and what is masked
(:func:`app.settings.credentials.redact`, from the ``secret`` marker). A value's own check
(``check=``) is in :mod:`app.settings.checks`. Adding a setting is one field here (plus the code
that uses it; and a line in ``.env.example`` when it has a variable): see docs/extending.md.

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

from dataclasses import dataclass, fields, replace
from typing import Any

from app.settings.checks import (
    check_api_token,
    check_corpora_item,
    check_crash_at,
    check_database_url,
    check_fail_worker,
    check_language,
    check_request_rate,
    check_searxng_url,
    check_url_credentials,
)
from app.settings.credentials import DEFAULT_OPENAI_MODEL, default_model, secrets_of
from app.settings.model_spec import check_model_spec
from app.settings.spec import (
    ConfigError,
    SettingSpec,
    coerce,
    parse_setting,
    setting,
    shown,
    specs_of,
    validate,
)

__all__ = [
    "CLIENT_SETTINGS", "ENV_VARS", "OPERATOR_ONLY", "SETTINGS", "ConfigError", "RunContext",
    "Settings", "SettingSpec", "default_of", "parse_setting",
]

DURABILITY_MODES = ("sync", "async", "exit")
SEARCH_PROVIDERS = ("tavily", "searxng")


ROUNDS_BOUND = 1000
"""The most rounds any run takes: ``--rounds`` (its variable, its bound) above it is refused;
``route`` caps an edited state's rounds to it (:func:`app.research.rounds.routing_of`)."""
MAX_CONCURRENCY_BOUND = 128
"""The most workers at once: the size of a CLI run's LangGraph thread pool
(``app.runs.run.THREAD_POOL_SIZE``), which runs every task, so a worker limiter above it is
capped by the pool. ``--max-concurrency`` (and its variable and bound) above it is refused, not
cut without a word."""
SEARCH_K_BOUND = 50
"""The most passages a corpus search returns (``workers.sources.MAX_K``, which the search cuts
``k`` to): ``--search-k`` above it is refused, not cut without a word."""


@dataclass(frozen=True, kw_only=True)
class RunContext:
    """What a run's client may choose: the research graph's ``context_schema`` (read by a node
    as ``res.context(runtime)``: the operator's defaults under the client's choices, see the
    module docstring). Plain values only (str, int, tuples of str), so it crosses LangGraph
    Server's API as JSON; a dict or list given for it is coerced by ``__post_init__``.

    Everything else (paths, the database, keys, retries, fault injection, the bounds on these
    choices) is the operator's: :class:`Settings`, never in a context. A served run's context is
    checked against the operator's bounds and lists by :func:`app.settings.client.resolve`.

    Heavy objects (models, corpus, rate limiter) are never in it: the graph looks them up from
    these values and caches them (``app/graph/resources.py``).

    Raises:
        ConfigError: a value is out of its declared range (``rounds=0``) or of the wrong type.
    """

    model: str | None = setting(
        env="RESEARCH_MODEL", flag="--model", check=check_model_spec,
        help="offline, or provider:model for init_chat_model (default: offline, or "
             f"{DEFAULT_OPENAI_MODEL} when OPENAI_API_KEY is set); a client picks one of "
             "RESEARCH_ALLOWED_MODELS", resume="kept")
    planner_model: str | None = setting(
        env="RESEARCH_PLANNER_MODEL", resume="kept", check=check_model_spec,
        help="model for the plan node (default: RESEARCH_MODEL)")
    worker_model: str | None = setting(
        env="RESEARCH_WORKER_MODEL", resume="kept", check=check_model_spec,
        help="model for the agent workers (default: RESEARCH_MODEL)")
    report_model: str | None = setting(
        env="RESEARCH_REPORT_MODEL", resume="kept", check=check_model_spec,
        help="model that writes the report (default: RESEARCH_MODEL)")
    corpus_name: str | None = setting(
        flag="--corpus-name", metavar="NAME",
        help="the corpus by name: one of RESEARCH_CORPORA, never with --corpus (default: "
             "--corpus, or the package docs); what a served run's context names instead of a "
             "folder", resume="thread")
    search_k: int = setting(5, env="RESEARCH_SEARCH_K", flag="--search-k", minimum=1,
                            maximum=SEARCH_K_BOUND, bound="search_k_limit", resume="kept",
                            help=f"passages one corpus search returns (at most {SEARCH_K_BOUND})")
    max_concurrency: int = setting(4, env="RESEARCH_MAX_CONCURRENCY", flag="--max-concurrency",
                                   minimum=1, maximum=MAX_CONCURRENCY_BOUND,
                                   bound="max_concurrency_limit",
                                   help=f"workers running at once (at most "
                                        f"{MAX_CONCURRENCY_BOUND})", resume="free")
    rounds: int = setting(2, env="RESEARCH_ROUNDS", flag="--rounds", minimum=1,
                          maximum=ROUNDS_BOUND, bound="rounds_limit",
                          help=f"dispatch rounds (re-dispatch of failed tasks; at most "
                               f"{ROUNDS_BOUND})", resume="thread")
    max_tokens: int | None = setting(env="RESEARCH_MAX_TOKENS", flag="--max-tokens", minimum=1,
                                     bound="max_tokens_limit",
                                     help="token budget: no new rounds once spent", resume="kept")
    web: bool = setting(False, env="RESEARCH_WEB", flag="--web",
                        help="also search the web (Tavily; needs TAVILY_API_KEY): adds the "
                             "web_search worker and the agents' search_web tool", resume="thread")
    review: bool = setting(False, flag="--review",
                           help="pause for a human review after plan and before persist "
                                "(LangGraph interrupts; continue with: python -m app review "
                                "THREAD_ID)", resume="thread")

    def __new__(cls, **given: Any) -> RunContext:
        """Record which fields the caller named with a value (see :meth:`given`)."""
        self = super().__new__(cls)
        object.__setattr__(self, "_given", frozenset(k for k, v in given.items() if v is not None))
        return self

    def given(self) -> frozenset[str]:
        """The fields its maker named with a value other than None: LangGraph builds a run's
        context from the client's dict (``RunContext(**context)``), so a client that chose a
        field's declared default (``rounds=2``) is told apart from one that said nothing or
        ``null`` (the operator's default then applies: docs/deploy.md)."""
        return self.__dict__.get("_given", frozenset())

    def __post_init__(self) -> None:
        for spec in specs_of(type(self)):
            value = getattr(self, spec.name)
            # JSON null is "the default" (docs/deploy.md; "must be set" before: trial 54, F3)
            fixed = coerce(spec, spec.default if value is None and not spec.optional else value)
            if fixed is not value:
                object.__setattr__(self, spec.name, fixed)
            validate(spec.name, spec, fixed)

    def model_for(self, role: str) -> str | None:
        """The model spec for ``role`` (``planner``, ``worker`` or ``report``), else ``model``
        (None: the default, :func:`app.settings.credentials.default_model`)."""
        return getattr(self, f"{role}_model", None) or self.model


@dataclass(frozen=True, kw_only=True)
class Settings(RunContext):
    """The operator's settings: the deployment (paths, database, corpus folders, keys,
    retries, fault injection, the bounds on a client's choices), plus, inherited from
    :class:`RunContext`, the default of each client choice (``RESEARCH_ROUNDS``...). Built from
    the process's environment (:func:`load_settings`), once: by the CLI (whose flags are the
    operator's too) or when the served graph is built (``app/server/studio.py``); nodes read it as
    ``Resources.settings``. Never printed whole: it may hold a key (see :meth:`redacted`)."""

    data_dir: str = setting(".data", env="RESEARCH_DATA_DIR", flag="--data-dir", path=True,
                            help="results DB, checkpoints, index, reports")
    corpus: str | None = setting(env="RESEARCH_CORPUS", flag="--corpus", path=True, help=(
        "folder to index (.md .markdown .txt .rst .py .html .htm .conf .cfg .ini .pdf .docx, "
        "other text files (README, run.sh), man pages (ls.1, x.3tcl); each also .gz) instead of "
        "the package docs"))
    max_file_bytes: int = setting(
        8 * 1024 * 1024, env="RESEARCH_MAX_FILE_BYTES", flag="--max-file-bytes", minimum=1,
        maximum=2**30,
        help="text files (.md .txt .rst .py .html ..., a .gz once decompressed) larger than this "
             "many bytes (at most 2**30, 1 GiB) are skipped when a folder is indexed, named in the "
             "run's notes (ten of them, then a count, and before the run starts); PDF and .docx "
             "files: 32 MB, or this when it is larger")
    corpus_language: str | None = setting(
        env="RESEARCH_CORPUS_LANGUAGE", flag="--corpus-language", check=check_language,
        metavar="LANG",
        help="the language indexed when a corpus folder holds a manual in several (sibling "
             "folders en/ fr/ ja/..., or pages named index.html.en, index.html.fr...): a tag "
             "such as fr, ja or pt-br (default: English, else the language with the most pages); "
             "the other languages' copies are skipped, counted in one note; a page it lacks "
             "is indexed in another; all: every language is indexed")
    corpora: tuple[str, ...] = setting(
        (), env="RESEARCH_CORPORA", check=check_corpora_item, metavar="NAME=FOLDER", keyed=True,
        path=True,
        help="comma-separated NAME=FOLDER corpora a served run may choose by name "
             "(context corpus_name), each NAME once")
    report_out: str | None = setting(flag="--out", path=True,
                                     help="report file (new, or a report of this "
                                     "app, written again; never another file), or folder (a "
                                     "trailing / makes it one) (default: DATA_DIR/reports/)")
    allowed_models: tuple[str, ...] = setting(
        (), env="RESEARCH_ALLOWED_MODELS",
        help="comma-separated models a served run's context may name (default: offline and "
             "the operator's own RESEARCH_*MODEL choices)")
    rounds_limit: int = setting(5, env="RESEARCH_ROUNDS_LIMIT", minimum=1, maximum=ROUNDS_BOUND,
                                help="most rounds a served run's context may ask for (at "
                                     f"most {ROUNDS_BOUND})")
    sub_questions_limit: int = setting(
        20, env="RESEARCH_SUB_QUESTIONS_LIMIT", minimum=1, maximum=1000,
        help="most sub-questions a served run's plan may hold (a client's state edit or plan "
             "review included; each is one task per worker per round; at most 1000)")
    max_concurrency_limit: int = setting(
        16, env="RESEARCH_MAX_CONCURRENCY_LIMIT", minimum=1, maximum=MAX_CONCURRENCY_BOUND,
        help=f"most workers at once a served run's context may ask for (at most "
             f"{MAX_CONCURRENCY_BOUND})")
    search_k_limit: int = setting(20, env="RESEARCH_SEARCH_K_LIMIT", minimum=1,
                                  maximum=SEARCH_K_BOUND,
                                  help="most passages per search a served run's context may "
                                       f"ask for (at most {SEARCH_K_BOUND})")
    max_tokens_limit: int | None = setting(
        env="RESEARCH_MAX_TOKENS_LIMIT", minimum=1,
        help="largest token budget a served run's context may ask for (default: no limit)")
    max_attempts: int = setting(3, env="RESEARCH_MAX_ATTEMPTS", minimum=1, maximum=10,
                                help="attempts per task (RetryPolicy; at most 10)")
    retry_interval: float = setting(0.5, env="RESEARCH_RETRY_INTERVAL", minimum=0, maximum=600,
                                    help="seconds before the first retry (at most 600)")
    requests_per_second: float = setting(
        2.0, env="RESEARCH_REQUESTS_PER_SECOND", minimum=0, check=check_request_rate,
        help="model requests per second (InMemoryRateLimiter; real models only; 0: no limit, "
             "else at least 1/600)")
    timeout: float = setting(60.0, env="RESEARCH_TIMEOUT", minimum=0, exclusive=True,
                             maximum=3600, help="seconds a whole model or web request may take "
                                                "(at most 3600)")
    retry_patience: float = setting(
        60.0, env="RESEARCH_RETRY_PATIENCE", minimum=0, maximum=600,
        help="longest wait (seconds, at most 600) a provider's Retry-After may ask for; a longer "
             "one fails the call")
    rate_limit_patience: float = setting(
        60.0, env="RESEARCH_RATE_LIMIT_PATIENCE", minimum=0, maximum=3600,
        help="seconds one model call or web search may spend rate-limited (HTTP 429: backoff "
             "with jitter, or the Retry-After) before it fails (at most 3600)")
    durability: str | None = setting(flag="--durability", choices=DURABILITY_MODES,
                                     help="when LangGraph saves checkpoints (default: "
                                          "LangGraph's default)")
    openai_api_key: str | None = setting(env="OPENAI_API_KEY", secret=True,
                                         help="key for OpenAI or a compatible server")
    openai_base_url: str | None = setting(env="OPENAI_BASE_URL", check=check_url_credentials,
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
    tavily_base_url: str | None = setting(env="TAVILY_BASE_URL", check=check_url_credentials,
                                          help="Tavily API URL (default https://api.tavily.com;"
                                               " a proxy or a compatible server)")
    search_provider: str = setting(
        "tavily", env="RESEARCH_SEARCH_PROVIDER", choices=SEARCH_PROVIDERS,
        help="what --web searches: tavily (TAVILY_API_KEY) or searxng (a self-hosted SearXNG "
             "instance at SEARXNG_URL, no key)")
    searxng_url: str | None = setting(
        env="SEARXNG_URL", check=check_searxng_url,
        help="SearXNG instance root (http://host:8888), for RESEARCH_SEARCH_PROVIDER=searxng; "
             "json must be in its search.formats (docs/deploy.md)")
    mcp_config: str | None = setting(
        env="RESEARCH_MCP_CONFIG", flag="--mcp-config", metavar="FILE", path=True,
        help="JSON file of MCP servers (Claude Desktop's mcpServers shape: a command, or a url "
             "and transport, per server) whose tools the agent workers are offered "
             "(docs/deploy.md)")
    mcp_timeout: float = setting(30.0, env="RESEARCH_MCP_TIMEOUT", minimum=0, exclusive=True,
                                 maximum=3600,
                                 help="seconds an MCP server may take to start, and one MCP tool "
                                      "call to answer (at most 3600)")
    api_tokens: tuple[str, ...] = setting(
        (), env="RESEARCH_API_TOKENS", secret=True, metavar="TOKEN=USER", keyed=True,
        check=check_api_token,
        help="comma-separated TOKEN=USER pairs, each TOKEN once: LangGraph Server asks every "
             "request for Authorization: Bearer TOKEN, and each user sees only their own threads "
             "(default: no auth; docs/deploy.md)")
    # Fault injection (tests and workshops; see app/runs/faults.py and docs/walkthrough.md).
    fail_rate: float = setting(0.0, flag="--fail-rate", minimum=0, maximum=1, metavar="P",
                               group="faults", help="each worker attempt raises a transient "
                               "error with probability P (0 to 1)")
    seed: int = setting(0, flag="--seed", group="faults", help="seed for --fail-rate")
    fail_workers: tuple[str, ...] = setting(
        (), flag="--fail-worker", metavar="NAME[:ROUNDS]", group="faults",
        check=check_fail_worker,
        help="worker NAME fails permanently (in rounds <= ROUNDS; 0 or absent: always)")
    crash_at: str | None = setting(flag="--crash-at", metavar="POINT", group="faults",
                                   check=check_crash_at,
                                   help="kill the process hard (SIGKILL) at POINT: map:K, "
                                        "persist-commit, report")
    run_log: str | None = setting(
        flag="--run-log", metavar="FILE", group="faults", path=True,
        help="append a line each time a worker task produces its envelope: envelope_id, "
             "attempt, status, pid (tab-separated), to count re-runs")

    def context(self) -> RunContext:
        """The default run context: each client choice as the operator set it (no operator
        setting, no key)."""
        return RunContext(**{f.name: getattr(self, f.name) for f in fields(RunContext)})

    def redacted(self) -> dict[str, Any]:
        """The settings as a dict that is safe to show or store: each ``secret`` setting is
        ``"set"`` or None."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        for spec in specs_of(type(self)):
            if spec.secret:
                out[spec.name] = "set" if out[spec.name] else None
        return out

    def secrets(self) -> list[str]:
        """Every secret value in use, longest first, as
        :func:`~app.settings.credentials.secrets_of` finds them: what ``redact`` masks."""
        return secrets_of(self, specs_of(type(self)))

    def corpus_folder(self, name: str | None) -> str | None:
        """The folder of the corpus called ``name`` in ``RESEARCH_CORPORA``; ``name`` None: the
        operator's ``corpus`` (None: the package docs).

        Raises:
            ConfigError: no corpus has that name (the known ones are listed).
        """
        if name is None:
            return self.corpus
        named = self.named_corpora()
        if name not in named:
            known = ", ".join(sorted(named)) or "none"
            # the CLI asks this too: "this server" named a server nobody ran
            raise ConfigError(f"corpus_name: RESEARCH_CORPORA has no corpus named {shown(name)} "
                              f"(known: {known})")
        return named[name]

    def named_corpora(self) -> dict[str, str]:
        """``RESEARCH_CORPORA`` as ``{name: folder}``."""
        return {name.strip(): path.strip() for name, _, path in
                (item.partition("=") for item in self.corpora)}

    def models_allowed(self) -> tuple[str, ...]:
        """The models a served run's context may name: ``allowed_models``, or (unset) offline
        and the operator's own choices."""
        if self.allowed_models:
            return self.allowed_models
        own = (self.model or default_model(self), self.planner_model, self.worker_model,
               self.report_model)
        return tuple(dict.fromkeys(m for m in ("offline", *own) if m))

    def with_overrides(self, **overrides: Any) -> Settings:
        """Return a copy with the given non-None fields replaced (CLI flags)."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


OPERATOR_ONLY: frozenset[str] = frozenset(
    f.name for f in fields(Settings)) - {f.name for f in fields(RunContext)}
"""The operator's settings: a run's context naming one is refused (``app.settings.client``)."""


def default_of(name: str) -> Any:
    """The declared default of the setting ``name``: the one owner of every default (a caller
    that needs one outside a ``Settings`` asks here instead of copying it)."""
    return _DEFAULTS[name]


SETTINGS: tuple[SettingSpec, ...] = specs_of(Settings)
"""Every setting, in declaration order: the client's (``RunContext``) first, then the
operator's."""

CLIENT_SETTINGS: frozenset[str] = frozenset(s.name for s in specs_of(RunContext))
"""The settings a run's client may choose (``RunContext``'s fields)."""

_DEFAULTS: dict[str, Any] = {s.name: s.default for s in SETTINGS}

ENV_VARS: dict[str, SettingSpec] = {s.env: s for s in SETTINGS if s.env}
"""Environment variable name -> its setting (the README table and ``.env.example`` follow it)."""
