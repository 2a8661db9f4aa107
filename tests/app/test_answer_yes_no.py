"""A yes/no question's "no" is its answer, not a caveat beside it. Asked "Can I edit the zone
file of a dynamically updated zone by hand?", BIND's Answer led with "A DNS zone can also be
edited indirectly using DNS dynamic updates ..." while "The zone files of dynamic zones cannot
normally be edited by hand ..." (chapter6.html 6.1.1, the docs' answer) stood under Caveats
(trial 118, F3)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

_Q = "Can I edit the zone file of a dynamically updated zone by hand?"
_NO = ("The zone files of dynamic zones cannot normally be edited by hand because they are not "
       "guaranteed to contain the most recent dynamic changes; those are only in the journal "
       "file.")
_FINDINGS = [
    item("finding", "A DNS zone can also be edited indirectly using DNS dynamic updates (for "
         "example, using the nsupdate shell level utility).", "chapter6.html#2"),
    item("finding", "The primary copy of the DNS firewall policy can be a DNS zone file which "
         "is either edited by hand or generated from a database.", "chapter6.html#73"),
]


def _report(question: str, caveat: str) -> str:
    rows = [row("analyst", question, _FINDINGS),
            row("critic", question, [item("caveat", caveat, "chapter6.html#4")])]
    return render_markdown(data(rows, topic=question, sub_questions=[question]))


def test_a_no_on_the_asked_subject_leads_the_answer() -> None:
    md = _report(_Q, _NO)
    first = answer_section(md).strip().splitlines()[0]
    assert "cannot normally be edited by hand" in first, answer_section(md)
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "cannot normally be edited" not in caveats, caveats


def test_a_how_question_or_another_verb_keeps_its_caveat_below() -> None:
    # not a yes/no question: the caveat stays a caveat
    how = _report("How do I edit the zone file of a dynamically updated zone?", _NO)
    assert "cannot normally" not in answer_section(how), answer_section(how)
    # a "no" on another verb than the one asked answers nothing
    other = _report(_Q, "The journal file of a dynamic zone cannot be read by older tools.")
    assert "cannot be read" not in answer_section(other), answer_section(other)
