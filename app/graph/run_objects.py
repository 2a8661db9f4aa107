"""The per-run objects of the research graph: never shared by two runs of one compiled graph.

A run is identified by LangGraph's ``runtime.control``, the ``RunControl`` each
``invoke``/``stream`` creates (or is given) and hands to every node of that run, ``Send``
targets and subgraphs included. So one run's fatal error (a bad key) cancels that run only, in
the CLI and in LangGraph Server alike. :class:`RunTable` keeps them, looked up by the
``Resources`` of the graph (:mod:`app.graph.resources`).

Source: ``langgraph.runtime.RunControl`` ("intended for a single graph run").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from app.runs.faults import FaultPlan
from app.settings.config import RunContext, Settings
from workers.base import Cancellation, RunScope
from workers.waits import Slots

__all__ = ["MAX_LIVE_RUNS", "RunObjects", "RunTable"]

MAX_LIVE_RUNS = 1024
"""Per-run objects kept at once (least recently used dropped first). A run's entry is released
when the CLI's run ends; under LangGraph Server entries age out."""


@dataclass
class RunObjects:
    """The per-run objects of one run."""

    scope: RunScope
    """What the worker nodes use: stop signal, limiter, fault hooks."""
    faults: FaultPlan
    """The run's fault plan (crash points of ``persist`` and ``report``)."""

    @classmethod
    def make(cls, ctx: RunContext, settings: Settings) -> RunObjects:
        """New objects for a run: the limiter sized by ``ctx.max_concurrency``, the fault plan of
        ``settings`` (the operator's, never a client's)."""
        faults = FaultPlan.from_context(settings)
        cancel = Cancellation()
        return cls(
            scope=RunScope(
                cancel=cancel,
                limiter=Slots(ctx.max_concurrency, stop=cancel),
                on_attempt=faults.on_attempt if faults.active else None,
                on_done=faults.on_done if faults.active else None,
            ),
            faults=faults,
        )


class RunTable:
    """The :class:`RunObjects` of the live runs, by ``RunControl`` (at most
    :data:`MAX_LIVE_RUNS`, least recently used dropped first). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: OrderedDict[int, tuple[Any, RunObjects]] = OrderedDict()
        self._by_run: OrderedDict[str, list[RunObjects]] = OrderedDict()
        self._stopped: OrderedDict[str, None] = OrderedDict()

    def get(self, control: Any, ctx: RunContext, settings: Settings,
            run_id: str | None = None) -> RunObjects:
        """The objects of the run whose ``RunControl`` is ``control``, made
        (:meth:`RunObjects.make`) on its first lookup; ``run_id`` (LangGraph Server's, from the
        run's ``configurable``) lets :meth:`stop` reach them, and objects made for a run
        already stopped are stopped."""
        with self._lock:
            entry = self._runs.get(id(control))
            if entry is not None and entry[0] is control:
                self._runs.move_to_end(id(control))
                return entry[1]
            objects = RunObjects.make(ctx, settings)
            # The control is held with its objects, so its id is not reused while listed.
            self._runs[id(control)] = (control, objects)
            while len(self._runs) > MAX_LIVE_RUNS:
                self._runs.popitem(last=False)
            stopped = run_id is not None and run_id in self._stopped
            if run_id is not None and not stopped:
                self._by_run.setdefault(run_id, []).append(objects)
                while len(self._by_run) > MAX_LIVE_RUNS:
                    self._by_run.popitem(last=False)
        if stopped:
            objects.scope.cancel.set()
        return objects

    def start(self, run_id: str) -> None:
        """A new attempt of the run ``run_id`` starts (LangGraph Server retries a run under its
        id): what :meth:`stop` said of an earlier attempt no longer holds."""
        with self._lock:
            self._stopped.pop(run_id, None)

    def stop(self, run_id: str) -> None:
        """Stop the run ``run_id``: its waiting workers give up at once (a run cancelled on
        LangGraph Server kept calling the model from its queued tasks: trial 54, F2). Its
        objects are forgotten; a lookup for it later gets stopped ones."""
        with self._lock:
            found = self._by_run.pop(run_id, [])
            self._stopped[run_id] = None
            while len(self._stopped) > MAX_LIVE_RUNS:
                self._stopped.popitem(last=False)
        for objects in found:
            objects.scope.cancel.set()

    def release(self, control: Any) -> None:
        """Forget the objects of the run whose ``RunControl`` is ``control``."""
        with self._lock:
            entry = self._runs.get(id(control))
            if entry is not None and entry[0] is control:
                del self._runs[id(control)]
