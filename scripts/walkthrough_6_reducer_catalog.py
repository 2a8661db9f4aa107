"""Walkthrough step 6: the reducer catalog. Every reducer in ``state/`` on a small example.

A reducer is the function in ``Annotated[T, reducer]`` on a state key; LangGraph calls it as
``new_value = reducer(current_value, write)`` for each write to that channel. Each line below is
one such call, printed ``reducer(current, write) -> result``, and checked against the result it
should give (envelope ids are shown shortened, ``worker:…digest``). The last examples run inside a
real graph: ``delete_envelope`` and ``reset_envelopes`` as writes, ``Overwrite([])``, which
LangGraph's channel handles *before* any reducer is called (it replaces the value instead of
folding into it, and drops every other write to the channel in the same superstep:
``reset_envelopes`` is the reset that keeps them), and ``keep_max``/``keep_min`` folding a
fan-out, where the builtin ``max`` is refused by ``StateGraph()``.

Run: ``uv run python scripts/walkthrough_6_reducer_catalog.py`` (offline, a couple of seconds).
"""

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Overwrite, Send

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _walkthrough import verdict  # noqa: E402

import state.reducers  # noqa: E402
from state import (  # noqa: E402
    add_count,
    add_counts,
    capped_list,
    concat_lists,
    dedupe_extend,
    delete_envelope,
    envelope_reducer,
    keep_latest,
    keep_max,
    keep_min,
    make_envelope_id,
    merge_dicts,
)
from state.reducers import reset_envelopes  # noqa: E402


def env(eid: str, **fields: Any) -> dict:
    return {"envelope_id": eid, "worker": "w", "as_of": "2026-11-30", **fields}


# (name, reducer, current, write, expected result, what it is for)
CASES: list[tuple[str, Callable[[Any, Any], Any], Any, Any, Any, str]] = [
    ("envelope_reducer", envelope_reducer,
     [env("a", status="error", persisted=False)], [env("a", status="ok"), env("b")],
     [env("a", status="ok", persisted=False), env("b")],
     "upsert by envelope_id: a is updated in place, b is added"),
    ("envelope_reducer", envelope_reducer,
     [env("a", structured={"x": 1}, persisted=False)],
     {"envelope_id": "a", "persisted": True, "structured": None},
     [env("a", structured=None, persisted=True)],
     "field-wise merge, later wins; an explicit None clears a field (persist)"),
    ("envelope_reducer", envelope_reducer,
     [], [{"worker": "w", "as_of": "2026-11-30", "task_key": "q1"},
          {"worker": "w", "as_of": "2026-11-30", "task_key": "q2"}],
     [{"worker": "w", "as_of": "2026-11-30", "task_key": "q1",
       "envelope_id": make_envelope_id("w", "q1", "2026-11-30")},
      {"worker": "w", "as_of": "2026-11-30", "task_key": "q2",
       "envelope_id": make_envelope_id("w", "q2", "2026-11-30")}],
     "no envelope_id: stored under make_envelope_id(worker, task_key, as_of), one per task"),
    ("envelope_reducer", envelope_reducer,
     [{"worker": "w", "as_of": "2026-11-30", "n": 1}],
     [{"worker": "w", "as_of": "2026-11-30", "n": 2}],
     [{"worker": "w", "as_of": "2026-11-30", "n": 2, "envelope_id": "w:2026-11-30"}],
     "no envelope_id and no task_key: stored under worker:as_of, one per worker and day"),
    ("envelope_reducer", envelope_reducer,
     [env("a"), env("b")], delete_envelope("a"),
     [env("b")],
     "delete_envelope(id) is a write that removes one envelope"),
    ("dedupe_extend", dedupe_extend,
     ["send.md#0", "reducers.md#0"], ["reducers.md#0", "checkpointer.md#0"],
     ["send.md#0", "reducers.md#0", "checkpointer.md#0"],
     "append what is new, keep first-seen order"),
    ("merge_dicts", merge_dicts,
     {"analyst": "offline", "critic": "offline"}, {"critic": "gpt-4.1-mini"},
     {"analyst": "offline", "critic": "gpt-4.1-mini"},
     "shallow dict merge, later wins"),
    ("capped_list(3)", capped_list(3),
     ["e1", "e2", "e3"], ["e4", "e5"],
     ["e3", "e4", "e5"],
     "append, then keep only the last 3 (a bounded log)"),
    ("concat_lists", concat_lists,
     ["round 2: re-dispatching"], "round 2: re-dispatching",
     ["round 2: re-dispatching", "round 2: re-dispatching"],
     "operator.add that takes None or one item; duplicates are meaningful (events)"),
    ("concat_lists", concat_lists,
     None, ["first note"],
     ["first note"],
     "None counts as empty"),
    ("keep_latest('at')", keep_latest("at"),
     {"at": "2026-11-30T10:00Z", "status": "done"},
     {"at": "2026-11-30T09:00Z", "status": "running"},
     {"at": "2026-11-30T10:00Z", "status": "done"},
     "the newest by its own timestamp wins, not the last applied"),
    ("keep_max", keep_max,
     None, -9.0, -9.0,
     "on a float | None key (no 0.0 default): the first write is kept, even below zero"),
    ("keep_max", keep_max,
     -2.5, -9.0, -2.5,
     "the greater value stays: a high-water mark; the builtin max fails at StateGraph()"),
    ("keep_min", keep_min,
     1.25, 3.0, 1.25,
     "the smaller value stays; None on either side is no value"),
    ("add_count", add_count,
     120, 30, 150,
     "one counter: each writer writes its delta; a non-number write is a ValueError"),
    ("add_counts", add_counts,
     {"prompt_tokens": 120, "calls": 1}, {"prompt_tokens": 80, "calls": 1, "retries": 1},
     {"prompt_tokens": 200, "calls": 2, "retries": 1},
     "per-key counters that parallel nodes increment"),
]


