"""A caveat of a question that asks about a name is about that name: flex's "What does yyless
do?" listed "First, yymore() depends on the value of yyleng ..." under Caveats (trial 101, F7),
another function's limitation."""

from __future__ import annotations

import pytest

from app.research.own import caveat_own
from app.research.report import render_markdown
from tests.app.report_rows import data, item, row

Q = "What does yyless do?"


def _caveats(caveats: list[str]) -> str:
    finding = item("finding", "yyless(n) returns all but the first n characters of the token.",
                   "Actions.html#3")
    rows = [row("analyst", Q, [finding]),
            row("critic", Q, [item("caveat", text, f"Actions.html#{n}")
                              for n, text in enumerate(caveats, 4)])]
    md = render_markdown(data(rows, sub_questions=[Q], topic=Q))
    return md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]


def test_a_caveat_about_another_name_only_is_not_the_names() -> None:
    other = "First, yymore() depends on the value of yyleng, so you must not modify yyleng."
    own = "Note that yyless() is a macro and cannot be used from other source files."
    plain = "This routine must not be called from an action that already rescanned its text."
    caveats = _caveats([other, own, plain])
    assert "yymore()" not in caveats, caveats
    assert "cannot be used from other source files" in caveats
    assert "must not be called from an action" in caveats


def test_the_asked_entrys_own_caveat_stays_whatever_it_names() -> None:
    # "It must not be called from within otter()." is pelican's own limitation: it was
    # dropped for naming another function (trial 103, F5)
    q = "What does pelican do?"
    own = "It must not be called from within otter()."
    passage = item("passage", f"pelican\n\nStores records.\n\n{own}", "api.html#3",
                   heading="pelican")
    other = item("passage", "otter\n\nFirst, yymore() needs yyleng unchanged.", "api.html#4",
                 heading="otter")
    rows = [row("docs_search", q, [passage, other]),
            row("analyst", q, [item("finding", "pelican stores records.", "api.html#3")]),
            row("critic", q, [item("caveat", own, "api.html#3"),
                              item("caveat", "First, yymore() needs yyleng unchanged.",
                                   "api.html#4")])]
    md = render_markdown(data(rows, sub_questions=[q], topic=q))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert own in caveats and "yymore" not in caveats, caveats


def _report(q: str, rows: list) -> str:
    md = render_markdown(data(rows, sub_questions=[q], topic=q))
    return md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]


def test_a_warning_of_another_subject_is_not_the_questions() -> None:
    # trial 123, F9: X1's Caveat was the warnings summary's, from a page cited for it alone
    q = "How do I disable output capturing?"
    other = item("caveat", "Although not recommended, you can use the --disable-warnings "
                 "command-line option to suppress the warning summary entirely from the test "
                 "run output.", "warnings.html#8")
    own = item("caveat", "Output capturing cannot be turned off for a single fixture.",
               "capture.html#1")
    rows = [row("docs_search", q, [
                item("passage", f"Capturing\n\n{own['text']}", "capture.html#1",
                     heading="Setting capturing methods or disabling capturing"),
                item("passage", f"Disabling warnings summary\n\n{other['text']}",
                     "warnings.html#8", heading="Disabling warnings summary")]),
            row("critic", q, [other, own])]
    report = data(rows, sub_questions=[q], topic=q)
    assert caveat_own(report, [other, own]) == [own]
    assert caveat_own(report, [other, own], {"warnings.html"}) == [other, own]  # cited: its own


_EXIT = "exit(reason[, returncode=False, msg=None])"
_RETURNCODE = "returncode (Optional[int]) -- Return code to be used when exiting pytest."


def _exit_report(q: str, other: str, own: str) -> str:
    """The Caveats of a report on ``q`` over pytest.exit's entry (trial 123, F9): the analyst
    found its returncode row, the critic ``other`` and ``own``."""
    rows = [row("docs_search", q, [item("passage", f"{_EXIT}\n\n{_RETURNCODE} {other} {own}",
                                        "reference.html#24", heading=_EXIT)]),
            row("analyst", q, [item("finding", _RETURNCODE, "reference.html#24")]),
            row("critic", q, [item("caveat", other, "reference.html#24"),
                              item("caveat", own, "reference.html#24")])]
    return _report(q, rows)


def test_a_cited_entrys_caveat_naming_none_of_the_question_is_anothers() -> None:
    # trial 123, F9: P5's Caveats were pytest.exit's deprecated msg parameter
    q = "What does exit code 5 mean?"
    other = "reason has a default value only because msg is deprecated."
    own = "It is deprecated for exit codes above 5."
    caveats = _exit_report(q, other, own)
    assert "msg is deprecated" not in caveats and "exit codes above 5" in caveats, caveats


def test_a_question_verb_names_no_subject() -> None:
    # L2-F2: "mean" of "What does exit code 5 mean?" kept a caveat that says "means", and
    # "work" of "How does autoflush work?" one that says "works"
    q = "What does exit code 5 mean?"
    other = "Passing msg means a deprecation warning is raised."
    own = "Exit codes above 127 are not portable."
    caveats = _exit_report(q, other, own)
    assert "deprecation warning" not in caveats and "not portable" in caveats, caveats
    q = "How does autoflush work?"
    side = item("caveat", "Bulk saving only works without relationships.", "bulk.html#3")
    own = item("caveat", "Autoflush cannot run inside a flush.", "session.html#4")
    rows = [row("docs_search", q, [item("passage", f"Bulk\n\n{side['text']}", "bulk.html#3",
                                        heading="Bulk operations")]),
            row("critic", q, [side, own])]
    assert caveat_own(data(rows, sub_questions=[q], topic=q), [side, own]) == [own]


@pytest.mark.parametrize(("q", "caveat"), [
    # L2-F3: "disabled" was no form of "disable", nor "used" of "use", either way round
    ("How do I disable autoflush?", "Flushes are skipped while disabled, so queries may see "
                                    "stale rows."),
    ("When is autoflush disabled?", "Never disable the flush inside a flush event."),
    ("Why is expire_on_commit enabled by default?", "Do not enable the option on a session "
                                                    "whose objects are used after commit."),
])
def test_a_caveat_names_the_question_in_another_form_of_its_verb(q: str, caveat: str) -> None:
    answer = item("finding", "The Session flushes pending changes before each query.",
                  "session.html#1")
    own = item("caveat", caveat, "session.html#2")
    rows = [row("analyst", q, [answer]), row("critic", q, [own])]
    assert caveat_own(data(rows, sub_questions=[q], topic=q), [own], {"session.html"}) == [own]
