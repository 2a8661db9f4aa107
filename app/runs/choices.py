"""The client's choices a thread's run was started with that change what its tasks find (the
models, ``--search-k``, ``--max-tokens``: those declared ``setting(resume="kept")``), recorded in
its ``runs`` row (``choices``), and what a run that continues the unfinished thread does with
them: it keeps each one its command does not name (as ``resume`` keeps the thread's corpus and
``--out``), uses one the command names, and says both in one note.

Without this, a thread killed mid-map and continued with another ``--search-k`` (or
``--max-tokens``, ``--model``) mixed results found both ways without a word, and one continued
with none of them named went on with the defaults, not with what it was started with. Unlike
``--review`` and ``--rounds``, which its plan fixed (a run that continues it keeps them, or is
refused), these only change how the remaining tasks search, which model runs them, and when
``route`` stops sending failed tasks again: a continuation may change them, and says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any, NamedTuple

from app.runs.status import UNFINISHED_RUNS
from app.settings.config import RunContext, Settings
from app.settings.credentials import default_model
from app.settings.spec import ConfigError

__all__ = ["RECORDED_CHOICES", "Continued", "choices_note", "choices_record", "continued_with"]

RECORDED_CHOICES: dict[str, str] = {
    f.name: f.metadata["flag"] or f.metadata["env"] for f in fields(RunContext)
    if f.metadata.get("resume") == "kept"}
"""The choices a ``runs`` row records, by setting name, with the flag (else the environment
variable) that gives each: every ``RunContext`` field declared ``setting(resume="kept")``, a
forker's own included (else a setting added as the docs said was not kept, and a continuation
mixed results found with two values; ``RESEARCH_WORKER_MODEL`` was not either)."""


def _value(settings: Settings, name: str) -> Any:
    """The value of choice ``name`` a run of ``settings`` uses (the model spec, the default
    one when none is set; a role's model, the run's model when none is set: else a worker model
    set to the default one was said to be another)."""
    if name == "model":
        return settings.model or default_model(settings)
    if name in ("planner_model", "worker_model", "report_model"):
        return getattr(settings, name) or _value(settings, "model")
    return getattr(settings, name)


def choices_record(settings: Settings) -> str:
    """What a ``runs`` row records of a run's :data:`RECORDED_CHOICES`: a JSON object by
    setting name (``{"model": "offline", "search_k": 5, "max_tokens": null}``)."""
    return json.dumps({name: _value(settings, name) for name in RECORDED_CHOICES})


class Continued(NamedTuple):
    """What :func:`continued_with` returns."""

    settings: Settings
    """The run's settings, with each choice it keeps from the thread's record."""
    kept: dict[str, Any]
    """The choices kept from the record, which this command's settings had otherwise."""
    changed: dict[str, tuple[Any, Any]]
    """The choices this command names otherwise than the record: ``(recorded, given)``."""


def continued_with(settings: Settings, recorded: Mapping[str, Any] | None,
                   asked: Mapping[str, Any]) -> Continued:
    """The settings of a run of a thread whose ``runs`` row (``recorded``) says it is
    unfinished (killed, stopped, failed, or paused for review): each recorded choice the
    command does not name (``asked``: the flags given, by setting name; a choice with no flag
    is named by its variable set) is kept; one it names is used. A finished thread (run again
    from its start), a new one, or a row recorded before runs kept their choices: ``settings``
    unchanged.
    """
    unchanged = Continued(settings, {}, {})
    if recorded is None or recorded.get("status") not in UNFINISHED_RUNS:
        return unchanged
    try:
        was = json.loads(recorded.get("choices") or "null")
    except ValueError:
        return unchanged
    if not isinstance(was, dict):
        return unchanged
    kept: dict[str, Any] = {}
    changed: dict[str, tuple[Any, Any]] = {}
    for name in RECORDED_CHOICES:
        if name not in was or _value(settings, name) == was[name]:
            continue
        if _follows_model(name, was, settings, asked):
            continue  # it follows the --model given, as it followed the recorded one
        if name in asked or _set_by_variable(settings, name):
            changed[name] = (was[name], _value(settings, name))
        else:
            kept[name] = was[name]
    for name, value in kept.items():
        _check_recorded(settings, name, value)
    return Continued(replace(settings, **kept) if kept else settings, kept, changed)


