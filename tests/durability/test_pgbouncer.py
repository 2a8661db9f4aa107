"""PostgreSQL behind PgBouncer in transaction mode: a run, a SIGKILL and resume, a busy thread.

Debian's ``pgbouncer`` (``tests/pgserver.py``: :class:`PgBouncer`, 3 server connections per
database, so the run's connections really share them) sits in front of the session's test
server. Through it, psycopg's server-side prepared statements collide
(``DuplicatePreparedStatement``) and a session advisory lock is never released; the app uses
neither (``app/storage/postgres.py``, ``app/storage/lease.py``). The CLI runs in a subprocess,
and the databases are read back directly (``tests/results_db.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.exit_codes import EXIT_TRY_LATER
from tests.cli_env import ROOT, clean_env
from tests.durability._helpers import (
    AS_OF,
    SIGKILLED,
    TOPIC,
    Place,
    app_cmd,
    assert_completed_thread,
    db_rows,
    describe,
    thread_id_of,
)
from tests.pgserver import PgBouncer, PostgresServer, PostgresUnavailable

BUSY_EXIT = EXIT_TRY_LATER
"""The CLI's exit code for :class:`app.storage.ThreadBusy`: 75, try later (not a failed run)."""

# A holder on "another machine": same code, but its process cannot be checked from here, so
# only the lease's expiry frees the thread (no same-namespace takeover).
_REMOTE = textwrap.dedent("""
    import sys
    import app.storage.lease as lease
    lease._namespace = lambda: ("another-boot", "pid:[1]")
    from app.cli import main
    sys.exit(main(sys.argv[1:]))
""")


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def bouncer(postgres_server: PostgresServer) -> Iterator[PgBouncer]:
    try:
        with PgBouncer.start(postgres_server) as running:
            yield running
    except PostgresUnavailable as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"REQUIRE_POSTGRES=1 but {exc}")
        pytest.skip(str(exc))


def _databases(server: PostgresServer, bouncer: PgBouncer) -> tuple[str, str]:
    """A new database: (its URL through the pooler, its direct URL)."""
    direct = server.create_database()
    return bouncer.url(direct.rsplit("/", 1)[1]), direct


def _run(data: Path, corpus: Path, pooled: str, *extra: str, direct: str | None = None,
         remote: bool = False) -> subprocess.CompletedProcess[str]:
    args = ["research", TOPIC, "--as-of", AS_OF, "--data-dir", str(data), "--corpus",
            str(corpus), "--database-url", pooled, *extra]
    cmd = [sys.executable, "-c", _REMOTE, *args] if remote else app_cmd(*args)
    env = clean_env({"RESEARCH_DATABASE_DIRECT_URL": direct} if direct else None)
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                          encoding="utf-8", timeout=240)


def test_a_run_through_pgbouncer_in_transaction_mode(postgres_server, bouncer, tmp_path,
                                                     durability_corpus):
    """Tables created and migrated through the pooler itself (no direct URL)."""
    pooled, direct = _databases(postgres_server, bouncer)
    proc = _run(tmp_path / "data", durability_corpus, pooled, "--max-concurrency", "4")
    assert proc.returncode == 0, describe(proc)
    assert "Traceback" not in proc.stderr
    assert_completed_thread(Place(tmp_path / "data", direct), thread_id_of())


def test_sigkill_and_resume_through_pgbouncer(postgres_server, bouncer, tmp_path,
                                              durability_corpus):
    """Setup over RESEARCH_DATABASE_DIRECT_URL; the killed run's lease is taken over at once
    from the same machine, so the resume needs no wait."""
    pooled, direct = _databases(postgres_server, bouncer)
    data = tmp_path / "data"
    crashed = _run(data, durability_corpus, pooled, "--crash-at", "map:5", "--max-concurrency",
                   "2", direct=direct)
    assert crashed.returncode in SIGKILLED, describe(crashed)
    proc = _run(data, durability_corpus, pooled, direct=direct)
    assert proc.returncode == 0, describe(proc)
    assert "resuming thread" in proc.stdout
    assert_completed_thread(Place(data, direct), thread_id_of())


