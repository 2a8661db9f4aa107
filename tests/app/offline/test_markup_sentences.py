"""Docstring and mkdocs markup never reaches a report as text (trial 10, findings 17, 20 and 24):
a doctest line is code, an admonition's marker is a label, a passage cut inside a code fence
is read with its fences the right way round, and a passage's excerpt never opens a fence it
does not close nor starts mid-sentence."""

from __future__ import annotations

from app.llm.offline.sentences import candidate_sentences, heading_of, split_sentences
from app.research.citations import excerpt
from workers.sources import Passage

_DOCTEST = """>>> import sqlite3
    >>> from langgraph.checkpoint.sqlite import SqliteSaver
    >>> # Note: check_same_thread=False is OK as the implementation uses a lock
    >>> # to ensure thread safety."""

_ADMONITION = """Use this to expose immutable context data to your nodes.

!!! warning "`config_schema` Deprecated"
    The `config_schema` parameter is deprecated in v0.6.0 and will be removed.

.. note:: Directives of reStructuredText are labels too, when written inline."""

_IN_FENCE = """app.invoke({"value": "a"})
```

```con
{'value': 'aaaaaaaaaaaaaaaa'}
```"""


def test_a_doctest_line_is_never_a_sentence() -> None:
    assert split_sentences(_DOCTEST) == []
    assert excerpt(_DOCTEST).startswith("`import sqlite3")


def test_an_admonition_marker_is_a_heading_not_part_of_the_sentence() -> None:
    sentences = split_sentences(_ADMONITION)
    assert not any("!!!" in s or ".. note::" in s for s in sentences), sentences
    deprecated = next(s for s in sentences if "deprecated" in s)
    assert deprecated.startswith("The `config_schema`")
    assert heading_of(_ADMONITION, deprecated).startswith("warning")
    assert "Directives of reStructuredText are labels too, when written inline." in sentences


def test_a_passage_cut_inside_a_fence_reads_its_code_as_code() -> None:
    assert split_sentences(_IN_FENCE) == []
    shown = excerpt(_IN_FENCE)
    assert shown.startswith("`") and shown.endswith("`") and "```" not in shown, shown


def test_every_excerpt_closes_its_code_span() -> None:
    for text in (_DOCTEST, _IN_FENCE, "```pycon\n>>> x = '`' * 500\n" + "y = 1\n" * 80):
        shown = excerpt(text, limit=80)
        assert "```" not in shown and len(shown) <= 84, shown
        opening = len(shown) - len(shown.lstrip("`"))
        assert shown.endswith("`" * opening), shown


def test_a_passage_starting_mid_sentence_is_not_shown_from_there() -> None:
    text = ("Accepts a `TimeoutPolicy`, a number of\n        seconds (`float`), or a "
            "`timedelta`.\n\nReturns:\n    Self: The builder instance, for chaining.")
    assert excerpt(text).startswith("Accepts a `TimeoutPolicy`")  # one line is no heading
    tail = "seconds (`float`), or a `timedelta`. The builder is returned for chaining."
    assert excerpt(tail) == "The builder is returned for chaining."
    assert excerpt("seconds (`float`), or a `timedelta`.").startswith("…seconds")


def test_the_tail_of_a_cut_sentence_is_no_candidate_finding() -> None:
    tail = ("seconds or a timedelta object, whichever you pass. Failed retries back off "
            "exponentially between attempts.")
    found = candidate_sentences([(0, Passage("x.f#2", "x.f", "x.f", "src", tail))])
    assert [s.text for s in found] == ["Failed retries back off exponentially between attempts."]
    whole = candidate_sentences([(0, Passage("x.f#0", "x.f", "x.f", "src", tail))])
    assert len(whole) == 2  # a document's first passage starts where its text does


def test_a_docstring_note_section_is_a_warning_heading_until_the_next_section() -> None:
    # trial 10, finding 17: SqliteSaver's "Note: ... does not scale to multiple threads." was
    # never a caveat, and Caveats said none were found
    text = ("A checkpoint saver that stores checkpoints in a SQLite database.\n\nNote:\n    "
            "This class is meant for small projects and does not\n    scale to multiple "
            "threads.\n\nArgs:\n    conn (sqlite3.Connection): The SQLite database connection.")
    scale = next(s for s in split_sentences(text) if "scale" in s)
    assert heading_of(text, scale) == "Warning"
    assert heading_of(text, "conn (sqlite3.Connection): The SQLite database connection.") == "Args"
    assert heading_of(text, "A checkpoint saver that stores checkpoints in a SQLite "
                            "database.") == ""


