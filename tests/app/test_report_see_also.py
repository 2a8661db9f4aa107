"""A "See also" item or a cross-reference line ("For more information, see X.", "See X for a
description of this behavior.") states nothing: it is never an Answer bullet nor a Top passage
while a sentence that states something is there (trial 123, F2: Sphinx's link text is the
target section's title, so such lines repeat the question's words)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, answer_to, data, item, row

ORPHAN = "What does delete-orphan cascade do?"
SAYS = ("delete-orphan cascade adds behavior to the delete cascade, such that a child object "
        "will be marked for deletion when it is de-associated from the parent.")


def test_a_labelled_see_also_item_is_not_an_answer_beside_a_statement() -> None:
    see = ("See also: For relationship <relationship>, delete-orphan cascade is normally "
           "configured only on the one side of a one-to-many relationship. - background on a "
           "common error scenario involving delete-orphan cascade.")
    answer = answer_to(ORPHAN, [item("finding", SAYS, "cascades.html#33"),
                                item("finding", see, "cascades.html#35")])
    assert "adds behavior" in answer and "background on" not in answer, answer


def test_a_title_and_what_it_has_is_not_an_answer_beside_a_statement() -> None:
    q = "How do I render SQL expressions as strings, possibly with bound parameters inlined?"
    see = (f"{q} - includes a usage example for debugging use cases.")
    says = ("To render SQL expressions as strings with bound parameters inlined, pass "
            "literal_binds in compile_kwargs to compile().")
    answer = answer_to(q, [item("finding", see, "internals.html#3"),
                           item("finding", says, "sqlexpressions.html#1")])
    assert "literal_binds" in answer and "usage example" not in answer, answer


def test_a_pointer_after_the_entry_asked_is_left_out() -> None:
    # pytest's xfail_strict entry led, then "For more information, see strict parameter."
    q = "What does the xfail strict parameter do?"
    entry = ("If set to True, tests marked with @pytest.mark.xfail that actually succeed will "
             "by default fail the test suite.")
    see = "For more information, see strict parameter."
    rows = [row("analyst", q, [item("finding", entry, "reference.html#9"),
                               item("finding", see, "reference.html#9")]),
            row("docs_search", q, [item("passage", f"xfail_strict\n\n{entry} {see}",
                                        "reference.html#9", score=5.0, heading="xfail_strict")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "fail the test suite" in answer and "For more information" not in answer, answer


def test_a_pointing_passage_is_no_top_passage_under_findings() -> None:
    q = "Why isn't my __init__() called when I load objects?"
    says = "Receive an instance when its constructor is called, not when it is loaded."
    faq = ("why isn't my __init__() called when I load objects?\n\nSee Constructors and Object "
           "Initialization for a description of this behavior.")
    rows = [row("analyst", q, [item("finding", says, "events.html#4")]),
            row("docs_search", q, [item("passage", faq, "sessions.html#7", score=9.0,
                                        heading="why isn't my __init__() called?")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "constructor is called" in md and "See Constructors" not in md, md
    assert "See Constructors" not in answer_section(md)
