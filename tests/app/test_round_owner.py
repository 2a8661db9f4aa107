"""Rounds only increase within a thread: every writer of the ``round`` channel (``plan``'s first
round, ``route``'s re-dispatch, the results review's redo) sends past every round the thread has
seen, because each takes :func:`app.research.rounds.new_round` (review 47, finding 9).

The envelope reducer's stale-echo rule (docs/architecture.md, "The reducer rules", rule 7)
relies on it: a result written in a round lower than its envelope's changes nothing. ``route``
sent the failed tasks in ``round + 1`` and the review in one past the state's round and the
rounds of the results under review; on a state whose envelopes hold a higher round (a state
edit of ``round``, an envelope the review does not see), the fresh result was a stale echo.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.research import review
from app.research.rounds import new_round, next_round
from state import make_envelope_id

AS_OF = "2026-11-30"
QUESTIONS = ["What is Send?", "What is a reducer?"]
WORKERS = ["docs_search", "critic"]
SETTINGS = settings(max_examples=150, deadline=None)


def _envelope(worker: str, question: str, as_of: str, round_: int, status: str) -> dict:
    return {"envelope_id": make_envelope_id(worker, question, as_of), "worker": worker,
            "task_key": question, "as_of": as_of, "round": round_, "status": status}


@st.composite
def threads(draw: Any) -> dict[str, Any]:
    """A thread's state at a results review or a ``route``: this run's rounds start at
    ``first``; its envelopes (of this run, an earlier one, another ``as_of``) hold any round."""
    first = draw(st.integers(1, 6))
    envelopes = {}
    for worker in WORKERS:
        for question in QUESTIONS:
            as_of = draw(st.sampled_from([AS_OF, AS_OF, "2026-11-29"]))
            e = _envelope(worker, question, as_of, draw(st.integers(1, 12)),
                          draw(st.sampled_from(["ok", "error"])))
            envelopes[e["envelope_id"]] = e
    return {"topic": "t", "sub_questions": QUESTIONS, "as_of": AS_OF,
            "round": draw(st.integers(first, first + 3)), "envelopes": list(envelopes.values()),
            "routing": {"review": True, "rounds": 1000, "first_round": first,
                        "workers": WORKERS}}


def _seen(state: dict[str, Any]) -> int:
    return max([state["round"], *(e["round"] for e in state["envelopes"])])


@SETTINGS
@given(threads())
def test_routes_next_round_is_past_every_round_the_thread_has_seen(state):
    decision = next_round(state, WORKERS, rounds=1000, max_tokens=None)
    if decision.round is not None:
        assert decision.round == new_round(state) > _seen(state)


@SETTINGS
@given(threads(), st.data())
def test_a_redo_at_the_results_review_is_sent_past_every_round_the_thread_has_seen(state, data):
    under_review = [e for e in state["envelopes"] if e["as_of"] == AS_OF
                    and e["round"] >= state["routing"]["first_round"]]
    if not under_review:
        return
    redo = data.draw(st.sampled_from(under_review))["envelope_id"]
    answered = []

    def interrupt(payload: dict) -> dict:
        answered.append(payload)
        return {"redo": [redo]}

    original = review.interrupt
    review.interrupt = interrupt
    try:
        update = review.ask_results(state, under_review)
    finally:
        review.interrupt = original
    assert answered and update["redo"] == [redo]
    assert update["round"] == new_round(state) > _seen(state)


def test_a_new_thread_starts_at_round_one_and_a_rerun_past_its_last():
    assert new_round({}) == 1
    assert new_round({"round": 2, "envelopes": [_envelope("critic", "q", AS_OF, 5, "ok")]}) == 6
