"""envelope_reducer rule 7, rounds: a stale echo (an update with a lower ``round`` than the
stored envelope's) changes nothing, whatever order a superstep's writes are folded in.

A nested subgraph that hands back its old copy of an envelope in the same superstep as a fresh
write of it used to win or lose by the writers' names: LangGraph folds a superstep's writes in
task-path order, so with the fresh writer named ``a_fresh`` the stale echo came last and
survived, named ``z_fresh`` the fresh one did (issue 21, item 7). Proves:

* the rule itself (lower round: ignored; same round: later wins field-wise; no round: merges as
  before, persist's write-back included; an ``Envelope`` whose round is only the model's default
  carries none);
* on random batches with rounds, the result equals a reference model of the rule, and splitting
  a batch into successive calls changes nothing;
* when a superstep's writes of an envelope differ in round, every fold order gives one result;
* in a real LangGraph graph, the fresh write wins whatever its writer is named.
"""

from __future__ import annotations

import itertools
import operator
from typing import Annotated, Any, TypedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.graph import START, StateGraph
from pydantic import BaseModel

from state import Envelope, envelope_reducer
from tests.state._reducer_helpers import AS_OF, env, fold, reference_write

SETTINGS = settings(max_examples=150, deadline=None)

# -- the rule, by example ---------------------------------------------------------------------


def test_an_update_with_a_lower_round_is_a_stale_echo_and_changes_nothing():
    stored = fold(env("a", round=2, status="ok", persisted=True, structured=None))
    echo = env("a", round=1, status="error", persisted=False, structured={"old": 1})
    assert envelope_reducer(stored, echo) == stored


def test_two_writes_of_the_same_round_merge_later_wins_field_wise():
    out = fold(env("a", round=2, v=1, w=1), env("a", round=2, v=2))
    assert out == [env("a", round=2, v=2, w=1)]


def test_a_higher_round_merges_over_a_lower_one():
    out = fold(env("a", round=1, v=1, w=1), env("a", round=3, v=3))
    assert out == [env("a", round=3, v=3, w=1)]


def test_a_write_without_round_applies_as_before_persists_write_back_included():
    stored = fold(env("a", round=3, structured={"p": 1}, persisted=False))
    back = {"envelope_id": "a", "persisted": True, "structured": None}
    assert envelope_reducer(stored, back) == [env("a", round=3, structured=None, persisted=True)]
    assert envelope_reducer(fold(env("a", v=1)), env("a", round=1, v=2)) == [
        env("a", round=1, v=2)]  # a stored envelope without a round takes any round


@pytest.mark.parametrize("odd", [None, True, False, "1", "3", 1.0, 3.0])
def test_a_round_that_is_not_an_int_is_no_round_and_never_replaces_the_stored_one(odd):
    """A served client's state edit may write ``1.0`` (JSON has no int/float line for many
    clients), ``None``, ``"3"`` or ``True``: the update applies as one without a round, and the
    stored int round stays, so a later stale int echo is still judged stale (trial 58, F7)."""
    stored = fold(env("a", round=2, v=1))
    out = envelope_reducer(stored, env("a", round=odd, v=2))
    assert out == [env("a", round=2, v=2)]
    assert envelope_reducer(out, env("a", round=1, v=3)) == out  # the rule still holds
    assert envelope_reducer([], env("a", round=odd, v=2)) == [env("a", v=2)]  # nor inserted
    kept = fold(env("a", round=1, status="ok", v=1), env("a", round=2, status="error"))
    assert envelope_reducer(kept, env("a", round=odd, status="error"))[0]["round"] == 2


def test_the_envelope_models_default_round_never_fills_one_in():
    """``Envelope(...)`` without ``round`` defaulted to round 1 in its dict: an echo of it would
    have been judged by a round nobody wrote (and a fresh write by a made-up round 1, stale)."""
    model = Envelope(envelope_id="a", worker="w", as_of=AS_OF, status="error")
    assert "round" not in model.to_state()
    assert model.round == 1  # the model still reads as round 1 (readers default a missing one)
    stored = fold(env("a", round=2, status="error", tokens=5))
    for write in (model, [model], model.to_state()):
        out = envelope_reducer(stored, write)
        assert out[0]["tokens"] == 0 and out[0]["round"] == 2, write  # applied, round kept
    explicit = Envelope(envelope_id="a", worker="w", as_of=AS_OF, status="error", round=1)
    assert explicit.to_state()["round"] == 1
    assert envelope_reducer(stored, explicit) == stored  # an explicit lower round is stale


def test_another_models_default_round_does_not_count_either():
    class Mine(BaseModel):
        envelope_id: str
        worker: str = "w"
        as_of: str = AS_OF
        round: int = 1
        v: int = 0

    stored = fold(env("a", round=2, v=1))
    assert envelope_reducer(stored, Mine(envelope_id="a", v=5))[0]["v"] == 5
    assert envelope_reducer(stored, Mine(envelope_id="a", v=5, round=1)) == stored


def test_a_stale_echo_in_one_superstep_loses_in_either_fold_order():
    """The issue's case: stored round 1, persisted; the round-2 fresh result and a subgraph's
    echo of the round-1 copy in one superstep."""
    stored = fold(env("a", round=1, status="error", persisted=True, structured=None))
    fresh = env("a", round=2, status="ok", persisted=False, structured={"p": 2})
    echo = env("a", round=1, status="error", persisted=False, structured={"p": 1})
    assert fold(fresh, echo, start=stored) == fold(echo, fresh, start=stored) == [fresh]


# -- property tests ---------------------------------------------------------------------------

