"""A stop signal whose exception Python dropped still stops the command (trial 50, F6: SIGTERM
landed in importlib's module-lock weakref callback during the lazy imports; "Exception ignored
in ..." was printed, the signals were already ignored, and the run finished with exit 0)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from app.runs.stop import Terminated, signal_seen, stop_on_signals


def _signal_inside_a_weakref_callback() -> None:
    class Obj:
        pass

    def callback(_ref: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs within the callback
        total = 0
        for i in range(1000):
            total += i

    obj = Obj()
    ref = weakref.ref(obj, callback)
    del obj  # the callback runs; Python drops what it raises
    assert ref() is None


def test_a_stop_dropped_in_a_callback_is_raised_at_the_next_safe_point(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.unraisablehook", lambda _unraisable: None)  # the dropped one
    signal_seen()
    try:
        with stop_on_signals() as received:
            _signal_inside_a_weakref_callback()  # no exception here: Python dropped it
            assert received.signum == signal.SIGTERM
            with pytest.raises(Terminated):
                with stop_on_signals():  # the next block: the run's, after the imports
                    pytest.fail("the command went on as if no SIGTERM had come")
    finally:
        signal_seen()  # each block put back the handlers it found


def test_a_stop_caught_is_not_raised_again() -> None:
    signal_seen()
    with pytest.raises(KeyboardInterrupt):
        with stop_on_signals():
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):
                pass
    signal_seen()  # what app.cli.main does once it caught it
    with stop_on_signals():
        pass  # nothing raised


RACE = """
import os, signal
from app.runs.stop import stop_on_signals

class Stop:
    def set(self, cause=None):
        pass

both = {signal.SIGINT, signal.SIGTERM}
with stop_on_signals(Stop()) as received:
    signal.pthread_sigmask(signal.SIG_BLOCK, both)  # both arrive before Python runs a handler
    os.kill(os.getpid(), signal.SIGINT)
    os.kill(os.getpid(), signal.SIGTERM)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, both)
    for _ in range(1000):
        pass
print("received", received.signum)
"""


def test_a_second_signal_pending_while_the_first_stops_the_run_prints_nothing() -> None:
    # trial 83, F2: Ctrl-C, Ctrl-C and SIGTERM within 50 ms printed a traceback ("OSError:
    # Signal 15 ignored due to race condition"): the first one's handler set SIG_IGN while the
    # others were pending, and Python found them ignored
    proc = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "received 2", proc
    assert "Traceback" not in proc.stderr and "race condition" not in proc.stderr, proc.stderr
