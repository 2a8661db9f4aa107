"""The strongest document of a report counts the findings its reader drew on what the topic is
about, not on its kind word (trial 65, F7): asked "What does the gprintf function do?", the
reader quoted gnuplot's list page "String functions" three times (once for gprintf, twice for
other functions) and the gprintf page once; the list page was taken for the strongest, and the
report cited it alone, the gprintf page left out as "weaker"."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

Q = "What does the gprintf function do?"
PAGE = "The string function gprintf(fmt, x) formats a number with gnuplot's own specifiers."


def _report() -> str:
    own, listing = {"title": "Gprintf"}, {"title": "String functions"}
    passages = [item("passage", f"Gprintf\n\n{PAGE}", "node303.html#0", score=12.9, **own),
                item("passage", "String functions\n\nGeneral formatting functions: see gprintf "
                     "sprintf. Time formatting functions: see strftime strptime.",
                     "node89.html#0", score=11.8, **listing)]
    findings = [item("finding", "General formatting functions: see gprintf sprintf.",
                     "node89.html#0", **listing),
                item("finding", "Time formatting functions: see strftime strptime.",
                     "node89.html#0", **listing),
                item("finding", "Gnuplot provides several built-in functions for strings.",
                     "node89.html#0", **listing),
                item("finding", PAGE, "node303.html#0", **own)]
    rows = [row("docs_search", Q, passages), row("analyst", Q, findings)]
    return render_markdown(data(rows, topic=Q, sub_questions=[Q]))


def test_the_page_of_the_thing_asked_leads_and_is_cited() -> None:
    report = _report()
    first = answer_section(report).strip().splitlines()[0]
    assert first.startswith(f"- {PAGE}"), report
    sources = report.split("## Sources", 1)[1]
    assert "node303.html" in sources, report
