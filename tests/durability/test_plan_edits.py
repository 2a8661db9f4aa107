"""A plan edited in state (Studio's "edit state", ``update_state(..., as_node="plan")``, as
docs/walkthrough.md step 10 forks a plan) is checked before anything runs, as the plan review
checks a person's questions (found by a new-user trial: ``[]`` ran nothing and removed every row
of the thread, exit 1 with no reason; a repeated question gave "3 (expected 6)" with outcome ok;
an empty question was researched). The run stops in one line naming the problem, exit 2, and the
thread's rows stay; the thread stays where it was, so an edit that fixes the plan runs on.
"""

from __future__ import annotations

import pytest

from app.runs.threads import research_graph
from app.storage import open_storage
from tests.durability._helpers import AS_OF, TOPIC, db_rows, describe, run_app, thread_id_of
from tests.expected import expected_tasks

THREAD = thread_id_of()


def _where(data, corpus) -> list:
    return ["--data-dir", data, "--corpus", corpus, "--model", "offline"]


def _edit(data, values: dict, as_node: str) -> None:
    config = {"configurable": {"thread_id": THREAD}}
    with open_storage(data).checkpointer() as saver:
        research_graph(saver).update_state(config, values, as_node=as_node)


@pytest.mark.parametrize(("questions", "as_node", "says"), [
    ([], "plan", "holds no question"),
    (["What is Send?", "What is Send?"], "plan", "sub-question 2 repeats sub-question 1"),
    # trial 28, finding 3: one that prints as the other, a soft hyphen apart
    (["What is Send?", "What is Send?\u00ad"], "plan", "sub-question 2 repeats sub-question 1"),
    # trial 64, F4: case and a space before the mark apart, researched twice into two row sets
    (["What is Send?", "what is send ?"], "plan", "sub-question 2 repeats sub-question 1"),
    (["", "What is Send?"], "plan", "sub-question 1 is empty"),
    ("What is Send?", "plan", "must be a list of strings"),
    ([], "route", "holds no question"),  # skips dispatch: persist checks too
    # trial 9: researched, though the CLI's review refuses both
    (["\u200b", "What is Send?"], "plan", "sub-question 1 ('\\u200b') is no question"),
    (["What is Send?", "what the"], "plan", "sub-question 2 ('what the') is no question"),
])
def test_a_plan_edited_in_state_is_checked_before_it_runs(
        tmp_path, durability_corpus, questions, as_node, says):
    data = tmp_path / "data"
    first = run_app("research", TOPIC, "--as-of", AS_OF, *_where(data, durability_corpus))
    assert first.returncode == 0, describe(first)
    before = sorted((r["envelope_id"], r["status"]) for r in db_rows(data, THREAD))
    assert len(before) == expected_tasks(TOPIC)

    _edit(data, {"sub_questions": questions}, as_node)
    out = run_app("resume", THREAD, *_where(data, durability_corpus))
    assert out.returncode == 2, describe(out)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in out.stderr, out.stderr
    assert sorted((r["envelope_id"], r["status"]) for r in db_rows(data, THREAD)) == before

    # the thread waits where it was: a plan that can run, written the same way, runs on
    _edit(data, {"sub_questions": ["What is Send?"]}, as_node)
    fixed = run_app("resume", THREAD, *_where(data, durability_corpus))
    assert fixed.returncode == 0, describe(fixed)
    rows = db_rows(data, THREAD)
    assert {r["task_key"] for r in rows} == {"What is Send?"}
    assert len(rows) == len({r["envelope_id"] for r in rows}) == expected_tasks(TOPIC) // 3
