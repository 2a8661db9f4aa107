"""An option asked that has no entry of its own, stated in another option's section, is answered
by the sentence that writes it: trial 128, F1. "What is the default value of --parallel-max?"
over curl's docs: the only statement of it is in the ``-Z, --parallel`` section ("It will do up
to `--parallel-max` concurrent transfers, with a default value of 50."), and the Answer said
"No sentence retrieved is about "parallel" or "max"" above the section's first sentence, since
every sentence of an option's section was judged that option's. A sentence speaking of its own
entry ("this option") is still the entry's, whatever name it writes.
"""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

Q = "What is the default value of --fan-max?"
REF = "FANS.md#0"
HEAD = {"title": "Fan control", "heading": "Fan control / -F, --fan"}
OPENING = "The relay drives its fans from one thermal sensor."
USED = "When this option is used, the relay spins every fan at once."
STATED = "It will spin up to `--fan-max` fans together, with a default value of 12."


def _answer(findings: list[str], section: str = f"{USED} {STATED}") -> str:
    passage = f"# Fan control\n\n{OPENING}\n\n## -F, --fan\n\n{section}"
    rows = [row("docs_search", Q, [item("passage", passage, REF, **HEAD)]),
            row("analyst", Q, [item("finding", f, REF, **HEAD) for f in findings]),
            row("critic", Q, [])]
    return answer_section(render_markdown(data(rows, topic=Q, sub_questions=[Q])))


def test_the_sentence_writing_the_option_asked_answers_it() -> None:
    answer = _answer([f"{USED} {STATED}", OPENING])
    assert "with a default value of 12" in answer, answer
    assert "No sentence retrieved" not in answer, answer


def test_a_sentence_speaking_of_its_own_option_is_still_its_own() -> None:
    # ServerLimit's "use this directive only if you need to set MaxRequestWorkers ..." kind
    own = "Use this option only if you need to set `--fan-max` higher than 12 (default)."
    answer = _answer([own, OPENING], f"{USED} {own}")
    assert "higher than 12" not in answer, answer


def test_an_option_with_its_own_entry_is_answered_by_it_alone() -> None:
    # its entry retrieved, the other section's mention is a neighbour's as before
    own = "Spins at most this many fans together."
    entry = f"# Options\n\n--fan-max: {own}"
    rows = [row("docs_search", Q, [
        item("passage", entry, "OPTIONS.md#0", title="Options", heading="Options / --fan-max"),
        item("passage", f"# Fan control\n\n{OPENING}\n\n## -F, --fan\n\n{USED} {STATED}", REF,
             **HEAD)]),
        row("analyst", Q, [item("finding", f"--fan-max: {own}", "OPTIONS.md#0", title="Options",
                                heading="Options / --fan-max"),
                           item("finding", f"{USED} {STATED}", REF, **HEAD)]),
        row("critic", Q, [])]
    answer = answer_section(render_markdown(data(rows, topic=Q, sub_questions=[Q])))
    assert "value of 12" not in answer, answer
