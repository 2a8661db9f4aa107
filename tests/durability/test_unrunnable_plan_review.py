"""``review THREAD_ID`` of a plan a state edit made unrunnable says so, and the way on (hostile
trial H, left over from F1): ``update_state(config, {"sub_questions": "What is Send?"},
as_node="plan")`` at the plan review (Studio's "edit state", a user typing one question into the
list field), then ``review THREAD_ID``, listed the string one letter per line ("1. W", "2. h",
...) and offered ``--approve``, which is refused. The pause now says the plan cannot run and
why, lists no letters, and names ``--question`` as the way on; that command, pasted, runs.
Through the CLI, each command a process of its own.
"""

from __future__ import annotations

import json
import shlex

import pytest

from app.runs.threads import research_graph
from app.settings.hints import APP
from app.storage import open_storage
from tests.durability._helpers import AS_OF, TOPIC, describe, run_app, thread_id_of

THREAD = thread_id_of()


def _where(data, corpus) -> list:
    return ["--data-dir", str(data), "--corpus", str(corpus), "--model", "offline"]


@pytest.mark.parametrize(("edit", "why"), [
    ("What is Send?", "sub_questions must be a list of strings, got str ('What is Send?')"),
    ([7, 8], "sub-question 1 is not text (int)"),
], ids=["string", "numbers"])
def test_the_review_of_an_unrunnable_plan_says_it_cannot_run_and_the_way_on(
        tmp_path, durability_corpus, edit, why):
    data = tmp_path / "data"
    where = _where(data, durability_corpus)
    first = run_app("research", TOPIC, "--as-of", AS_OF, "--review", *where)
    assert first.returncode == 0, describe(first)
    with open_storage(data).checkpointer() as saver:
        research_graph(saver).update_state({"configurable": {"thread_id": THREAD}},
                                           {"sub_questions": edit}, as_node="plan")

    shown = run_app("review", THREAD, *where)
    assert shown.returncode == 0, describe(shown)
    text = shown.stdout
    assert (f"the plan cannot run as it stands (an approval is refused): {why}" in text), text
    assert "  1. W" not in text and "--approve" not in text, text
    (way_on,) = [line.strip() for line in text.splitlines() if "--question TEXT" in line]
    as_json = run_app("review", THREAD, *where, "--json")
    payload = json.loads(as_json.stdout)
    assert payload["review"]["unrunnable"].startswith(why.split(" (")[0]), payload
    assert all(isinstance(q, str) for q in payload["review"]["sub_questions"]), payload
    assert "--question TEXT" in payload["continue_with"], payload

    command = way_on.split("   (", 1)[0].replace(APP + " ", "", 1)
    command = command.replace("--question TEXT [--question TEXT ...]", "--question "
                              "'What is Send?'")
    ran = run_app(*shlex.split(command), "--json")  # the way it names works, pasted
    assert ran.returncode == 0, describe(ran)
    results = json.loads(ran.stdout)["review"]
    assert {e["task_key"] for e in results["envelopes"]} == {"What is Send?"}, results
