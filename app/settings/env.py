"""Settings from the environment and ``.env``: precedence, parsing, and misspelt names.

Precedence, highest first: CLI flag > environment variable > ``.env`` file > default. The ``.env``
file is read with python-dotenv's ``dotenv_values`` (it is *not* loaded into ``os.environ``), so
the precedence is explicit here and a key never leaks into child processes or logs. A variable
set in the environment wins over the file even when it is empty (``RESEARCH_MODEL=``); the empty
value then means the default.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.settings.config import ENV_VARS, Settings
from app.settings.credentials import default_model
from app.settings.spec import ConfigError, SettingSpec, check_keys, parse_setting

__all__ = ["LOCAL_SERVER_UNNAMED", "OTHER_VARIABLES", "PREFIX", "load_settings",
           "unknown_variables"]


_EXPANDED = re.compile(r"\$\{(?P<name>[^}:]*)(?P<default>:-[^}]*)?\}")
"""A ``${NAME}`` python-dotenv expands in a value (``${NAME:-default}`` brings its own; its
pattern: a ``${NAME-default}`` names a variable called ``NAME-default``, which none is)."""


def _check_dotenv_lines(env_file: Path, environ: Mapping[str, str]
                        ) -> tuple[list[str], dict[str, str]]:
    """Refuse a ``.env`` line python-dotenv cannot parse (it would warn, without naming the
    file, and drop the line: a setting written there would silently not apply), or one written
    ``NAME:value`` (read as a bare name, and dropped); return a warning line for each setting
    the file sets twice to two values (the last is used, python-dotenv's rule;
    ``RESEARCH_ROUNDS=1`` then ``=3`` used to say nothing), and for each ``${NAME}`` in a
    setting's value that neither ``environ`` nor an earlier line sets (it expands to nothing:
    the setting silently kept its default); and, by setting, the line that says so of a path
    (``${NOPE}/x`` is ``/x``), refused where the value is used (:func:`load_settings`: a flag
    or the environment may set it instead, or the command not read it). Values are not shown:
    one may be a key.

    Raises:
        ConfigError: names the file and the line.
    """
    from dotenv.parser import parse_stream

    seen: dict[str, tuple[int, str | None]] = {}
    twice: list[str] = []
    unset_paths: dict[str, str] = {}
    with env_file.open(encoding="utf-8") as stream:
        for binding in parse_stream(stream):
            if binding.key is not None and binding.value is None and ":" in binding.key:
                raise ConfigError(f"{env_file}: line {binding.original.line} is not NAME=value "
                                  "(a colon is no equals sign)")
            for unset in _unset_names(binding, environ, seen):
                said = (f"{env_file}: line {binding.original.line}: ${{{unset}}} is not set, so "
                        f"{binding.key} has it as nothing")
                if ENV_VARS[binding.key].path:  # "${HOME}/x" would be "/x": refused if used
                    unset_paths[binding.key] = f"{said}; set {unset}, or write the path out"
                else:
                    twice.append(f"warning: {said}")
            if binding.key in ENV_VARS and binding.key in seen and (
                    seen[binding.key][1] != binding.value):
                twice.append(f"warning: {env_file}: {binding.key} is set on line "
                             f"{seen[binding.key][0]} and again on line "
                             f"{binding.original.line}, to another value; the last one is used")
            if binding.key is not None:
                seen[binding.key] = (binding.original.line, binding.value)
            if binding.error:
                # the line itself is not shown: it may hold a key
                raise ConfigError(f"{env_file}: line {binding.original.line} is not NAME=value")
            if binding.key in ENV_VARS and binding.value is None:  # a bare name: dotenv reads
                # no value, and the setting silently kept its default
                raise ConfigError(f"{env_file}: line {binding.original.line} names "
                                  f"{binding.key} without a value; write {binding.key}=value")
            if binding.key in unset_paths and not _unset_names(binding, environ, seen):
                del unset_paths[binding.key]  # set again, right
    return twice, unset_paths


def _unset_names(binding: Any, environ: Mapping[str, str], seen: Mapping[str, Any]) -> list[str]:
    """The ``${NAME}`` of a setting's ``.env`` value that nothing sets (no default given)."""
    if binding.key not in ENV_VARS or not binding.value:
        return []
    return [m["name"] for m in _EXPANDED.finditer(binding.value)
            if not m["default"] and m["name"] not in environ and m["name"] not in seen]