def _check_recorded(settings: Settings, name: str, value: Any) -> None:
    """Refuse a recorded choice no setting may take, naming where it comes from: a ``runs`` row
    edited by hand, or written by a version of the app with other bounds, said ``search_k must
    be a whole number, got 'abc'`` (exit 2) to a user who gave no ``--search-k`` (hostile
    trial H, F5).

    Raises:
        ConfigError: one line naming the record, the value's fault and the flag (or variable)
            that chooses instead.
    """
    try:
        replace(settings, **{name: value})
    except ConfigError as exc:
        given = RECORDED_CHOICES[name]
        how = f"give {given}" if given.startswith("-") else f"set {given}"
        raise ConfigError(f"the thread's recorded settings (its runs row in the results "
                          f"database) are unusable: {exc} (the row was edited, or written by "
                          f"another version of this app); {how} to choose one") from None


ROLE_MODELS = ("planner_model", "worker_model", "report_model")
"""The role models, each the run's ``model`` unless its own variable sets another."""


def _follows_model(name: str, was: Mapping[str, Any], settings: Settings,
                   asked: Mapping[str, Any]) -> bool:
    """Whether role model ``name`` follows the ``--model`` this command gives: it was recorded
    as the thread's model (no variable of its own set it then) and none sets it now. Kept from
    the record, a thread started on ``openai:gpt-4.1-mini`` and continued with ``--model
    offline`` (as the "needs OPENAI_API_KEY ... use --model offline" line advises) still
    needed the key for its planner, workers and report: the same line again, the thread stuck
    (hostile trial H, F2)."""
    return (name in ROLE_MODELS and "model" in asked and was.get(name) == was.get("model")
            and not _set_by_variable(settings, name))


def _set_by_variable(settings: Settings, name: str) -> bool:
    """Whether choice ``name`` has no flag and the environment (or ``.env``) sets it: named,
    as a flag is (``RESEARCH_WORKER_MODEL``; there is no other way to change it)."""
    return not RECORDED_CHOICES[name].startswith("-") and getattr(settings, name) is not None


def _changed_by(kept: Mapping[str, Any]) -> str:
    """What changes the ``kept`` choices: a flag given (``RESEARCH_SEARCH_K`` does not), a
    variable set for one that has no flag."""
    flags = any(RECORDED_CHOICES[n].startswith("-") for n in kept)
    variables = not all(RECORDED_CHOICES[n].startswith("-") for n in kept)
    return " or ".join(w for w, on in (("a flag given", flags), ("its variable set", variables))
                       if on)


def _flag(name: str, value: Any) -> str:
    """``--search-k 5``, ``RESEARCH_WORKER_MODEL=offline``; ``no --max-tokens`` for none."""
    given = RECORDED_CHOICES[name]
    if value is None:
        return f"no {given}"
    return f"{given} {value}" if given.startswith("-") else f"{given}={value}"


def choices_note(thread_id: str, continued: Continued, *, restarted: bool) -> str | None:
    """The one note of a run that continues ``thread_id`` (:func:`continued_with`): the
    recorded choices it keeps, and those it uses as given where the thread started with
    others, whose results so far were found with those (a thread that starts again from its
    input, ``restarted``, keeps none of its results: no mix to name). None: nothing to say."""
    parts = []
    if continued.kept:
        kept = ", ".join(_flag(n, v) for n, v in continued.kept.items())
        parts.append(f"keeps the {kept} it was started with (its recorded settings; "
                     f"{_changed_by(continued.kept)} changes one)")
    if continued.changed and not restarted:
        given = ", ".join(_flag(n, now) for n, (_, now) in continued.changed.items())
        was = ", ".join(_flag(n, then) for n, (then, _) in continued.changed.items())
        budget = ("; the token budget counts the tokens it spent before too"
                  if "max_tokens" in continued.changed else "")
        parts.append(f"uses {given} as given, where it was started with {was}: its results so "
                     f"far were found with the first, the rest will be with the second{budget}")
    if not parts:
        return None
    return f"this run continues thread {thread_id}, and " + "; it ".join(parts)
