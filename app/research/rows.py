"""The results-database rows of a run, as the report side reads them.

A row (``app.storage``'s ``rows()``: an envelope with ``structured`` decoded) carries result
items only when its worker finished: ``status == "ok"`` and a ``structured`` payload. The report,
the synthesis prompt and the relevance check all walk those items; :func:`ok_items` is the one
place that says which rows count. Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

__all__ = ["ok_items"]


def ok_items(rows: Iterable[Mapping[str, Any]], task_key: str | None = None
             ) -> Iterator[tuple[Mapping[str, Any], Any]]:
    """Each item of each finished row, with its row: ``(row, item)``, in row then item order.

    Rows whose ``status`` is not ``"ok"`` (an error row) or that have no ``structured`` payload
    (a persisted envelope whose payload was dropped) give nothing. Items are yielded as stored,
    whatever they hold: a row written by hand or an older database may have items that are not
    dicts, or of an unknown kind, and the caller decides what to do with them.

    Args:
        rows: ``{"status", "task_key", "structured": {"items": [...]} | None, ...}`` mappings.
        task_key: only the rows of this sub-question (None: every row).

    Example:
        >>> rows = [{"status": "ok", "task_key": "q", "structured": {"items": [{"ref": "a"}]}},
        ...         {"status": "error", "task_key": "q", "structured": {"items": [{"ref": "b"}]}}]
        >>> [item["ref"] for _row, item in ok_items(rows)]
        ['a']
    """
    for row in rows:
        if task_key is not None and row.get("task_key") != task_key:
            continue
        if row.get("status") != "ok" or not row.get("structured"):
            continue
        yield from ((row, item) for item in row["structured"].get("items") or [])
