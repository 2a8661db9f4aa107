"""How often a node is attempted and how long it waits between attempts: the graph's
``RetryPolicy`` for the nodes that pace themselves (:func:`self_paced_retry`) and the backoff
they apply themselves (:func:`backoff`).

The number of attempts and the interval are the operator's settings (``Settings.max_attempts``,
``retry_interval``: ``RESEARCH_MAX_ATTEMPTS``, ``RESEARCH_RETRY_INTERVAL``; not a client's).
The policy takes the number (whoever compiles the graph passes ``max_attempts``), and a worker
node reads the same setting from its :class:`workers.base.WorkerDeps` to know its last attempt,
whose failure becomes an error envelope rather than a retry. The wait between attempts is the
node's, not the policy's, for two reasons: it ends once the run stops
(:func:`workers.waits.pause`; LangGraph's sync retry loop waits with ``time.sleep``, which
Ctrl-C cannot cut short), and a long one is said on the node's ``custom`` stream.

Source: ``langgraph.types.RetryPolicy`` and LangGraph's "Add retry policies" how-to.
"""

from __future__ import annotations

import random

from langgraph.runtime import Runtime
from langgraph.types import RetryPolicy

from workers.errors import is_transient
from workers.waits import announce_wait, pause

__all__ = ["backoff", "backoff_delay", "retry_on", "self_paced_retry"]


def retry_on(exc: BaseException) -> bool:
    """The ``retry_on`` of the graph's self-paced ``RetryPolicy``: a transient error
    (:func:`workers.errors.is_transient`)."""
    return is_transient(exc)


def self_paced_retry(max_attempts: int) -> RetryPolicy:
    """The ``RetryPolicy`` of the nodes that pace themselves (the workers, ``plan``), and only of
    those: ``max_attempts`` attempts (the operator's ``Settings.max_attempts``) with no wait of
    the policy's own, each node waiting with :func:`backoff`. A node that does not call
    :func:`backoff` would be re-run at once: give it a ``RetryPolicy`` with an interval.

    Example:
        >>> policy = self_paced_retry(3)
        >>> policy.max_attempts, policy.initial_interval
        (3, 0.0)
    """
    return RetryPolicy(max_attempts=max_attempts, initial_interval=0.0, backoff_factor=1.0,
                       max_interval=0.0, jitter=False, retry_on=retry_on)


def backoff_delay(attempt: int, retry_interval: float) -> float:
    """Seconds to wait before ``attempt`` (1-based), jitter not included: none before the first,
    then ``retry_interval`` doubled per attempt, at most 8x or 1 s (whichever is longer).

    The formula of LangGraph's ``RetryPolicy`` (``initial_interval * backoff_factor ** n``
    capped at ``max_interval``), with the interval the operator's ``RESEARCH_RETRY_INTERVAL``.
    The one owner of it:
    :func:`backoff` (the nodes) and the report summary's retries (``app.research.synthesis``) both
    use it.

    Args:
        attempt: the attempt about to start, 1 for the first.
        retry_interval: seconds before the second attempt; 0 or less means no wait.

    Example:
        >>> [backoff_delay(n, 0.5) for n in range(1, 7)]
        [0.0, 0.5, 1.0, 2.0, 4.0, 4.0]
        >>> [backoff_delay(n, 0.1) for n in range(2, 7)]
        [0.1, 0.2, 0.4, 0.8, 1.0]
    """
    if attempt <= 1 or retry_interval <= 0:
        return 0.0
    return min(retry_interval * 2 ** (attempt - 2), max(retry_interval * 8, 1.0))


def backoff(runtime: Runtime, retry_interval: float, who: str = "the task") -> int:
    """Wait before a retry, as LangGraph's ``RetryPolicy`` would (:func:`backoff_delay`, plus up
    to 1 s of jitter); return the attempt number (1-based). A long wait is said first, naming
    ``who`` waits (:func:`workers.waits.announce_wait`, on the node's ``custom`` stream).

    The wait is here, not in the ``RetryPolicy`` (see the module's docstring): the node reads
    the interval from its run's settings, and the wait ends once the run stops
    (:func:`workers.waits.pause`), where LangGraph's ``time.sleep`` made Ctrl-C wait it out,
    up to 5 s.

    Raises:
        workers.errors.RunCancelled: the run stopped during the wait.
    """
    info = runtime.execution_info
    attempt = info.node_attempt if info else 1
    wait = backoff_delay(attempt, retry_interval)
    if wait > 0:
        wait += random.uniform(0, 1)
        announce_wait(wait, f"before attempt {attempt} of {who} (RESEARCH_RETRY_INTERVAL "
                      f"{retry_interval:g} s, doubled per attempt, plus up to 1 s of jitter)",
                      runtime.stream_writer)
        pause(wait)
    return attempt
