"""Benchmark how a run scales with its number of tasks, on SQLite and on PostgreSQL.

Run it::

    uv run python scripts/bench_scale.py                    # 12, 120 and 1,200 tasks
    uv run python scripts/bench_scale.py --sizes 12,120     # fewer
    uv run python scripts/bench_scale.py --database-url postgresql://...   # your own server

What it measures: offline runs (``python -m app research --model offline``) of one topic whose
plan has ``tasks / workers`` sub-questions, each run in its own process on a fresh data dir (and,
for PostgreSQL, a fresh database). The offline planner writes 3 to 5 sub-questions, so this script
replaces it (in the run's process only) with one that writes as many as the size asks for,
phrased from a fixed list of terms; the workers, the graph, the checkpointer and the results
database are the app's own. The corpus is the repository's ``docs/`` folder (indexed in
milliseconds). Per run:

* **run s / task**: seconds from the CLI's ``main()`` call to its return (imports and interpreter
  start-up excluded: they are a fixed cost), divided by the tasks;
* **peak MB**: the run process's peak resident memory (``ru_maxrss``, read by the process at
  its end);
* **ckpt KB / task**: bytes the checkpoints take in the database after the run (SQLite: the
  ``checkpoints.sqlite`` file and its WAL; PostgreSQL: ``pg_total_relation_size`` of the
  saver's three tables), divided by the tasks.

Then, per backend, the ratio of each size's per-task figures to the size before it: near 1.0x
means the per-task overhead stays flat as the tasks grow (the promise; the smallest size also
carries each run's fixed costs, such as opening the corpus and creating the tables, so its
per-task figures are higher). The script prints the ratios; it does not gate on them.

Without ``--database-url`` PostgreSQL runs on a throwaway server started from Debian's
``postgresql`` package (``tests/pgserver.py``); without that package the PostgreSQL rows are
skipped with a note. It exits non-zero only if a run fails or does not end
with one row per task. The default sizes take several minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.cli_env import clean_env  # noqa: E402 - the tests' clean environment, one owner

TOPIC = "scaling the research graph"
AS_OF = "2026-11-30"
TERMS = ("checkpointer", "reducer", "Send", "superstep", "durability", "pending writes",
         "thread_id", "envelope", "retry policy", "persist")

_RUN = """
import json, resource, sys, time
import app.graph.nodes.plan
from app.cli import main

n_questions, timings = int(sys.argv[1]), sys.argv[2]
terms = {terms!r}


def plan(topic):
    return [f"What does the documentation say about {{terms[i % len(terms)]}} (part {{i + 1}})?"
            for i in range(n_questions)]


app.graph.nodes.plan.offline_plan = plan  # the size of the plan is what this benchmark varies
started = time.perf_counter()
code = main(sys.argv[3:])
with open(timings, "w") as fh:
    json.dump({{"seconds": time.perf_counter() - started,
               "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}, fh)
sys.exit(code)
""".format(terms=TERMS)


@dataclass
class Result:
    backend: str
    tasks: int
    seconds: float
    peak_mb: float
    checkpoint_bytes: int

    @property
    def per_task_ms(self) -> float:
        return 1000 * self.seconds / self.tasks

    @property
    def kb_per_task(self) -> float:
        return self.checkpoint_bytes / 1024 / self.tasks


def run_once(backend: str, tasks: int, work: Path, url: str | None) -> Result:
    """One run of ``tasks`` tasks in a fresh data dir (and database); raises SystemExit if it
    fails or does not leave one row per task."""
    from app.storage import open_storage
    from workers.registry import WORKERS

    n_questions = max(1, tasks // len(WORKERS))
    data = work / f"{backend}-{tasks}"
    timings = work / f"{backend}-{tasks}.json"
    args = ["research", TOPIC, "--as-of", AS_OF, "--data-dir", str(data), "--corpus",
            str(ROOT / "docs"), "--model", "offline", "--json", "--quiet"]
    if url:
        args += ["--database-url", url]
    proc = subprocess.Popen([sys.executable, "-c", _RUN, str(n_questions), str(timings), *args],
                            cwd=ROOT, env=clean_env({"LANGSMITH_TRACING": "false"}),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = proc.communicate(timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"{backend} run of {tasks} tasks failed (exit {proc.returncode}):\n"
                         f"{stderr[-2000:]}")
    summary = json.loads(stdout)
    expected = n_questions * len(WORKERS)
    if not (summary["ok"] and summary["db_rows"] == summary["expected"] == expected):
        raise SystemExit(f"{backend} run of {tasks} tasks did not end with one row per task: "
                         f"{summary}")
    measured = json.loads(timings.read_text())
    return Result(backend, expected, measured["seconds"], measured["peak_kb"] / 1024,
                  open_storage(data, url).checkpoint_bytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="12,120,1200",
                        help="task counts, comma-separated (default 12,120,1200)")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--database-url", help="a PostgreSQL server to use (each size gets a "
                        "new database on it); default: a throwaway local server")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    backends = args.backends.split(",")

    results: list[Result] = []
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-scale-")))
        new_database = None
        if "postgres" in backends:
            new_database = _postgres(stack, args.database_url)
            if new_database is None:
                backends.remove("postgres")
        print(f"bench_scale: offline runs of {TOPIC!r}, sizes {sizes} tasks, "
              f"backends {backends}", flush=True)
        print(f"{'backend':<9} {'tasks':>6} {'run s':>8} {'ms/task':>8} {'peak MB':>8} "
              f"{'ckpt KB/task':>12}", flush=True)
        for backend in backends:
            for tasks in sizes:
                url = new_database() if backend == "postgres" and new_database else None
                r = run_once(backend, tasks, work, url)
                results.append(r)
                print(f"{r.backend:<9} {r.tasks:>6} {r.seconds:>8.2f} {r.per_task_ms:>8.1f} "
                      f"{r.peak_mb:>8.1f} {r.kb_per_task:>12.1f}", flush=True)
    print("each size against the size before it: time and checkpoint bytes per task (1.00x = "
          "flat; the smallest size also carries the run's fixed costs), and peak memory:")
    for backend in backends:
        mine = [r for r in results if r.backend == backend]
        for small, big in zip(mine, mine[1:], strict=False):
            print(f"  {backend:<9} {small.tasks:>5} -> {big.tasks:<5} time "
                  f"{big.per_task_ms / small.per_task_ms:5.2f}x   checkpoint bytes "
                  f"{big.kb_per_task / small.kb_per_task:5.2f}x   peak memory "
                  f"{big.peak_mb / small.peak_mb:5.2f}x")
    return 0


def _postgres(stack: ExitStack, url: str | None):
    """A function that returns the URL of a new empty database, or None (no server)."""
    if url:
        import uuid

        import psycopg

        def on_given() -> str:
            name = f"bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            return url.rsplit("/", 1)[0] + "/" + name

        return on_given
    from tests.pgserver import PostgresServer, PostgresUnavailable

    try:
        server = stack.enter_context(PostgresServer.start())
    except PostgresUnavailable as exc:
        print(f"note: no PostgreSQL rows: {exc}")
        return None
    return server.create_database


if __name__ == "__main__":
    started = time.perf_counter()
    code = main()
    print(f"done in {time.perf_counter() - started:.0f} s")
    sys.exit(code)
