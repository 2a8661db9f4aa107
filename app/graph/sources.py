"""The sources a run's workers search besides the corpus, made from the operator's settings:
the web search (Tavily or SearXNG) and the MCP servers' tools; and the one source their
citations resolve in. :class:`app.graph.resources.Resources` caches what these make.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.settings.config import ConfigError, Settings
from app.settings.credentials import web_key

__all__ = ["combine_sources", "open_web", "start_mcp", "web_cache_key"]


def web_cache_key(settings: Settings) -> tuple:
    """What the web source depends on: the data dir, the provider, its endpoint, the timeout and
    the Retry-After patience (equal keys, one source)."""
    ops = settings
    endpoint = ops.searxng_url if ops.search_provider == "searxng" else ops.tavily_base_url
    return (str(Path(ops.data_dir).resolve()), ops.search_provider, endpoint, ops.timeout,
            ops.retry_patience)


def open_web(settings: Settings) -> Any:
    """A new :class:`workers.sources.web.WebSource` of the operator's ``search_provider``:
    Tavily (``tavily_search``) or a SearXNG instance (``searxng_search``), behind its endpoint's
    Retry-After gate and rate-limit patience (:func:`workers.pacing.paced_search`, as the
    models have) and the data dir's ``web.sqlite`` cache.

    Raises:
        app.settings.config.ConfigError: the provider is not set up (no ``TAVILY_API_KEY``; no
            ``SEARXNG_URL``).
    """
    from app.llm.kept_windows import keep_windows
    from workers.pacing import RateLimitPatience, gate_for, paced_search
    from workers.sources.tavily import tavily_search
    from workers.sources.web import WebSource

    secret_or_url = web_key(settings)
    if settings.search_provider == "searxng":
        from workers.sources.searxng import searxng_search

        provider, label = "SearXNG", "web search (SearXNG)"
        raw = searxng_search(secret_or_url, timeout=settings.timeout)
        key, endpoint = "searxng", secret_or_url
    else:
        provider, label = "Tavily", "web search (Tavily)"
        raw = tavily_search(secret_or_url, settings.tavily_base_url, timeout=settings.timeout)
        key, endpoint = "tavily", settings.tavily_base_url or ""
    raw = _bounded(raw, settings.timeout, label)
    gate = gate_for(key, endpoint)
    # its Retry-After window outlives a run stopped inside it, as a model's does
    keep_windows(gate, settings.data_dir, key, endpoint, label, settings.retry_patience)
    # A 429's Retry-After holds every web search of the process, as it does for the models
    # (app/llm/provider.py).
    rate_limits = RateLimitPatience(settings.rate_limit_patience,
                                    max(2 * settings.retry_interval, 0.05), gate)
    search = paced_search(raw, gate, settings.retry_patience, label, rate_limits)
    return WebSource(Path(settings.data_dir), search, description=label, provider=provider)


def _bounded(search: Any, seconds: float, label: str) -> Any:
    """``search`` given ``seconds`` per whole request (:func:`workers.deadline.within`): the
    clients' timeouts are per read, so a service dripping its answer a byte a second held a
    run for as long as it went on, and a Ctrl-C with it. Past the deadline:
    :class:`workers.sources.web.WebTimeout`, as a silent service gives."""
    from workers.deadline import within
    from workers.sources.web import WebTimeout

    def bounded(query: str, max_results: int) -> Any:
        try:
            return within(lambda: search(query, max_results), seconds, f"the {label}'s answer")
        except WebTimeout:
            raise
        except TimeoutError:
            raise WebTimeout(f"{label} did not answer within {seconds:g} s "
                             "(RESEARCH_TIMEOUT sets it)") from None

    return bounded


def start_mcp(settings: Settings, *, served: bool = False) -> tuple[Any, Any, tuple[Any, ...]]:
    """Start the MCP servers of ``settings.mcp_config``: ``(hub, results, tools)``
    (:class:`workers.mcp_tools.McpHub`, its :class:`~workers.mcp_record.McpResults` record (the
    data dir's ``mcp.sqlite``, or PostgreSQL with ``database_url``), the sync tools offered to
    the agent workers); ``served``: a LangGraph Server run (its lines name the variable).

    Raises:
        app.settings.config.ConfigError: the config is unusable, a server did not start, or
            two tools would share a name (one line naming them; the servers started are
            closed).
    """
    from app.settings.mcp import load_mcp_config
    from app.settings.path_labels import label as path_label
    from app.storage.mcp_results import mcp_results_of
    from workers.mcp_tools import McpError, McpHub, make_mcp_tools

    set_by = "RESEARCH_MCP_CONFIG" if served else path_label("mcp_config")  # server: no flags
    hub = McpHub(load_mcp_config(settings.mcp_config, set_by), timeout=settings.mcp_timeout)
    try:
        hub.start()
        results = mcp_results_of(settings)  # the data dir, or PostgreSQL
        return hub, results, tuple(make_mcp_tools(hub, results))
    except McpError as exc:  # a server that did not start, or two tools of one name
        hub.close()
        raise ConfigError(str(exc)) from None


def combine_sources(corpus: Any, web: Any, mcp_results: Any) -> Any:
    """The source the workers cite from: ``corpus``, or (web search on, MCP servers set) a
    :class:`workers.sources.combined.CombinedSource` where the citations of a web page or an
    MCP tool's answer resolve next to the corpus's."""
    others = [s for s in (web, mcp_results) if s is not None]
    if not others:
        return corpus
    from workers.sources.combined import CombinedSource

    return CombinedSource(corpus, *others)
