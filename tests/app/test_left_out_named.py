"""The report's settling names what it leaves out (trial 123, F1): the note only counted the
documents it dropped, and a user could not find the page that answered again."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import data, item, row

Q = "What is the prepend import mode?"


def _rows() -> list[dict]:
    """As trial 123's P6: pythonpath.html ranks first and is quoted once; goodpractices.html
    ranks second and is quoted four times, every word of the question among its findings;
    exit.html ranks far below, quoted once."""
    return [
        row("docs_search", Q, [
            item("passage", "Prepend and append import modes scenarios.", "pythonpath.html#4",
                 score=33.8),
            item("passage", "Pytest defaults to the prepend import mode.", "good.html#12",
                 score=29.7),
            item("passage", "The default will remain prepend.", "pythonpath.html#3",
                 score=23.4),
            item("passage", "Exit codes of pytest.", "exit.html#0", score=10.0),
        ]),
        row("analyst", Q, [
            item("finding", "Pytest defaults to the prepend import mode.", "good.html#12"),
            item("finding", "Your test files must have unique names.", "good.html#12"),
            item("finding", "Pytest imports your test files as top-level modules.",
                 "good.html#12"),
            item("finding", "The tests dir is added to sys.path.", "good.html#12"),
            item("finding", "The default will remain prepend.", "pythonpath.html#3"),
            item("finding", "Pytest exits with a code.", "exit.html#0"),
        ]),
    ]


def test_the_note_names_the_documents_it_leaves_out() -> None:
    md = render_markdown(data(_rows(), topic=Q, sub_questions=[Q]))
    notes = md.split("\n## Notes\n", 1)[1].split("\n## ", 1)[0]
    assert "not cited: pythonpath.html, exit.html. good.html names every word" in notes, notes
    assert notes.rstrip().endswith("they may still answer the question"), notes  # trial 126
