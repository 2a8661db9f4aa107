"""The question's kind steers what the Answer leads with (issue 19; answers8 item 3): a
limitation question is answered by a limitation, a default question by the subject's default,
and a sentence is used only for a subject it names."""

from __future__ import annotations

from app.research.report import render_markdown
from app.research.subject_words import subject_terms
from tests.app.report_rows import answer_section, answer_to, data, first_answer, item, row


def test_a_limitation_question_is_answered_by_a_limitation_not_by_what_it_is() -> None:
    # "What are the limitations of X?" was answered with what X is; the limitation was only
    # under Caveats (the critic's caveats were no candidates for the Answer).
    q = "What are the limitations of the zorblax relay?"
    rows = [
        row("analyst", q, [item("finding", "The zorblax relay is a courier network between "
                                "moon stations.", "z.md#0")]),
        row("critic", q, [item("caveat", "The zorblax relay cannot carry packets larger than "
                               "4 KB.", "z.md#3")]),
    ]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    first = answer.strip().splitlines()[0]
    assert "cannot carry packets" in first, answer


def test_a_limitation_of_another_subject_is_no_answer() -> None:
    # One of two words named was enough: "limitations" alone, not the thing asked about
    q = "What are the limitations of ToolNode?"
    answer = answer_to(q, [
        item("finding", "Known limitations: the glimmer bus cannot run at night.", "g.md#1"),
        item("finding", "ToolNode only runs the tools it was given.", "t.md#2"),
    ])
    assert "only runs the tools" in answer and "glimmer bus" not in answer, answer


def test_a_default_question_is_never_answered_by_a_neighbours_default() -> None:
    # "the default value of dotfactor" was answered by "The default value (initially default)
    # is displayed after prompt": it names "default" and "value", not dotfactor.
    q = "What is the default value of dotfactor?"
    answer = answer_to(q, [
        item("finding", "The default value of linewidth is 0.5bp.", "p.md#1"),
        item("finding", "A dot is drawn with a diameter of the line width magnified by "
             "dotfactor, 6 by default.", "p.md#2"),
    ])
    assert "dotfactor, 6 by default" in answer and "linewidth" not in answer, answer