def test_a_killed_remote_holder_frees_the_thread_after_its_lease_expires(
        postgres_server, bouncer, tmp_path, durability_corpus):
    """A holder whose process cannot be checked from here (another machine): a resume before
    its lease expires is refused and says how long to wait; after that wait it resumes."""
    pooled, direct = _databases(postgres_server, bouncer)
    data = tmp_path / "data"
    crashed = _run(data, durability_corpus, pooled, "--crash-at", "map:5", "--max-concurrency",
                   "2", remote=True)
    assert crashed.returncode in SIGKILLED, describe(crashed)
    refused = _run(data, durability_corpus, pooled)
    # the wait was measured while the refused run ran, so it counts from no later than now (a
    # start taken before that run would undercount it when starting a process is slow)
    refused_at = time.monotonic()
    assert refused.returncode == BUSY_EXIT, describe(refused)
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    found = re.search(r"lease expires in (\d+) s", refused.stderr)
    assert found, refused.stderr
    from app.storage.lease import LEASE_TTL

    wait = int(found.group(1))
    assert 0 < wait <= LEASE_TTL
    time.sleep(max(0.0, refused_at + wait + 1 - time.monotonic()))
    proc = _run(data, durability_corpus, pooled)
    assert proc.returncode == 0, describe(proc)
    assert "resuming thread" in proc.stdout
    assert_completed_thread(Place(data, direct), thread_id_of())


def test_a_second_process_on_the_same_thread_is_refused_through_pgbouncer(
        postgres_server, bouncer, tmp_path, durability_corpus):
    from app.storage import open_storage

    pooled, direct = _databases(postgres_server, bouncer)
    data = tmp_path / "data"
    storage = open_storage(data, pooled)
    with storage.thread_lock(thread_id_of()):  # this test process plays the first runner
        proc = _run(data, durability_corpus, pooled)
    assert proc.returncode == BUSY_EXIT, describe(proc)
    assert "being run by another process" in proc.stderr and "Traceback" not in proc.stderr
    assert db_rows(Place(data, direct)) == []
    proc = _run(data, durability_corpus, pooled)  # released on exit: it runs
    assert proc.returncode == 0, describe(proc)
    assert_completed_thread(Place(data, direct), thread_id_of())


def test_the_lease_is_renewed_while_held_and_expires_when_not(postgres_server, bouncer):
    """Storage level, with a 1.5 s TTL: a held lease outlives its TTL (the heartbeat), a
    remote holder's lease left behind expires after it."""
    import app.storage.lease as lease
    from app.storage import ThreadBusy
    from app.storage.postgres import PostgresStorage

    pooled, _ = _databases(postgres_server, bouncer)
    storage = PostgresStorage(pooled, lease_ttl=1.5)
    with storage.thread_lock("t1"):
        time.sleep(3.5)  # over two TTLs: only the heartbeat keeps it
        with pytest.raises(ThreadBusy, match=r"lease expires in \d+ s"):
            with storage.thread_lock("t1"):
                pass
    remote = lease.Lease(storage._connect, "thread:t2", ttl=1.5)
    remote.holder = remote.holder.replace('"boot": ', '"boot": "elsewhere", "was": ')
    remote.__enter__()
    remote._stop.set()  # a killed holder: no more heartbeats, no release
    remote._beat.join()
    with pytest.raises(ThreadBusy):
        with storage.thread_lock("t2"):
            pass
    time.sleep(1.7)
    with storage.thread_lock("t2"):  # expired: taken
        pass
    remote._conn.close()


def test_statement_pooling_is_one_line_that_names_the_pooler(postgres_server, tmp_path,
                                                             durability_corpus):
    """Statement mode refuses transactions (the results upsert, the saver's writes): the app
    cannot run there, and says so in one line naming the pooler, not a traceback."""
    try:
        statement_mode = PgBouncer.start(postgres_server, pool_mode="statement")
        bouncer = statement_mode.__enter__()
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    try:
        pooled, direct = _databases(postgres_server, bouncer)
        proc = _run(tmp_path / "data", durability_corpus, pooled, direct=direct)
    finally:
        statement_mode.__exit__(None, None, None)
    assert proc.returncode == 1, describe(proc)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "PgBouncer" in lines[0] and "pooling mode" in lines[0], lines
