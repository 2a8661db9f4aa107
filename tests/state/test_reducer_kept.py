"""envelope_reducer rule 8: an error result never replaces an ok result of the same envelope.

A finished thread run again with a worker that fails (``--fail-worker critic``, ``--fail-rate
1``) used to replace each of its ok envelopes by the rerun's error envelope: the state lost the
earlier result, and persist then wrote the error row over the ok row. The rule keeps the ok
result, moves the envelope to the error's round (the task was attempted in this run) and records
the failed attempt in ``kept``; a later ok result replaces it whole. Proves:

* the rule by example: the rerun's case, a round-1 error then a round-2 ok (still ok), a later
  ok clearing ``kept``, persist's write-back and a subgraph's echo leaving it, stale errors;
* on random sequences of full results, an ok result once written is never lost, and the
  envelope is ok with ``kept`` exactly when an error came after the last ok;
* :func:`state.attempt_failed` reads the failed attempt off either form;
* in a real LangGraph graph, a later superstep's error keeps the earlier ok result.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.graph import START, StateGraph

from state import KEPT, attempt_failed, envelope_reducer
from tests.state._reducer_helpers import env, fold

OK = env("a", status="ok", round=1, error=None, structured={"p": 1}, persisted=False, tokens=7)
PERSISTED = env("a", status="ok", round=1, error=None, structured=None, persisted=True, tokens=7)
ERROR = env("a", status="error", round=2, error="InjectedWorkerError: no", structured=None,
            persisted=False, tokens=0)


def test_an_error_over_a_persisted_ok_result_keeps_the_result_and_records_the_attempt():
    """The rerun's case: the thread's ok envelope (persisted, payload in the database), then
    the rerun's error of the same task in a later round."""
    out = fold(PERSISTED, ERROR)
    assert out == [{**PERSISTED, "round": 2,
                    KEPT: {"round": 1, "error": "InjectedWorkerError: no"}}]
    assert attempt_failed(out[0])  # the run still counts the task as failed


def test_an_error_then_an_ok_in_a_later_round_is_ok():
    """Within one run: round 1 fails, round 2 succeeds; nothing is kept."""
    first_error = {**ERROR, "round": 1}
    second_ok = {**OK, "round": 2}
    assert fold(first_error, second_ok) == [second_ok]
    assert not attempt_failed(second_ok)


def test_a_later_ok_result_replaces_the_kept_one_and_clears_the_mark():
    fresh = {**OK, "round": 3, "structured": {"p": 3}}
    assert fold(PERSISTED, ERROR, fresh) == [fresh]


def test_another_failed_attempt_updates_the_mark_and_keeps_the_result():
    again = {**ERROR, "round": 3, "error": "Timeout"}
    assert fold(PERSISTED, ERROR, again) == [
        {**PERSISTED, "round": 3, KEPT: {"round": 1, "error": "Timeout"}}]


def test_an_older_error_is_a_stale_echo():
    kept = fold(PERSISTED, ERROR)
    assert envelope_reducer(kept, {**ERROR, "round": 1}) == kept  # older than the attempt
    ok2 = fold({**OK, "round": 2})
    assert envelope_reducer(ok2, {**ERROR, "round": 1}) == ok2  # older than the ok result


def test_persists_write_back_keeps_the_mark():
    """A results review: the ok result was not persisted yet, its redo failed; persist writes
    the kept result and writes back ``persisted=True, structured=None``."""
    kept = fold(OK, ERROR)
    back = {"envelope_id": "a", "persisted": True, "structured": None}
    out = envelope_reducer(kept, back)
    assert out == [{**OK, "round": 2, "persisted": True, "structured": None,
                    KEPT: {"round": 1, "error": ERROR["error"]}}]


def test_a_subgraphs_echo_leaves_the_kept_envelope_as_it_is_in_either_fold_order():
    """A ``create_agent`` subgraph sharing the key hands back what it was given: the old ok
    result in the superstep of the error, or the kept envelope itself in a later one."""
    stored = fold(PERSISTED)
    kept = fold(PERSISTED, ERROR)
    assert fold(ERROR, PERSISTED, start=stored) == fold(PERSISTED, ERROR, start=stored) == kept
    assert envelope_reducer(kept, kept[0]) == kept


