"""How a refused path names what set it: its flag when given, else its variable
(``RESEARCH_DATA_DIR``, from the environment or the ``.env`` file). The path checks named the
flag whatever set the path: ``RESEARCH_DATA_DIR=/x/dangling`` was refused as ``--data-dir
/x/dangling is a link to ...`` to a user who gave no ``--data-dir`` (found with the role-model
line's siblings, hostile trial H's closing note). :func:`app.cli.commands.settings_of` says
which settings its command's variables set (:func:`set_by_variables`); a caller that loaded no
settings that way gets the flags' names, as before. Read by the CLI's path checks
(:mod:`app.cli.checks`) and where a run starts its MCP servers
(:func:`app.graph.sources.start_mcp`)."""

from __future__ import annotations

from collections.abc import Collection

from app.settings.config import ENV_VARS, Settings, default_of

__all__ = ["PATH_FLAGS", "label", "set_by_variables"]

PATH_FLAGS = {"data_dir": "--data-dir", "corpus": "--corpus", "mcp_config": "--mcp-config"}
"""The path settings a flag or a variable sets, with their flags (``--out`` and ``--run-log``
have no variable)."""

_VARIABLES = {spec.name: env for env, spec in ENV_VARS.items()}
_FROM_VARIABLES: set[str] = set()


def set_by_variables(settings: Settings, flags: Collection[str]) -> None:
    """Note which path settings of this command its variables set: not given as ``flags`` (by
    setting name) and not at their default, so read from the environment or ``.env``."""
    _FROM_VARIABLES.clear()
    _FROM_VARIABLES.update(name for name in PATH_FLAGS if name not in flags
                           and getattr(settings, name) != default_of(name))


def label(name: str) -> str:
    """What set path setting ``name`` (a key of :data:`PATH_FLAGS`), for its refusal's line:
    ``"--data-dir"``, or ``"RESEARCH_DATA_DIR"`` when the variable set it."""
    if name in _FROM_VARIABLES and name in _VARIABLES:
        return _VARIABLES[name]
    return PATH_FLAGS[name]
