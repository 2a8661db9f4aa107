"""A table's rows are indexed as sentences under their headings, in markdown, .docx and HTML
files, so a fact that lives in a table is found by its heading's words and quoted (trial 12,
finding 1: a row was indexed as "| TG-3 | Lighthouse rock | 2019 | 12 months |" and never
quoted; the report answered with a neighbouring sentence)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli
from tests.workers.sources.documents_helpers import make_docx
from workers.sources.corpus import Corpus
from workers.sources.htmlpage import html_page
from workers.sources.tables import looks_like_header, markdown_tables, row_sentence

GAUGES_MD = """# Gauge inventory

| Gauge | Location | Installed | Calibration interval |
|---|:---:|---|---|
| TG-1 | North pier | 2011 | 6 months |
| TG-3 | Lighthouse rock | 2019 | 12 months |

The lighthouse rock gauge is reached by boat only.
"""


def test_a_markdown_table_becomes_one_sentence_per_row() -> None:
    text = markdown_tables(GAUGES_MD)
    assert "| TG-3 |" not in text and "|---|" not in text
    assert ("TG-3 — Location: Lighthouse rock; Installed: 2019; Calibration interval: 12 months."
            in text.splitlines())
    assert text.startswith("# Gauge inventory\n\n")
    assert text.endswith("The lighthouse rock gauge is reached by boat only.\n")


def test_pipes_that_are_not_a_table_are_left_alone() -> None:
    # a heading underlined with dashes, a shell pipe, an escaped pipe inside a cell
    assert markdown_tables("a | b\n---\ntext") == "a | b\n---\ntext"
    assert markdown_tables("run `ls | wc -l` to count") == "run `ls | wc -l` to count"
    escaped = "| Op | Means |\n|---|---|\n| `a \\| b` | or |"
    assert markdown_tables(escaped) == "`a | b` — Means: or."


def test_row_sentence_skips_empty_and_merged_cells_and_keeps_its_punctuation() -> None:
    assert row_sentence(["", " ", ""]) is None
    assert row_sentence(["A", "A", "wide"], ["Key", "Key", "Value"]) == "A — Value: wide."
    assert row_sentence(["Q", "Is it?"], ["Key", "Note"]) == "Q — Note: Is it?"
    assert row_sentence(["only"], ["Key"]) == "Key: only."
    assert row_sentence(["only"]) == "only."
    # a header of another width is not this row's: the cells alone
    assert row_sentence(["x", "y"], ["a", "b", "c"]) == "x: y."
    assert row_sentence(["Note:", "Boats stay in."]) == "Note: Boats stay in."
    assert row_sentence(["1.", "Public forum"]) == "1. Public forum."
    assert row_sentence(["sqlite3_column_int", "→", "32-bit INTEGER result"]) == \
        "sqlite3_column_int: 32-bit INTEGER result."
    assert not looks_like_header(["2019", "12"]) and not looks_like_header(["Alone"])


def _index(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "gauges.md").write_text(GAUGES_MD, encoding="utf-8")
    make_docx(folder / "equipment.docx", ["Equipment", "Each team carries a GPS unit."],
              table=[["Item", "Rule"], ["Drone battery", "Charge for 90 minutes before flights"],
                     ["GPS unit", "Update the firmware every January"]])
    (folder / "ferries.html").write_text(
        "<html><head><title>Ferries</title></head><body><h1>Ferries</h1><table>"
        "<tr><th>Route</th><th>First sailing</th></tr>"
        "<tr><td>Harbour to Isle</td><td>06:40</td></tr></table>"
        "<table><tr><td>layout</td><td>only</td></tr></table></body></html>", encoding="utf-8")
    return folder


def test_table_rows_are_found_by_their_headings_words(tmp_path: Path) -> None:
    with Corpus.open(tmp_path / "data", folder=_index(tmp_path)) as corpus:
        [hit] = corpus.search("calibration interval lighthouse rock", k=1)
        assert hit.ref == "gauges.md#0"
        assert "TG-3 — Location: Lighthouse rock; Installed: 2019; Calibration interval: " \
               "12 months." in hit.text
        docx = corpus.read("equipment.docx").text
        assert "GPS unit — Rule: Update the firmware every January." in docx
        assert "Item" not in docx.replace("Items", "")  # the header row is no row of its own
        html = corpus.read("ferries.html").text
        assert "Harbour to Isle — First sailing: 06:40." in html
        assert "layout\n\nonly" in html  # a layout table (no <th> row) stays as it was


def test_a_heading_row_of_bold_cells_or_in_a_thead_is_a_heading_row() -> None:
    # Trial 13: a word processor's "save as HTML" writes <td><b>Boat</b></td>, not <th>
    for head in ("<tr><td><b>Boat</b></td><td><strong>Service interval</strong></td></tr>",
                 "<thead><tr><td>Boat</td><td>Service interval</td></tr></thead>"):
        page = html_page(f"<table>{head}<tr><td>Puffin</td><td>every 50 hours</td></tr></table>")
        assert "Puffin — Service interval: every 50 hours." in page.text, head
    spacer = html_page("<table><tr><td><b>Function</b></td><td width=30></td><td><b>Equivalent"
                       "</b></td></tr><tr><td>date(...)</td><td></td><td>strftime('%F')</td>"
                       "</tr></table>")  # SQLite's lang_datefunc.html: an empty spacer column
    assert "date(...) — Equivalent: strftime('%F')." in spacer.text.split("\n\n")
    partly = html_page("<table><tr><td><b>Note</b> plain</td><td>x</td></tr>"
                       "<tr><td>a</td><td>b</td></tr></table>")  # not all bold: no heading row
    assert "—" not in partly.text


def test_no_text_of_a_data_table_is_dropped() -> None:
    # A caption, a title row across the table and headings that fit no row were dropped when
    # the table became its rows' sentences: "Van fleet 2026" was in no passage.
    titled = html_page("<table><caption>Fleet</caption><tr><th colspan=2>Van fleet 2026</th>"
                       "</tr><tr><th>Van</th><th>MOT due</th></tr>"
                       "<tr><td>White van</td><td>October 2027</td></tr></table>").text
    assert titled.split("\n\n") == ["Fleet", "Van fleet 2026",
                                     "White van — MOT due: October 2027."]
    for html in ("<table><tr><th colspan=2>Van fleet 2026</th></tr>"
                 "<tr><td>White van</td><td>October 2027</td></tr></table>",
                 "<table><tr><th>Van fleet 2026</th></tr></table>"):
        assert "Van fleet 2026" in html_page(html).text, html


def test_a_line_break_in_a_cell_keeps_its_words_apart() -> None:
    page = html_page("<table><tr><th>Boat</th><th>Engine</th></tr><tr><td>Puffin</td>"
                     "<td>Honda<br>20 hp<p>serviced</p>yearly</td></tr></table>")
    assert "Puffin — Engine: Honda 20 hp serviced yearly." in page.text.split("\n\n")


def test_a_table_inside_a_table_is_left_as_text() -> None:
    page = html_page("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td><table><tr>"
                     "<th>x</th></tr><tr><td>2</td></tr></table></td></tr></table>")
    assert "A — B" not in page.text and "1 — B" not in page.text  # the outer one: text
    assert "x: 2." in page.text  # the inner one: a data table of its own


def test_the_report_quotes_the_row_that_answers(tmp_path: Path) -> None:
    # Trial 12, finding 1: the Answer quoted "reached by boat only", not the interval.
    proc = run_cli("research", "What is the calibration interval of the lighthouse rock gauge?",
                   "--as-of", AS_OF, "--corpus", _index(tmp_path), "--data-dir",
                   tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    answer = report.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "Calibration interval: 12 months" in answer.splitlines()[2], answer


VANS_HTML = """<html><body><h1>Van fleet</h1><p>The trust has two vans for field work.</p>
<table><thead><tr><td>Van</td><td>Registration</td><td>MOT due</td></tr></thead><tbody>
<tr><td>Blue van</td><td>HB12 XYZ</td><td>March 2027</td></tr>
<tr><td>White van</td><td>HB15 ABC</td><td>October 2027</td></tr></tbody></table>
<h2>Nets</h2><table>
<tr><th scope="row">Mist net</th><td>Washed after every session</td></tr>
<tr><th scope="row">Cannon net</th><td>Inspected every spring</td></tr></table>
</body></html>"""
"""Trial 13, finding 1b: a <thead> of <td> cells, and rows headed by <th scope="row">."""


def test_a_row_headed_by_a_th_or_a_bold_cell_is_one_line() -> None:
    # Trial 13, finding 1b: cell by cell, "Cannon net" and its fact were two paragraphs
    lines = html_page(VANS_HTML).text.split("\n\n")
    assert "Cannon net: Inspected every spring." in lines, lines
    assert "Mist net: Washed after every session." in lines
    assert "White van — Registration: HB15 ABC; MOT due: October 2027." in lines
    bold = html_page("<table><tr><td><strong>Mist net</strong></td><td>Washed</td></tr>"
                     "<tr><td>layout</td><td>only</td></tr></table>").text
    assert bold.split("\n\n") == ["Mist net: Washed.", "layout", "only"]  # a layout row stays


def test_a_docx_heading_row_in_bold_or_repeated_is_its_heading_row(tmp_path: Path) -> None:
    # The .docx sibling of a bold or <thead> heading row: headings of more than four words
    # did not look like a header, so each row lost them ("White van: HB15 ABC; October 2027.")
    from collections import Counter

    from workers.sources.documents import docx_docs

    rows = [["Van", "Registration", "Month and year the MOT is due"],
            ["White van", "HB15 ABC", "October 2027"]]
    row = "White van — Registration: HB15 ABC; Month and year the MOT is due: October 2027."
    for mark in ("bold", "repeat", ""):
        path = make_docx(tmp_path / f"vans-{mark}.docx", ["Vans"], rows, heading_row=mark)
        [doc] = docx_docs(path, path.name, Counter(), [])
        assert (row in doc.text.split("\n\n")) == bool(mark), (mark, doc.text)


def test_the_report_answers_from_a_thead_of_td_cells_and_a_th_row(tmp_path: Path) -> None:
    folder = tmp_path / "vans"
    folder.mkdir()
    (folder / "vans.html").write_text(VANS_HTML, encoding="utf-8")
    for question, row in (("When is the MOT of the white van due?",
                           "White van — Registration: HB15 ABC; MOT due: October 2027."),
                          ("How often is the cannon net inspected?",
                           "Cannon net: Inspected every spring.")):
        proc = run_cli("research", question, "--as-of", AS_OF, "--corpus", folder,
                       "--data-dir", tmp_path / "data", "--model", "offline", "--json")
        assert proc.returncode == 0, proc.stderr
        summary = json.loads(proc.stdout)
        assert not summary.get("warnings"), summary["warnings"]
        report = Path(summary["report_path"]).read_text("utf-8")
        answer = report.split("## Answer", 1)[1].split("\n## ", 1)[0]
        assert row in answer.splitlines()[2], answer


def test_a_raw_html_table_in_markdown_is_read_as_a_table() -> None:
    # The markdown sibling: GitHub-flavoured markdown keeps raw HTML; its <td> cells were
    # indexed tags and all, each apart from its heading. A table in a code fence stays code.
    fenced = "```html\n<table><tr><th>Tag</th></tr><tr><td>x</td></tr></table>\n```"
    text = markdown_tables(
        "# Vans\n\n<table>\n<thead><tr><td>Van</td><td>MOT due</td></tr></thead>\n"
        "<tr><td>White van</td><td>October 2027</td></tr>\n</table>\n\n"
        f"Example:\n\n{fenced}\n\n| Net | Check |\n|---|---|\n| Mist net | weekly |\n")
    assert text.split("\n") == ["# Vans", "", "White van — MOT due: October 2027.", "",
                                "Example:", "", *fenced.split("\n"), "",
                                "Mist net — Check: weekly.", ""], text


def test_a_row_of_yes_and_no_under_its_headings_keeps_every_value() -> None:
    # trial 29, finding 7: HAProxy's "May be used in sections" table read "yes — frontend: no;
    # listen: yes." (the first value taken for the row's name, the backend's repeated "yes"
    # for a merged cell); an all-yes row read "defaults: yes."
    page = html_page("<table><tr><th>defaults</th><th>frontend</th><th>listen</th>"
                     "<th>backend</th></tr><tr><td>yes</td><td>no</td><td>yes</td><td>yes</td>"
                     "</tr><tr><td>yes</td><td>yes</td><td>yes</td><td>yes</td></tr></table>")
    assert "defaults: yes; frontend: no; listen: yes; backend: yes." in page.text, page.text
    assert "defaults: yes; frontend: yes; listen: yes; backend: yes." in page.text, page.text
    # a merged cell of words still counts once, and a row's name still leads its row
    assert row_sentence(["Lamp", "Charge it daily", "Charge it daily"], ["Item", "A", "B"]) == (
        "Lamp — A: Charge it daily.")


def test_a_one_column_table_stacking_its_fields_labels_no_row_with_its_heading() -> None:
    # PostgreSQL's catalogs: one cell per row holds "rolpassword text" over its description,
    # and the heading cell "Column Type" over "Description"; every row was indexed as
    # "Column Type Description: rolpassword text Not the password", a report's finding
    html = ("<table summary='pg_roles Columns'><thead><tr><th><p>Column Type</p>"
            "<p>Description</p></th></tr></thead><tbody>"
            "<tr><td><p><code>rolname</code> <code>name</code></p><p>Role name</p></td></tr>"
            "<tr><td><p><code>rolpassword</code> <code>text</code></p>"
            "<p>Not the password (always reads as ********)</p></td></tr>"
            "<tr><td>A note across the table</td></tr></tbody></table>")
    assert html_page(html).text.split("\n\n") == [
        "Column Type — Description", "rolname name — Role name",
        "rolpassword text — Not the password (always reads as ********)",
        "A note across the table"]
