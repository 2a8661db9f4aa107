"""How a setting is declared and checked: :func:`setting` makes the dataclass field, and
:class:`SettingSpec` is that field read back as data, from which the environment table, the CLI
flags and the README's settings table are derived (the declarations themselves are in
``app/settings/config.py``).

Values are checked against the declaration in one place (:func:`validate`, :func:`parse_setting`),
whether they come from an environment variable, a CLI flag, or a LangGraph Server client's
``context`` dict.
"""

from __future__ import annotations

import math
import os
import re
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from typing import Any

from app.research.text import utf8_problem

__all__ = ["UTF8_WAY_OUT", "ConfigError", "SettingSpec", "check_keys", "coerce", "parse_setting",
           "expand_home", "setting", "shown", "specs_of", "utf8_problem", "validate"]


class ConfigError(ValueError):
    """A setting has an unusable value; the message is one line naming it."""


def setting(default: Any = None, *, help: str, env: str | None = None, flag: str | None = None,
            minimum: float | None = None, exclusive: bool = False, maximum: float | None = None,
            choices: tuple[str, ...] | None = None, metavar: str | None = None,
            group: str = "run", check: Callable[[Any], Any] | None = None,
            secret: bool = False, bound: str | None = None, keyed: bool = False,
            path: bool = False, resume: str | None = None) -> Any:
    """Declare one setting: a dataclass field with its metadata.

    Args:
        default: the value when nothing sets it (a tuple for a repeatable flag).
        help: one line for ``--help``, the README table and ``.env.example``.
        env: the environment variable (None: not settable from the environment).
        flag: the CLI flag of ``research`` and ``resume`` (None: no flag).
        minimum, exclusive, maximum: numeric bounds (``exclusive``: ``value > minimum``).
        choices: the allowed strings.
        metavar: the flag's placeholder in ``--help``.
        group: ``"run"``, or ``"faults"`` (the fault-injection flags' own ``--help`` group).
        check: ``check(value)`` raises ``ValueError`` with a one-line reason for a bad value.
        secret: never shown: masked by :func:`app.settings.credentials.redact` and
            ``Settings.redacted`` wherever it could be printed or stored (of a URL, such as
            the database URL, only its password and secret query values: the rest names
            the server).
        bound: for a setting a run's client may choose (a ``RunContext`` field): the name of
            the operator's setting that caps what a client may ask for (e.g. ``rounds_limit``);
            the command line, the operator, is not capped.
        keyed: a repeatable setting of ``KEY=VALUE`` items (``metavar`` names both): a key given
            twice with two values is refused (:func:`check_keys`).
        path: a file or folder (of a ``keyed`` setting: each item's VALUE): a leading ``~`` is
            expanded (:func:`coerce`), whether the value comes from a flag, the environment,
            ``.env`` or code (a ``.env`` file expands ``${NAME}``, python-dotenv's rule, but
            not ``~``: ``RESEARCH_DATA_DIR=~/research-data`` made a folder named ``~``); a
            ``$NAME`` left in it is refused (:data:`SHELL_VARIABLE`).
        resume: for a client's choice (a ``RunContext`` field), what a run that continues an
            unfinished thread does with it: ``"kept"``, recorded in the thread's ``runs`` row
            and kept unless the command names it, with a note (it changes what the remaining
            tasks find: :mod:`app.runs.choices`); ``"thread"``, fixed by the thread's plan or
            corpus (a continuation keeps it, or is refused); ``"free"``, the continuation's
            own (how fast, not what). Every ``RunContext`` field says which
            (``tests/app/test_choices.py``): a forker's new choice cannot be left undecided.
    """
    meta = {"help": help, "env": env, "flag": flag, "minimum": minimum, "exclusive": exclusive,
            "maximum": maximum, "choices": choices, "metavar": metavar, "group": group,
            "check": check, "secret": secret, "bound": bound, "keyed": keyed, "path": path,
            "resume": resume}
    if isinstance(default, (list, dict)):
        raise TypeError("use a tuple for a repeatable setting's default (the context is frozen)")
    return field(default=default, metadata=meta, repr=not secret)


