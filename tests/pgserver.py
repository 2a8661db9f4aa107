"""A throwaway PostgreSQL server on 127.0.0.1 for the tests and ``scripts/bench_scale.py``.

It uses the binaries of Debian's ``postgresql`` package (``/usr/lib/postgresql/<version>/bin``,
or ``initdb``/``pg_ctl`` on ``PATH``): ``initdb`` in a temporary folder, ``pg_ctl start`` on a
free port, ``pg_ctl stop`` and the folder removed afterwards. Nothing of a system cluster is
touched. ``initdb`` refuses to run as root (CI runs as root), so as root every server command
runs as the ``postgres`` user (which the package creates) through ``runuser``.

Durability against a killed *client* is what the tests prove, not against a killed server, so
the server runs with ``fsync=off`` for speed.

:class:`PgBouncer` puts Debian's ``pgbouncer`` (``apt-get install -y pgbouncer``) in front of
such a server, in transaction mode by default, on another free port of 127.0.0.1.

Example::

    with PostgresServer.start() as server:
        url = server.create_database("t1")  # postgresql://postgres@127.0.0.1:PORT/t1
        with PgBouncer.start(server) as bouncer:
            pooled = bouncer.url("t1")       # the same database through the pooler
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PgBouncer", "PostgresServer", "PostgresUnavailable", "find_bindir"]

SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server binaries are not installed (``apt-get install -y postgresql``)."""


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: the newest Debian version, else ``PATH``.

    Raises:
        PostgresUnavailable: neither is there.
    """
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                      key=lambda p: int(Path(p).parent.parent.name)
                      if Path(p).parent.parent.name.isdigit() else 0)
    if versions:
        return Path(versions[-1]).parent
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    raise PostgresUnavailable("PostgreSQL is not installed: apt-get install -y postgresql")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _options(port: int, folder: Path) -> str:
    """The server's options (``pg_ctl -o``): 127.0.0.1:``port``, its socket in ``folder``, no
    fsync (see the module docstring)."""
    return (f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200")


def _as_server_user() -> list[str]:
    """The command prefix that runs a server binary as a non-root user (empty if not root)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(SUPERUSER)
    except KeyError:
        raise PostgresUnavailable(f"running as root and there is no {SUPERUSER!r} user to run "
                                  "PostgreSQL as (apt-get install -y postgresql creates it)"
                                  ) from None
    runuser = shutil.which("runuser") or "/usr/sbin/runuser"
    return [runuser, "-u", SUPERUSER, "--"]