IDS = ["e0", "e1", "e2"]
ROUNDS = st.none() | st.integers(1, 4)
ODD_ROUNDS = st.sampled_from([None, True, "3", 1.0, 2.0])  # written, but no round (rule 7)
FIELDS = {
    "status": st.sampled_from(["ok", "error"]),
    "structured": st.none() | st.fixed_dictionaries({"p": st.integers(0, 9)}),
    "persisted": st.booleans(),
    "tokens": st.integers(0, 9),
}


@st.composite
def round_writes(draw) -> dict[str, Any]:
    """A write of one of a few ids, with a round or none, and a random subset of fields."""
    entry: dict[str, Any] = {"envelope_id": draw(st.sampled_from(IDS)), "worker": "w",
                             "as_of": AS_OF}
    if (r := draw(ROUNDS)) is not None:
        entry["round"] = r
    elif draw(st.integers(0, 3)) == 0:
        entry["round"] = draw(ODD_ROUNDS)
    for name in draw(st.sets(st.sampled_from(sorted(FIELDS)))):
        entry[name] = draw(FIELDS[name])
    return entry


def reference(*sequences: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The rule written plainly: ``dict.update`` per write, unless both the write and the stored
    entry have an int round and the write's is lower (and rule 8: :func:`reference_write`)."""
    table: dict[str, dict[str, Any]] = {}
    for sequence in sequences:
        for entry in sequence:
            written = reference_write(table.get(entry["envelope_id"]), entry)
            if written is not None:
                table[entry["envelope_id"]] = written
    return table


def by_id(value: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["envelope_id"]: e for e in value}


@SETTINGS
@given(st.lists(round_writes(), max_size=10), st.lists(round_writes(), max_size=10))
def test_with_rounds_the_result_is_the_reference_and_splitting_changes_nothing(history, batch):
    existing = fold(*history, start=[])
    expected = reference(history, batch)
    assert by_id(envelope_reducer(existing, batch)) == expected
    assert by_id(fold(*batch, start=existing)) == expected  # one call per write, like LangGraph


@st.composite
def superstep(draw) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(stored value, a superstep's writes): each id written up to 4 times, every write a full
    envelope (the same fields, as every worker writes) with a round of its own."""
    stored_writes = draw(st.lists(round_writes(), max_size=6))
    writes: list[dict[str, Any]] = []
    for eid in IDS:
        rounds = draw(st.lists(st.integers(1, 6), unique=True, max_size=4))
        for r in rounds:
            writes.append({"envelope_id": eid, "worker": "w", "as_of": AS_OF, "round": r,
                           **{name: draw(strategy) for name, strategy in FIELDS.items()}})
    return fold(*stored_writes, start=[]), writes


@settings(max_examples=80, deadline=None)
@given(superstep(), st.randoms(use_true_random=False))
def test_when_rounds_differ_every_fold_order_gives_the_same_result(step, rnd):
    stored, writes = step
    first = by_id(fold(*writes, start=stored))
    orders = [list(p) for p in itertools.islice(itertools.permutations(writes), 24)]
    orders += [rnd.sample(writes, len(writes)) for _ in range(8)]
    for order in orders:
        assert by_id(fold(*order, start=stored)) == first
        assert by_id(envelope_reducer(stored, order)) == first  # one call with all writes
    for eid in {w["envelope_id"] for w in writes}:  # and it is the highest round's write,
        mine = [w for w in writes if w["envelope_id"] == eid]
        top = max(mine, key=lambda w: w["round"])
        got = first[eid]
        if got["round"] != top["round"]:
            continue  # the stored envelope was newer
        if top["status"] == "ok" or got.get("status", "ok") == "error":
            assert {k: got[k] for k in top} == top and "kept" not in got
            continue
        # rule 8: an error on top of an ok result: the envelope keeps the highest ok result
        assert got["kept"]["error"] == top.get("error")
        oks = [w for w in mine if w["status"] == "ok"]
        if oks and got["kept"]["round"] == (best := max(oks, key=lambda w: w["round"]))["round"]:
            assert {k: got[k] for k in best if k != "round"} == {
                k: v for k, v in best.items() if k != "round"}


# -- in a real graph --------------------------------------------------------------------------


class State(TypedDict, total=False):
    envelopes: Annotated[list[dict[str, Any]], envelope_reducer]
    steps: Annotated[int, operator.add]


STALE = env("a", round=1, status="error", persisted=True, structured=None)
FRESH = env("a", round=2, status="ok", persisted=False, structured={"p": "fresh"})


def _echo_graph(fresh_name: str):
    """START -> seed (the stored round-1 envelope) -> two nodes in one superstep: ``fresh_name``
    writes the round-2 result, ``m_echo`` (a nested subgraph sharing the key) hands back its
    whole state: the old copy."""
    inner = StateGraph(State)
    inner.add_node("noop", lambda state: {"steps": 1})
    inner.add_edge(START, "noop")
    echo = inner.compile()

    graph = StateGraph(State)
    graph.add_node("seed", lambda state: {"envelopes": [STALE]})
    graph.add_node(fresh_name, lambda state: {"envelopes": [FRESH]})
    graph.add_node("m_echo", echo)  # returns its state, the old envelope list included
    graph.add_edge(START, "seed")
    graph.add_edge("seed", fresh_name)
    graph.add_edge("seed", "m_echo")
    return graph.compile()


@pytest.mark.parametrize("fresh_name", ["a_fresh", "z_fresh"])
def test_in_langgraph_the_fresh_write_wins_whatever_its_writer_is_named(fresh_name):
    out = _echo_graph(fresh_name).invoke({})
    assert out["envelopes"] == [FRESH]
