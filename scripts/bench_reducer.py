"""Benchmark: what does the envelope upsert cost compared with plain list concatenation?

What it measures
----------------
1. **Folding N single-envelope writes**, the way LangGraph folds the writes of an N-wide ``Send``
   fan-out into one channel (``value = reducer(value, write)`` once per write, starting from
   ``[]``). Each case is run with four reducers on the same prebuilt writes:

   * ``operator.add``: plain concatenation, the baseline every ratio is relative to. It keeps
     duplicates, so it is the speed to match, not a correct alternative.
   * ``naive upsert``: the obvious correct upsert, written in this script: rebuild a
     ``{key: position}`` index from the whole list on every call. Quadratic; the design
     (docs/architecture.md, "The reducer rules", rule 6) exists to avoid it.
   * ``add_messages``: LangGraph's own id-keyed upsert for messages, fed equivalent
     ``AIMessage``s with the same ids (it also re-indexes the whole list on every call).
   * ``envelope_reducer``: the reducer in ``state/reducers.py``.

   Cases: N = 1,000 and N = 10,000 fresh ids ("insert"), and the same N with half of the writes
   updating an id written earlier ("mixed": persisted=True, structured=None, like persist).

2. **A real LangGraph graph** with a 4,000-wide ``Send`` fan-out where each worker writes one
   envelope, compiled once with ``operator.add`` and once with ``envelope_reducer`` on the
   ``envelopes`` key. Here the reducer is a small part of the run; the ratio says how much of the
   whole ``invoke`` the upsert adds.

How to read it
--------------
Times are the best of several repeats (one repeat for runs that take over a second), after a
warm-up. Folds run with the garbage collector paused (as ``timeit`` does) for every method
alike; graph runs keep it on and interleave their repeats. "x add" is the time divided by
``operator.add``'s time for the same case. "entries out" is the length of the final value,
"unique ids" the number of distinct envelope (or message) ids in it: in the mixed case
``operator.add`` appends every write, so it ends with N entries for N/2 ids, while the upserts
keep one entry per id (and can come out below 1.00x: they copy a shorter list). The targets:
``envelope_reducer`` within 2x of ``operator.add`` at N=10,000, and the graph with
``envelope_reducer`` within 1.15x of the graph with ``operator.add``. PASS/FAIL is printed; the
exit status does not depend on it (timings depend on the machine).

Run ``uv run python scripts/bench_reducer.py`` (about 45 s on 2 cores, most of it the quadratic
baselines) or ``--quick`` for a five-second smoke run with small sizes, where the targets are
not judged (it says so under its first table): at N <= 1,000 the upsert's fixed cost per write
(a key lookup, a dict copy) weighs more against ``operator.add``'s short list copy, so its ratio
reads several times higher there, and falls under 2x only as the list copy, which both pay on
every write, grows with N.
"""

from __future__ import annotations

import argparse
import gc
import operator
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from langchain_core.messages import AIMessage  # noqa: E402
from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.graph.message import add_messages  # noqa: E402
from langgraph.types import Send  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from state import envelope_key, envelope_reducer, make_envelope_id  # noqa: E402

AS_OF = "2026-11-30"
FOLD_TARGET = 2.0  # envelope_reducer / operator.add at N=10,000
GRAPH_TARGET = 1.15  # graph with envelope_reducer / graph with operator.add
SLOW_RUN_S = 1.0  # a run slower than this is not repeated
QUICK_NOTE = (
    "Note: --quick uses small N; the targets are judged at N=10,000 only (the full run). At small "
    "N envelope_reducer's fixed cost per write (a key lookup, a dict copy) weighs more against "
    "operator.add's short list copy, so its x add reads several times higher than at N=10,000."
)


def naive_upsert(existing: list[dict] | None, new: Any) -> list[dict]:
    """The baseline to beat: a correct upsert that rebuilds its key index on every call."""
    result = list(existing or [])
    index = {envelope_key(entry): i for i, entry in enumerate(result)}
    for update in [new] if isinstance(new, dict) else (new or []):
        key = envelope_key(update)
        pos = index.get(key)
        if pos is None:
            index[key] = len(result)
            result.append(dict(update))
        else:
            merged = dict(result[pos])
            merged.update(update)
            result[pos] = merged
    return result


