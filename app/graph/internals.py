"""The LangGraph internals the served graph reads, in one place. LangGraph Server hands a graph
no public way to learn these, so the code reads them; each name here is pinned against the
installed LangGraph by ``tests/app/test_langgraph_internals.py``, so an upgrade that renames one
fails that test, not a served run.

* :data:`DURABILITY_KEY`: the ``configurable`` key holding the run's durability
  (``langgraph._internal._constants.CONFIG_KEY_DURABILITY``; ``Pregel.stream`` sets it from
  its ``durability`` argument), read to check a served run's durability is the operator's;
* :data:`CHECKPOINTER_KEY`: the ``configurable`` key holding the run's checkpointer
  (``langgraph.constants.CONFIG_KEY_CHECKPOINTER``), read by ``plan`` to walk the thread's
  history (a review a run would skip, a plan made before);
* :func:`trigger_channel`: the channel a node's pending trigger waits in, in a checkpoint's
  ``channel_values`` (``langgraph.graph.state._CHANNEL_BRANCH_TO``): a checkpoint whose next
  node is a review holds it until the review has run.
"""

from __future__ import annotations

__all__ = ["CHECKPOINTER_KEY", "DURABILITY_KEY", "trigger_channel"]

DURABILITY_KEY = "__pregel_durability"
CHECKPOINTER_KEY = "__pregel_checkpointer"
_BRANCH_TO = "branch:to:{}"


def trigger_channel(node: str) -> str:
    """The channel a pending trigger of ``node`` is kept in.

    Example:
        >>> trigger_channel("review_plan")
        'branch:to:review_plan'
    """
    return _BRANCH_TO.format(node)