def test_an_underlined_heading_and_an_attribute_line_are_not_prose() -> None:
    # trial 15, finding 12: git-doc's AsciiDoc sources answered "SYNOPSIS -------- [verse]
    # 'git bisect' <subcommand> <options>" and "NAME ---- git-bisect - Use binary search ..."
    text = ("git-frob(1)\n===========\n\nNAME\n----\ngit-frob - Frobnicate the shards of a "
            "vault\n\nSYNOPSIS\n--------\n[verse]\n'git frob' [--all] <vault>\n\n"
            "DESCRIPTION\n-----------\nFrobnicates every shard of the named vault so that "
            "later reads are faster.\n\nA rule below ends nothing.\n\n---\n\nAfter the rule.")
    said = split_sentences(text)
    assert said == ["git-frob - Frobnicate the shards of a vault", "'git frob' [--all] <vault>",
                    "Frobnicates every shard of the named vault so that later reads are faster.",
                    "A rule below ends nothing.", "After the rule."]


def test_a_dot_of_an_abbreviation_ends_no_sentence() -> None:
    # Trial 18, finding 1: gnuplot's PDF manual cross-references "(p. 113)"; the Answer's
    # sentences ended at "(p."
    text = ("For related plotting styles see smooth frequency (p. 113) and smooth kdensity "
            "(p. 113). The book by J. R. R. Tolkien is long. "
            "See Sec. 4.2 and No. 5 of the list. It ends here.")
    assert split_sentences(text) == [
        "For related plotting styles see smooth frequency (p. 113) and smooth kdensity (p. 113).",
        "The book by J. R. R. Tolkien is long.",
        "See Sec. 4.2 and No. 5 of the list.",
        "It ends here."]


def test_one_capital_letter_or_a_word_before_a_number_still_ends_a_sentence() -> None:
    # Trial 19, finding 4: every capital letter was taken for an initial, and "no", "tab"
    # for abbreviations in any case: these were each read as one sentence
    for first, second in [("If it fails, use Plan B.", "Then retry the node."),
                          ("Take vitamin D.", "The dose is small."),
                          ("The table is in Appendix A.", "See also the index."),
                          ("The generic type is T.", "It must be hashable."),
                          ("The answer is no.", "5 retries are the maximum."),
                          ("Indent with Tab.", "4 spaces are used otherwise."),
                          ("Answer no.", "Then ask again."),
                          ("It is written by Richard M. Stallman.", "Not to worry.")]:
        assert split_sentences(f"{first} {second}") == [first, second]


def test_a_sentence_starting_with_a_lower_case_name_is_a_sentence_of_its_own() -> None:
    # Trial 26, finding 12b: gnuplot's manual starts sentences with option names; "... choose
    # save. transparent instructs the driver ..." was one sentence, two options' facts in it
    text = ("To save the plot, left click in the window and choose save. transparent makes "
            "the background clear. Lists, sets, etc. are kept, and so on. It ends here.")
    assert split_sentences(text) == [
        "To save the plot, left click in the window and choose save.",
        "transparent makes the background clear.",
        "Lists, sets, etc. are kept, and so on.", "It ends here."]


def test_a_short_or_joined_word_before_a_dot_ends_no_sentence_before_a_lower_case_one() -> None:
    # Trial 27: sqlite's syntax text "schema-name. prefix on the table name ..." was cut, and
    # the Answer led with the fragment; so were "aka.", "est.", "deg.", "prev."
    for text in ("The schema-name. prefix on the table name of the UPDATE is not allowed.",
                 "The relay, aka. the folder, is kept.", "Use the est. value as it is.",
                 "Turn it by 90 deg. clockwise twice.", "Read the prev. section first."):
        assert split_sentences(text) == [text], text


