"""A sentence that points at the documentation ("This document describes ...", "See also the
note about this in ...") never leads the Answer over one that states something (trial 26,
finding 5: on the Apache manual such sentences answered "What is name-based virtual hosting?"
and "What does the AllowOverride directive do?")."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, answer_to, data, item, row

Q = "What is name-based relay hosting?"
POINTER = "This document describes when and how to use name-based relay hosting."


def test_a_first_sections_see_also_does_not_beat_a_later_sections_statement() -> None:
    q1, q2 = "What does the RelayOverride directive do?", "How is RelayOverride used?"
    see = "See also the note about this in the RelayOverride directive documentation."
    says = "RelayOverride decides which directives a .relay file in a folder may set."
    rows = [row("analyst", q1, [item("finding", see, "core.html#3")]),
            row("analyst", q2, [item("finding", says, "core.html#4")])]
    answer = answer_section(render_markdown(data(rows, topic=q1, sub_questions=[q1, q2])))
    assert answer.strip().splitlines()[0].startswith(f"- {says}"), answer


def test_a_signpost_alone_is_still_shown() -> None:
    assert POINTER in answer_to(Q, [item("finding", POINTER, "vhosts.html#0")])


def test_a_pointer_beside_a_statement_is_shown_nowhere() -> None:
    # flex: "For tricky behavior, see case and character ranges." was the Answer's second
    # bullet, then a section's only finding (trial 104, R4)
    q = "What does the --case-insensitive option do?"
    says = "-i, --case-insensitive: instructs flex to generate a case-insensitive scanner."
    see = "For tricky behavior, see case and character ranges."
    rows = [row("analyst", q, [item("finding", says, "opts.html#0"),
                               item("finding", see, "opts.html#0")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert says in answer_section(md) and see not in md, md


def test_a_pointer_that_goes_on_to_say_it_is_shown() -> None:
    # trial 113, F7: "This page lists the exit codes ...: 0 when ..., 24 when ..." answered
    # "What does exit code 24 mean?", and was left out as a pointer
    q = "What does exit code 24 mean for quillsync?"
    lists = ("This page lists the exit codes quillsync returns: 0 when every file was sent, "
             "24 when some source files vanished during the run.")
    cron = "Scripts that run quillsync from cron should check the exit code."
    rows = [row("analyst", q, [item("finding", cron, "exit.md#0"),
                               item("finding", lists, "exit.md#0")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "24 when some source files vanished" in answer_section(md), md
