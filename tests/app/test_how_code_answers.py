"""A how-to's answer that is a sentence ending in a colon and the code it introduces ("... like
this:", "... by issuing the command:") is a finding, and leads the Answer before a prose
sentence that only mentions the thing asked (trial 123, P4: pytest's "You can register custom
marks in your pytest.ini file like this:" and its ``markers =`` lines were never shown; trial
121, G4: git's "... you can bisect by issuing the command:" never quoted)."""

from __future__ import annotations

from pathlib import Path

from app.llm.offline.sentences import candidate_sentences
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, first_answer, item, row
from workers.sources import Passage

MARKS = ("Registering marks\n\nYou can register custom marks in your pytest.ini file like "
         "this:\n\n```\n[pytest]\nmarkers =\n    slow: marks tests as slow\n    serial\n```"
         "\n\nNote that everything past the colon after the mark name is a description.")


def _quotes(text: str, how: bool) -> list[str]:
    passage = Passage("mark.html#2", "mark.html", "Marks", "mark.html", text)
    return [s.text for s in candidate_sentences([(0, passage)], how=how)]


def test_asked_how_a_sentence_ending_in_a_colon_is_quoted_with_its_code() -> None:
    quotes = _quotes(MARKS, how=True)
    assert quotes[0] == MARKS.split("\n\nNote", 1)[0].split("\n\n", 1)[1], quotes
    # asked another kind, the sentence alone ends in no full stop: no finding
    assert not any("like this" in q for q in _quotes(MARKS, how=False))
    # a block longer than a bullet shows (12 lines) is no quote of it
    long = MARKS.replace("    serial\n", "".join(f"    m{i}\n" for i in range(12)))
    assert not any("like this" in q for q in _quotes(long, how=True))


def test_the_code_answer_leads_before_the_strongest_pages_prose() -> None:
    q = "How do I register custom marks?"
    code = MARKS.split("\n\nNote", 1)[0].split("\n\n", 1)[1]
    prose = ("Multiple custom markers can be registered, by defining each one in its own line, "
             "as shown in above example.")
    rows = [
        row("docs_search", q, [
            item("passage", f"Registering markers\n\n{prose}", "markers.html#13", score=9.0,
                 heading="Registering markers"),
            item("passage", MARKS, "mark.html#2", score=8.0, heading="Registering marks")]),
        row("analyst", q, [item("finding", prose, "markers.html#13",
                                heading="Registering markers"),
                           item("finding", code, "mark.html#2", heading="Registering marks")]),
    ]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    lines = answer.strip().splitlines()
    assert lines[0].startswith("- You can register custom marks"), answer
    assert "    slow: marks tests as slow" in answer, answer


def test_a_command_under_a_heading_naming_it_answers(tmp_path: Path) -> None:
    # git-bisect.html's "Bisect run": the sentence names "bisect" only, its heading the rest
    page = ("# git-bisect\n\n## Bisect run\n\nIf you have a script that can tell if the current "
            "source code is good or bad, you can bisect by issuing the command:\n\n```\n"
            "$ git bisect run my_script arguments\n```\n\nNote that the script should exit "
            "with code 0 if the current source code is good.\n\n## Bisect help\n\nFinally "
            "the script should exit with the status of the real test to let the git bisect "
            "run command loop determine the outcome.\n")
    report, first = first_answer(tmp_path, {"git-bisect.md": page},
                                 "How do I use git bisect run?")
    assert "`$ git bisect run my_script arguments`" in first, report


def test_a_sentence_saying_what_to_do_keeps_its_place_beside_the_code() -> None:
    # sqlite's cli.html: "The equivalent line on a Mac would be:" and its one line led "How do
    # I export a table to CSV in the command-line shell?" before "To export ... simply set ..."
    q = "How do I export a table to CSV in the command-line shell?"
    todo = ("To export an SQLite table as CSV, simply set the mode to csv and then run a query "
            "to extract the desired rows of the table.")
    mac = "The equivalent line on a Mac would be:\n\n```\nsqlite> .system open dataout.csv\n```"
    page = f"Export to CSV\n\n{todo}\n\n{mac}"
    rows = [row("docs_search", q, [item("passage", page, "cli.html#40", score=9.0,
                                        heading="Export to CSV")]),
            row("analyst", q, [item("finding", todo, "cli.html#40", heading="Export to CSV"),
                               item("finding", mac, "cli.html#40", heading="Export to CSV")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    lines = answer.strip().splitlines()
    assert lines[0].startswith("- To export an SQLite table"), answer
    assert "`sqlite> .system open dataout.csv`" in lines[1], answer


def test_asked_how_a_sentence_ending_as_the_following_is_quoted_with_its_code() -> None:
    # the Debian Reference's 2.7.5: its six Pin: lines were never shown (trial 124, FB1)
    lead = ("If you wish not to pull in particular packages automatically by \"Recommends\", "
            "you must create the \"/etc/apt/preferences\" file and explicitly list all those "
            "packages at the top of it as the following.")
    pins = ("```\nPackage: package-1\nPin: version *\nPin-Priority: -1\n\nPackage: package-2\n"
            "Pin: version *\nPin-Priority: -1\n```")
    text = f"Blocking packages installed by Recommends\n\nWarning: Use it with care.\n\n{lead}" \
           f"\n\n{pins}"
    assert f"{lead}\n\n{pins}" in _quotes(text, how=True)
