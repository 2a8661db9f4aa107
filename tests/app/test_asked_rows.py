"""A row labelled by the thing a "What does X do/mean?" or "What is X?" question asks (an
option's own line, a definition list's row, a parameter's entry) leads the Answer, never a
release note or a sentence that only mentions the thing (trial 123, F3: pytest's "What does
--lf do?" answered "--lf and --ff now support long names ...", "What does exit code 5 mean?"
with ``pytest.exit``'s ``returncode``, SQLAlchemy's "What is pool_pre_ping?" with "Before
create_engine.pool_pre_ping was added, ...")."""

from __future__ import annotations

from app.research.asked_rows import asked_rows, asked_thing
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

CACHE = ("How to re-run failed tests and maintain state between test runs\n\nUsage\n\n"
         "The plugin provides two command line options to rerun failures from the last pytest "
         "invocation:\n\n--lf, --last-failed - to only re-run the failures.\n\n"
         "--ff, --failed-first - to run the failures first and then the rest of the tests.")
RELEASE = ("--lf and --ff now support long names: --last-failed and --failed-first "
           "respectively. Thanks @MichaelAquilina for the PR.")
EXIT_CODES = ("Exit codes\n\nRunning pytest can result in six different exit codes:\n\n"
              "Exit code 0: All tests were collected and passed successfully\n\n"
              "Exit code 4: pytest command line usage error\n\n"
              "Exit code 5: No tests were collected\n\n"
              "They are represented by the pytest.ExitCode enum.")
ENGINE = ("pool_logging_name –\n\nString identifier which will be used within the “name” "
          "field of logging records.\n\npool_pre_ping –\n\nboolean, if True will enable the "
          "connection pool “pre-ping” feature that tests connections for liveness upon each "
          "checkout.\n\nDisconnect Handling - Pessimistic")


def _first(q: str, passages: list[dict], findings: list[dict]) -> str:
    """The first line of the Answer to ``q`` whose search found ``passages`` (in rank order)
    and whose analyst quoted ``findings``."""
    rows = [row("docs_search", q, passages), row("analyst", q, findings)]
    return answer_section(render_markdown(data(rows, topic=q, sub_questions=[q]))).strip() \
        .splitlines()[0]


def test_an_options_own_line_leads_over_a_release_note() -> None:
    q = "What does --lf do?"
    first = _first(q, [item("passage", RELEASE, "announce/release-2.9.0.html#4", score=9.0),
                       item("passage", CACHE, "how-to/cache.html#0", score=5.0)],
                   [item("finding", RELEASE.split(" Thanks")[0], "announce/release-2.9.0.html#4"),
                    item("finding", "Thanks @MichaelAquilina for the PR.",
                         "announce/release-2.9.0.html#4"),
                    item("finding", "--lf, --last-failed - to only re-run the failures.",
                         "how-to/cache.html#0")])
    assert first.startswith("- --lf, --last-failed - to only re-run the failures."), first


def test_a_definition_rows_label_asked_leads_though_no_finding_quotes_it() -> None:
    q = "What does exit code 5 mean?"
    exit_ = ("exit(reason[, returncode=False, msg=None])\n\nExit testing process.\n\n"
             "returncode (Optional[int]) -- Return code to be used when exiting pytest.")
    first = _first(q, [item("passage", exit_, "reference/reference.html#24", score=9.0),
                       item("passage", EXIT_CODES, "reference/exit-codes.html#0", score=8.0)],
                   [item("finding", "returncode (Optional[int]) -- Return code to be used when "
                         "exiting pytest.", "reference/reference.html#24"),
                    item("finding", "Exit testing process.", "reference/reference.html#24")])
    assert first.startswith("- Exit code 5: No tests were collected"), first


def test_a_parameters_entry_is_shown_under_its_name_before_a_sentence_naming_it() -> None:
    q = "What is pool_pre_ping?"
    legacy = ("Before create_engine.pool_pre_ping was added, the “pre-ping” approach "
              "historically has been performed manually using the engine_connect() event.")
    first = _first(q, [item("passage", legacy, "core/pooling.html#25", score=9.0),
                       item("passage", ENGINE, "core/engines.html#39", score=4.0)],
                   [item("finding", legacy, "core/pooling.html#25")])
    assert first.startswith("- `pool_pre_ping`: boolean, if True will enable the connection "
                            "pool “pre-ping” feature"), first


