"""The run's worker slots: tasks waiting for one sleep until a slot frees or the run stops.

Every task of a superstep starts at once in LangGraph's 128-thread pool and waits for one of
``--max-concurrency`` slots. The slots were a ``threading.BoundedSemaphore`` polled every
``STOP_SLICE`` (0.1 s) for the stop signal: at 1,200 tasks 124 waiting threads woke ten times
a second each, about a fifth of the run's time (scripts/bench_scale.py: 37.2 and 40.7 s against
30.9 and 32.5 s).
"""

from __future__ import annotations

import threading
import time

import pytest

from app.graph.run_objects import RunObjects
from app.settings.config import RunContext, Settings
from workers.base import Cancellation, RunScope
from workers.errors import RunCancelled
from workers.waits import Slots, holding, pause, stop_waiting_when

SLOT = "a free worker slot (analyst not started)"


class CountedStop(Cancellation):
    """A run's stop signal that counts how often a waiter looked at it."""

    def __init__(self) -> None:
        super().__init__()
        self.looks = 0

    def is_set(self) -> bool:
        self.looks += 1
        return super().is_set()


def _run_scope(stop: Cancellation, slots: int) -> RunScope:
    """A run's scope as :meth:`RunObjects.make` builds it (see the first test), with ``stop``."""
    return RunScope(cancel=stop, limiter=Slots(slots, stop=stop))


def test_a_run_s_limiter_is_woken_by_that_run_s_stop():
    scope = RunObjects.make(RunContext(max_concurrency=3), Settings()).scope
    assert isinstance(scope.limiter, Slots) and scope.limiter.wakes_on(scope.cancel)
    assert [scope.limiter.acquire(blocking=False) for _ in range(4)] == [True] * 3 + [False]


def _waiters(scope, count: int, outcomes: list) -> list[threading.Thread]:
    def wait() -> None:
        try:
            with stop_waiting_when(scope.cancel), holding(scope.limiter, SLOT):
                outcomes.append("worked")
        except RunCancelled as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=wait, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


def test_tasks_waiting_for_a_slot_do_not_wake_on_a_timer():
    stop = CountedStop()
    scope = _run_scope(stop, slots=1)
    scope.limiter.acquire()  # a worker holds the only slot
    outcomes: list = []
    threads = _waiters(scope, 20, outcomes)
    time.sleep(0.8)
    looks = stop.looks
    # each waiter looks at the stop once before it sleeps (polling: about 8 times each)
    assert looks <= 2 * len(threads), f"{looks} looks at the stop by 20 waiters in 0.8 s"
    scope.limiter.release()  # the worker ends: the waiters take the slot one after another
    for thread in threads:
        thread.join(5)
    assert outcomes == ["worked"] * 20


def test_a_stop_wakes_every_task_waiting_for_a_slot_at_once():
    stop = Cancellation()
    scope = _run_scope(stop, slots=2)
    scope.limiter.acquire()
    scope.limiter.acquire()
    outcomes: list = []
    threads = _waiters(scope, 10, outcomes)
    time.sleep(0.2)
    started = time.monotonic()
    stop.set(TimeoutError("a fatal error elsewhere"))
    for thread in threads:
        thread.join(5)
    assert time.monotonic() - started < 1
    assert len(outcomes) == 10 and all(isinstance(o, RunCancelled) for o in outcomes)
    assert all("free worker slot" in str(o) and isinstance(o.cause, TimeoutError)
               for o in outcomes)
    # the slots still count: the two taken are the workers', given back as they end
    scope.limiter.release()
    scope.limiter.release()
    with pytest.raises(ValueError, match="released more often"):
        scope.limiter.release()


def test_a_task_that_comes_after_the_stop_does_not_take_a_slot():
    stop = Cancellation()
    scope = _run_scope(stop, slots=1)
    scope.limiter.acquire()
    stop.set()
    with pytest.raises(RunCancelled, match="free worker slot"), \
            stop_waiting_when(stop), holding(scope.limiter, SLOT):
        pass
    assert scope.limiter.acquire(blocking=False) is False  # the worker's slot is still held


def test_a_stop_set_by_a_handler_in_the_thread_that_holds_the_slots_lock_does_not_hang():
    """Ctrl-C's handler runs in the main thread, which may be inside the slots' own lock (a
    superstep of one task runs inline there): waking the waiters must not deadlock it."""
    stop = Cancellation()
    slots = Slots(1, stop=stop)
    with slots._cond:
        stop.set()
    assert slots.acquire(blocking=False) is True


def test_slots_without_the_run_s_stop_are_polled_for_it():
    """Slots given another stop (or none) cannot be woken by this run's: the wait looks at it
    every STOP_SLICE, as for any semaphore."""
    stop = Cancellation()
    slots = Slots(1)
    slots.acquire()
    threading.Timer(0.2, stop.set).start()
    started = time.monotonic()
    with pytest.raises(RunCancelled), stop_waiting_when(stop), holding(slots, SLOT):
        pass
    assert time.monotonic() - started < 2


def test_a_pause_sleeps_on_the_stop_signal_not_in_slices():
    stop = CountedStop()
    started = time.monotonic()
    with stop_waiting_when(stop):
        pause(0.5)
    assert time.monotonic() - started >= 0.5
    assert stop.looks <= 3, f"{stop.looks} looks at the stop in a 0.5 s pause"
    threading.Timer(0.2, stop.set).start()
    started = time.monotonic()
    with pytest.raises(RunCancelled), stop_waiting_when(stop):
        pause(30)
    assert time.monotonic() - started < 2


_SIGNALLED_WAITS = """
import random, signal, sys
from workers.base import Cancellation
from workers.errors import RunCancelled
from workers.waits import pause, stop_waiting_when

rng = random.Random(53)
for trial in range(int(sys.argv[1])):
    cancel = Cancellation()
    signal.signal(signal.SIGALRM, lambda signum, frame, cancel=cancel: cancel.set())
    signal.setitimer(signal.ITIMER_REAL, rng.uniform(0.00005, 0.002))
    with stop_waiting_when(cancel):
        try:
            while True:
                pause(0.00001)  # the main thread sleeping on the stop signal itself
        except RunCancelled:
            pass
print("ok")
"""


def test_a_stop_set_by_a_signal_handler_inside_the_main_thread_s_wait_does_not_hang():
    """Trial 54: a Ctrl-C landing while the main thread slept in the stop signal's wait (a
    ``threading.Event``, whose plain lock the wait held for a few bytecodes) ran the handler's
    ``set`` on that same lock: the process hung for good, SIGINT and SIGTERM already ignored.
    Signals land at random moments, thousands of times; the old code hung within ~1,500."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", _SIGNALLED_WAITS, "3000"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
