"""Shared helpers of the workshop walkthrough scripts (``scripts/walkthrough_*.py``).

* a small corpus about LangGraph's own vocabulary, written to a temp folder, so a run of the app
  indexes a handful of passages instead of the installed packages' docs (milliseconds, not a
  second and a half) and prints the same thing on every machine;
* :func:`run_app`: ``python -m app ...`` in a subprocess, from the repository root, offline, with
  an environment the user's ``.env`` and ``RESEARCH_*`` variables cannot leak into;
* :func:`show_rows`: the results database rows, as a table that carries no timestamps;
* :func:`verdict`: the one last line every script prints, and its exit status.

Not a walkthrough step itself: the scripts import it (``scripts/`` is on ``sys.path`` when a
script runs).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
"""The repository root (scripts run the app from here)."""

TOPIC = "Send and reducers"
AS_OF = "2026-11-30"
"""A fixed ``--as-of``: envelope ids, thread ids and injected failures are the same every day."""

CORPUS_FILES: dict[str, str] = {
    "send.md": textwrap.dedent(
        """\
        # Send

        Send is the LangGraph object that dispatches one task to a node with its own input. A
        conditional edge that returns a list of Send objects fans the work out: every Send
        becomes one task of the next superstep, and the tasks of one superstep run in parallel.

        The node that a Send targets is called a worker in this project. Each worker reads only
        the input its Send carried and returns an update for the shared state channels.

        A conditional edge that builds Send objects must not raise an exception, because a
        failure there is not a task that LangGraph can retry or resume. Keep the edge pure and
        put the fallible work in nodes.
        """
    ),
    "reducers.md": textwrap.dedent(
        """\
        # Reducers

        A reducer decides how a state channel folds the writes it receives. LangGraph calls the
        reducer once per write, in task order, starting from the channel's default value.

        A channel without a reducer accepts one write per superstep: when two parallel nodes
        write it, LangGraph raises an InvalidUpdateError. A reducer such as operator.add lets
        every parallel worker append to the same list.

        Warning: operator.add keeps every write, so a write that repeats an earlier one becomes
        a duplicate entry. An upsert reducer keyed by a deterministic id, such as the envelope
        reducer, updates the entry in place instead.
        """
    ),
    "checkpointer.md": textwrap.dedent(
        """\
        # Checkpointer

        A checkpointer saves the state of a thread after every superstep, keyed by its
        thread_id, so a run that stopped can be resumed from its last checkpoint.

        While a superstep runs, the checkpointer also saves the pending writes of each task that
        finished. On resume, the tasks whose pending writes were saved are not run again.

        The durability mode says when checkpoints are written: sync waits for each checkpoint,
        async writes it in the background, and exit writes only when the graph exits. Under the
        exit mode a process that is killed leaves no checkpoint at all.
        """
    ),
}
"""The walkthrough corpus: three short documents, each split into a few passages."""


def write_corpus(folder: Path) -> Path:
    """Write :data:`CORPUS_FILES` under ``folder``; return ``folder``."""
    for name, text in CORPUS_FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def research_args(data_dir: Path, corpus: Path, *extra: str) -> list[str]:
    """The CLI arguments of a walkthrough research run: the topic, a fixed ``--as-of``, the
    temp data dir and corpus, the offline model, and ``extra``."""
    return ["research", TOPIC, "--as-of", AS_OF, "--data-dir", str(data_dir),
            "--corpus", str(corpus), "--model", "offline", *extra]


def app_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of an app subprocess: offline, and deaf to the user's settings.

    Every variable the app reads is set to the empty string (which the app treats as unset and
    which outranks a ``.env`` file), and ``OPENAI_API_KEY`` is removed, so the run is the
    deterministic offline one whatever the machine holds. ``extra`` is applied last.
    """
    from app.config import ENV_VARS  # light: the config module imports no LangGraph code

    env = {k: v for k, v in os.environ.items()
           if k != "OPENAI_API_KEY" and not k.startswith("RESEARCH_")}
    env.update({name: "" for name in ENV_VARS})
    env.update({"PYTHONUTF8": "1", "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"})
    env.pop("PYTHONPATH", None)
    if extra:
        env.update(extra)
    return env


def run_app(args: Sequence[str | os.PathLike[str]], *, env: Mapping[str, str] | None = None,
            echo: bool = True, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """Run ``python -m app *args`` from the repository root and capture its output.

    Args:
        args: the CLI arguments.
        env: extra environment variables (see :func:`app_env`).
        echo: print the command (with the temp folder shortened to ``$TMP``) before running it.
        timeout: seconds before the run is abandoned.
    """
    cmd = [sys.executable, "-m", "app", *map(str, args)]
    if echo:
        print("$ python -m app " + " ".join(_quoted(_shorten(str(a))) for a in args))
    return subprocess.run(cmd, cwd=ROOT, env=app_env(env), capture_output=True, text=True,
                          encoding="utf-8", timeout=timeout, check=False)


_TMP_PREFIXES: list[str] = []


def remember_tmp(path: Path) -> None:
    """Show ``path`` as ``$TMP`` in echoed commands (temp paths differ on every run)."""
    _TMP_PREFIXES.append(str(path))


def _shorten(text: str) -> str:
    for prefix in _TMP_PREFIXES:
        text = text.replace(prefix, "$TMP")
    return text


def _quoted(arg: str) -> str:
    return f'"{arg}"' if " " in arg else arg


def print_lines(text: str, *, keep: Sequence[str] = (), indent: str = "  ") -> None:
    """Print the lines of ``text``, re-indented (only those containing one of ``keep``, when
    given)."""
    for line in text.splitlines():
        if not keep or any(k in line for k in keep):
            print(indent + _shorten(line.strip()))


def db_rows(data_dir: Path) -> list[dict[str, Any]]:
    """Every row of the results database (no payloads), ordered by worker and sub-question so
    that the printed table is the same on every run."""
    path = data_dir / "results.sqlite"
    if not path.exists():
        return []
    with closing(sqlite3.connect(path)) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute(
            "SELECT envelope_id, worker, task_key, status, round, attempts, write_count "
            "FROM results ORDER BY worker, task_key")]


def show_rows(rows: Sequence[dict[str, Any]], title: str = "results database rows") -> None:
    """Print rows as a fixed-width table: worker, status, round, attempts, writes, sub-question.

    The envelope ids are left out (they are long); :func:`short_id` shows one when it matters.
    """
    print(f"{title}: {len(rows)}")
    print(f"  {'worker':<12} {'status':<6} {'round':>5} {'attempts':>8} {'writes':>6}  "
          "sub-question")
    for r in rows:
        print(f"  {r['worker']:<12} {r['status']:<6} {r['round']:>5} {r['attempts']:>8} "
              f"{r['write_count']:>6}  {r['task_key']}")


def short_id(envelope_id: str) -> str:
    """``worker:as_of:digest`` cut to the worker and 8 digits of the digest, for display."""
    worker, _, rest = envelope_id.partition(":")
    return f"{worker}:…{rest.rsplit(':', 1)[-1][:8]}"


def verdict(ok: bool, shown: str, failed: str) -> int:
    """Print the one verdict line and return the exit status (0 on PASS, 1 on FAIL)."""
    print()
    if ok:
        print(f"verdict: PASS - {shown}")
        return 0
    print(f"verdict: FAIL - {failed}")
    return 1
