"""The worker registry: the one place that says which workers the research graph fans out to.

Adding a worker is one new module exposing a :class:`workers.base.WorkerSpec` named ``SPEC`` and
one line here (see docs/extending.md). Order matters only for display.
"""

from __future__ import annotations

from workers import analyst, critic, docs_search, web_search
from workers.base import WorkerSpec

__all__ = ["WEB_WORKERS", "WEB_WORKER_NAMES", "WORKERS", "registered"]

WORKERS: tuple[WorkerSpec, ...] = (
    docs_search.SPEC,
    analyst.SPEC,
    critic.SPEC,
)

WEB_WORKERS: tuple[WorkerSpec, ...] = (web_search.SPEC,)
"""Workers that run only when the run searches the web (``--web``)."""
WEB_WORKER_NAMES: frozenset[str] = frozenset(spec.name for spec in WEB_WORKERS)
"""Their names: a plan leaves them out of a run that does not search the web."""


def registered(web: bool = False) -> tuple[WorkerSpec, ...]:
    """The workers a run fans out to: :data:`WORKERS`, plus :data:`WEB_WORKERS` with ``web``."""
    return WORKERS + (WEB_WORKERS if web else ())