def test_an_excerpt_shows_the_sentence_naming_most_of_what_is_asked() -> None:
    # A passage found for its third sentence was shown by its first (trial 18, finding 5);
    # a section's Top passages showed "R-23498-...: When the REPLACE conflict resolution
    # strategy deletes rows ..." for "how do I shrink the database file".
    text = ("Pages are numbered from one. The freelist holds unused pages. "
            "Running VACUUM rebuilds the database file and makes the file shrink.")
    assert excerpt(text, about=["shrink", "database", "file"]).startswith("Running VACUUM")
    assert excerpt(text, about=["pages"]) == "Pages are numbered from one."  # the earliest
    assert excerpt(text, about=["zebra"]) == excerpt(text) == "Pages are numbered from one."


def test_each_table_row_is_a_sentence_of_its_own() -> None:
    # trial 24, findings 7 and 8: the index writes a table one row a line ("name — heading:
    # cell; ..."); read as one run-on sentence, a row that warns ("Deprecated: may cause data
    # loss") was never a caveat, and three rows of an errors table became one caveat
    rows = ("The relay is configured in `relay.toml`.\n\n"
            "limit — default: 100; description: The number of packets it folds per second.\n"
            "retries — default: 3; description: Deprecated: may cause data loss; do not use.\n"
            "E1 — meaning: The glimmer relay is full.")
    assert split_sentences(rows) == [
        "The relay is configured in `relay.toml`.",
        "limit — default: 100; description: The number of packets it folds per second.",
        "retries — default: 3; description: Deprecated: may cause data loss; do not use.",
        "E1 — meaning: The glimmer relay is full."]


def test_the_rest_of_a_sentence_whose_subject_was_code_is_no_sentence() -> None:
    # Trial 34: "will cause requests for non-existent files to be handled by not-404.php" was
    # a finding, its subject the code block before it; a sentence of its own after one stays
    text = ("Use this to set a handler for any URL that maps to no file. For example\n\n"
            "```\nFallbackResource /not-404.php\n```\n\n"
            "will cause requests for non-existent files to be handled by not-404.php.\n\n"
            "```\nFallbackResource disabled\n```\n\n"
            "Existing files, such as images, are served normally.")
    found = [s.text for s in candidate_sentences([(0, Passage("d#0", "d", "d", "src", text))])]
    assert not any(s.startswith("will cause") for s in found), found
    assert "Existing files, such as images, are served normally." in found


def test_the_rest_of_a_sentence_after_code_a_colon_introduced_is_no_sentence() -> None:
    # PostgreSQL's manual: "If you simply write: ```DELETE FROM products;``` then all rows in
    # the table will be deleted!" gave the finding "then all rows in the table will be deleted!"
    text = ("If you simply write:\n\n```\nDELETE FROM products;\n```\n\nthen all rows in "
            "the table will be deleted!\n\nUse a WHERE clause to delete only some rows.")
    found = [s.text for s in candidate_sentences([(0, Passage("d#1", "d", "d", "src", text))])]
    assert not any(s.startswith("then all rows") for s in found), found
    assert "Use a WHERE clause to delete only some rows." in found


def test_an_elision_standing_as_a_word_ends_no_sentence() -> None:
    # "remove the host ... 127.0.0.1 ... line" and "ON CONFLICT DO UPDATE ... WHERE clause"
    # (PostgreSQL's manual) each gave a finding that began at the words after "..."
    for whole in ["To fix it, remove the host ... 127.0.0.1 ... line from pg_hba.conf.",
                  "If an ON CONFLICT DO UPDATE ... WHERE clause is not met, no row is returned."]:
        assert split_sentences(f"{whole} It ends here.") == [whole, "It ends here."]
    assert split_sentences("It goes on and on... The next one.") == [
        "It goes on and on...", "The next one."]


def test_a_config_files_prose_comment_is_a_sentence_its_settings_are_not() -> None:
    # Trial 34, kind 5: nginx's example files explain each directive in a comment
    # ("# ip_hash ensures ..."), the only prose there, and no report could quote one
    from app.llm.offline.sentences import split_sentences

    text = ("Examples of upstream blocks:\n\n# PHP listening on the same server\nupstream php {\n"
            "\t# ip_hash ensures the same backend is used for client reconnects.\n\tip_hash;\n"
            "\t#listen 80; ## listen for ipv4\n\tserver 127.0.0.1:9000;\n}\n\n# Examples\n")
    found = split_sentences(text)
    assert "ip_hash ensures the same backend is used for client reconnects." in found, found
    assert not any(s.startswith(("PHP listening", "listen 80", "Examples")) for s in found)
