"""Walkthrough step 1: why a channel that parallel workers write needs a reducer.

A LangGraph *channel* (one key of the state) without a reducer is a ``LastValue`` channel: it
accepts one write per *superstep*. Fan out with ``Send`` to three workers that each write the
same key and the superstep ends with three writes for one value: LangGraph raises
``InvalidUpdateError``. Give the key a *reducer* (``Annotated[list, operator.add]``) and LangGraph
folds the three writes into one list instead.

Run: ``uv run python scripts/walkthrough_1_reducers.py`` (offline, a few seconds).
"""

from __future__ import annotations

import operator
import sys
from typing import Annotated, TypedDict

from langgraph.errors import InvalidUpdateError
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _walkthrough import verdict  # noqa: E402

QUESTIONS = ["What is Send?", "What is a reducer?", "What is a checkpointer?"]


class NoReducer(TypedDict, total=False):
    questions: list[str]
    results: list[str]  # no reducer: a LastValue channel, one write per superstep


class WithReducer(TypedDict, total=False):
    questions: list[str]
    results: Annotated[list[str], operator.add]  # the reducer folds every write


def build(schema: type) -> object:
    """START -> Send("worker", question) for each question -> worker -> END."""

    def worker(task: dict) -> dict:
        return {"results": [f"answer to {task['question']!r}"]}

    def fan_out(state: dict) -> list[Send]:
        return [Send("worker", {"question": q}) for q in state["questions"]]

    builder = StateGraph(schema)
    builder.add_node("worker", worker)
    builder.add_conditional_edges(START, fan_out, ["worker"])
    builder.add_edge("worker", END)
    return builder.compile()


def main() -> int:
    print("Three parallel workers (one Send each) write the same channel, `results`.")
    print()
    print("1) results: list[str]  (no reducer)")
    raised: str | None = None
    try:
        build(NoReducer).invoke({"questions": QUESTIONS})
        print("   -> no error (unexpected)")
    except InvalidUpdateError as exc:
        raised = type(exc).__name__
        first = str(exc).splitlines()[0]
        print(f"   -> {raised}: {first}")

    print()
    print("2) results: Annotated[list[str], operator.add]")
    out = build(WithReducer).invoke({"questions": QUESTIONS})
    results = out.get("results", [])
    print(f"   -> {len(results)} results, one per worker:")
    for r in results:
        print(f"      {r}")

    ok = raised == "InvalidUpdateError" and sorted(results) == sorted(
        f"answer to {q!r}" for q in QUESTIONS
    )
    return verdict(
        ok,
        "without a reducer parallel writes raise InvalidUpdateError; with operator.add all "
        f"{len(QUESTIONS)} writes are kept",
        f"expected InvalidUpdateError then {len(QUESTIONS)} results; got {raised!r} and "
        f"{len(results)} results",
    )


if __name__ == "__main__":
    raise SystemExit(main())
