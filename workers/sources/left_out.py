"""A folder's files left out of its index after its walk, each counted by its reason and named
in a note: a second name of one file (:func:`workers.sources.walk.once_each`), a copy of a file
indexed (:func:`workers.sources.copies.without_copies`), a file a page includes
(:func:`workers.sources.includes.without_included`), a download a page shows
(:func:`workers.sources.downloads.without_shown_downloads`). Standard library and this package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, TypeVar

from workers.sources.text import safe_name

__all__ = ["drop_noted"]

_Entry = TypeVar("_Entry", bound=tuple[Any, ...])


def drop_noted(found: list[_Entry], gone: Mapping[str, str], skipped: Counter[str],
               notes: list[str] | None, why: str) -> list[_Entry]:
    """``found`` (``(ref, path, stat)`` entries) without those whose ref is a key of ``gone``,
    each counted ``why`` in ``skipped`` and named in ``notes`` (when given), in ``gone``'s
    order, by its ref and what ``gone`` says of it; ``found`` itself when ``gone`` is empty.

    Example:
        >>> skipped, notes = Counter(), []
        >>> drop_noted([("a.txt", 1), ("b.txt", 2)], {"b.txt": "a copy of a.txt"}, skipped,
        ...            notes, "copy")
        [('a.txt', 1)]
        >>> skipped, notes
        (Counter({'copy': 1}), ['b.txt: skipped, a copy of a.txt'])
    """
    if not gone:
        return found
    skipped[why] += len(gone)
    if notes is not None:
        notes.extend(f"{safe_name(ref)}: skipped, {what}" for ref, what in gone.items())
    return [entry for entry in found if entry[0] not in gone]
