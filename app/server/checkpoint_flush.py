"""``langgraph dev`` keeps its checkpoints on disk every 10 s, as it means to: a workaround of
``langgraph-runtime-inmem`` (0.36.7) losing them on a hard kill.

The in-memory server keeps checkpoints in one shared saver (``langgraph_runtime_inmem.
checkpoint.MEMORY``) whose three dicts are ``PersistentDict`` files under ``.langgraph_api/``, and
a flush loop writes every registered dict every 10 s (``_persistence._flush_loop``). But every
``Checkpointer(unpack_hook=...)`` call, which the server makes for each ``get_state`` and
``get_history`` (Studio makes them all the time), builds a saver whose factory registers new
dicts under the same file names before it swaps in the shared ones: the loop's weak references
then name dicts nobody holds, and the shared checkpoints were written only at a clean stop.
A SIGKILL (or an OOM kill) after any state read lost every checkpoint since the server
started, while its threads and runs (flushed apart) were kept: the server ran each interrupted
run again from its input, and a thread whose ``persist`` had written rows was refused ever
after (``ForeignRows``: trial S, H2).

:func:`keep_checkpoints_flushed` registers the shared dicts once more, under keys of their own
that no later call replaces, through a holder whose ``sync`` never ends the loop (a dict
changed while pickled is written at the next tick). Nothing happens outside ``langgraph dev``
(no ``langgraph_runtime_inmem``, no shared saver yet, or file persistence turned off).

Reported upstream: https://github.com/langchain-ai/langgraph/issues/8298 (open; its first cause,
an empty dict taken for a dead reference by the loop, is why a holder here is always truthy).
Source: ``langgraph_runtime_inmem/checkpoint.py`` (``Checkpointer``, ``InMemorySaver``) and
``_persistence.py`` (``register_persistent_dict``, ``_stores``, ``_flush_loop``) of that version.
"""

from __future__ import annotations

from typing import Any

__all__ = ["keep_checkpoints_flushed"]

_KEY = "research-app:"
"""The prefix of this module's keys in the flush loop's registry."""

_HOLDERS: list[_Synced] = []
"""The holders registered (the loop keeps only weak references)."""


class _Synced:
    """One of the shared saver's dicts, written by the flush loop; an error is left to the
    next tick (one raised in the loop's thread would end it, for every store)."""

    def __init__(self, target: Any) -> None:
        self.target = target
        self.filename = f"{_KEY}{target.filename}"

    def sync(self) -> None:
        try:
            self.target.sync()
        except (RuntimeError, OSError):  # changed while pickled; a full disk: the next tick
            pass


def keep_checkpoints_flushed() -> bool:
    """Register the in-memory server's shared checkpoint dicts with its flush loop, once.

    Returns:
        True when they are registered (now or before); False where there is nothing to do
        (not ``langgraph dev``, no shared saver yet, file persistence off).
    """
    if _HOLDERS:
        return True
    try:
        from langgraph_runtime_inmem import _persistence, checkpoint
    except ImportError:
        return False
    memory = getattr(checkpoint, "MEMORY", None)
    if memory is None or getattr(_persistence, "DISABLE_FILE_PERSISTENCE", True):
        return False
    stores = getattr(_persistence, "_stores", None)
    targets = [getattr(memory, name, None) for name in ("storage", "writes", "blobs")]
    if not isinstance(stores, dict) or not all(hasattr(t, "sync") for t in targets):
        return False  # another version: leave it as it is
    for target in targets:
        holder = _Synced(target)
        _HOLDERS.append(holder)
        _persistence.register_persistent_dict(holder)  # under its own key; starts the loop
    return True
