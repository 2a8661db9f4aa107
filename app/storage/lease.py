"""Leases: a lock that holds through a connection pooler (one row per lock, renewed by a heartbeat).

A session-level advisory lock lives on a *server* connection. Behind PgBouncer in transaction
mode a client gets some server connection per transaction, so a lock taken there stays on that
pooled connection, is "held" by whichever client lands on it next, and is never released. A
lease is plain rows instead, each statement its own transaction:

* table ``leases (name, holder, expires_at)``; taking a lease is one ``INSERT ... ON CONFLICT
  DO UPDATE ... WHERE leases.expires_at <= clock_timestamp()``: it succeeds when nobody holds
  the name or the holder's lease has expired (the server's clock decides, never the clients');
* the holder renews it every ``ttl / 3`` seconds from a daemon thread, on a connection of its
  own, and deletes it on exit; a SIGKILLed holder's lease expires ``ttl`` seconds after its
  last renewal;
* a holder provably dead sooner is taken over at once: the holder records its process (boot id,
  PID namespace, pid and start time, from ``/proc``); a taker in the same PID namespace of the
  same boot sees that pid gone or reused. Elsewhere (another machine or container) it waits
  for the expiry and is told how long.

Source of the idea: leases with a TTL and a heartbeat, as in Kubernetes' ``Lease`` objects
(https://kubernetes.io/docs/concepts/architecture/leases/), and PgBouncer's list of features
that break in transaction pooling (https://www.pgbouncer.org/features.html).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["LEASES_DDL", "LEASE_TTL", "Lease", "LeaseBusy", "live_leases"]

LEASE_TTL = 30.0
"""Seconds a lease outlives its holder's last heartbeat (renewed every ``LEASE_TTL / 3``)."""

LEASES_DDL = """CREATE TABLE IF NOT EXISTS leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
)"""

_TAKE = """INSERT INTO leases (name, holder, expires_at)
VALUES (%s, %s, clock_timestamp() + make_interval(secs => %s))
ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
WHERE leases.expires_at <= clock_timestamp()
RETURNING name"""
_STEAL = """UPDATE leases
SET holder = %s, expires_at = clock_timestamp() + make_interval(secs => %s)
WHERE name = %s AND holder = %s RETURNING name"""
_RENEW = """UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => %s)
WHERE name = %s AND holder = %s RETURNING name"""
_READ = """SELECT holder, GREATEST(0, EXTRACT(EPOCH FROM expires_at - clock_timestamp()))::float8
AS left_s FROM leases WHERE name = %s"""

_log = logging.getLogger(__name__)


class LeaseBusy(RuntimeError):
    """Another live holder has the lease; ``retry_in`` is seconds until it expires unrenewed."""

    def __init__(self, name: str, retry_in: float, role: str | None = None) -> None:
        super().__init__(f"lease {name!r} is held; it expires in {retry_in:.0f} s unless renewed")
        self.retry_in = retry_in
        self.role = role
        """What the holder said it is (``Lease``'s ``role``), when it said."""


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="ascii").strip()
    except OSError:
        return None


def _start_time(pid: int) -> str | None:
    """Field 22 of ``/proc/PID/stat`` (start time in clock ticks since boot), or None."""
    stat = _read(f"/proc/{pid}/stat")
    return stat.rsplit(")", 1)[1].split()[19] if stat else None


def _namespace() -> tuple[str | None, str | None]:
    try:
        pidns = os.readlink("/proc/self/ns/pid")
    except OSError:
        pidns = None
    return _read("/proc/sys/kernel/random/boot_id"), pidns


def _me(role: str | None = None) -> str:
    """This process as a lease holder (JSON): host, boot id, PID namespace, pid, start time,
    and what it holds the lease for (``role``)."""
    boot, pidns = _namespace()
    pid = os.getpid()
    return json.dumps({"host": socket.gethostname(), "boot": boot, "pidns": pidns, "pid": pid,
                       "start": _start_time(pid), "token": uuid.uuid4().hex, "role": role})


def _role(holder: str | None) -> str | None:
    """The ``role`` a holder's JSON names, or None."""
    try:
        role = json.loads(holder or "").get("role")
    except (ValueError, AttributeError):
        return None
    return role if isinstance(role, str) else None


def _dead_here(holder: str) -> bool:
    """True only when ``holder`` ran in this PID namespace of this boot and its process is gone
    (or the pid now names a newer process); False when unknown."""
    try:
        who = json.loads(holder)
    except ValueError:
        return False
    boot, pidns = _namespace()
    if boot is None or pidns is None or (who.get("boot"), who.get("pidns")) != (boot, pidns):
        return False
    start = _start_time(int(who.get("pid", 0)))
    return start is None or start != who.get("start")


_LIVE = """SELECT name, holder FROM leases WHERE name = ANY(%s)
AND expires_at > clock_timestamp()"""


def live_leases(conn: Any, names: list[str]) -> set[str]:
    """Those of ``names`` whose lease is held now (unexpired, and its holder not provably dead:
    a holder on another machine killed less than ``ttl`` seconds ago still counts), read
    without taking any; the ``leases`` table must exist."""
    rows = conn.execute(_LIVE, (names,)).fetchall()
    return {row["name"] for row in rows if not _dead_here(row["holder"])}