def _parse_env(name: str, spec: SettingSpec, raw: str) -> Any:
    """One variable's value: a repeatable setting takes a comma-separated list."""
    if not spec.repeated:
        return parse_setting(name, spec, raw)
    items = tuple(item for part in raw.split(",")
                  if (item := parse_setting(name, spec, part)) is not None)
    check_keys(name, spec, items)  # refused here, so the line says where it was set
    return items or None


PREFIX = "RESEARCH_"
"""The prefix of the project's own variables (a misspelt one is warned about)."""

OTHER_VARIABLES = frozenset({"RESEARCH_DEBUG"})
"""``RESEARCH_*`` variables read outside the settings (``RESEARCH_DEBUG``: tracebacks)."""


TWIN = 0.85
"""How close (``difflib``'s ratio) a provider's variable that no setting declares must be to one
that does to be warned about: ``OPENAI_BASEURL`` (0.97 to ``OPENAI_BASE_URL``), never the
provider's own ``OPENAI_ORG_ID``."""


def unknown_variables(environ: Mapping[str, str], loose: Collection[str] = ()) -> list[str]:
    """One warning line per ``RESEARCH_*`` variable that no setting declares (a typo such as
    ``RESEARCH_ROUND`` would otherwise be ignored silently), and of ``loose`` (the ``.env``
    file's names) one written in lower case or with dashes too (``research_rounds``,
    ``RESEARCH-ROUNDS``), naming the closest real name (``difflib``, the names compared
    without their prefix: ``RESEARCH_FOO`` was asked "did you mean RESEARCH_CORPORA?"). The
    known names are
    the declarations' (:data:`ENV_VARS`). A variable of a provider's prefix a setting reads
    (``OPENAI_``, ``TAVILY_``, ``SEARXNG_``) is warned about only when it is a near twin of a
    declared one (:data:`TWIN`): ``OPENAI_BASEURL`` sent a run meant for a local server to
    api.openai.com without a word (trial 70)."""
    import difflib

    known = sorted({*ENV_VARS, *OTHER_VARIABLES})
    theirs = {name.split("_", 1)[0] + "_" for name in ENV_VARS if not name.startswith(PREFIX)}
    out = []
    for name in sorted(environ):
        # research_rounds, RESEARCH-ROUNDS in the .env file (``loose``: its names): written
        # for a setting, read by none; the shell's own research_notes is none of ours
        spelt = name.upper().replace("-", "_") if name in loose else name
        if name in known:
            continue
        if spelt.startswith(PREFIX):
            ours = [k.removeprefix(PREFIX) for k in known if k.startswith(PREFIX)]
            close = difflib.get_close_matches(spelt.removeprefix(PREFIX), ours, n=1, cutoff=0.6)
            hint = f"; did you mean {PREFIX}{close[0]}?" if close else ""
            out.append(f"warning: {name} is not a setting and is ignored{hint}")
        elif spelt.startswith(tuple(theirs)) and (  # a provider's: only a near twin of ours
                close := difflib.get_close_matches(spelt, known, n=1, cutoff=TWIN)):
            out.append(f"warning: {name} is not a setting and is ignored; did you mean "
                       f"{close[0]}?")
    return out


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


