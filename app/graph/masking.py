"""Secrets never reach a checkpoint through a node's error.

LangGraph saves the error a task raised in the checkpoint's pending writes, as ``repr(exc)``
(made of its ``args``), so that a resume knows the task failed. A provider that echoes the key
it rejected ("Incorrect API key provided: <the key>") put that key in ``checkpoints.sqlite``
in full, while the printed line was masked (trial 23, finding 4). :func:`masked` wraps a node so
that whatever it raises has the operator's secrets masked first, whichever node, model, search
API or database it came from.

Source: ``langgraph/pregel/_loop.py`` (``put_writes`` of ``ERROR``) and
``langgraph/checkpoint/serde/jsonplus.py`` (an exception is stored as its repr).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from workers.errors import mask_in_place

__all__ = ["masked"]


def masked(node: Callable[..., Any], secrets: tuple[str, ...]) -> Callable[..., Any]:
    """``node`` (a sync LangGraph node: a function or a ``functools.partial``), raising what it
    raises with ``secrets`` and credential-like text masked in place
    (:func:`workers.errors.mask_in_place`). Its signature is the node's (``functools.wraps``):
    LangGraph still passes it ``config`` or ``runtime`` as it asks.

    Example:
        >>> def node(state):
        ...     raise RuntimeError("Incorrect API key provided: local-KEY-123")
        >>> try:
        ...     masked(node, ("local-KEY-123",))({})
        ... except RuntimeError as exc:
        ...     print(exc)
        Incorrect API key provided: ***
    """

    @functools.wraps(node)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return node(*args, **kwargs)
        except Exception as exc:
            mask_in_place(exc, secrets)
            raise

    return run
