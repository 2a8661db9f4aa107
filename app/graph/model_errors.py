"""The line of a model that cannot be built (no key, no provider package), saying which
setting chose it and how to choose another, where that choice was made: the command line
(``--model``, ``RESEARCH_<ROLE>_MODEL``), or, on LangGraph Server, the run's context (a
client's ``model`` / ``<role>_model``) or the server's own variables. Split from
:mod:`app.graph.resources` (:meth:`~app.graph.resources.Resources.models` raises it)."""

from __future__ import annotations

from app.settings.config import ConfigError, RunContext, Settings
from app.settings.credentials import default_model

__all__ = ["model_error"]

ROLES = ("planner", "worker", "report")

_CLI_WAY = "; use --model offline to run without one"
"""How :func:`app.llm.models.make_model` ends a missing key's line: a CLI's way on."""


def model_error(exc: ConfigError, spec: str, ctx: RunContext, settings: Settings, *,
                served: bool) -> ConfigError:
    """``exc`` (model ``spec`` cannot be built), saying what chose ``spec`` when that is not
    plain: a role's own model (``RESEARCH_WORKER_MODEL=openai:gpt-4.1-mini`` without a key said
    "use --model offline", and ``--model offline`` said the same line again: the role's
    variable wins; hostile trial H), and on a server whether the client's context or the
    server's variable chose it (the line named ``RESEARCH_WORKER_MODEL`` and ``--model`` to a
    client whose context had chosen it; H's closing note). A CLI run's own ``--model`` keeps
    ``exc``.

    Args:
        exc: the refusal :func:`app.llm.models.make_model` raised.
        spec: the spec it was refused for.
        ctx: the run's context (on a server: the client's choices over the operator's).
        settings: the operator's settings (the CLI's flags included).
        served: a LangGraph Server run.
    """
    model = ctx.model or settings.model or default_model(settings)
    roles = [role for role in ROLES if (ctx.model_for(role) or model) == spec]
    own = [role for role in roles if getattr(ctx, f"{role}_model", None)]
    said = str(exc).removesuffix(_CLI_WAY)
    if served:
        fields = [f"{role}_model" for role in own] + (["model"] if len(own) < len(roles) else [])
        chose = " and ".join(_served_source(field, ctx, settings) for field in fields)
        return ConfigError(f"{said}; chosen by {chose}: send "
                           f"{' and '.join(f'{f}: offline' for f in fields)} in the run's "
                           "context, or another model this server allows")
    if spec == model or not own:
        return exc
    names = [f"RESEARCH_{role.upper()}_MODEL" for role in own]
    return ConfigError(f"{said}; it is the {' and '.join(own)} model here "
                       f"({' and '.join(names)}: set in the environment or the .env file, or "
                       "kept from the thread's first run), which --model does not change: set "
                       f"{' and '.join(f'{n}=offline' for n in names)}, or another model")


def _served_source(field: str, ctx: RunContext, settings: Settings) -> str:
    """Who chose a served run's ``field`` (``model``, ``worker_model``...): the client's
    context when it differs from the operator's, else the server's variable (or default)."""
    given, operators = getattr(ctx, field, None), getattr(settings, field, None)
    if given is not None and given != operators:
        return f"the run's context ({field})"
    if operators is not None:
        return f"this server's RESEARCH_{field.upper()}"
    return "this server's default model"
