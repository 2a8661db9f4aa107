"""The state contract of the research graph: pure data and pure functions, no I/O.

``state`` imports only the standard library, pydantic and LangGraph types; ``workers`` and ``app``
build on it and it never imports them.
"""

from state.envelope import (
    KEPT,
    Envelope,
    EnvelopeStatus,
    attempt_failed,
    envelope_key,
    make_envelope_id,
    normalize_as_of,
    task_fields,
    today_utc,
)
from state.items import ITEM_KINDS, ItemKind, ResultItem, check_items
from state.reducers import (
    DELETE,
    add_count,
    add_counts,
    capped_list,
    concat_lists,
    dedupe_extend,
    delete_envelope,
    envelope_reducer,
    keep_latest,
    keep_max,
    keep_min,
    merge_dicts,
)
from state.schema import ResearchInput, ResearchOutput, ResearchState, Routing, Task, parallel_keys

__all__ = [
    "DELETE",
    "Envelope",
    "EnvelopeStatus",
    "ITEM_KINDS",
    "ItemKind",
    "KEPT",
    "ResearchInput",
    "ResearchOutput",
    "ResearchState",
    "ResultItem",
    "Routing",
    "Task",
    "add_count",
    "add_counts",
    "attempt_failed",
    "capped_list",
    "check_items",
    "concat_lists",
    "dedupe_extend",
    "delete_envelope",
    "envelope_key",
    "envelope_reducer",
    "keep_latest",
    "keep_max",
    "keep_min",
    "make_envelope_id",
    "merge_dicts",
    "normalize_as_of",
    "parallel_keys",
    "task_fields",
    "today_utc",
]