class Lease:
    """Hold the lease ``name`` while the ``with`` block runs, renewed in the background.

    Args:
        connect: opens an autocommit psycopg connection with ``dict_row`` rows (the lease opens
            its own, used by the heartbeat thread, closed on exit).
        name: what is locked, e.g. ``"thread:ID"``; the ``leases`` table must exist.
        ttl: seconds the lease outlives the last heartbeat.
        wait: seconds to keep trying while another holder has it (0: fail at once).
        role: what this process holds it for (e.g. ``"prune"``), told to a process refused it.

    Raises:
        LeaseBusy: another live holder has it (after ``wait``).
    """

    def __init__(self, connect: Callable[[], Any], name: str, *, ttl: float = LEASE_TTL,
                 wait: float = 0.0, role: str | None = None) -> None:
        self._connect, self.name, self.ttl, self.wait = connect, name, ttl, wait
        self.holder = _me(role)
        self._other: str | None = None  # the live holder found by the last try
        self.lost = False
        self._renewed = (time.monotonic(), time.time())  # the last renewal, by both clocks
        self._io = threading.Lock()  # the heartbeat and still_held share the connection
        self._stop = threading.Event()
        self._conn: Any = None
        self._beat: threading.Thread | None = None

    def _try(self, conn: Any) -> float | None:
        """Take the lease: None when taken, else the seconds until the holder's expires."""
        for _ in range(3):  # the holder may release or renew between the statements
            if conn.execute(_TAKE, (self.name, self.holder, self.ttl)).fetchone():
                return None
            row = conn.execute(_READ, (self.name,)).fetchone()
            if row is None:
                continue
            if not _dead_here(row["holder"]):
                self._other = row["holder"]
                return float(row["left_s"])
            if conn.execute(_STEAL, (self.holder, self.ttl, self.name, row["holder"])
                            ).fetchone():
                return None
        return 0.0

    def __enter__(self) -> Lease:
        self._conn = self._connect()
        deadline = time.monotonic() + self.wait
        try:
            while (left := self._try(self._conn)) is not None:
                if time.monotonic() >= deadline:
                    raise LeaseBusy(self.name, left, _role(self._other))
                time.sleep(min(0.2, max(0.01, left)))
        except BaseException:
            self._conn.close()
            raise
        self._renewed = (time.monotonic(), time.time())
        self._beat = threading.Thread(target=self._heartbeat, name=f"lease {self.name}",
                                      daemon=True)
        self._beat.start()
        return self

    def _renew(self) -> bool:
        """Renew the lease now: True when it is still this holder's (renewed), False when
        another holder took it or its row is gone (``lost`` is set).

        Raises:
            Exception: the database cannot be reached (whatever psycopg raises).
        """
        with self._io:
            if self._conn.closed:
                self._conn = self._connect()
            renewed = self._conn.execute(_RENEW, (self.ttl, self.name, self.holder)).fetchone()
        if renewed is None:
            self.lost = True
            return False
        self._renewed = (time.monotonic(), time.time())
        return True

    def _since_renewal(self) -> float:
        """Seconds since the last renewal, by whichever clock says more: the monotonic clock
        runs on while the process is stopped (SIGSTOP, Ctrl-Z), the wall clock also across a
        suspended machine or VM."""
        mono, wall = self._renewed
        return max(time.monotonic() - mono, time.time() - wall)

    def still_held(self) -> bool:
        """False when the lease is no longer this holder's: it was found taken, or, after more
        than half the TTL without a renewal (the process was suspended, or the heartbeat
        could not reach the database), a renewal now finds it taken or gone. A run calls it
        before going on (fencing: else a run stopped past its lease woke up and ran the tasks
        that the process which took the thread ran too). True while renewals are on time (no
        statement) and when the database cannot be reached (the run's own statements then fail
        and say so)."""
        if self.lost:
            return False
        if self._since_renewal() <= self.ttl / 2:
            return True
        try:
            return self._renew()
        except Exception:
            return True

    def _heartbeat(self) -> None:
        warned = False
        while not self._stop.wait(self.ttl / 3):
            try:
                held = self._renew()
            except Exception as exc:  # a lost connection: try again at the next beat
                # a missed beat is the run's to report (the database went away: its own one
                # line; the lease expired: still_held, its own line); a warning here was a
                # second line on the terminal (trial 66, F2), so it is kept for debugging
                if not warned and (late := self._since_renewal()) > self.ttl / 2:
                    warned = True
                    _log.debug("could not renew lease %r for %.0f s: %s", self.name,
                               late, " ".join(str(exc).split()))
                continue
            warned = False
            if not held:
                # the run stops at its next event (still_held) and says so in its own line
                _log.debug("lease %r was taken by another process", self.name)
                return

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._beat is not None:
            self._beat.join()
        try:
            with self._io:
                if self._conn.closed:
                    self._conn = self._connect()
                self._conn.execute("DELETE FROM leases WHERE name = %s AND holder = %s",
                                   (self.name, self.holder))
        except Exception:  # unreachable now: the lease expires after its ttl
            pass
        finally:
            self._conn.close()
