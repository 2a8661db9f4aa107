"""Fault injection, for the durability tests and the workshop: failures and hard crashes on cue.

Nothing here runs unless a demonstration flag asks for it (``--fail-rate``, ``--fail-worker``,
``--crash-at``, ``--run-log``). A crash is ``SIGKILL`` sent to the process itself: no cleanup, no
``finally``, no exception handling, exactly what an OOM kill or a pulled plug does.

Crash points (``--crash-at``):

* ``map:K``: inside the map step, once K workers have finished: at the start of the next worker
  attempt, or, when every attempt has already started by then, when the next worker finishes
  (before it returns, so its result is lost with the process). Either way K results exist, and
  their pending writes may or may not be saved. Reachable when at least K + 1 worker attempts
  start or finish in the process; a run that ends without reaching it says so
  (:meth:`FaultPlan.unreached`).
* ``persist-commit``: inside ``persist``, after the results database committed, before the node
  returns (so the database has the rows and the checkpoint does not know it).
* ``report``: after ``persist`` finished, at the start of ``report``.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.settings.spec import shown
from state import Task, make_envelope_id
from workers.errors import TransientWorkerError

__all__ = [
    "CRASH_POINTS", "FaultPlan", "InjectedWorkerError", "parse_crash_at", "parse_fail_worker",
]

CRASH_POINTS = ("map:K", "persist-commit", "report")


class InjectedWorkerError(RuntimeError):
    """A permanent failure injected by ``--fail-worker`` (not retried by the RetryPolicy)."""


def parse_crash_at(value: str | None) -> tuple[str, int] | None:
    """Parse ``--crash-at``: ``"map:3"`` -> ``("map", 3)``, ``"report"`` -> ``("report", 0)``.

    Raises:
        ValueError: an unknown point, or ``map`` without a whole number >= 0.
    """
    if value is None:
        return None
    name, _, count = value.strip().partition(":")
    if name == "map":
        if not count.isdigit():
            raise ValueError(f"--crash-at map needs a count, e.g. map:3 (got {value!r})")
        return "map", int(count)
    if name in ("persist-commit", "report") and not count:
        return name, 0
    raise ValueError(f"--crash-at must be one of {', '.join(CRASH_POINTS)} (got {value!r})")


def parse_fail_worker(spec: str) -> tuple[str, int]:
    """Parse one ``--fail-worker``: ``"analyst"`` -> ``("analyst", 0)`` (fails in every round),
    ``"analyst:1"`` -> ``("analyst", 1)`` (fails in rounds <= 1).

    Raises:
        ValueError: no name, or ROUNDS is not a whole number from 1 (``critic:0`` was read as
            "every round", the meaning of no ROUNDS; ``critic:`` likewise).

    Example:
        >>> parse_fail_worker("critic:0")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ValueError: --fail-worker 'critic:0': ROUNDS must be a whole number from 1 (...)
    """
    name, colon, rounds = spec.partition(":")
    if not name:
        raise ValueError(f"--fail-worker {shown(spec)}: expected NAME or NAME:ROUNDS")
    if colon and not (rounds.isdigit() and int(rounds) >= 1):
        raise ValueError(f"--fail-worker {shown(spec)}: ROUNDS must be a whole number from 1 "
                         "(leave it out to fail in every round)")
    return name, int(rounds or 0)


_KILLING = threading.Lock()
"""Taken (and never released) by the first thread that kills the process: workers that reach
the crash point at the same moment (``map:0`` with four starting at once) wait for the signal
instead of printing the kill line again."""


def _hard_kill(point: str) -> None:
    # One line first, so a workshop audience sees why the output stops; then no cleanup at all.
    _KILLING.acquire()  # a second caller blocks here until the SIGKILL ends the process
    sys.stderr.write(f"crash-at {point}: sending SIGKILL to this process (pid {os.getpid()})\n")
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


@dataclass
class FaultPlan:
    """The faults of one run.

    Attributes:
        fail_rate: probability (0..1) that a worker attempt raises a transient error.
        seed: makes the failures reproducible: whether an attempt fails depends only on
            (seed, envelope_id, round, attempt), not on thread scheduling; a task that used up
            its attempts in one round gets fresh draws in the next.
        fail_workers: worker name -> last round in which it fails permanently (0 = every round).
        crash_at: a parsed crash point (see :func:`parse_crash_at`).
        run_log: a file that gets one line each time a worker task produces its envelope (ok
            or error; an attempt that raised for a retry writes nothing):
            ``envelope_id<TAB>attempt<TAB>status<TAB>pid``, appended and flushed at once.
    """

    fail_rate: float = 0.0
    seed: int = 0
    fail_workers: dict[str, int] = field(default_factory=dict)
    crash_at: tuple[str, int] | None = None
    run_log: Path | None = None
    _finished: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_context(cls, context: Any) -> FaultPlan:
        """A fresh plan for one run, from the fault settings of its
        ``app.settings.config.RunContext``
        (``fail_rate``, ``seed``, ``fail_workers`` as ``"NAME[:ROUNDS]"`` strings, ``crash_at``,
        ``run_log``). A plan counts finished workers, so it is made per run, never shared.

        Raises:
            ValueError: a malformed ``crash_at`` or ``fail_workers`` entry.
        """
        fail_workers = dict(parse_fail_worker(spec) for spec in context.fail_workers or ())
        return cls(
            fail_rate=context.fail_rate,
            seed=context.seed,
            fail_workers=fail_workers,
            crash_at=parse_crash_at(context.crash_at),
            run_log=Path(context.run_log) if context.run_log else None,
        )

    @property
    def active(self) -> bool:
        """True when any fault or the run log is configured."""
        return bool(self.fail_rate or self.fail_workers or self.crash_at or self.run_log)

    def _crash_in_map(self) -> None:
        """Kill the process if ``map:K`` is set and K workers have finished."""
        if self.crash_at and self.crash_at[0] == "map":
            with self._lock:
                finished = self._finished
            if finished >= self.crash_at[1]:
                _hard_kill(f"map:{self.crash_at[1]}")

    def on_attempt(self, task: Task, attempt: int) -> None:
        """Worker hook: maybe crash (``map:K``), maybe raise an injected failure."""
        self._crash_in_map()
        worker = task["worker"]
        if worker in self.fail_workers:
            last_round = self.fail_workers[worker]
            # rounds count within the run: a rerun of the thread starts past its last round
            in_run = task.get("round", 1) - task.get("first_round", 1) + 1
            if last_round == 0 or in_run <= last_round:
                raise InjectedWorkerError(
                    f"{worker} is set to fail (--fail-worker) in round {in_run} of the run"
                )
        if self.injects_failure(task, attempt):
            raise TransientWorkerError(f"injected transient failure on attempt {attempt}")

    def injects_failure(self, task: Task, attempt: int) -> bool:
        """Whether ``--fail-rate`` fails this attempt of this task: a draw seeded by
        (seed, envelope_id, round, attempt), so it is the same in every process and scheduling.
        """
        if self.fail_rate <= 0:
            return False
        eid = make_envelope_id(task["worker"], task["sub_question"], task["as_of"])
        draw = random.Random(f"{self.seed}:{eid}:{task.get('round', 1)}:{attempt}").random()
        return draw < self.fail_rate

    def on_done(self, task: Task, envelope: dict[str, Any]) -> None:
        """Worker hook: crash if ``map:K`` is due (every attempt started before K workers had
        finished), else count the finished attempt and append it to the run log.

        The check and the count are one step under the lock: two workers finishing together
        when K-1 had finished must not both see K-1 and both count, or the run ends with K+1
        finished and nothing killed.
        """
        with self._lock:
            if self.crash_at and self.crash_at[0] == "map" and self._finished >= self.crash_at[1]:
                _hard_kill(f"map:{self.crash_at[1]}")
            self._finished += 1
            if self.run_log is not None:
                line = (
                    f"{envelope['envelope_id']}\t{envelope['attempts']}\t"
                    f"{envelope['status']}\t{os.getpid()}\n"
                )
                with open(self.run_log, "a", encoding="utf-8") as fh:
                    fh.write(line)
                    fh.flush()

    def unreached(self) -> str | None:
        """Why the crash point was never reached, for a run that got to its end (a reached one
        kills the process); None when no crash point is set.

        Example:
            >>> FaultPlan(crash_at=("map", 20)).unreached().split(":")[:2]
            ['--crash-at map', '20 was never reached']
        """
        if not self.crash_at:
            return None
        name, count = self.crash_at
        if name == "map":
            return (
                f"--crash-at map:{count} was never reached: {self._finished} worker(s) "
                f"finished in this process, and the kill comes only after {count} have; "
                "nothing was killed (pick K below the number of tasks the run has left)"
            )
        return (f"--crash-at {name} was never reached: the run did not get there with anything "
                "to do (nothing left to persist?); nothing was killed")

    def at(self, point: str) -> None:
        """Node hook: crash here if ``point`` is the configured crash point."""
        if self.crash_at and self.crash_at[0] == point:
            _hard_kill(point)
