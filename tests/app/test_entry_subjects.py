"""A sentence of an entry or a section is about what its entry or heading names, though it does
not repeat the name (trial 115, F1): "The default is ‘%m%# ’." in zsh's PS1 entry answers
"What is the default value of PS1?", and the Answer says whose default it is."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

PROMPTS = ("PS1 <S>: The primary prompt string, printed before a command is read. The default "
           "is ‘%m%# ’.\n\nPS2 <S>: The secondary prompt, printed when the shell needs more "
           "information. The default is ‘%_> ’, which displays any shell constructs.")


def _answer(q: str, findings: list[dict], passages: list[dict]) -> str:
    """The ``## Answer`` of a report on ``q`` whose analyst found ``findings`` in the
    ``passages`` its search returned."""
    rows = [row("docs_search", q, passages), row("analyst", q, findings)]
    return answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))


def test_an_entrys_sentence_that_does_not_name_it_is_shown_under_its_name() -> None:
    q = "What is the default value of PS1?"
    ref = "Parameters.html#81"
    answer = _answer(q, [item("finding", "The default is ‘%m%# ’.", ref),
                         item("finding", "The default is ‘%_> ’, which displays any shell "
                                         "constructs.", ref)],
                     [item("passage", PROMPTS, ref, heading="15.6 Parameters Used By The Shell")])
    lines = answer.strip().splitlines()
    assert lines[0] == "- `PS1`: The default is ‘%m%# ’. [1]", answer
    assert "‘%_> ’" not in answer, answer  # PS2's


def test_a_default_under_a_condition_comes_after_the_plain_one() -> None:
    # Trial 115, F9: "In sh or ksh emulation, the default is ‘+ ’." led PS4's Answer before
    # "Default is ‘+%N:%i> ’, ..."
    q = "What is the default value of PS4?"
    ref = "Parameters.html#81"
    text = ("PS4 <S>: The execution trace prompt. Default is ‘+%N:%i> ’, which displays the name "
            "of the current shell structure. In sh or ksh emulation, the default is ‘+ ’.")
    answer = _answer(q, [item("finding", "In sh or ksh emulation, the default is ‘+ ’.", ref),
                         item("finding", "Default is ‘+%N:%i> ’, which displays the name of the "
                                         "current shell structure.", ref)],
                     [item("passage", text, ref)])
    assert answer.index("‘+%N:%i> ’") < answer.index("In sh or ksh"), answer
