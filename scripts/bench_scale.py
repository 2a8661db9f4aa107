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

Next to each app run, in a process of its own on the same backend, a **bare** LangGraph graph of
the same shape runs as many tasks: a node, a conditional edge with one ``Send`` per task (all in
one superstep), an id-keyed upsert reducer, a persist node writing the payloads to a table, and
``SqliteSaver`` or ``PostgresSaver``; each payload is the app's average envelope (its result row
as JSON, read back after the app's run: **env B**). Its **bare ms** per task and **bare MB** are
what LangGraph itself costs; **own ms** (the app's ms/task minus the bare graph's) is the
project's own cost, **MB/bare** the app's peak memory over the bare graph's (issue 21, item 13).

Then, per backend, the ratio of each size's per-task figures to the size before it: near 1.0x
means the per-task overhead stays flat as the tasks grow (the promise; the smallest size also
carries each run's fixed costs, such as opening the corpus and creating the tables, so its
per-task figures are higher). The script prints the ratios; it does not gate on them. The
targets: own cost 12,000 vs 1,200 tasks <= 1.1x, MB/bare <= 1.2x at each size.

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


def plan(topic, source=None, reached=1):
    return [f"What does the documentation say about {{terms[i % len(terms)]}} (part {{i + 1}})?"
            for i in range(n_questions)]


