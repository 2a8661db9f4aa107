"""What a served run's client may set, checked once at the graph's edge: the ``context`` (and
``configurable``, which LangGraph Server copies into the context when no context is given) and
the run's ``config`` around it.

A client chooses among :class:`app.settings.config.RunContext`'s fields, each within the
operator's bound (``RESEARCH_ROUNDS_LIMIT``...), a model the operator allows and a corpus by the
name the operator gave it; a field it names takes its value, even the declared default, and one
it leaves out the operator's. Anything else is refused with one line naming the key, before the
run does anything: an operator setting (``data_dir``, ``report_out``, ``fail_rate``...), a key
that is no setting (named with the closest one: ``roundz``, did you mean ``rounds``), an unknown
corpus name (a path included), a model not allowed, a value past its bound,
``config.max_concurrency`` past the concurrency bound, or a ``recursion_limit`` below what one
round needs or past what the rounds bound needs.

The command line is the operator: it never goes through here.

Source: LangGraph Server's run creation (``langgraph_api.models.run.create_valid_run`` copies
``configurable`` into ``context`` and back) and its graph factories (``ServerRuntime``), which
see a run's context before the server drops the keys the context schema lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from difflib import get_close_matches
from typing import Any

from app.settings.checks import check_given
from app.settings.config import CLIENT_SETTINGS, OPERATOR_ONLY, ConfigError, RunContext, Settings
from app.settings.spec import shown, specs_of

__all__ = ["PREGEL_PREFIX", "check_durability", "check_run_config", "given_choices",
           "request_problem", "resolve", "shown"]

MODEL_FIELDS = ("model", "planner_model", "worker_model", "report_model")
LANGGRAPH_KEYS = frozenset({"thread_id", "checkpoint_id", "checkpoint_ns", "checkpoint_map",
                            "run_id", "assistant_id", "graph_id", "user_id"})
"""LangGraph's own ``configurable`` keys (and those starting ``__`` or ``langgraph_``): a client
that sends ``configurable`` instead of a context may name them; they are no setting and pass
(the server drops them from the context)."""


def given_choices(context: Mapping[str, Any] | RunContext | None) -> dict[str, Any]:
    """The client's choices in ``context``: the keys of a dict (every one, operator settings
    included, to be refused), or the fields a ``RunContext`` was made with
    (:meth:`~app.settings.config.RunContext.given`: LangGraph builds one from the client's dict,
    filling in the rest), a declared default the client chose included."""
    if context is None:
        return {}
    if isinstance(context, Mapping):
        return dict(context)
    return {f.name: getattr(context, f.name) for f in fields(RunContext)
            if f.name in context.given()}


def _check_key(key: str) -> None:
    """Refuse a context key that is an operator setting, or no setting at all (LangGraph
    Server would drop it silently: a misspelt ``roundz`` would run with the default)."""
    if key in OPERATOR_ONLY:
        raise ConfigError(f"{key}: the operator's setting, not a run's: a served run's "
                          "context cannot set it (docs/deploy.md)")
    if key in CLIENT_SETTINGS or key in LANGGRAPH_KEYS or key.startswith(("__", "langgraph_")):
        return
    known = sorted(CLIENT_SETTINGS)
    close = get_close_matches(key[:200], known, n=1, cutoff=0.5)
    hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(known)}"
    raise ConfigError(f"{shown(key, quote=False)}: not a setting a run's context may choose "
                      f"({hint})")


def resolve(context: Mapping[str, Any] | RunContext | None, settings: Settings) -> RunContext:
    """A served run's effective context: the client's choices over the operator's defaults
    (``settings.context()``), each checked.

    Args:
        context: what the client sent (a dict), or the ``RunContext`` LangGraph made of it.
        settings: the operator's settings.

    Raises:
        ConfigError: one line naming the key: an operator setting, a value past its bound, a
            model not allowed, an unknown corpus name, web search without a search provider.
    """
    given = given_choices(context)
    for key in sorted(given):
        _check_key(key)
    # None is "the default" for every field that takes it: the operator's, never "none" (a
    # client's max_tokens=None would lift the operator's budget past max_tokens_limit)
    choices = {k: v for k, v in given.items() if k in CLIENT_SETTINGS and v is not None}
    for key in sorted(choices):  # "" is refused as the CLI refuses --model "": in its words
        try:
            check_given(key, choices[key])
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    _check_bounds(choices, settings)  # first: the operator's bound is within the declared range
    try:
        checked = RunContext(**choices)  # types and declared ranges
    except TypeError as exc:  # e.g. a list for a number
        raise ConfigError(f"context: {shown(str(exc), quote=False, width=300)}") from None
    choices = {k: getattr(checked, k) for k in choices}
    allowed = settings.models_allowed()
    for key in MODEL_FIELDS:
        if choices.get(key) is not None and choices[key] not in allowed:
            # unset, RESEARCH_ALLOWED_MODELS was named as if it listed them
            by = ("; RESEARCH_ALLOWED_MODELS" if settings.allowed_models else ": offline and "
                  "this server's own models, as RESEARCH_ALLOWED_MODELS is unset")
            raise ConfigError(f"{key}: {shown(choices[key])} is not a model this server allows "
                              f"({', '.join(allowed)}{by})")
    if choices.get("corpus_name") is not None:
        settings.corpus_folder(choices["corpus_name"])  # ConfigError naming corpus_name
    searxng = settings.search_provider == "searxng"
    if choices.get("web") and not (settings.searxng_url if searxng else settings.tavily_api_key):
        missing = "SearXNG URL (SEARXNG_URL)" if searxng else "Tavily key (TAVILY_API_KEY)"
        raise ConfigError(f"web: this server has no {missing}, so a run cannot search the web")
    return replace(settings.context(), **choices)


def _check_bounds(choices: Mapping[str, Any], settings: Settings) -> None:
    """Refuse a client's number past the operator's bound on it (``rounds_limit``...); a value
    not of the setting's type (no number, or ``1e3``, a float, for a whole number) is left to
    ``RunContext``'s own check: the type is judged before the range, so ``"rounds": 1e3`` says
    "must be a whole number", as ``2.0`` does, not "past this server's bound" (trial 58, F8).

    Raises:
        ConfigError: ``KEY: VALUE is past this server's bound of LIMIT (VARIABLE)``.
    """
    for spec in specs_of(RunContext):
        value = choices.get(spec.name)
        if (spec.bound is None or isinstance(value, bool) or not isinstance(value, int | float)
                or (spec.type is int and not isinstance(value, int))):
            continue
        limit = getattr(settings, spec.bound)
        if limit is not None and value > limit:
            env = next(s.env for s in specs_of(Settings) if s.name == spec.bound)
            raise ConfigError(f"{spec.name}: {shown(value)} is past this server's bound of {limit} "
                              f"({env})")


def check_run_config(config: Mapping[str, Any], settings: Settings,
                     default_recursion_limit: int | None = None) -> None:
    """Refuse what a served run's ``config`` asks past the operator's bounds, or of LangGraph's
    own runtime.

    Args:
        config: the run's config (``max_concurrency``, ``recursion_limit``, ``configurable``).
        settings: the operator's settings.
        default_recursion_limit: the server's own default (a run that did not set one has it;
            it is not the client's).

    Raises:
        ConfigError: one line naming the key: ``config.max_concurrency`` not a whole number
            from 1 to ``max_concurrency_limit``; ``config.recursion_limit`` not a whole number,
            below what one round needs or above what ``rounds_limit`` rounds need
            (:func:`app.research.rounds.recursion_limit`); a ``configurable`` key of LangGraph's
            runtime (``__pregel_*``: ``__pregel_durability`` chose the run's durability, the
            operator's; ``__pregel_runtime: 1`` failed the run in an ``AttributeError``).
    """
    from app.research.rounds import recursion_limit

    for key, value in sorted((config.get("configurable") or {}).items(), key=lambda kv: kv[0]):
        if key.startswith(PREGEL_PREFIX) and isinstance(value, JSON_TYPES):
            raise ConfigError(f"config.configurable.{shown(key, quote=False)}: LangGraph's own "
                              "runtime key, not a client's (durability is the operator's: "
                              "docs/deploy.md)")
    pool = config.get("max_concurrency")
    if pool is not None:
        _whole("config.max_concurrency", pool)
        if pool > settings.max_concurrency_limit:
            raise ConfigError(f"config.max_concurrency: {pool} is past this server's bound of "
                              f"{settings.max_concurrency_limit} (RESEARCH_MAX_CONCURRENCY_LIMIT)")
    limit = config.get("recursion_limit")
    needed, least = recursion_limit(settings.rounds_limit), recursion_limit(1)
    if limit is not None and limit != default_recursion_limit:
        _whole("config.recursion_limit", limit)
        if limit > needed:
            raise ConfigError(f"config.recursion_limit: {limit} is more than "
                              f"{settings.rounds_limit} rounds need ({needed}; "
                              "RESEARCH_ROUNDS_LIMIT)")
        if limit < least:  # the run would end in GraphRecursionError before persist
            raise ConfigError(f"config.recursion_limit: {limit} is less than one round needs "
                              f"({least}; app.research.rounds.recursion_limit)")


PREGEL_PREFIX = "__pregel_"
"""The prefix of LangGraph's runtime keys in ``configurable`` (``langgraph._internal._constants``:
``__pregel_durability``, ``__pregel_runtime``...). LangGraph Server sets some before it calls the
graph factory (``__pregel_runtime``, ``__pregel_checkpointer``, ``__pregel_store``: objects,
``langgraph_api.graph.get_graph``; it keeps a client's ``__pregel_checkpointer``), so a key whose
value is JSON data (:data:`JSON_TYPES`) is a client's."""
JSON_TYPES = (str, int, float, bool, list, dict, type(None))
"""What a client's request can carry (JSON); the server's runtime objects are none of these."""


def request_problem(config: Any, context: Any = None) -> str | None:
    """What refuses a run's or an assistant's request as it arrives (the server's pre-run and
    assistant hooks, :mod:`app.server.auth`), in one line, or None: a key of LangGraph's own
    runtime (``__pregel_*``) in ``config.configurable`` or in the context, whatever its value,
    or ``config.callbacks``. Past the hooks it is too late: LangGraph Server puts its own
    checkpointer in the factory's config when the client's is falsy, so the factory
    (:func:`check_run_config`) saw an object, while the run kept the client's
    ``__pregel_checkpointer: null`` and ran with no checkpointer (its rows written, no
    checkpoint: the thread refused every later run); ``__pregel_runtime`` and ``callbacks``
    ended the run in a raw ``AttributeError``.

    Example:
        >>> request_problem({"configurable": {"__pregel_checkpointer": None}})[:42]
        'config.configurable.__pregel_checkpointer:'
        >>> request_problem({"configurable": {"thread_id": "t"}}, {"rounds": 2}) is None
        True
    """
    configurable = config.get("configurable") if isinstance(config, Mapping) else None
    for where, keys in (("config.configurable", configurable), ("context", context)):
        for key in sorted(map(str, keys)) if isinstance(keys, Mapping) else ():
            if key.startswith(PREGEL_PREFIX):
                return (f"{where}.{shown(key, quote=False)}: LangGraph's own runtime key, not a "
                        "client's (durability is the operator's: docs/deploy.md)")
    if isinstance(config, Mapping) and config.get("callbacks") is not None:
        return "config.callbacks: a client cannot send callbacks (they would run in the server)"
    return None


def _whole(label: str, value: Any) -> None:
    """Refuse a count that is no whole number >= 1 (``true`` is no number: JSON's boolean)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{label} must be a whole number, got {shown(value)}")
    if value < 1:
        raise ConfigError(f"{label} must be >= 1, got {value}")


def check_durability(durability: str | None, settings: Settings) -> None:
    """Refuse a served run's durability other than the operator's (``settings.durability``,
    else LangGraph's default, ``async``): LangGraph Server takes ``durability`` from the run's
    request (``runs.create(..., durability="exit")``) and passes it to the graph, out of the
    factory's sight, so a node asks (:meth:`app.graph.resources.Resources.context`).

    Args:
        durability: the run's (``config["configurable"]["__pregel_durability"]``; None: not set).
        settings: the operator's settings.

    Raises:
        ConfigError: ``durability: 'exit' is the operator's setting ...``.
    """
    operators = settings.durability or "async"
    if durability is not None and durability != operators:
        raise ConfigError(f"durability: {shown(durability)} is the operator's setting, not a "
                          f"run's: this server saves checkpoints {operators!r} (docs/deploy.md); "
                          "leave durability out of the run")