def test_only_the_row_whose_label_is_the_thing_asked() -> None:
    rows = [row("docs_search", "q", [item("passage", EXIT_CODES, "exit-codes.html#0"),
                                     item("passage", CACHE, "cache.html#0"),
                                     item("passage", RELEASE, "release.html#0")])]
    # a label naming the thing among other words is no row of it ("--lf and --ff now ...")
    assert asked_rows([("q", rows)], "What does --ff do?")[0]["text"].startswith("--ff,")
    assert asked_rows([("q", rows)], "What does exit code 4 mean?")[0]["text"] == (
        "Exit code 4: pytest command line usage error")
    assert asked_rows([("q", rows)], "What is the meaning of exit code 4?")[0]["text"] == (
        "Exit code 4: pytest command line usage error")
    assert asked_rows([("q", rows)], "What does exit code 6 mean?") == []
    assert asked_rows([("q", rows)], "What does --lf return?") == []  # a result, not a meaning
    assert asked_rows([("q", rows)], "How do I use --lf?") == []
    assert asked_rows([("q", rows)], "What does -LF do?") == []  # an option is as written


def test_the_thing_asked() -> None:
    assert asked_thing("What does the --lf option do?") == "--lf"
    assert asked_thing("What are exit codes?") == "exit codes"
    assert asked_thing("What is the difference between --lf and --ff?") == (
        "difference between --lf and --ff")  # a label is never that long a phrase


def test_a_table_rows_first_cell_asked_leads() -> None:
    # a table's row, as the index writes it (its first cell, an em dash, its fields)
    q = "What is pytest-rerun?"
    note = "pytest-rerun was mentioned in the 7.0 release notes as a plugin worth a look."
    listing = ("pytest-reraise — summary: Make multi-threaded pytest test cases fail.\n\n"
               "pytest-rerun — summary: Re-run only changed files in specified branch; "
               "last release: Jul 08, 2019.")
    first = _first(q, [item("passage", note, "announce/release-7.0.0.html#2", score=9.0),
                       item("passage", listing, "reference/plugin_list.html#168", score=3.0)],
                   [item("finding", note, "announce/release-7.0.0.html#2")])
    assert first.startswith("- pytest-rerun — summary: Re-run only changed files"), first


def test_a_name_asked_with_capitals_is_not_a_lower_case_parameter() -> None:
    rows = [row("docs_search", "q", [item("passage", "session – a Session with which the Query "
                                     "will be associated. Optional.", "orm/query.html#4")])]
    assert asked_rows([("q", rows)], "What is the Session?") == []
    assert asked_rows([("q", rows)], "What is session?")[0]["ref"] == "orm/query.html#4"


def test_a_change_logs_row_comes_after_the_docs_own() -> None:
    news = "Features\n\n--lf: now also re-runs the tests of a module whose collection failed."
    rows = [row("docs_search", "q", [
        item("passage", news, "changelog.html#12", heading="7.4.0 (2023-06-23)"),
        item("passage", CACHE, "how-to/cache.html#0", heading="Usage")])]
    assert [f["ref"] for f in asked_rows([("q", rows)], "What does --lf do?")] == [
        "how-to/cache.html#0", "changelog.html#12"]


def test_the_listings_option_that_says_what_is_asked_leads_its_siblings() -> None:
    # P7: "--ff, --failed-first: Run all tests, but run the last failures first." led
    q = "How do I rerun only the tests that failed last time?"
    ff = "--ff, --failed-first: Run all tests, but run the last failures first."
    lf = ("--lf, --last-failed: Rerun only the tests that failed at the last run (or all if "
          "none failed)")
    ref = "reference/reference.html#630"
    first = _first(q, [item("passage", f"{ff}\n\n{lf}", ref)],
                   [item("finding", ff, ref), item("finding", lf, ref)])
    assert first.startswith(f"- {lf}"), first


def test_an_options_row_with_its_values_name_is_a_row_of_the_listing() -> None:
    from app.research.asked_rows import listing_order

    rows = [{"ref": "r#1", "text": "-x, --exitfirst: Exit instantly on first error"},
            {"ref": "r#1", "text": "-p name: Early-load given plugin module name"}]
    assert listing_order(rows, ["load", "plugin"])[0]["text"].startswith("-p name:")
