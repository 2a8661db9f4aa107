"""How a PostgreSQL connection fails, in one line each: out of reach for now (exit 75, try
later), gone mid-run (the server restarted), refused by a connection pooler in a way this app
cannot work with; and psycopg's "error ignored" warnings about a lost connection kept off the
terminal. Used by :mod:`app.storage.postgres`.

Source: psycopg's errors (https://www.psycopg.org/psycopg3/docs/api/errors.html), PostgreSQL's
SQLSTATE class 57 (operator intervention), PgBouncer's pooling modes.
"""

from __future__ import annotations

import logging

from app.storage.base import StorageError, StorageUnreachable

__all__ = ["cannot_connect", "connection_failure", "lost_connection", "pooler_error",
           "quiet_lost_connections", "unreachable"]

_POOLER_SIGNS = ("pgbouncer", "pooling mode", "unsupported startup parameter",
                 "prepared statement", "server_login_retry", "query_wait_timeout")


_UNREACHABLE_SIGNS = (
    "connection refused", "timeout expired", "timed out", "no route to host",
    "network is unreachable", "temporary failure in name resolution", "connection reset",
    "server closed the connection unexpectedly", "the database system is starting up",
    "the database system is shutting down", "the database system is in recovery mode",
    "too many clients", "remaining connection slots are reserved",
    "pgbouncer cannot connect to server", "no more connections allowed",
    "too many connections for role", "server_login_retry", "query_wait_timeout",
)
"""How a connection that may work in a while fails (libpq's and the server's words, and
PgBouncer's when it cannot reach its server: ``server login has been failing, try again later
(server_login_retry)``, or waited for it past its ``query_wait_timeout``; trial 66, F1, F4):
:class:`StorageUnreachable`, exit 75. A server that answers and refuses (authentication, no
such database or role, an unknown host name) is not among them: trying later changes
nothing."""


def unreachable(reason: str) -> bool:
    """Whether a failed connection's ``reason`` (psycopg's message) says the server is out of
    reach for now (:data:`_UNREACHABLE_SIGNS`).

    Example:
        >>> unreachable('connection to server at "127.0.0.1", port 1 failed: Connection refused')
        True
        >>> unreachable('FATAL:  password authentication failed for user "bob"')
        False
    """
    return any(sign in reason.lower() for sign in _UNREACHABLE_SIGNS)


def connection_failure(exc: BaseException) -> str | None:
    """One line when ``exc``, a psycopg error no storage call turned into its own line (a
    command that met it outside a run's checks), says the connection failed or the server is
    out of reach (:func:`lost_connection`), else None: the CLI then exits 75, as for
    :class:`StorageUnreachable`, not 1 with the driver's class name (``run failed:
    ProtocolViolation: query_wait_timeout``, trial 66, F1)."""
    if not type(exc).__module__.startswith("psycopg") or (cause := lost_connection(exc)) is None:
        return None
    return f"PostgreSQL cannot be used right now ({cause}); run the same command again later"


def cannot_connect(label: str, reason: str) -> StorageError:
    """The one-line error of a connection to ``label`` that failed for ``reason``: exit 75
    when it may work later (:func:`unreachable`), else 1."""
    kind = StorageUnreachable if unreachable(reason) else StorageError
    return kind(f"cannot connect to PostgreSQL at {label}: {reason}")


_GONE_SQLSTATES = {"57P01": "the server was shut down or restarted (admin shutdown)",
                   "57P02": "the server crashed (crash shutdown)",
                   "57P03": "the server is starting up or shutting down"}
"""Class 57 "operator intervention" codes that end a connection."""


def lost_connection(exc: BaseException) -> str | None:
    """Why the connection is gone, when ``exc`` (a psycopg error) says so, else None:
    ``AdminShutdown`` and its siblings (:data:`_GONE_SQLSTATES`), a client-side
    ``OperationalError`` without a SQLSTATE (``server closed the connection unexpectedly``,
    ``the connection is lost``, ``the connection is closed``), one of class 08 (a connection
    exception) or one that says the server is out of reach (:func:`unreachable`)."""
    import psycopg

    if not isinstance(exc, psycopg.OperationalError):
        return None
    sqlstate = getattr(exc, "sqlstate", None)
    if sqlstate in _GONE_SQLSTATES:
        return _GONE_SQLSTATES[sqlstate]
    if sqlstate is None or sqlstate.startswith("08") or unreachable(str(exc)):
        # class 08, "connection exception": a pooler's ProtocolViolation when its server is
        # gone (server_login_retry, query_wait_timeout: trial 66, F1)
        return "the connection was lost: " + " ".join(str(exc).split())[:160]
    return None


class _LostConnectionNoise(logging.Filter):
    """Drops psycopg's ``error ignored ...`` warnings whose ignored error is a lost connection:
    ``Pipeline.__exit__`` (and a connection's rollback on exit) logs it while the block's own
    error propagates, and that error is the one reported (one line, by the CLI)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        ignored = args[-1] if args else None
        return not (str(record.msg).startswith("error ignored")
                    and isinstance(ignored, BaseException) and lost_connection(ignored))


def quiet_lost_connections() -> None:
    """Install :class:`_LostConnectionNoise` on psycopg's logger, once per process."""
    psycopg_log = logging.getLogger("psycopg")
    if not any(isinstance(f, _LostConnectionNoise) for f in psycopg_log.filters):
        psycopg_log.addFilter(_LostConnectionNoise())


def pooler_error(exc: BaseException, label: str) -> StorageError | None:
    """The one-line error for a psycopg error that a connection pooler caused, or None.

    PgBouncer in statement mode refuses transactions (``... not allowed in statement pooling
    mode``), refuses startup parameters it does not know (``unsupported startup parameter``),
    and in transaction mode mixes up server-side prepared statements of other clients
    (``DuplicatePreparedStatement``, ``prepared statement ... does not exist``). ``label`` is
    the server (without password) for the message.
    """
    reason = " ".join(str(exc).split())
    if not any(sign in reason.lower() for sign in _POOLER_SIGNS):
        return None
    if unreachable(reason):  # the pooler is fine: the server behind it is out of reach
        return cannot_connect(label, reason)
    return StorageError(
        f"PostgreSQL at {label} answered through a connection pooler (PgBouncer?) in a way "
        f"this app cannot work with: {reason[:300]}; the app supports PgBouncer in "
        "transaction or session mode, or a direct URL (docs/deploy.md)")