def test_when_no_sentence_names_the_subject_the_answer_says_so() -> None:
    q = "What is the default value of dotfactor?"
    rows = [row("analyst", q, [item("finding", "The default value of linewidth is 0.5bp.",
                                    "p.md#1")]),
            row("docs_search", q, [item("passage", "The default value is shown after the "
                                        "prompt.", "p.md#4", score=3.0)])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "linewidth" not in answer
    assert 'No sentence retrieved names "dotfactor"' in answer and "[1]" in answer, answer


def test_a_how_question_leads_with_how_to_do_it() -> None:
    q = "How do I change the default paper type?"
    answer = answer_to(q, [
        item("finding", "By default, the figure is centred assuming the paper type is letter.",
             "c.md#1"),
        item("finding", "The default paper type may be changed to a4 with the configuration "
             "variable papertype.", "c.md#2"),
    ])
    assert answer.index("may be changed") < answer.index("centred"), answer


def test_the_words_of_the_kind_are_not_the_subject() -> None:
    assert subject_terms("What are the limitations of ToolNode?") == ["toolnode"]
    assert subject_terms("What is the default value of dotfactor?") == ["dotfactor"]
    # "default" here is part of what is asked about, not a default value asked for
    assert "default" in subject_terms("Where do I put personal default settings?")


def test_the_answers_passage_is_the_reports_one_unquoted_lead() -> None:
    # Once the Answer took the passage that names the subject (no worker quoted it), the
    # section listed another unquoted page beside it ("mapping keys to values with a default").
    q = "What is the default value of dotfactor?"
    rows = [
        row("docs_search", q, [
            item("passage", "A dot is magnified by dotfactor (6 by default).", "p20.md#4",
                 score=9.0),
            item("passage", "A map is made with a specified default value.", "p99.md#1",
                 score=8.5)]),
        row("analyst", q, [item("finding", "The default value of linewidth is 0.5bp.",
                                "p61.md#0")]),
    ]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "6 by default" in answer_section(md)
    assert "p99.md" not in md, md


def test_the_kinds_answer_leads_unless_it_is_about_a_neighbour() -> None:
    # Found on SQLite's manual: "What are the limitations of ALTER TABLE?" led with what the
    # command allows; "SQLite supports a limited subset of ALTER TABLE." came second
    answer = answer_to("What are the limitations of ALTER TABLE?", [
        item("finding", "The ALTER TABLE command allows these alterations: a table can be "
             "renamed.", "alter.html#0"),
        item("finding", "SQLite supports a limited subset of ALTER TABLE.", "alter.html#1"),
    ])
    assert answer.index("limited subset") < answer.index("allows these"), answer
    # ... but a neighbour's default, whose own subject is another setting, does not lead (nor,
    # since the Answer to "X of Y" names X, answer at all: it names no miter limit)
    answer = answer_to("What is the default miter limit of a pen?", [
        item("finding", "The miter limit of a pen is returned by miterlimit(pen p).", "p.md#1"),
        item("finding", "The default line cap, roundcap, may be changed with defaultpen(pen).",
             "p.md#2"),
    ])
    assert "returned by miterlimit" in answer and "line cap" not in answer, answer


def test_the_answers_passage_shows_its_sentence_that_names_the_subject() -> None:
    # Trial 18, finding 5: "Below you find a list of news, changes and fixes" (the passage's
    # first sentence) answered "matplotlib colorbar logscale"; the words were further down
    q = "colorbar logscale"
    rows = [row("docs_search", q, [item(
        "passage", "Below you find a list of news, changes and fixes in this version. The "
        "colorbar now follows set logscale cb when the palette is drawn.", "news.docx#3",
        score=5.0)])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "The colorbar now follows set logscale cb" in answer, answer
    assert "Below you find" not in answer, answer


def test_a_warning_marked_by_a_sign_comes_after_the_answer() -> None:
    # Trial 20, finding 6: "🚨 Keep in mind that these lifespan events ..." (FastAPI's docs mark
    # a warning with a sign) was the Answer's second line, above a line that answers.
    q = "How do lifespan events work?"
    answer = answer_to(q, [
        item("finding", "\U0001f6a8 Keep in mind that lifespan events you can use work "
             "for the main app only.", "l.md#1"),
        item("finding", "Lifespan events work by running the code before the yield at "
             "startup, using a context manager.", "l.md#2"),
    ])
    assert answer.index("before the yield") < answer.index("Keep in mind"), answer


def test_a_how_question_is_answered_by_a_way_to_do_it_before_its_best_pages_side_fact() -> None:
    # "How do I shrink the database file after deleting many rows?" on SQLite's docs was
    # answered "However, the database file does not shrink." (from the page its search ranks
    # first) above "When auto_vacuum is enabled ... causing the file to shrink ... using
    # VACUUM" (another page; its subject was read as "When auto_vacuum", a neighbour).
    q = "How do I shrink the glimmer file after deleting rows?"
    rows = [row("analyst", q, [
        item("finding", "However, the glimmer file does not shrink.", "a.md#1"),
        item("finding", "When autoshrink is enabled, deleting rows makes the glimmer file "
             "shrink, using the compact command.", "b.md#2"),
    ]), row("docs_search", q, [
        item("passage", "The glimmer file does not shrink.", "a.md#1", score=9.0),
        item("passage", "Autoshrink: deleting rows makes the glimmer file shrink.", "b.md#2",
             score=4.0),
    ])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert answer.index("using the compact command") < answer.index("does not shrink"), answer


def test_what_a_thing_named_default_does_is_its_definition_not_a_default(tmp_path) -> None:
    # Jinja's "What does the default filter do?" was read as asking a default value: its
    # Answer was the filter's version note, the definition above it passed over (trial 85, F6)
    page = ("# Builtin filters\n\n## default(value, default_value='')\n\nIf the value is "
            "undefined it will return the passed fallback, otherwise the value itself.\n\n"
            "Changed in version 2.11: It is now possible to make the default filter work on "
            "nested elements and attributes.\n\n## shout(s)\n\nConvert a value to capitals.\n")
    report, first = first_answer(tmp_path, {"filters.md": page},
                                 "What does the default filter do?")
    assert "return the passed fallback" in first, report


def test_what_a_thing_does_is_not_answered_by_an_aside_or_its_arguments_definition() -> None:
    # Trial 86, F5: Mutt's "What does the macro command do?" opened with "Note that there is a
    # space between ..." ("there is a" read as "X is a ...", a definition), and without that,
    # with "menu is the map which the macro will be bound in.", a definition of its argument
    q = "What does the frob command do?"
    answer = answer_to(q, [
        item("finding", "So if you type a sequence often, you can create a frob to run it with "
             "a single key.", "conf.html#36"),
        item("finding", "Note that there is a space between the frob command and its keys.",
             "conf.html#104"),
        item("finding", "menu is the map which the frob will be bound in.", "conf.html#36"),
    ])
    assert answer.strip().startswith("- So if you type a sequence often"), answer


def test_a_default_question_leads_with_the_sentence_stating_the_default() -> None:
    # Trial 87: systemd's "For non-service units, DefaultTimeoutStartSec= sets the default
    # TimeoutSec= value." led over "DefaultTimeoutStartSec= and DefaultTimeoutStopSec= default
    # to 90s." (a plural "default to" was no statement of a default)
    q = "What is the default value of FrobStartSec?"
    answer = answer_to(q, [
        item("finding", "For non-frob units, FrobStartSec= sets the default FrobSec= value.",
             "frob.conf#22"),
        item("finding", "FrobStartSec= and FrobStopSec= default to 90s.", "frob.conf#22"),
    ])
    assert answer.strip().startswith("- FrobStartSec= and FrobStopSec= default to 90s."), answer


def test_a_sentence_speaking_of_its_entry_is_about_the_entry_asked() -> None:
    # Trial 88, R3: Exim's "This option limits the maximum size of message that Exim will
    # process." (its subject "This option", no word of the question) lost to a subject-less
    # "If nonzero the value will be advertised ..."; the first went to Caveats, and the section
    # said no sentence answered the question
    q = "What is the default value of frobnicate_cap?"
    own = "This option limits the maximum size of message that frobd will process."
    other = "If nonzero the value will be advertised as a parameter to clients."
    passage = f"frobnicate_cap\n\nUse: main\n\nDefault: 50M\n\n{own} {other}"
    rows = [row("docs_search", q, [item("passage", passage, "main.html#135", score=3.0)]),
            row("analyst", q, [item("finding", other, "main.html#135"),
                               item("finding", own, "main.html#135")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    lines = answer.strip().splitlines()
    # shown under its entry's name, as it does not write it (trial 115, F1)
    assert "Default: 50M" in lines[0] and lines[1].startswith(
        "- `frobnicate_cap`: This option limits"), answer


def test_a_sentence_opening_with_a_conjunction_does_not_lead_the_answer() -> None:
    # trial 89, F6: Scrapy's "But this is an opposite of what crawler should do - in case of
    # errors it makes more sense to slow down" led the Answer; what it contrasts was not shown
    q = "How can I make my zorblax crawler slow down automatically?"
    answer = answer_to(q, [
        item("finding", "But this is the opposite of what a zorblax crawler should do - in "
                        "case of errors it makes more sense to slow down: these errors may be "
                        "caused by the high request rate.", "throttle.html#3"),
        item("finding", "The throttle extension slows the zorblax crawler down automatically "
                        "when the server answers slowly.", "throttle.html#0"),
    ])
    assert answer.strip().splitlines()[0].startswith("- The throttle extension"), answer


def test_the_verb_a_what_does_question_ends_with_is_no_word_of_its_subject() -> None:
    # "What does the orient function return?" took "return" for a word of its subject, so
    # "The transformation ... is returned by the member function pic.calculateTransform()"
    # (naming "function" and "returned") was the Answer's second bullet over Asymptote's PDF.
    q = "What does the skew function return?"
    assert subject_terms(q) == ["skew"]
    answer = answer_to(q, [
        item("finding", "The transformation that fits a picture to a frame is returned by the "
             "member function pic.fit().", "f.md#0"),
        item("finding", "real skew(pair a, pair b, pair c); returns a positive value if a, b "
             "and c turn counterclockwise.", "p.md#2"),
    ])
    assert "returns a positive value" in answer and "pic.fit" not in answer, answer
    assert subject_terms("How do I resume a graph after a crash?") == [
        "resume", "graph", "crash"]  # a how-to's verb is its subject's
