"""Shared helpers of the workshop walkthrough scripts (``scripts/walkthrough_*.py``).

* a small corpus about LangGraph's own vocabulary, written to a temp folder, so a run of the app
  indexes a handful of passages instead of the installed packages' docs (milliseconds, not a
  second and a half) and prints the same thing on every machine;
* :func:`run_app`: ``python -m app ...`` in a subprocess, from the repository root, offline, with
  an environment the user's ``.env`` and ``RESEARCH_*`` variables cannot leak into (the tests'
  ``tests/cli_env.py``, the one owner of that environment);
* :func:`show_rows`: the results database rows, as a table that carries no timestamps;
* :func:`verdict`: the one last line every script prints, and its exit status;
* :func:`sub_questions`, :func:`worker_names`, :func:`expected_rows`: what a run of :data:`TOPIC`
  must produce, from the offline planner and ``workers/registry.py`` (so the verdicts hold in a
  fork with more workers), and :func:`first_ok_attempts` / :func:`pick_seed` for ``--fail-rate``.

Not a walkthrough step itself: the scripts import it (``scripts/`` is on ``sys.path`` when a
script runs).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import textwrap
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from tests.cli_env import clean_env, run_cli  # noqa: F401 - the tests' clean environment, re-exported

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


def run_app(args: Sequence[str | os.PathLike[str]], *, env: Mapping[str, str] | None = None,
            echo: bool = True, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """Run ``python -m app *args`` from the repository root and capture its output.

    The environment is :func:`clean_env`'s (the tests' ``tests.cli_env.run_cli`` runs it).

    Args:
        args: the CLI arguments.
        env: extra environment variables (see :func:`clean_env`).
        echo: print the command (with the temp folder shortened to ``$TMP``) before running it.
        timeout: seconds before the run is abandoned.
    """
    if echo:
        print("$ python -m app " + " ".join(_quoted(_shorten(str(a))) for a in args))
    return run_cli(*args, env=env, timeout=timeout)


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
            "SELECT envelope_id, thread_id, worker, task_key, status, round, attempts, "
            "write_count FROM results ORDER BY worker, task_key")]


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


def sub_questions(topic: str = TOPIC) -> list[str]:
    """The offline planner's sub-questions of ``topic`` (what a walkthrough run dispatches)."""
    from app.research.plan import offline_plan

    return offline_plan(topic)


def worker_names() -> list[str]:
    """The registered workers (``workers/registry.py``), in registry order."""
    from workers.registry import WORKERS

    return [w.name for w in WORKERS]


def expected_rows(topic: str = TOPIC) -> int:
    """Envelopes (and DB rows) of one run of ``topic``: sub-questions x workers (9 in the stock
    template: 3 x ``docs_search``, ``analyst``, ``critic``)."""
    return len(sub_questions(topic)) * len(worker_names())


def first_ok_attempts(fail_rate: float, seed: int, *, max_attempts: int | None = None,
                      topic: str = TOPIC, as_of: str = AS_OF) -> dict[str, int]:
    """For each envelope id of a run of ``topic``: the first attempt that ``--fail-rate
    fail_rate --seed seed`` lets through in round 1, ``max_attempts + 1`` if none does. Asked of
    the app's own ``FaultPlan.injects_failure``, which decides the failures of a real run."""
    from app.runs.faults import FaultPlan
    from app.settings.config import default_of
    from state import make_envelope_id

    max_attempts = max_attempts or default_of("max_attempts")  # RESEARCH_MAX_ATTEMPTS's
    plan = FaultPlan(fail_rate=fail_rate, seed=seed)
    out = {}
    for question in sub_questions(topic):
        for worker in worker_names():
            task = {"worker": worker, "sub_question": question, "topic": topic, "as_of": as_of,
                    "round": 1}
            attempt = 1
            while attempt <= max_attempts and plan.injects_failure(task, attempt):
                attempt += 1
            out[make_envelope_id(worker, question, as_of)] = attempt
    return out


def pick_seed(fail_rate: float, preferred: int, *, max_attempts: int | None = None) -> int:
    """``preferred`` if with it every task of a run succeeds within ``max_attempts`` in round 1
    and some task needs a retry; else the next seed that does (the failures depend on the
    envelope ids, so another plan or another set of workers needs another seed)."""
    from app.settings.config import default_of

    max_attempts = max_attempts or default_of("max_attempts")
    for seed in range(preferred, preferred + 10_000):
        attempts = first_ok_attempts(fail_rate, seed, max_attempts=max_attempts).values()
        if max(attempts) <= max_attempts and max(attempts) > 1:
            return seed
    raise RuntimeError(f"no seed from {preferred} on lets every task through")


def verdict(ok: bool, shown: str, failed: str) -> int:
    """Print the one verdict line and return the exit status (0 on PASS, 1 on FAIL)."""
    print()
    if ok:
        print(f"verdict: PASS - {shown}")
        return 0
    print(f"verdict: FAIL - {failed}")
    return 1