app.graph.nodes.plan.corpus_plan = plan  # the size of the plan is what this benchmark varies
started = time.perf_counter()
code = main(sys.argv[3:])
with open(timings, "w") as fh:
    json.dump({{"seconds": time.perf_counter() - started,
               "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}, fh)
sys.exit(code)
""".format(terms=TERMS)


_BARE = '''
"""A bare LangGraph graph of the research graph's shape: what LangGraph itself costs per task."""
import json, resource, sqlite3, sys, time
from typing import Annotated, Any

from typing_extensions import TypedDict
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

tasks, payload_bytes, data, url, timings = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                                            sys.argv[4], sys.argv[5])


def upsert(old: dict, new: dict) -> dict:
    """Id-keyed upsert, field-wise merge: one C-level dict copy per write (as cheap as it goes)."""
    merged = dict(old or {})
    for key, fields in new.items():
        merged[key] = {**merged[key], **fields} if key in merged else fields
    return merged


class State(TypedDict, total=False):
    ids: list[str]
    envelopes: Annotated[dict[str, dict[str, Any]], upsert]


FILLER = "x" * payload_bytes


def plan(state: State) -> dict:
    return {"ids": [f"task-{i}" for i in range(tasks)]}


def fan_out(state: State) -> list[Send]:
    return [Send("work", {"id": i}) for i in state["ids"]]


def work(task: dict) -> dict:
    envelope = {"envelope_id": task["id"], "worker": "bare", "task_key": task["id"],
                "as_of": "2026-11-30", "status": "ok", "round": 1, "persisted": False,
                "structured": {"text": FILLER}}
    return {"envelopes": {task["id"]: envelope}}


def persist(state: State) -> dict:
    pending = [e for e in state["envelopes"].values() if not e["persisted"]]
    rows = [(e["envelope_id"], json.dumps(e["structured"])) for e in pending]
    if url:
        with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
            conn.execute("CREATE TABLE IF NOT EXISTS bare_results (id TEXT PRIMARY KEY, "
                         "structured TEXT)")
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO bare_results VALUES (%s, %s) ON CONFLICT (id) DO "
                                "UPDATE SET structured = excluded.structured", rows)
    else:
        with sqlite3.connect(f"{data}/results.sqlite") as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS results (id TEXT PRIMARY KEY, "
                         "structured TEXT)")
            conn.executemany("INSERT OR REPLACE INTO results VALUES (?, ?)", rows)
    return {"envelopes": {e["envelope_id"]: {"persisted": True, "structured": None}
                          for e in pending}}


builder = StateGraph(State)
builder.add_node("plan", plan)
builder.add_node("work", work)
builder.add_node("persist", persist)
builder.add_edge(START, "plan")
builder.add_conditional_edges("plan", fan_out, ["work"])
builder.add_edge("work", "persist")
builder.add_edge("persist", END)
config = {"configurable": {"thread_id": "bare"}, "recursion_limit": 50}
if url:
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row
else:
    from langgraph.checkpoint.sqlite import SqliteSaver
started = time.perf_counter()  # imports excluded, as in the app's runs
if url:
    conn = psycopg.connect(url, autocommit=True, prepare_threshold=0, row_factory=dict_row)
    saver = PostgresSaver(conn)
else:
    conn = sqlite3.connect(f"{data}/checkpoints.sqlite", check_same_thread=False)
    saver = SqliteSaver(conn)
saver.setup()
graph = builder.compile(checkpointer=saver)
for _ in graph.stream({}, config, stream_mode="custom"):
    pass
final = graph.get_state(config).values["envelopes"]
assert len(final) == tasks and all(e["persisted"] for e in final.values()), "bare run incomplete"
conn.close()
with open(timings, "w") as fh:
    json.dump({"seconds": time.perf_counter() - started,
               "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}, fh)
'''


@dataclass
class Measured:
    """One process's run: seconds of graph work (imports excluded) and its peak memory."""

    seconds: float
    peak_mb: float


@dataclass
class Result:
    backend: str
    tasks: int
    app: Measured
    bare: Measured
    checkpoint_bytes: int
    envelope_bytes: int
    """The app's average envelope as JSON (its result row), the bare graph's payload size."""

    @property
    def per_task_ms(self) -> float:
        return 1000 * self.app.seconds / self.tasks

    @property
    def bare_ms(self) -> float:
        return 1000 * self.bare.seconds / self.tasks

    @property
    def own_ms(self) -> float:
        """The project's own cost per task: the app's minus the bare graph's."""
        return self.per_task_ms - self.bare_ms

    @property
    def kb_per_task(self) -> float:
        return self.checkpoint_bytes / 1024 / self.tasks

    @property
    def memory_ratio(self) -> float:
        return self.app.peak_mb / self.bare.peak_mb


def _measure(program: str, args: list[str], timings: Path, what: str) -> tuple[Measured, str]:
    """Run ``program`` in its own process; its stdout and what it wrote to ``timings``."""
    proc = subprocess.Popen([sys.executable, "-c", program, *args],
                            cwd=ROOT, env=clean_env({"LANGSMITH_TRACING": "false"}),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = proc.communicate(timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"{what} failed (exit {proc.returncode}):\n{stderr[-2000:]}")
    measured = json.loads(timings.read_text())
    return Measured(measured["seconds"], measured["peak_kb"] / 1024), stdout


def run_once(backend: str, tasks: int, work: Path, new_url) -> Result:
    """One run of the app and one of the bare graph, of ``tasks`` tasks each, each in a fresh
    data dir (and database); raises SystemExit if one fails or does not leave one row per
    task."""
    from app.storage import open_storage
    from workers.registry import WORKERS

    n_questions = max(1, tasks // len(WORKERS))
    data = work / f"{backend}-{tasks}"
    url = new_url() if new_url else None
    args = ["research", TOPIC, "--as-of", AS_OF, "--data-dir", str(data), "--corpus",
            str(ROOT / "docs"), "--model", "offline", "--json", "--quiet"]
    if url:
        args += ["--database-url", url]
    timings = work / f"{backend}-{tasks}.json"
    app, stdout = _measure(_RUN, [str(n_questions), str(timings), *args], timings,
                           f"{backend} run of {tasks} tasks")
    summary = json.loads(stdout)
    expected = n_questions * len(WORKERS)
    if not (summary["ok"] and summary["db_rows"] == summary["expected"] == expected):
        raise SystemExit(f"{backend} run of {tasks} tasks did not end with one row per task: "
                         f"{summary}")
    storage = open_storage(data, url)
    with storage.results(read_only=True) as store:
        rows = store.rows()
    envelope_bytes = round(sum(len(json.dumps(r, default=str)) for r in rows) / len(rows))

    bare_data = work / f"{backend}-{tasks}-bare"
    bare_data.mkdir()
    bare_timings = work / f"{backend}-{tasks}-bare.json"
    filler = max(0, envelope_bytes - 200)  # the bare envelope's other fields take ~200 bytes
    bare, _ = _measure(_BARE, [str(expected), str(filler), str(bare_data),
                               new_url() if new_url else "", str(bare_timings)],
                       bare_timings, f"{backend} bare graph of {expected} tasks")
    return Result(backend, expected, app, bare, storage.checkpoint_bytes(), envelope_bytes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="12,120,1200",
                        help="task counts, comma-separated (default 12,120,1200)")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--database-url", help="a PostgreSQL server to use (each size gets a "
                        "new database on it); default: a throwaway local server")
    args = parser.parse_args(argv)
    try:
        sizes = sorted(int(s) for s in args.sizes.split(","))
    except ValueError:
        parser.error(f"--sizes must be task counts separated by commas, got {args.sizes!r}")
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
              f"backends {backends}; 'bare' is a bare LangGraph graph of the same shape and "
              "payload size, 'own' the app's ms/task minus the bare graph's", flush=True)
        print(f"{'backend':<9} {'tasks':>6} {'run s':>8} {'ms/task':>8} {'peak MB':>8} "
              f"{'ckpt KB/task':>12} {'env B':>6} {'bare ms':>8} {'own ms':>7} "
              f"{'bare MB':>8} {'MB/bare':>7}", flush=True)
        for backend in backends:
            for tasks in sizes:
                r = run_once(backend, tasks, work,
                             new_database if backend == "postgres" else None)
                results.append(r)
                print(f"{r.backend:<9} {r.tasks:>6} {r.app.seconds:>8.2f} {r.per_task_ms:>8.1f} "
                      f"{r.app.peak_mb:>8.1f} {r.kb_per_task:>12.1f} {r.envelope_bytes:>6} "
                      f"{r.bare_ms:>8.1f} {r.own_ms:>7.1f} {r.bare.peak_mb:>8.1f} "
                      f"{r.memory_ratio:>6.2f}x", flush=True)
    print("each size against the size before it: the app's time, own cost and checkpoint bytes "
          "per task (1.00x = flat; the smallest size also carries the run's fixed costs) and "
          "peak memory; targets (issue 21): own cost <= 1.10x from 1,200 to 12,000 tasks, "
          "MB/bare <= 1.20x at each size:")
    for backend in backends:
        mine = [r for r in results if r.backend == backend]
        for small, big in zip(mine, mine[1:], strict=False):
            print(f"  {backend:<9} {small.tasks:>5} -> {big.tasks:<5} time "
                  f"{big.per_task_ms / small.per_task_ms:5.2f}x   own cost "
                  f"{_ratio(big.own_ms, small.own_ms)}   checkpoint bytes "
                  f"{big.kb_per_task / small.kb_per_task:5.2f}x   peak memory "
                  f"{big.app.peak_mb / small.app.peak_mb:5.2f}x")
    return 0


def _ratio(big: float, small: float) -> str:
    """``big / small`` as ``1.23x``; ``n/a`` when the smaller cost is not positive (noise)."""
    return f"{big / small:5.2f}x" if small > 0 else "  n/a"


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
