"""What the graph factory would refuse in a run's ``config`` and ``context``, asked before a
run exists: of an assistant or a cron as it is stored (``app/server/auth.py``), whose runs
would each be refused (``app/server/studio.py``'s :func:`served_graph`).

An assistant (Studio's "configure assistant", ``assistants.create``) and a cron carry the
config and context every run made with them gets. Stored with a context past the operator's
bounds (``{"rounds": 99}``), an operator's setting (``data_dir``), a key that is no setting,
or a config past the bounds (``max_concurrency: 100000``), each was answered 200 and every run
made with it failed (trial 64, N1, for crons; trial S, H4, for assistants).

Source: LangGraph Server's assistants and crons (an assistant's ``config`` and ``context`` are
the defaults of its runs; the server copies ``configurable`` into the context when no context
is given).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.settings.client import check_run_config, resolve
from app.settings.config import ConfigError, Settings

__all__ = ["default_recursion_limit", "settings_problem"]


def default_recursion_limit() -> int | None:
    """LangGraph Server's own default ``recursion_limit`` (a run that set none has it; it is not
    the client's), or None outside the server (its config needs its environment)."""
    try:
        from langgraph_api.utils.config import DEFAULT_RECURSION_LIMIT
    except (ImportError, KeyError):
        return None
    return DEFAULT_RECURSION_LIMIT


def settings_problem(config: Any, context: Any, settings: Settings,
                     configurable: bool = True) -> str | None:
    """The one line the graph factory would refuse a run with ``config`` and ``context`` with,
    or None.

    Args:
        config: the run's (an assistant's, a cron's) ``config``; not a mapping: none.
        context: its ``context``; not a mapping: none.
        settings: the operator's settings.
        configurable: with no context, judge ``config``'s ``configurable`` as the context, as
            the server gives it to a run with no context (an assistant's); False for a cron's,
            whose ``configurable`` the server fills with its own keys (``cron_id``).
    """
    config = config if isinstance(config, Mapping) else {}
    if not context and configurable:
        configurable = config.get("configurable")
        context = configurable if isinstance(configurable, Mapping) else None
    try:
        resolve(dict(context) if isinstance(context, Mapping) and context else None, settings)
        check_run_config(config, settings, default_recursion_limit())
    except ConfigError as exc:
        return str(exc)
    return None