def load_settings(
    env: Mapping[str, str] | None = None, env_file: Path | str | None = ".env",
    warn: Callable[[str], None] = _stderr, *, flags: Collection[str] = (),
    needed: Collection[str] | None = None,
) -> Settings:
    """Resolve settings from the environment over the ``.env`` file over the defaults.

    Args:
        env: the environment (default ``os.environ``).
        env_file: the dotenv file (default ``./.env``; missing is fine; None skips it).
        warn: called with one line per unknown ``RESEARCH_*`` variable
            (:func:`unknown_variables`; default: printed on stderr), and per unusable value
            of a setting the command does not need.
        flags: the settings given as flags: their variables are not read (the flag wins,
            even over a value that would be refused).
        needed: the settings the command uses (None: all of them); an unusable value of
            another one is warned about and left at its default.

    Raises:
        ConfigError: a variable cannot be converted (``RESEARCH_ROUNDS=two``) or is out of
            range (``RESEARCH_MAX_CONCURRENCY=0``, ``RESEARCH_TIMEOUT=0``), or ``env_file`` is
            not UTF-8 text; the message names it, and where it was set (``.env`` or the
            environment).
    """
    environ = dict(os.environ if env is None else env)
    file_values, unset_paths = _read_dotenv(env_file, warn)
    # A variable set in the environment wins over the file even when it is empty (as with
    # python-dotenv's ``load_dotenv(override=False)``); an empty value then means the default.
    merged = {**file_values, **environ}
    for line in unknown_variables(merged, loose=file_values):
        warn(line)
    values: dict[str, Any] = {}
    for name, spec in ENV_VARS.items():
        raw = merged.get(name)
        if raw is None or spec.name in flags:
            continue
        try:
            if name in unset_paths and name not in environ:  # the file's value is used
                raise ConfigError(unset_paths[name])
            value = _parse_env(name, spec, raw)
        except ConfigError as exc:
            line = f"{exc} (set in {'the environment' if name in environ else env_file})"
            if needed is None or spec.name in needed:
                raise ConfigError(line) from None
            warn(f"warning: {line}; not used by this command")
            continue
        if value is not None:
            values[spec.name] = value
    return _with_default_model(Settings(**values), flags, needed, warn)


def _read_dotenv(env_file: Path | str | None, warn: Callable[[str], None]
                 ) -> tuple[dict[str, str], dict[str, str]]:
    """The ``.env`` file's values (``{}`` when there is none) and, by setting, the refusal of a
    path holding an unset ``${NAME}`` (:func:`_check_dotenv_lines`, whose warnings go to
    ``warn``).

    Raises:
        ConfigError: the file is not UTF-8 text or cannot be read, or a line of it is refused.
    """
    if env_file is None or not Path(env_file).is_file():
        return {}, {}
    try:
        from dotenv import dotenv_values  # only when there is a .env file

        lines, unset_paths = _check_dotenv_lines(Path(env_file), os.environ)  # dotenv's
        for line in lines:
            warn(line)
        values = {k: v for k, v in dotenv_values(env_file).items() if v is not None}
    except (UnicodeDecodeError, OSError) as exc:  # not text, or not readable
        why = exc.reason if isinstance(exc, UnicodeDecodeError) else exc.strerror
        raise ConfigError(f"{env_file}: cannot be read as UTF-8 text ({why}); fix or "
                          "remove it") from None
    return values, unset_paths


def _with_default_model(settings: Settings, flags: Collection[str],
                        needed: Collection[str] | None, warn: Callable[[str], None]) -> Settings:
    """``settings`` with the default model when none is named (``default_model``), said when a
    command that runs a model has ``OPENAI_BASE_URL`` but nothing that names its model: no
    ``--model``, no ``RESEARCH_MODEL``, no key that picks OpenAI's default."""
    if settings.model is not None:
        return settings
    if (settings.openai_base_url and not settings.openai_api_key and "model" not in flags
            and (needed is None or "model" in needed)):
        warn(LOCAL_SERVER_UNNAMED)
    return replace(settings, model=default_model(settings))


LOCAL_SERVER_UNNAMED = (
    "warning: OPENAI_BASE_URL is set but no model is named (and no OPENAI_API_KEY picks "
    "OpenAI's default): this run is offline; name the server's model with --model "
    "openai:NAME or RESEARCH_MODEL")
"""Said when a local OpenAI-compatible server is configured and nothing names its model: the
run would otherwise be offline without a word."""