@dataclass(frozen=True)
class SettingSpec:
    """One declared setting, read from its field (see :func:`setting`)."""

    name: str
    type: type
    """``str``, ``int``, ``float`` or ``bool`` (of the items, for a repeatable setting)."""
    optional: bool
    repeated: bool
    default: Any
    help: str
    env: str | None
    flag: str | None
    minimum: float | None
    exclusive: bool
    maximum: float | None
    choices: tuple[str, ...] | None
    metavar: str | None
    group: str
    check: Callable[[Any], Any] | None
    secret: bool
    bound: str | None
    """The operator's setting that caps a client's value (see :func:`setting`)."""
    keyed: bool = False
    """``KEY=VALUE`` items, each key once (see :func:`setting`)."""
    path: bool = False
    """A file or folder, ``~`` expanded (see :func:`setting`)."""


@cache
def specs_of(cls: type) -> tuple[SettingSpec, ...]:
    """The declared settings of the dataclass ``cls``, in field order."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in fields(cls):
        hint = hints[f.name]
        args = typing.get_args(hint)
        optional = isinstance(hint, types.UnionType) and type(None) in args
        if optional:
            hint = next(a for a in args if a is not type(None))
        repeated = typing.get_origin(hint) is tuple
        base = typing.get_args(hint)[0] if repeated else hint
        m = f.metadata
        out.append(SettingSpec(
            name=f.name, type=base, optional=optional, repeated=repeated,
            default=None if f.default is MISSING else f.default, help=m["help"], env=m["env"],
            flag=m["flag"], minimum=m["minimum"], exclusive=m["exclusive"], maximum=m["maximum"],
            choices=m["choices"], metavar=m["metavar"], group=m["group"], check=m["check"],
            secret=m["secret"], bound=m["bound"], keyed=m["keyed"], path=m["path"]))
    return tuple(out)


def coerce(spec: SettingSpec, value: Any) -> Any:
    """``value`` in the declared type: a tuple for a repeatable setting, a path as str with its
    ``~`` expanded (:func:`expand_home`), an int as float."""
    if value is None:
        return None
    if spec.repeated:
        value = value if isinstance(value, tuple) else tuple(value)
        if spec.path:
            expanded = tuple(expand_home(item, spec.keyed) for item in value)
            return value if expanded == value else expanded
        return value
    if spec.type is str and isinstance(value, os.PathLike):
        value = os.fspath(value)
    if spec.path and isinstance(value, str):
        expanded = expand_home(value)
        return value if expanded == value else expanded
    if spec.type is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def expand_home(value: Any, keyed: bool = False) -> Any:
    """``value`` (a path; of a ``KEY=PATH`` item when ``keyed``) with a leading ``~`` or
    ``~user`` expanded (``os.path.expanduser``); anything but a str is given back as it is.

    Example:
        >>> import os; home = os.path.expanduser("~")
        >>> expand_home("~/d") == f"{home}/d", expand_home("a=~/c", keyed=True) == f"a={home}/c"
        (True, True)
        >>> expand_home("./~/d"), expand_home("a=b", keyed=True)
        ('./~/d', 'a=b')
    """
    if not isinstance(value, str):
        return value
    if keyed:
        key, eq, path = value.partition("=")
        return f"{key}{eq}{expand_home(path.strip())}" if eq and path.strip()[:1] == "~" else value
    return os.path.expanduser(value) if value.startswith("~") else value


_KIND = {int: "a whole number", float: "a number", str: "text", bool: "true or false"}
"""How an error line names what a setting takes (a value already parsed: an environment
variable's or flag's text is parsed by :func:`parse_setting`, which names the words it takes;
a served run's context is JSON, whose booleans are ``true`` and ``false``)."""


def shown(value: Any, quote: bool = True, width: int = 80) -> str:
    """``value`` as a one-line error shows it: its ``repr`` (``quote`` False: ``str``), cut to
    ``width`` characters with its length said (a client's 100 KB key is not echoed whole).

    Example:
        >>> shown("k" * 1000, width=20)
        "'kkkkkkkkkkkkkkkkkk... (1002 characters)"
    """
    text = repr(value) if quote else str(value)
    return text if len(text) <= width else f"{text[:width - 1]}... ({len(text)} characters)"


def validate(label: str, spec: SettingSpec, value: Any) -> None:
    """Raise ConfigError (one line, naming ``label``) when ``value`` breaks the declaration."""
    if value is None:
        if not spec.optional:
            raise ConfigError(f"{label} must be set")
        return
    for item in value if spec.repeated else (value,):
        _validate_item(label, spec, item)
    if spec.repeated:
        check_keys(label, spec, value)


def check_keys(label: str, spec: SettingSpec, items: tuple[str, ...]) -> None:
    """Refuse a ``keyed`` setting's key given twice with two values (``RESEARCH_CORPORA=
    docs=/a,docs=/b``): which one wins would be a guess. A secret key (a token) is not shown.

    Raises:
        ConfigError: one line naming ``label`` and the two values.
    """
    if not spec.keyed:
        return
    key_word, _, value_word = (spec.metavar or "KEY=VALUE").partition("=")
    seen: dict[str, str] = {}
    # a secret key is a token, which may end in "=" (base64 padding): its user follows the last
    split = str.rpartition if spec.secret else str.partition
    for key, _, value in (split(item, "=") for item in items):
        key, value = key.strip(), value.strip()
        if seen.setdefault(key, value) != value:
            which = f"a {key_word}" if spec.secret else f"{key_word} {key!r}"
            raise ConfigError(f"{label}: {which} is given twice, with {value_word} "
                              f"{seen[key]!r} and {value!r}; give each {key_word} once")


SHELL_VARIABLE = re.compile(r"\$(?:\{[A-Za-z_]\w*\}|[A-Za-z_]\w*)")
"""A shell variable left in a path (``$HOME/x``): ``.env`` expands ``${HOME}`` only, so
``RESEARCH_DATA_DIR=$HOME/x`` made a folder named ``$HOME`` where the command ran; a path
setting holding one is refused."""


def _validate_item(label: str, spec: SettingSpec, item: Any) -> None:
    """Raise ConfigError when one value (one item of a repeatable setting) is unusable."""
    if spec.path and isinstance(item, str) and (var := SHELL_VARIABLE.search(item)):
        name = var.group(0).strip("${}")
        raise ConfigError(f"{label}: {shown(item)} holds {var.group(0)}, which nothing expanded "
                          f"(a .env file expands ${{{name}}}, not ${name}; a shell, outside "
                          "single quotes): write the path itself")
    if spec.type in (int, float):
        if isinstance(item, bool) or not isinstance(item, (int, float)) or (
                spec.type is int and not isinstance(item, int)):
            raise ConfigError(f"{label} must be {_KIND[spec.type]}, got {shown(item)}")
        if not math.isfinite(item):
            raise ConfigError(f"{label} must be a finite number, got {shown(item)}")
        if spec.minimum is not None and (
                item < spec.minimum or (spec.exclusive and item == spec.minimum)):
            relation = ">" if spec.exclusive else ">="
            raise ConfigError(f"{label} must be {relation} {_bound(spec.minimum)}, "
                              f"got {shown(item)}")
        if spec.maximum is not None and item > spec.maximum:
            raise ConfigError(f"{label} must be <= {_bound(spec.maximum)}, got {shown(item)}")
    elif not isinstance(item, spec.type):
        raise ConfigError(f"{label} must be {_KIND[spec.type]}, got {shown(item)}")
    if spec.choices and item not in spec.choices:
        raise ConfigError(f"{label} must be one of {', '.join(spec.choices)}, got {shown(item)}")
    if spec.check is not None:
        try:
            spec.check(item)
        except ValueError as exc:  # named, unless the check's line names it
            raise ConfigError(str(exc) if label in str(exc) else f"{label}: {exc}") from None


UTF8_WAY_OUT = "use a UTF-8 locale (LANG=C.UTF-8) or type it in UTF-8"
"""What a line refusing text that is not valid UTF-8 says to do."""


def path_not_utf8(label: str, path: str, where: str, given: str | None = None) -> str:
    """The line refusing a path that is not valid UTF-8 (``where``: :func:`utf8_problem`'s
    answer), naming it with its bytes shown (``/tmp/caf\\xe9``); ``given``: the path as given,
    when ``path`` is what it resolves to (a link, or a relative path in such a folder). A
    folder or file that exists under such a name (a Latin-1 system's) cannot be used as it is:
    the app records the paths it uses (its runs, reports, printed commands) in UTF-8, so the
    way out is a UTF-8 name (a symbolic link is no way out: the path is resolved). A name that
    does not exist was typed on a Latin-1 terminal: :data:`UTF8_WAY_OUT`.

    Example:
        >>> print(path_not_utf8("--out", "/no/caf\\udce9", "byte 0xe9 at position 7")[:55])
        --out /no/caf\\xe9 is not valid UTF-8 (byte 0xe9 at posi
    """
    shown = os.fsencode(path).decode("utf-8", "backslashreplace")
    line = (f"{label} {shown} is not valid UTF-8 ({where})" if given is None else
            f"{label} {given} resolves to {shown}, which is not valid UTF-8 ({where})")
    existing = path
    while not os.path.lexists(existing) and os.path.dirname(existing) != existing:
        existing = os.path.dirname(existing)
    if os.path.lexists(existing) and utf8_problem(existing):  # a name on disk holds the byte
        return (f"{line}: the app records the paths it uses in UTF-8; give the folder (or "
                "file) that holds this byte a UTF-8 name, e.g. convmv -f latin1 -t utf8")
    return f"{line}: {UTF8_WAY_OUT}"


def _bound(number: float) -> str:
    """A bound as a line shows it: ``600``, ``1073741824`` (not ``1.07374e+09``), ``0.5``."""
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


_BOOLEANS = {"1": True, "true": True, "yes": True, "on": True,
             "0": False, "false": False, "no": False, "off": False}


_NUMBER = {int: re.compile(r"-?[0-9]+"),
           float: re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|-?inf|nan",
                             re.IGNORECASE)}
