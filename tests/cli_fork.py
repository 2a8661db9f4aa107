"""A fork server for the tests' CLI runs: ``python -m app ARGS`` in a real child process that
starts with the import floor already paid.

Nearly all of a CLI run's CPU in the test suite is the interpreter importing LangGraph,
LangChain and pydantic (~1 s of a ~1.7 s run); the suite runs the CLI some 650 times. A
:class:`ForkServer` imports those third-party packages once (:data:`PRELOAD`, modules every
``research`` run imports anyway, none of the project's own), then forks a child per run. The
child is the CLI as a user runs it in every way the tests look at: its own process (a pid, its
own exit code, signals), the run's environment (``os.environ`` and the C environment), working
directory, ``sys.argv`` and ``sys.path[0]`` as ``python -m`` sets them, stdout and stderr to
files, stdin from ``/dev/null``, ``app.__main__`` run by :mod:`runpy` as ``-m`` runs it, and the
interpreter's exit (non-daemon threads joined, ``atexit`` handlers, streams flushed). What is
not the same: the preloaded modules are in ``sys.modules`` from the start, so a test of what a
run imports, or of an interpreter option set by a ``PYTHON*`` variable, starts a fresh
interpreter (``tests/e2e/test_offline_imports.py`` does; :func:`tests.cli_env.run_cli` falls
back to one when a run's ``PYTHON*`` variables differ from the server's).

Processes: the server (single-threaded, so forking it is safe) forks a *supervisor* per
request, which forks the *run* and waits for it (or kills it at the request's timeout, or when
the client goes away) and answers with its exit status. ``TESTS_CLI_FORK=0`` turns it off.
Source of the idea: the "zygote" of Android and of ``multiprocessing``'s ``forkserver`` start
method (``multiprocessing/forkserver.py``), which preloads modules and forks per process.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import json
import os
import runpy
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["PRELOAD", "ForkServer"]

PRELOAD = ("pydantic", "langchain_core.messages", "langchain_core.runnables",
           "langchain.agents", "langgraph.graph", "langgraph.types",
           "langgraph.checkpoint.sqlite", "rich.console", "rich.table", "sqlite3")
"""Third-party modules every ``research`` run imports (``tests/e2e/test_offline_imports.py``
checks what a run must *not* import, in a fresh interpreter)."""

_READY = "ready"


class ForkServer:
    """A running fork server; :meth:`run` runs the CLI in a child of it.

    Args:
        env: the server's environment (the ``PYTHON*`` variables of the runs it serves must be
            the same: they take effect when an interpreter starts).
        cwd: the server's working directory.

    Raises:
        RuntimeError: the server did not start (its stderr is in the message).
    """

    def __init__(self, env: Mapping[str, str], cwd: Path) -> None:
        self.env = dict(env)
        self._dir = Path(tempfile.mkdtemp(prefix="cli-fork-"))
        self.path = str(self._dir / "socket")
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "tests.cli_fork", self.path], cwd=cwd, env=self.env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self._proc.stdout.readline().strip() if self._proc.stdout else ""
        if line != _READY:
            self.close()
            raise RuntimeError(f"the CLI fork server did not start: {line}")
        atexit.register(self.close)

    def serves(self, env: Mapping[str, str]) -> bool:
        """Whether a run with environment ``env`` can be a child of this server: its
        interpreter options (``PYTHON*`` variables) are the server's."""
        def options(e: Mapping[str, str]) -> dict[str, str]:
            return {k: v for k, v in e.items() if k.startswith("PYTHON")}
        return self._proc.poll() is None and options(env) == options(self.env)

    def run(self, args: Sequence[str], env: Mapping[str, str], cwd: Path,
            timeout: float) -> subprocess.CompletedProcess[str]:
        """``python -m app *args`` in a child; stdout and stderr captured as UTF-8 text; the
        result's ``pid`` is the run's process id.

        Raises:
            subprocess.TimeoutExpired: the run took longer than ``timeout`` seconds (it was
                killed).
        """
        cmd = [sys.executable, "-m", "app", *args]
        with tempfile.TemporaryDirectory(dir=self._dir) as tmp:
            out, err = Path(tmp, "stdout"), Path(tmp, "stderr")
            request = {"args": list(args), "env": dict(env), "cwd": str(cwd),
                       "timeout": timeout, "stdout": str(out), "stderr": str(err)}
            with socket.socket(socket.AF_UNIX) as conn:
                conn.connect(self.path)
                conn.sendall(json.dumps(request).encode() + b"\n")
                conn.settimeout(timeout + 60)
                answer = json.loads(conn.makefile("rb").readline() or b"{}")
            stdout = out.read_text(encoding="utf-8") if out.exists() else ""
            stderr = err.read_text(encoding="utf-8") if err.exists() else ""
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(cmd, timeout, stdout, stderr)
        if "returncode" not in answer:
            raise RuntimeError(f"the CLI fork server lost the run {args!r}: {stderr}")
        done = subprocess.CompletedProcess(cmd, answer["returncode"], stdout, stderr)
        done.pid = answer["pid"]  # type: ignore[attr-defined]  # the run's, as its log records
        return done

    def close(self) -> None:
        """Stop the server (runs under way finish on their own) and remove its socket."""
        if self._proc.poll() is None:
            if self._proc.stdin:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream:
                stream.close()
        Path(self.path).unlink(missing_ok=True)
        try:
            self._dir.rmdir()
        except OSError:
            pass