def envelope(i: int) -> dict[str, Any]:
    """A realistic envelope dict, as ``Envelope(...).to_state()`` would produce."""
    question = f"sub-question {i}"
    return {
        "envelope_id": make_envelope_id("docs_search", question, AS_OF),
        "worker": "docs_search",
        "as_of": AS_OF,
        "task_key": question,
        "status": "ok",
        "error": None,
        "structured": {"passages": [f"passage {i}"], "citations": [f"doc-{i}.md"]},
        "persisted": False,
        "attempts": 1,
        "round": 1,
        "task_id": None,
        "tokens": 0,
    }


def make_writes(n: int, mixed: bool) -> tuple[list[list[dict]], list[list[AIMessage]], int]:
    """Return the N envelope writes, the equivalent message writes, and the expected unique count.

    Insert case: N fresh ids. Mixed case: every other write updates a random id written earlier
    (seeded, so every run and every method sees the same sequence).
    """
    rng = random.Random(n)
    envs: list[list[dict]] = []
    msgs: list[list[AIMessage]] = []
    written: list[dict] = []
    for i in range(n):
        if mixed and i % 2 == 1:
            target = rng.choice(written)
            eid = target["envelope_id"]
            envs.append([{"envelope_id": eid, "persisted": True, "structured": None}])
            msgs.append([AIMessage(content=f"persisted {eid}", id=eid)])
        else:
            env = envelope(len(written))
            written.append(env)
            envs.append([env])
            msgs.append([AIMessage(content=str(env["structured"]), id=env["envelope_id"])])
    return envs, msgs, len(written)


def unique_ids(value: list) -> int:
    """Distinct envelope ids (or message ids, for ``add_messages``) in a folded value."""
    return len({e.id if isinstance(e, AIMessage) else e["envelope_id"] for e in value})


def fold(reducer: Callable[[Any, Any], Any], writes: list) -> tuple[float, Any]:
    """Fold the writes from ``[]`` once; return (seconds, final value). GC paused while timing."""
    gc.collect()
    gc.disable()
    try:
        value: Any = []
        start = time.perf_counter()
        for write in writes:
            value = reducer(value, write)
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed, value


def best_of(reducer: Callable[[Any, Any], Any], writes: list, repeats: int) -> tuple[float, Any]:
    """Warm up on a short prefix, then return the best time of up to ``repeats`` full folds."""
    fold(reducer, writes[: min(len(writes), 200)])
    best, value = fold(reducer, writes)
    for _ in range(repeats - 1):
        if best > SLOW_RUN_S:
            break
        elapsed, value = fold(reducer, writes)
        best = min(best, elapsed)
    return best, value


# --- the graph benchmark ----------------------------------------------------------------------


def build_graph(reducer: Callable[[Any, Any], Any], width: int):
    """START -> Send x width -> worker (one envelope each) -> END; ``reducer`` on envelopes."""

    # Functional TypedDict: the annotation must hold the reducer object itself, not a string.
    State = TypedDict("State", {"envelopes": Annotated[list[dict], reducer]}, total=False)

    def worker(task: dict) -> dict:
        return {"envelopes": [envelope(task["i"])]}

    def fan_out(_state: dict) -> list[Send]:
        return [Send("worker", {"i": i}) for i in range(width)]

    builder = StateGraph(State)
    builder.add_node("worker", worker)
    builder.add_conditional_edges(START, fan_out, ["worker"])
    builder.add_edge("worker", END)
    return builder.compile()


def time_graphs(graphs: dict[str, Any], repeats: int) -> dict[str, tuple[float, int, int]]:
    """Best ``invoke`` time of each graph, with the entries and distinct ids of its final
    ``envelopes``; repeats interleaved so drift hits every graph alike."""
    best = {name: (float("inf"), 0, 0) for name in graphs}
    for _ in range(repeats):
        for name, graph in graphs.items():
            gc.collect()
            start = time.perf_counter()
            out = graph.invoke({"envelopes": []})
            elapsed = time.perf_counter() - start
            envs = out["envelopes"]
            best[name] = (min(best[name][0], elapsed), len(envs), unique_ids(envs))
    return best


