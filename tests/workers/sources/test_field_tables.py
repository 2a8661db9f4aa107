"""A table of fields (a label and its value a row, no column headings) is read one field a
line, in HTML, markdown and .docx files (trial 78, F2: rsyslog's module pages open with a
two-column table, "Module Name:" | "immark" then "Author:" | "Rainer Gerhards", its first row
in bold; read as a heading row, it was indexed as "Author: — immark: Rainer Gerhards", and a
report quoted that as what the immark module does)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.workers.sources.documents_helpers import make_docx
from workers.sources.corpus import Corpus
from workers.sources.htmlpage import html_page
from workers.sources.tables import field_rows, markdown_tables, table_lines

MODULE_TABLE = """<html><head><title>immark</title></head><body>
<h1>immark: Mark Message Input Module</h1>
<table class="docutils align-default"><tbody>
<tr class="row-odd"><td><p><strong>Module Name:</strong></p></td>
<td><p><strong>immark</strong></p></td></tr>
<tr class="row-even"><td><p><strong>Author:</strong></p></td>
<td><p><a href="http://www.gerhards.net/rainer">Rainer Gerhards</a> &lt;<a
href="mailto:rgerhards&#37;&#52;&#48;adiscon&#46;com">rgerhards<span>&#64;</span>adiscon<span
>&#46;</span>com</a>&gt;</p></td></tr>
</tbody></table>
<h2>Purpose</h2><p>This module injects periodic mark messages into the input of rsyslog.</p>
</body></html>"""

FIELDS = ["Module Name: immark.", "Author: Rainer Gerhards <rgerhards@adiscon.com>."]


def _paragraphs(html: str) -> list[str]:
    return html_page(html).text.split("\n\n")


def test_a_table_of_labelled_fields_is_one_field_a_line(tmp_path: Path) -> None:
    lines = _paragraphs(MODULE_TABLE)
    assert lines[1:3] == FIELDS, lines
    assert not any("—" in line for line in lines)
    # the same table with no bold (no heading row at all), and with its labels in <th> cells
    plain = MODULE_TABLE.replace("<strong>", "").replace("</strong>", "")
    assert _paragraphs(plain)[1:3] == FIELDS
    headed = plain.replace("<td><p>Module", "<th><p>Module").replace("<td><p>Author",
                                                                      "<th><p>Author")
    assert _paragraphs(headed)[1:3] == FIELDS
    # and as the index holds it
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "immark.html").write_text(MODULE_TABLE, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        text = corpus.read("immark.html").text
    assert all(field in text.split("\n\n") for field in FIELDS), text
    assert "Author: —" not in text


def test_a_markdown_or_docx_table_of_labelled_fields_is_one_field_a_line(tmp_path: Path) -> None:
    from workers.sources.documents import docx_docs

    assert table_lines([["Author:", "Rainer Gerhards"]], ["Module Name:", "immark"]) == \
        ["Module Name: immark.", "Author: Rainer Gerhards."]
    md = "| Module Name: | immark |\n|---|---|\n| Author: | Rainer Gerhards |\n| | |\n"
    assert markdown_tables(md).splitlines() == ["Module Name: immark.", "Author: Rainer Gerhards."]
    rows = [["Module Name:", "immark"], ["Author:", "Rainer Gerhards"]]
    for mark in ("bold", ""):
        path = make_docx(tmp_path / f"immark-{mark}.docx", ["immark"], rows, heading_row=mark)
        [doc] = docx_docs(path, path.name, Counter(), [])
        assert doc.text.split("\n\n")[1:] == ["Module Name: immark.",
                                              "Author: Rainer Gerhards."], (mark, doc.text)


def test_column_headings_are_still_headings() -> None:
    # a heading row ending in colons over rows that are no labels keeps its headings
    assert not field_rows([["timeout", "30 s"]], ["Option:", "Default:"])
    assert not field_rows([["Author:", "x"], ["timeout", "30 s"]], ["Module Name:", "immark"])
    assert not field_rows([["Author:", "x"]], None)
    assert table_lines([["Puffin", "every 50 hours"]], ["Boat", "Service interval"]) == \
        ["Puffin — Service interval: every 50 hours."]


def test_a_two_column_table_of_plain_labels_and_values_is_one_field_a_line() -> None:
    # The sibling with no colons and no heading cells: exim's option tables
    # ("accept_8bitmime" | "advertise 8BITMIME"), doxygen's parameters ("ctx" | "an AVTEA
    # context"), a package's "Version" | "2.1": cell by cell, each value a paragraph of its
    # own, apart from its name.
    page = _paragraphs("<p>About:</p><table><tr><td>Version</td><td>2.1</td></tr>"
                       "<tr><td><code>accept_8bitmime</code></td><td>advertise<br>8BITMIME</td>"
                       "</tr><caption>Facts</caption></table><p>After.</p>")
    assert page == ["About:", "Facts", "Version: 2.1.", "accept_8bitmime: advertise 8BITMIME.",
                    "After."]


def test_a_layout_or_heading_table_is_no_table_of_fields() -> None:
    # one row: a layout table (tests/workers/sources/test_tables.py keeps it as it was)
    assert _paragraphs("<table><tr><td>layout</td><td>only</td></tr></table>") == \
        ["layout", "only"]
    # a bold heading row, or a row headed by a bold cell: htmltables reads those
    assert "Puffin — Service interval: every 50 hours." in _paragraphs(
        "<table><tr><td><b>Boat</b></td><td><b>Service interval</b></td></tr>"
        "<tr><td>Puffin</td><td>every 50 hours</td></tr></table>")
    # a label that is a sentence, a cell holding a list, three columns, values only links
    for html in ("<table><tr><td>See the notes.</td><td>x</td></tr>"
                 "<tr><td>Version</td><td>2.1</td></tr></table>",
                 "<table><tr><td>Menu</td><td><ul><li>Home</li><li>News</li></ul></td></tr>"
                 "<tr><td>Version</td><td>2.1</td></tr></table>",
                 "<table><tr><td>a</td><td>b</td><td>c</td></tr>"
                 "<tr><td>d</td><td>e</td><td>f</td></tr></table>",
                 "<table><tr><td>A</td><td><a href='a.html'>Apple</a></td></tr>"
                 "<tr><td>B</td><td><a href='b.html'>Banana</a></td></tr></table>"):
        assert not any(": " in line for line in _paragraphs(html)), html
