"""What a task's failed attempt leaves for its next one: a ``RetryPolicy`` attempt that raises
leaves no writes in LangGraph, so what it paid for (a token tally, a model's summary) reaches
state only through the attempt that finally returns. One bounded store, by LangGraph's task id
(the same for every attempt of one task, unique per run), serves every such carrier
(:class:`workers.usage.AttemptTokens`, ``app.graph.nodes.report.KeptSummaries``).

Standard library only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["KeptAcrossAttempts"]

T = TypeVar("T")


class KeptAcrossAttempts(Generic[T]):
    """A value per task key, kept by a failed attempt for the next: thread-safe, at most
    ``limit`` keys (the oldest, tasks that never came back because the run stopped, dropped).

    Example:
        >>> kept = KeptAcrossAttempts[int](limit=2)
        >>> kept.keep("a", 1); kept.keep("b", 2); kept.keep("c", 3)
        >>> kept.take("a"), kept.take("c"), kept.take("c")
        (None, 3, None)
    """

    def __init__(self, limit: int) -> None:
        self._kept: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()
        self._limit = limit

    def take(self, key: str) -> T | None:
        """The value a failed attempt of ``key`` kept (removed), or None."""
        with self._lock:
            return self._kept.pop(key, None)

    def keep(self, key: str, value: T) -> None:
        """Keep ``value`` for the next attempt of ``key``, dropping the oldest past the limit."""
        with self._lock:
            self._kept[key] = value
            while len(self._kept) > self._limit:
                self._kept.popitem(last=False)
