"""A PostgreSQL server out of reach is "try later", exit 75, for every command (trial 58, F4).

Issue 21, item 5 gave a thread busy in another process exit 75 (``EX_TEMPFAIL``) so that a script
can tell "try later" from "failed". A database that cannot be reached right now (the connection
refused or timed out, the server starting up, a pooler that cannot reach it) is the same kind:
every command said ``cannot connect to PostgreSQL at ...`` and exited 1, "the run failed". A
server that answers and refuses (a wrong password, no such database) stays 1: trying later
changes nothing. The CLI runs in-process (``app.cli.main``), against a closed port.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC


def _closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


COMMANDS = {
    "research": ["research", SMALL_TOPIC, "--as-of", AS_OF, "--model", "offline"],
    "resume": ["resume", "some-thread"],
    "review": ["review", "some-thread"],
    "review --approve": ["review", "some-thread", "--approve"],
    "threads": ["threads"],
    "inspect": ["inspect", "some-thread"],
    "prune": ["prune"],
    "prune --dry-run": ["prune", "--dry-run"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_exits_75_when_postgres_cannot_be_reached(
        command: str, tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    from app.cli import main

    url = f"postgresql://postgres@127.0.0.1:{_closed_port()}/research"
    monkeypatch.setenv("RESEARCH_DATABASE_URL", url)
    args = [*COMMANDS[command], "--data-dir", str(tmp_path / "data")]
    if command == "research":
        args += ["--corpus", str(small_corpus)]
    assert main([*args, "--json"]) == 75
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: cannot connect to PostgreSQL at {url}: "), err
    assert "Connection refused" in lines[0] and "Traceback" not in err
    data = json.loads(out.strip().splitlines()[-1])
    assert (data["status"], data["exit_code"]) == ("try_later", 75), data


def test_a_pooler_that_cannot_reach_its_server_is_try_later_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    # PgBouncer answers, but its server is down: it holds the login until the client's connect
    # timeout (10 s), "connection timeout expired" (its own "pgbouncer cannot connect to
    # server", once logged in, is read as out of reach too, not as the pooler's fault).
    from types import SimpleNamespace

    from app.cli import main
    from tests.pgserver import PgBouncer, PostgresUnavailable

    try:
        bouncer = PgBouncer.start(SimpleNamespace(port=_closed_port()))  # type: ignore[arg-type]
        pooler = bouncer.__enter__()
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    try:
        monkeypatch.setenv("RESEARCH_DATABASE_URL", pooler.url())
        assert main(["threads", "--data-dir", str(tmp_path / "data")]) == 75
    finally:
        bouncer.__exit__(None, None, None)
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: cannot connect to PostgreSQL at {pooler.url()}: "), err
    assert "cannot work with" not in err and len(err.splitlines()) == 1, err


def test_a_server_that_refuses_is_no_try_later() -> None:
    # a wrong password, no such database, a host name that does not exist: the same again
    # fails the same way (exit 1), whatever the time
    from app.storage import StorageError, StorageUnreachable
    from app.storage.pg_errors import cannot_connect

    for reason in ('connection failed: FATAL: password authentication failed for user "bob"',
                   'connection failed: FATAL: database "nope" does not exist',
                   "failed to resolve host 'no-such-host.invalid': [Errno -2] Name or service "
                   "not known"):
        error = cannot_connect("postgresql://bob@db/x", reason)
        assert isinstance(error, StorageError) and not isinstance(error, StorageUnreachable)
    for reason in ('connection to server at "127.0.0.1", port 1 failed: Connection refused',
                   "connection failed: FATAL: the database system is starting up",
                   "connection failed: FATAL: sorry, too many clients already",
                   "connection timeout expired"):
        assert isinstance(cannot_connect("postgresql://bob@db/x", reason), StorageUnreachable)


@pytest.mark.parametrize("command", ["threads", "inspect", "research"])
def test_a_pgbouncer_whose_server_is_down_is_try_later_in_one_line(
        command: str, tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None) -> None:
    # trial 66, F1: PgBouncer answers for a stopped server with "query_wait_timeout" (after
    # its wait, 120 s by default) and then "server login has been failing, try again later
    # (server_login_retry)"; each command said "run failed: ProtocolViolation: ..." (exit 1)
    import os
    from types import SimpleNamespace

    from app.cli import main
    from tests.pgserver import PgBouncer, PostgresUnavailable

    try:
        started = PgBouncer.start(SimpleNamespace(port=_closed_port()),  # type: ignore[arg-type]
                                  settings="query_wait_timeout = 2\nserver_login_retry = 30\n")
        bouncer = started.__enter__()
    except PostgresUnavailable as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"REQUIRE_POSTGRES=1 but {exc}")
        pytest.skip(str(exc))
    try:
        monkeypatch.setenv("RESEARCH_DATABASE_URL", bouncer.url("research"))
        args = [*COMMANDS[command], "--data-dir", str(tmp_path / "data")]
        if command == "research":
            args += ["--corpus", str(small_corpus)]
        for attempt in range(2):  # the first waits out query_wait_timeout, the next is refused
            assert main(args) == 75, (attempt, capsys.readouterr().err)
            err = capsys.readouterr().err
            lines = err.strip().splitlines()
            assert len(lines) == 1 and "PostgreSQL" in lines[0], err
            assert "Traceback" not in err and "ProtocolViolation" not in err, err
    finally:
        started.__exit__(None, None, None)


def test_a_server_that_cannot_be_reached_during_a_run_went_away() -> None:
    # trial 66, F2: PostgreSQL stopped mid-run; the run's line was the start-up one, "cannot
    # connect to PostgreSQL at ...", saying nothing of what the run had written
    from app.runs.stream import what_was_saved
    from app.storage import StorageUnreachable
    from app.storage.postgres import PostgresStorage

    url = f"postgresql://postgres@127.0.0.1:{_closed_port()}/research"
    storage = PostgresStorage(url)
    lost = StorageUnreachable(f"cannot connect to PostgreSQL at {url}: Connection refused")
    gone = storage.went_away(lost)
    assert gone == (f"the PostgreSQL database at {url} went away (cannot connect: Connection "
                    "refused)")
    line = what_was_saved(gone, {"persisted": {"count": 4}})
    assert line.startswith(gone) and "its 4 rows were written" in line
    assert storage.went_away(ValueError("x")) is None
