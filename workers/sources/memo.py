"""A small memo of a read-only source's answers, computed once even when asked at once.

A round's workers search the same sub-question in the same superstep (the docs searcher and
each agent's first ``search_corpus`` call): three identical corpus searches, each a tenth of a
warm run's work (issue 21, item 12). The index does not change while a corpus is open, so the
first answer serves the others; a caller arriving while it is computed waits for it rather than
computing it again. A failure is not kept (the next caller tries again).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

V = TypeVar("V")


class _Slot(Generic[V]):
    __slots__ = ("done", "lock", "value")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = False
        self.value: V | None = None


class Memo(Generic[V]):
    """The last ``size`` answers by key, each computed once (thread-safe).

    Args:
        size: how many answers are kept (least recently used go first), >= 1.

    Example:
        >>> calls = []
        >>> memo = Memo[int](size=2)
        >>> [memo.get("a", lambda: calls.append("a") or 1) for _ in range(3)], calls
        ([1, 1, 1], ['a'])
    """

    def __init__(self, size: int = 128) -> None:
        self._size = max(1, int(size))
        self._slots: OrderedDict[Hashable, _Slot[V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The answer for ``key``: kept, or ``compute()``'s (kept when it returns).

        Raises:
            Exception: whatever ``compute()`` raises; nothing is kept then.
        """
        with self._lock:
            slot = self._slots.get(key)
            if slot is None:
                slot = self._slots[key] = _Slot()
                while len(self._slots) > self._size:
                    self._slots.popitem(last=False)
            else:
                self._slots.move_to_end(key)
        with slot.lock:  # a caller arriving meanwhile waits here for the first one's answer
            if not slot.done:
                slot.value = compute()
                slot.done = True
            return slot.value  # type: ignore[return-value]
