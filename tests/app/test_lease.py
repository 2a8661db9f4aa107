"""The lease heartbeat (``app/storage/lease.py``) without a database: a fake connection.

A database restart costs the heartbeat one beat; the run reports the restart itself, so a single
missed renewal says nothing (it printed a stray "could not renew lease" line next to the run's
own one). Renewals that keep failing past half the TTL are logged once, for debugging only: a
warning was a second line on the terminal beside the run's own "went away" line (trial 66, F2).
"""

from __future__ import annotations

import logging
import threading
import time

from app.storage.lease import Lease


class _Conn:
    """Fails the first ``failures`` statements (None: every one), then renews."""

    closed = False

    def __init__(self, failures: int | None) -> None:
        self.failures, self.calls = failures, 0

    def execute(self, *args):
        self.calls += 1
        if self.failures is None or self.calls <= self.failures:
            raise OSError("terminating connection due to administrator command")
        return self

    def fetchone(self):
        return {"name": "thread:t"}


def _beat(conn: _Conn, ttl: float, seconds: float) -> None:
    lease = Lease(lambda: conn, "thread:t", ttl=ttl)
    lease._conn = conn
    beat = threading.Thread(target=lease._heartbeat, daemon=True)
    beat.start()
    time.sleep(seconds)
    lease._stop.set()
    beat.join(timeout=5)


def test_one_missed_renewal_says_nothing(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="app.storage.lease"):
        _beat(_Conn(failures=1), ttl=3.0, seconds=2.5)  # beats every 1 s: the first fails
    assert not [r for r in caplog.records if "renew" in r.getMessage()]


def test_renewals_failing_past_half_the_ttl_are_logged_once_for_debugging(caplog) -> None:
    with caplog.at_level(logging.DEBUG, logger="app.storage.lease"):
        _beat(_Conn(failures=None), ttl=3.0, seconds=3.5)  # fails at 1, 2, 3 s
    logged = [r for r in caplog.records if "could not renew" in r.getMessage()]
    assert len(logged) == 1 and logged[0].levelno == logging.DEBUG, logged