@dataclass
class PostgresServer:
    """A running throwaway server; use :meth:`start` (a context manager)."""

    port: int
    folder: Path

    @classmethod
    @contextmanager
    def start(cls) -> Iterator[PostgresServer]:
        """Create, start, yield and finally stop and delete a server.

        Raises:
            PostgresUnavailable: no binaries, or no user to run them as root.
            subprocess.CalledProcessError: ``initdb`` or ``pg_ctl`` failed (its output attached).
        """
        bindir = find_bindir()
        prefix = _as_server_user()
        folder = Path(tempfile.mkdtemp(prefix="research-pg-"))
        data = folder / "data"
        if prefix:
            info = pwd.getpwnam(SUPERUSER)
            os.chown(folder, info.pw_uid, info.pw_gid)

        def run(*cmd: str) -> None:
            subprocess.run([*prefix, *cmd], check=True, capture_output=True, text=True,
                           timeout=120, cwd=folder)

        server: PostgresServer | None = None
        try:
            run(str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust",
                "--encoding=UTF8", "--locale=C", "--no-sync")
            for attempt in range(5):  # the free port may be taken before the server binds it
                port = _free_port()
                try:
                    run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"),
                        "-o", _options(port, folder), "-w", "-t", "60", "start")
                except subprocess.CalledProcessError:
                    if attempt == 4:
                        raise
                    continue
                server = cls(port=port, folder=folder)
                break
            assert server is not None
            yield server
        finally:
            if server is not None:
                subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m",
                                "immediate", "-w", "stop"], capture_output=True, timeout=60,
                               cwd=folder)
            shutil.rmtree(folder, ignore_errors=True)

    def restart(self, attempts: int = 10) -> None:
        """Restart the server the way an operator does (``pg_ctl stop -m fast``: every client's
        connection ends with ``AdminShutdown``; if that has not stopped it within 60 s, ``-m
        immediate``, whose clients see ``AdminShutdown`` too), then start it again on the same
        port, with the same options, waiting until it accepts connections. Under load the port
        can be taken for a moment (a client's ephemeral port), so the start is tried
        ``attempts`` times.

        Raises:
            RuntimeError: it did not stop (still running after both stops), or did not start again
                (the end of its log attached).
        """
        prefix, pg_ctl = _as_server_user(), str(find_bindir() / "pg_ctl")
        data, log = str(self.folder / "data"), str(self.folder / "log")
        for mode, wait in (("fast", 60), ("immediate", 60)):
            stopped = subprocess.run([*prefix, pg_ctl, "-D", data, "-m", mode, "-w", "-t",
                                      str(wait), "stop"], capture_output=True, timeout=wait + 60,
                                     cwd=self.folder)
            if stopped.returncode == 0 or not self._postmaster_up():
                break
        else:  # twice in CI runs a fast stop waited 120 s in vain: the immediate one is the end
            raise RuntimeError(f"PostgreSQL did not stop on port {self.port}: "
                               f"{stopped.stderr.decode(errors='replace').strip()}")
        for _ in range(attempts):
            started = subprocess.run(
                [*prefix, pg_ctl, "-D", data, "-l", log, "-o", _options(self.port, self.folder),
                 "-w", "-t", "60", "start"], capture_output=True, timeout=120, cwd=self.folder)
            if started.returncode == 0 or self._running():  # a slow start may still come up
                return
            time.sleep(1.0)
        tail = (self.folder / "log").read_text(encoding="utf-8", errors="replace")[-2000:]
        raise RuntimeError(f"PostgreSQL did not start again on port {self.port}:\n{tail}")

    def _postmaster_up(self) -> bool:
        """Whether a postmaster runs in this folder (``pg_ctl status``)."""
        status = subprocess.run([*_as_server_user(), str(find_bindir() / "pg_ctl"), "-D",
                                 str(self.folder / "data"), "status"], capture_output=True,
                                timeout=60, cwd=self.folder)
        return status.returncode == 0

    def _running(self, wait: float = 60.0) -> bool:
        """True once the server of this folder accepts connections (``pg_ctl -w start`` can
        give up under load while the postmaster it started is still coming up), waiting up
        to ``wait`` seconds; False at once when no postmaster runs there."""
        import psycopg

        if not self._postmaster_up():
            return False
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                psycopg.connect(self.url(), connect_timeout=5).close()
                return True
            except psycopg.OperationalError:
                time.sleep(0.5)
        return False

    def url(self, database: str = "postgres") -> str:
        """``postgresql://postgres@127.0.0.1:PORT/<database>``."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """Create an empty database (a random name by default); return its URL."""
        import psycopg

        name = name or f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def find_pgbouncer() -> str:
    """The ``pgbouncer`` binary (Debian puts it in ``/usr/sbin``).

    Raises:
        PostgresUnavailable: it is not installed (``apt-get install -y pgbouncer``).
    """
    found = shutil.which("pgbouncer") or next(
        (p for p in ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer") if os.path.exists(p)), None)
    if found is None:
        raise PostgresUnavailable("PgBouncer is not installed: apt-get install -y pgbouncer")
    return found


@dataclass
class PgBouncer:
    """A running PgBouncer in front of a :class:`PostgresServer`; use :meth:`start`."""

    port: int
    folder: Path

    @classmethod
    @contextmanager
    def start(cls, server: PostgresServer, *, pool_mode: str = "transaction",
              pool_size: int = 3, settings: str = "") -> Iterator[PgBouncer]:
        """Start ``pgbouncer`` (trust auth, every database of ``server``, ``pool_size`` server
        connections per database: few, so that clients really share them), yield it, stop it.
        ``settings``: more lines of its ``[pgbouncer]`` section (``query_wait_timeout = 2``).

        Raises:
            PostgresUnavailable: no ``pgbouncer`` binary, or no user to run it as root.
            RuntimeError: it did not start listening (its log attached).
        """
        binary = find_pgbouncer()
        prefix = _as_server_user()  # pgbouncer refuses to run as root, like the server
        folder = Path(tempfile.mkdtemp(prefix="research-pgbouncer-"))
        if prefix:
            info = pwd.getpwnam(SUPERUSER)
            os.chown(folder, info.pw_uid, info.pw_gid)
        (folder / "users.txt").write_text(f'"{SUPERUSER}" ""\n', encoding="utf-8")
        proc: subprocess.Popen[bytes] | None = None
        try:
            for attempt in range(5):  # the free port may be taken before pgbouncer binds it
                port = _free_port()
                ini = folder / "pgbouncer.ini"
                ini.write_text(
                    f"[databases]\n* = host=127.0.0.1 port={server.port}\n[pgbouncer]\n"
                    f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
                    f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
                    f"pool_mode = {pool_mode}\ndefault_pool_size = {pool_size}\n"
                    f"max_client_conn = 500\nlogfile = {folder / 'log'}\n"
                    f"admin_users = {SUPERUSER}\n{settings}", encoding="utf-8")
                proc = subprocess.Popen([*prefix, binary, str(ini)], cwd=folder,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if _listening(port, proc):
                    break
                proc.kill()
                proc.wait(timeout=30)
                proc = None
                if attempt == 4:
                    log = (folder / "log").read_text(errors="replace")[-2000:] \
                        if (folder / "log").exists() else ""
                    raise RuntimeError(f"pgbouncer did not start: {log}")
            yield cls(port=port, folder=folder)
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=30)
            shutil.rmtree(folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """``postgresql://postgres@127.0.0.1:PORT/<database>`` through the pooler."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"


def _listening(port: int, proc: subprocess.Popen[bytes], timeout: float = 20.0) -> bool:
    """Wait until something accepts connections on ``port`` (False if ``proc`` died first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.05)
    return False