# --- main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds")
    args = parser.parse_args(argv)

    sizes = (300, 1_000) if args.quick else (1_000, 10_000)
    target_n = None if args.quick else 10_000
    width = 300 if args.quick else 4_000
    repeats = 2 if args.quick else 5
    graph_repeats = 2 if args.quick else 3

    console = Console(width=110)
    title = "Folding N single-envelope writes" + (" (--quick: small sizes)" if args.quick else "")
    table = Table(title=title)
    for col in ("case", "N", "reducer", "entries out", "unique ids", "seconds", "x add"):
        table.add_column(col, justify="left" if col in ("case", "reducer") else "right")

    reducers: list[tuple[str, Callable[[Any, Any], Any], bool]] = [
        ("operator.add", operator.add, False),
        ("naive upsert", naive_upsert, False),
        ("add_messages", add_messages, True),
        ("envelope_reducer", envelope_reducer, False),
    ]
    verdicts: list[str] = []
    for mixed in (False, True):
        case = "mixed" if mixed else "insert"
        for n in sizes:
            envs, msgs, unique = make_writes(n, mixed)
            base = None
            for name, reducer, on_messages in reducers:
                seconds, value = best_of(reducer, msgs if on_messages else envs, repeats)
                if base is None:
                    base = seconds
                ratio = seconds / base
                ids = unique_ids(value)
                table.add_row(case, f"{n:,}", name, f"{len(value):,}", f"{ids:,}",
                              f"{seconds:.4f}", f"{ratio:.2f}x")
                if ids != unique:
                    raise SystemExit(f"{name} ended with {ids} distinct ids, expected {unique}")
                if name != "operator.add" and len(value) != unique:
                    raise SystemExit(f"{name} kept {len(value)} entries, expected {unique}")
                if name == "envelope_reducer" and n == target_n:
                    verdict = "PASS" if ratio <= FOLD_TARGET else "FAIL"
                    verdicts.append(
                        f"{verdict}: envelope_reducer / operator.add at N={n:,} ({case}) = "
                        f"{ratio:.2f}x (target <= {FOLD_TARGET:.2f}x)"
                    )
            table.add_section()
    console.print(table)
    if args.quick:
        console.print(QUICK_NOTE)

    graph_table = Table(title=f"LangGraph graph: {width:,}-wide Send fan-out, one envelope each")
    for col in ("reducer on envelopes", "entries out", "unique ids", "seconds", "x add"):
        graph_table.add_column(col, justify="left" if col.startswith("reducer") else "right")
    graphs = {
        "operator.add": build_graph(operator.add, width),
        "envelope_reducer": build_graph(envelope_reducer, width),
    }
    for graph in graphs.values():  # warm-up: lazy imports, first-run caches
        graph.invoke({"envelopes": []})
    timings = time_graphs(graphs, graph_repeats)
    for name, (seconds, size, ids) in timings.items():
        if ids != width or (name != "operator.add" and size != width):
            raise SystemExit(f"graph with {name} kept {size} envelopes with {ids} distinct ids, "
                             f"expected {width}")
        ratio = seconds / timings["operator.add"][0]
        graph_table.add_row(name, f"{size:,}", f"{ids:,}", f"{seconds:.3f}", f"{ratio:.2f}x")
    console.print(graph_table)

    graph_ratio = timings["envelope_reducer"][0] / timings["operator.add"][0]
    if args.quick:
        console.print("Targets not judged on a --quick run (sizes too small; see the note "
                      "above).")
        console.print(f"graph ratio envelope_reducer / operator.add = {graph_ratio:.2f}x")
    else:
        verdicts.append(
            f"{'PASS' if graph_ratio <= GRAPH_TARGET else 'FAIL'}: graph with envelope_reducer / "
            f"operator.add = {graph_ratio:.2f}x (target <= {GRAPH_TARGET:.2f}x)"
        )
        for line in verdicts:
            console.print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