class Envelopes(TypedDict, total=False):
    envelopes: Annotated[list[dict], envelope_reducer]


def in_graph(write: Any) -> list[dict]:
    """Start with two envelopes, let one node write ``write``, return the channel's value."""
    builder = StateGraph(Envelopes)
    builder.add_node("writer", lambda state: {"envelopes": write})
    builder.add_edge(START, "writer")
    builder.add_edge("writer", END)
    return builder.compile().invoke({"envelopes": [env("a"), env("b")]})["envelopes"]


def short(envelope_id: str) -> str:
    """A derived id ``worker:as_of:digest`` shown as ``worker:…digest[:8]``; others as they are."""
    parts = envelope_id.split(":")
    return f"{parts[0]}:…{parts[2][:8]}" if len(parts) == 3 and len(parts[2]) == 20 else envelope_id


class Scores(TypedDict, total=False):
    best: Annotated[float | None, keep_max]
    worst: Annotated[float | None, keep_min]


def scores_in_graph(values: list[float]) -> tuple[float, float]:
    """Three parallel ``Send`` tasks each write one value to ``best`` and ``worst``."""
    builder = StateGraph(Scores)
    builder.add_node("scorer", lambda task: {"best": task["v"], "worst": task["v"]})
    builder.add_conditional_edges(START, lambda _: [Send("scorer", {"v": v}) for v in values],
                                  ["scorer"])
    builder.add_edge("scorer", END)
    out = builder.compile().invoke({})
    return out["best"], out["worst"]


def builtin_max_error() -> str:
    """What ``StateGraph`` says about ``Annotated[float, max]``."""

    class Builtin(TypedDict, total=False):
        best: Annotated[float, max]

    try:
        StateGraph(Builtin)
    except ValueError as exc:
        return f"ValueError: {exc}"
    return "no error"


def show(value: Any) -> str:
    """Envelopes shown by their id and the fields that matter here; other values as they are."""
    if isinstance(value, list) and value and isinstance(value[0], dict) and "worker" in value[0]:
        parts = []
        for e in value:
            extra = {k: v for k, v in e.items() if k not in ("envelope_id", "worker", "as_of")}
            key = short(e["envelope_id"]) if e.get("envelope_id") else "(no id)"
            parts.append(f"{key}{extra if extra else ''}")
        return "[" + ", ".join(parts) + "]"
    if isinstance(value, dict) and value.get("__delete__"):
        return f"delete_envelope({value['envelope_id']!r})"
    return repr(value)


def main() -> int:
    failures: list[str] = []
    for name, reducer, current, write, expected, what in CASES:
        result = reducer(current, write)
        mark = "ok" if result == expected else "WRONG"
        if result != expected:
            failures.append(f"{name}: got {result!r}, expected {expected!r}")
        print(f"{name}: {what}")
        print(f"  {name}({show(current)}, {show(write)})")
        print(f"  -> {show(result)}  [{mark}]")

    print()
    print("in a graph, channel envelopes = [a, b] and one node writes:")
    for label, write, expected_ids in (
        ("delete_envelope('a')", delete_envelope("a"), ["b"]),
        ("reset_envelopes([a,b])", reset_envelopes([env("a"), env("b")]), []),
        ("Overwrite([])", Overwrite([]), []),
        ("Overwrite([c])", Overwrite([env("c")]), ["c"]),
    ):
        ids = [e["envelope_id"] for e in in_graph(write)]
        mark = "ok" if ids == expected_ids else "WRONG"
        if ids != expected_ids:
            failures.append(f"graph write {label}: got {ids}, expected {expected_ids}")
        print(f"  {label:<22} -> envelopes = {ids}  [{mark}]")

    values = [-5.0, -2.5, -9.0]
    best, worst = scores_in_graph(values)
    mark = "ok" if (best, worst) == (-2.5, -9.0) else "WRONG"
    if mark != "ok":
        failures.append(f"keep_max/keep_min in a graph: got {(best, worst)}")
    print()
    print(f"in a graph, three workers write {values} to best: Annotated[float | None, keep_max]"
          " and worst: Annotated[float | None, keep_min]:")
    print(f"  best = {best}, worst = {worst}  [{mark}]")
    error = builtin_max_error()
    mark = "ok" if "no signature found for builtin" in error else "WRONG"
    if mark != "ok":
        failures.append(f"Annotated[float, max]: expected StateGraph to refuse it, got {error}")
    print(f"  Annotated[float, max] instead -> {error}  [{mark}]")

    # Drift check: every reducer ``state.reducers`` exports has an example here.
    shown = {name.split("(")[0] for name, *_ in CASES} | {"delete_envelope", "reset_envelopes"}
    missing = sorted(set(state.reducers.__all__) - {"DELETE"} - shown)
    if missing:
        failures.append(f"no example for {', '.join(missing)}")
        print(f"reducers in state/ without an example: {', '.join(missing)}")

    total = len(CASES) + 6
    return verdict(
        not failures,
        f"all {total} examples gave the documented result ({len(shown) - 2} reducers, "
        "delete_envelope, reset_envelopes, Overwrite, and keep_max/keep_min in a graph)",
        f"{len(failures)} of {total} examples were wrong: " + "; ".join(failures),
    )


if __name__ == "__main__":
    raise SystemExit(main())