"""How a number setting is written: ASCII digits, a float with its point and exponent
(``inf`` and ``nan`` are read, then refused as not finite, by name)."""


def parse_setting(label: str, spec: SettingSpec, raw: str) -> Any:
    """Convert one raw string (an environment value or a flag's argument) and validate it;
    an empty string means unset (None).

    Raises:
        ConfigError: one line naming ``label``.
    """
    if where := utf8_problem(raw):  # a Latin-1 terminal's byte, or a path's
        if spec.path and not spec.keyed:
            raise ConfigError(path_not_utf8(label, raw.strip(), where))
        raise ConfigError(f"{label} is not valid UTF-8 ({where}): {UTF8_WAY_OUT}")
    raw = raw.strip()
    if raw == "":
        return None
    if spec.type is bool:
        value = _BOOLEANS.get(raw.lower())
        if value is None:
            raise ConfigError(f"{label} must be 1 or 0 (true/false, yes/no, on/off), got {raw!r}")
        return value
    if spec.type in (int, float):
        try:  # ASCII digits only: int() reads "1_0" as 10 and "٣" or "５" as digits
            if not _NUMBER[spec.type].fullmatch(raw):
                raise ValueError(raw)
            value = spec.type(raw)
        except ValueError:
            raise ConfigError(f"{label} must be {_KIND[spec.type]}, got {raw!r}") from None
    else:
        value = raw
    _validate_item(label, spec, value)  # a repeatable flag parses one item at a time
    return value