def _serve(path: str) -> None:
    """The server: preload, then fork a supervisor per connection until stdin closes."""
    for name in PRELOAD:
        importlib.import_module(name)
    if threading.active_count() != 1:  # forking a threaded process is not safe
        raise SystemExit(f"a preloaded module started a thread: {threading.enumerate()}")
    gc.collect()
    gc.freeze()  # the children's collections skip what they inherit (Python docs, gc.freeze)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # supervisors are reaped by the kernel
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(path)
        server.listen(64)
        print(_READY, flush=True)
        while True:
            ready, _, _ = select.select([server, sys.stdin], [], [])
            if sys.stdin in ready:
                return
            conn, _ = server.accept()
            if os.fork() == 0:
                server.close()
                _supervise(conn)  # never returns
            conn.close()


def _supervise(conn: socket.socket) -> None:
    """A supervisor: fork the run, answer with its exit status; never returns."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    request = json.loads(conn.makefile("rb").readline())
    pid = os.fork()
    if pid == 0:
        conn.close()
        _run(request)  # never returns
    answer: dict[str, object] = {"pid": pid}
    with os.fdopen(os.pidfd_open(pid), "rb") as pidfd:
        ready, _, _ = select.select([pidfd, conn], [], [], request["timeout"])
        if pidfd not in ready:  # timed out, or the client went away
            os.kill(pid, signal.SIGKILL)
            answer["timeout"] = True
    _, status = os.waitpid(pid, 0)
    if not answer.get("timeout"):
        answer["returncode"] = os.waitstatus_to_exitcode(status)
    try:
        conn.sendall(json.dumps(answer).encode() + b"\n")
    finally:
        os._exit(0)


def _run(request: dict) -> None:
    """The run: ``python -m app ARGS`` as the interpreter would run it; never returns."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        os.dup2(os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["-m", *request["args"]]
    sys.path[0] = request["cwd"]  # as ``python -m`` sets it
    code = _main()
    threading._shutdown()  # type: ignore[attr-defined]  # the interpreter joins its threads
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _main() -> int:
    """Run ``app`` as ``__main__``; its exit code as the interpreter would give it."""
    try:
        runpy.run_module("app", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        traceback.print_exc()
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # killed by SIGINT, as Python does
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    _serve(sys.argv[1])
