"""The small general-purpose reducers: how a channel that parallel nodes write folds its writes.

Each is the ``op`` of ``Annotated[T, op]`` on a state key; LangGraph calls it as
``value = op(value, write)`` once per write, starting from the key's default (``list()`` for a
list, ``float()`` for a float, none at all for an optional key). All are pure: they never mutate
their inputs. ``scripts/walkthrough_6_reducer_catalog.py`` runs each on an example, and
docs/extending.md ("Add a state key") says which to pick.

Source: https://langchain-ai.github.io/langgraph/concepts/low_level/#reducers
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

__all__ = [
    "BadCount",
    "add_count",
    "add_counts",
    "capped_list",
    "concat_lists",
    "dedupe_extend",
    "keep_latest",
    "keep_max",
    "keep_min",
    "merge_dicts",
    "UnhashableItem",
]

T = TypeVar("T")


def dedupe_extend(existing: Sequence[T] | None, new: Iterable[T] | T | None) -> list[T]:
    """Append the new items that are not already present, keeping first-seen order.

    Use it for a list of hashable values that many parallel nodes add to, where the same value
    must appear once (visited URLs, sub-questions, source references).

    Args:
        existing: the current list (hashable items), or None.
        new: one item or an iterable of items (a ``str`` counts as one item), or None.

    Example:
        >>> dedupe_extend(["a", "b"], ["b", "c", "c"])
        ['a', 'b', 'c']
    """
    out = list(existing or [])
    seen = set(out)
    if new is None:
        return out
    items = [new] if isinstance(new, (str, bytes)) or not isinstance(new, Iterable) else new
    for item in items:
        try:
            fresh = item not in seen
        except TypeError:  # a state edit's list or dict: LangGraph Server's 400, not a 500
            raise UnhashableItem(f"dedupe_extend: an item must be hashable (text, a number), "
                                 f"got {type(item).__name__}") from None
        if fresh:
            seen.add(item)
            out.append(item)
    return out


class UnhashableItem(TypeError, ValueError):
    """An item :func:`dedupe_extend` cannot keep once. A ``TypeError``, and a ``ValueError``
    too: LangGraph Server answers a ``ValueError`` raised by ``update_state`` with 400 and its
    line, any other exception with 500 and a traceback."""


def merge_dicts(existing: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> dict:
    """Shallow dict merge, later wins: for a map that parallel nodes each add keys to.

    Use it for settings or metadata written piecewise (e.g. ``{"worker": "model name"}``). A value
    of None is stored as None (it does not delete the key).

    Example:
        >>> merge_dicts({"a": 1, "b": 2}, {"b": 3, "c": 4})
        {'a': 1, 'b': 3, 'c': 4}
    """
    out = dict(existing or {})
    out.update(new or {})
    return out


def capped_list(limit: int) -> Callable[[list | None, Any], list]:
    """Build a reducer that appends and then keeps only the last ``limit`` items.

    Use it for logs, recent events or progress messages in state, whose growth would otherwise
    make every checkpoint larger.

    Args:
        limit: how many items to keep (>= 1).

    Raises:
        ValueError: when ``limit`` < 1.

    Example:
        >>> keep3 = capped_list(3)
        >>> keep3([1, 2, 3], [4, 5])
        [3, 4, 5]
    """
    if limit < 1:
        raise ValueError("capped_list needs a limit of at least 1")

    def reducer(existing: list | None, new: Any) -> list:
        items = new if isinstance(new, list) else ([] if new is None else [new])
        return (list(existing or []) + items)[-limit:]

    reducer.__name__ = f"capped_list_{limit}"
    reducer.__doc__ = f"Append, then keep the last {limit} items."
    return reducer


def concat_lists(existing: list | None, new: list | Any | None) -> list:
    """``operator.add`` for lists that is safe with None and with a single item.

    Use it for an append-only log where duplicates are meaningful (each write is an event).

    Example:
        >>> concat_lists(None, [1]) + concat_lists([1], 2)
        [1, 1, 2]
    """
    items = new if isinstance(new, list) else ([] if new is None else [new])
    return list(existing or []) + items


def keep_latest(field: str) -> Callable[[Any, Any], Any]:
    """Build a reducer that keeps whichever value has the greater ``field`` (e.g. a timestamp).

    Use it for a "latest status" key that parallel or retried nodes write in any order: the
    newest by its own timestamp wins, not the last applied. On a tie the later write wins. A side
    that is None (or lacks the field) loses to one that has it.

    Args:
        field: the key (for dicts) or attribute compared; values must be mutually comparable
            (ISO-8601 strings in UTC compare correctly as strings).

    Example:
        >>> latest = keep_latest("at")
        >>> latest({"at": "2026-11-30T10:00Z", "s": "b"}, {"at": "2026-11-30T09:00Z", "s": "a"})
        {'at': '2026-11-30T10:00Z', 's': 'b'}
    """

    def _stamp(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, Mapping):
            return value.get(field)
        return getattr(value, field, None)

    def reducer(existing: Any, new: Any) -> Any:
        old_at, new_at = _stamp(existing), _stamp(new)
        if new_at is None:
            return existing if old_at is not None else new if new is not None else existing
        if old_at is None or new_at >= old_at:
            return new
        return existing

    reducer.__name__ = f"keep_latest_{field}"
    reducer.__doc__ = f"Keep the value with the greatest {field!r}."
    return reducer


class BadCount(TypeError, ValueError):
    """A counter's write that is not a whole number (:func:`add_count`, :func:`add_counts`). A
    ``TypeError``, as ``operator.add``'s would be, and a ``ValueError``: LangGraph Server answers
    a ``ValueError`` raised by ``update_state`` with 400 and its line, any other with 500."""


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadCount(f"{what} must be a whole number, got {type(value).__name__} "
                       f"{repr(value)[:60]}")
    return value


def add_count(existing: int | None, new: int | None) -> int:
    """``operator.add`` for one counter that parallel nodes write deltas to (tokens spent), which
    refuses anything but a whole number in one line: a state edit of ``{"tokens": "x"}`` made
    ``operator.add`` raise a ``TypeError``, LangGraph Server's 500.

    Write the delta, not the total. None counts as 0.

    Raises:
        BadCount: a side is not a whole number (``bool`` included).

    Example:
        >>> add_count(add_count(None, 120), 30)
        150
    """
    return _whole(existing or 0, "a count") + _whole(new or 0, "a count's write")


def add_counts(existing: Mapping[Hashable, int] | None, new: Mapping[Hashable, int] | None) -> dict:
    """Add per-key integer deltas: a dict of counters that parallel nodes increment.

    For a single counter use :func:`add_count` and write the delta (not the total). This is the
    same idea for several named counters at once (``{"prompt_tokens": 120, ...}``).

    Raises:
        BadCount: a delta is not a whole number.

    Example:
        >>> add_counts({"in": 10, "out": 2}, {"in": 5, "calls": 1})
        {'in': 15, 'out': 2, 'calls': 1}
    """
    out = dict(existing or {})
    for key, delta in (new or {}).items():
        out[key] = _whole(out.get(key, 0), f"count {key!r}") + _whole(delta, f"delta {key!r}")
    return out


def keep_max(existing: Any, new: Any) -> Any:
    """Keep the greater of the current value and the write: a high-water mark (best score,
    latest round, largest size) that parallel nodes write in any order.

    Register it on an *optional* key, ``best: Annotated[float | None, keep_max]``, not as
    ``Annotated[float, max]``, for two reasons measured on langgraph 1.2.24:

    * the builtin ``max`` has no signature LangGraph can inspect, so ``StateGraph(...)`` raises
      ``ValueError: no signature found for builtin``;
    * a reducer key starts at its type's default, ``float()`` == 0.0 for ``float``, which a max of
      negative values (or a :func:`keep_min` of positive ones) would keep forever. A
      ``float | None`` key has no default: its first write is stored as it is.

    None on either side counts as "no value": the other side is kept.

    Args:
        existing: the current value (a number, or anything ``>`` compares), or None.
        new: the write, or None.

    Example:
        >>> keep_max(None, -3.5), keep_max(-3.5, -7.0), keep_max(-3.5, None)
        (-3.5, -3.5, -3.5)
    """
    if new is None:
        return existing
    if existing is None or new > existing:
        return new
    return existing


def keep_min(existing: Any, new: Any) -> Any:
    """Keep the smaller of the current value and the write: a low-water mark (the earliest
    date, the cheapest cost). Register it as ``Annotated[float | None, keep_min]``; see
    :func:`keep_max` for why neither ``min`` nor a plain ``float`` key works.

    Example:
        >>> keep_min(None, 2.0), keep_min(2.0, 5.0), keep_min(2.0, None)
        (2.0, 2.0, 2.0)
    """
    if new is None:
        return existing
    if existing is None or new < existing:
        return new
    return existing