def test_an_ok_result_older_than_the_stored_error_is_kept_under_it():
    """The same writes folded the other way round give the same envelope (rule 7's promise)."""
    assert fold(ERROR, PERSISTED) == fold(PERSISTED, ERROR)
    newer_ok = {**OK, "round": 2, "structured": {"p": 2}}
    late_error = {**ERROR, "round": 3}
    orders = [(PERSISTED, newer_ok, late_error), (late_error, PERSISTED, newer_ok),
              (newer_ok, late_error, PERSISTED), (late_error, newer_ok, PERSISTED)]
    results = [fold(*order) for order in orders]
    assert all(r == results[0] for r in results)
    assert results[0] == [{**newer_ok, "round": 3, KEPT: {"round": 2, "error": ERROR["error"]}}]


def test_a_stored_envelope_without_a_status_reads_as_ok():
    """Readers (the results store, the report) take a missing status as ok: so does the rule."""
    out = fold(env("a", round=1, v=1), {**ERROR, "round": 2})
    assert out[0]["v"] == 1 and "status" not in out[0] and out[0][KEPT]["round"] == 1


def test_a_partial_status_write_is_rule_8s_stated_limit():
    """Found by a CI run of the idempotence property: an error is merged over a stored error
    but kept aside (its other fields dropped) over an ok result, so a batch whose error write
    carries only some fields folds differently over its own result. Whole envelopes, as
    workers write them, fold the same again (docs/architecture.md, rule 8)."""
    stored = [{**ERROR, "round": None}]
    partial = [{"envelope_id": "a", "worker": "w1"},
               {"envelope_id": "a", "status": "error", "error": "boom", "worker": "w0"},
               {"envelope_id": "a", "status": "ok", "error": None}]
    once = envelope_reducer(stored, partial)
    assert once[0]["worker"] == "w0" and envelope_reducer(once, partial)[0]["worker"] == "w1"
    whole = [partial[0], {**ERROR, "round": None, "error": "boom", "worker": "w0"},
             {**OK, "round": None}]
    once = envelope_reducer(stored, whole)
    assert envelope_reducer(once, whole) == once


# -- on random sequences of full results --------------------------------------------------------

results = st.lists(st.tuples(st.sampled_from(["ok", "error"]), st.integers(0, 9)), max_size=12)


@settings(max_examples=150, deadline=None)
@given(results)
def test_an_ok_result_once_written_is_never_lost(sequence):
    """Results in increasing rounds, as a thread's runs and rounds write them: the envelope
    holds the last ok result's payload whenever one was written, ``kept`` exactly when an error
    came after it, and the round of the last attempt."""
    writes = [env("a", status=status, round=r, structured={"p": p} if status == "ok" else None,
                  error=None if status == "ok" else f"E{r}")
              for r, (status, p) in enumerate(sequence, 1)]
    value = fold(*writes, start=[])
    if not writes:
        assert value == []
        return
    (got,) = value
    oks = [w for w in writes if w["status"] == "ok"]
    assert got["round"] == writes[-1]["round"]
    assert attempt_failed(got) == (writes[-1]["status"] == "error")
    if not oks:
        assert got == writes[-1]
        return
    assert got["status"] == "ok" and got["structured"] == oks[-1]["structured"]
    if writes[-1]["status"] == "ok":
        assert KEPT not in got
    else:
        assert got[KEPT] == {"round": oks[-1]["round"], "error": writes[-1]["error"]}


# -- in a real graph ------------------------------------------------------------------------------


class State(TypedDict, total=False):
    envelopes: Annotated[list[dict[str, Any]], envelope_reducer]
    steps: Annotated[int, operator.add]


def test_in_langgraph_a_later_supersteps_error_keeps_the_ok_result():
    graph = StateGraph(State)
    graph.add_node("first_run", lambda state: {"envelopes": [PERSISTED]})
    graph.add_node("rerun", lambda state: {"envelopes": [ERROR]})
    graph.add_edge(START, "first_run")
    graph.add_edge("first_run", "rerun")
    out = graph.compile().invoke({})
    assert out["envelopes"] == fold(PERSISTED, ERROR)
    assert out["envelopes"][0]["status"] == "ok" and out["envelopes"][0]["persisted"] is True
