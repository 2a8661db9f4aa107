"""The report's Answer, its sections' sources and its Caveats (issue 19): the answer names the
subject, definitions first, the strongest document first, no side pages, warnings never denied."""

from __future__ import annotations

import re

from app.research.report import render_markdown
from tests.app.report_rows import (
    Q1,
    Q2,
    ROWS,
    answer_section,
    answer_to,
    data,
    item,
    row,
    sources,
)


def test_the_report_opens_with_a_cited_answer_to_the_topic() -> None:
    md = render_markdown(data(ROWS))
    first = md.split("\n## ", 1)[1]
    assert first.startswith("Answer\n")
    answer = first.split("\n## ", 1)[0]
    assert re.search(r"^- .*relay.* \[1\]$", answer, re.MULTILINE), answer


def test_the_answer_is_a_sentence_that_names_the_subject_not_a_neighbours() -> None:
    # Issue 19: a question about one setting's default was answered with the neighbouring
    # setting's default.
    q = "What is the default cache size?"
    answer = answer_to(q, [
        item("finding", "The default journal mode is DELETE.", "pragma.html#3"),
        item("finding", "The default cache size is -2000, that is 2048000 bytes.", "pragma.html#9"),
    ])
    assert "cache size is -2000" in answer and "journal mode" not in answer


def test_the_answer_is_a_sentence_whose_own_subject_is_the_topic() -> None:
    # Found on SQLite's docs: "The TEMP database has a default suggested cache size of 0 pages"
    # names every word of the question, but it is about the TEMP database, and it came first.
    q = "What is the default suggested cache size?"
    answer = answer_to(q, [
        item("finding", "The TEMP database has a default suggested cache size of 0 pages.",
             "pragma.html#9"),
        item("finding", "The default suggested cache size is -2000, which means 2048000 bytes.",
             "pragma.html#9"),
    ])
    assert answer.index("size is -2000") < answer.index("TEMP database"), answer


def test_a_heading_fragment_is_not_the_answer() -> None:
    # Found on SQLite's docs: a heading cut at a full stop, "Partial Sorting Using An Index
    # (a.k.a.", named the question's words and stated nothing.
    q = "How do I create a partial index?"
    answer = answer_to(q, [
        item("finding", "Create A Partial Index (a.k.a.", "queryplanner.html#40"),
        item("finding", "A partial index is created by adding a WHERE clause to CREATE INDEX.",
             "partialindex.html#1"),
    ])
    assert answer.index("WHERE clause") < answer.index("Create A Partial"), answer


def test_for_a_what_is_question_a_definition_comes_before_side_facts() -> None:
    q = "What is the Zorblax relay?"
    answer = answer_to(q, [
        item("finding", "The Zorblax relay was renamed in version 3.", "z.md#4"),
        item("finding", "The Zorblax relay is a courier network between moon stations.", "z.md#0"),
    ])
    assert answer.index("is a courier network") < answer.index("renamed")


def test_the_answer_opens_with_the_strongest_documents_finding() -> None:
    # Issue 19: the first finding came from a side page the search ranked low and the workers
    # quoted once, while the page the search ranked first was quoted under it.
    q = "What is the zorblax relay?"
    rows = [
        row("docs_search", q, [item("passage", "The zorblax relay ...", "main.md#0", score=9.0),
                               item("passage", "A zorblax relay ...", "side.md#4", score=4.0)]),
        row("analyst", q, [
            item("finding", "A zorblax relay was once painted blue.", "side.md#4"),
            item("finding", "The zorblax relay carries packets between moons.", "main.md#0"),
            item("finding", "The zorblax relay needs no power.", "main.md#1"),
        ]),
    ]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert answer.index("carries packets") < answer.index("needs no power"), answer
    assert "painted blue" not in answer, answer


def test_a_side_hit_no_worker_quoted_is_not_listed_as_a_top_passage() -> None:
    # Issue 19: sections listed passages of pages that shared a few of the question's words
    # (an index of requirements, a cross-reference), each another source and seldom the answer:
    # a page no worker quoted is listed when it ranks close to the best, and only one such page.
    rows = [
        row("docs_search", Q1, [
            item("passage", "The relay moves glimmer packets.", "z.md#0", score=10.0),
            item("passage", "Harrowgate keeps the relay ledger.", "near.md#0", score=7.0),
            item("passage", "Relay stations are nine on the moon.", "next.md#0", score=6.5),
            item("passage", "Relay races are run at noon.", "side.md#0", score=3.0),
            item("passage", "A quoted relay page, ranked low.", "low.md#0", score=2.0),
        ]),
        row("docs_search", Q2, [item("passage", "Relay wiring is copper.", "wire.md#0",
                                     score=9.0),
                                item("passage", "The relay hums at night.", "z.md#4", score=8.0)]),
        row("analyst", Q1, [item("finding", "The relay moves glimmer packets.", "z.md#0")]),
        row("critic", Q2, [item("caveat", "The relay must not be used at noon.", "low.md#3")]),
    ]
    md = render_markdown(data(rows))
    assert "Harrowgate keeps" in md  # close to the best: still listed, the one such page
    assert "Relay races" not in md and "side.md" not in md
    assert "next.md" not in md and "wire.md" not in md
    assert "A quoted relay page" in md and "hums at night" in md  # a worker drew on them


def test_a_later_section_adds_no_side_page_only_the_page_its_search_ranks_first() -> None:
    # Issue 19: a facet's search ("How do you change ...?") found the topic's pages again and
    # added side pages below them, each another source and seldom the one that answers.
    rows = [
        row("analyst", Q1, [item("finding", "The relay moves glimmer packets.", "z.md#0")]),
        row("docs_search", Q2, [
            item("passage", "Relay wiring is shown on the relay plan.", "plan.md#0", score=9.0),
            item("passage", "The relay moves packets.", "z.md#1", score=8.0),
            item("passage", "Relay races are run at noon.", "side.md#0", score=7.0),
        ]),
        row("analyst", Q2, [
            item("finding", "Relay races are run at noon on the moon.", "side.md#0"),
            item("finding", "The relay is wired as the relay plan shows.", "plan.md#0"),
            item("finding", "The relay folds packets in copper.", "z.md#1"),
        ]),
    ]
    md = render_markdown(data(rows))
    body = md.split("## Caveats", 1)[0]  # the Answer may quote a facet's finding: said once
    assert body.count("wired as the relay plan") == 1 and body.count("folds packets") == 1
    assert "Relay races" not in md and "side.md" not in md


def test_a_later_limitations_section_shows_no_side_pages_caveat() -> None:
    q3 = "What are the limitations of the Zorblax relay?"
    rows = [
        row("analyst", Q1, [item("finding", "The relay moves glimmer packets.", "z.md#0")]),
        row("docs_search", q3, [
            item("passage", "The relay must not be opened.", "z.md#1", score=9.0),
            item("passage", "Relay races must not start late.", "side.md#0", score=3.0),
        ]),
        row("analyst", q3, [item("finding", "Relay races must not start late.", "side.md#0"),
                            item("finding", "The relay must not be opened.", "z.md#1")]),
    ]
    md = render_markdown(data(rows, sub_questions=[Q1, q3]))
    body = md.split("## Caveats", 1)[0]
    assert body.count("must not be opened") == 1 and "Relay races" not in md


def test_a_caveat_under_a_limitations_heading_is_listed_without_words_of_caution() -> None:
    text = "# The relay\n\nThe relay moves glimmer packets.\n\n## Known limitations\n\n" \
           "The relay drops packets under a blue moon."
    rows = [row("docs_search", Q1, [item("passage", text, "z.md#0", score=3.0)]),
            row("critic", Q1, [item("caveat", "The relay drops packets under a blue moon.",
                                    "z.md#0"),
                               item("caveat", "The relay moves glimmer packets.", "z.md#0")])]
    md = render_markdown(data(rows, sub_questions=[Q1]))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "- The relay drops packets under a blue moon. [1]" in caveats
    assert "glimmer" not in caveats and "No limitations" not in md


def test_caveats_are_warnings_not_plain_facts() -> None:
    rows = [*ROWS, row("critic", Q1, [
        item("caveat", "The relay moves glimmer packets between moon stations.", "z.md#0"),
        item("caveat", "The relay has a blue logo on every station.", "z.md#5"),
    ])]
    md = render_markdown(data(rows))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "double eclipse" in caveats
    assert "glimmer" not in caveats and "blue logo" not in caveats


def test_a_warning_quoted_as_a_finding_is_a_caveat_never_denied_nor_repeated() -> None:
    # The warning of a "## Limitations" section came back from the analyst (a finding of
    # every sub-question) and from the critic (a caveat): the report quoted it, answered the
    # limitations question with an unrelated sentence, and said no warning was found. It is
    # listed under Caveats, once: the limitations section, which found nothing else, is named
    # in the Notes (issue 19: it repeated the Caveats).
    warning = "Warning: relay counts cannot see packets under the canopy."
    plain = "The relay moves glimmer packets between moon stations."
    q3 = "What are the limitations of the Zorblax relay?"
    rows = [row("analyst", q, [item("finding", plain, "z.md#0"), item("finding", warning,
                                                                      "z.md#0")])
            for q in (Q1, Q2, q3)]
    rows += [row("critic", q, [item("caveat", warning, "z.md#0")]) for q in (Q1, Q2, q3)]
    md = render_markdown(data(rows, sub_questions=[Q1, Q2, q3]))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    # the Answer quotes both; nothing below says them again (answers8), the Caveats point up
    assert md.split("## Notes", 1)[0].count(warning) == 1
    assert md.split("## Notes", 1)[0].count(plain) == 1 and "No limitations" not in md
    assert caveats.strip() == "- The Answer above quotes the only limitations or warnings found."
    assert "## 1." not in md
    # the first (the topic's own question) is what the Answer answers: not named (trial 26)
    assert f'would repeat the report: "{Q2}"; "{q3}"' in md and f'"{Q1}"' not in md


def test_a_backtick_in_a_file_name_or_thread_id_keeps_its_code_span_whole() -> None:
    # A file named odd`name.md broke the Sources entry's code span in two (CommonMark ends a
    # span at the next backtick run of its fence's length): a longer fence keeps it whole.
    rows = [row("analyst", Q1, [item("finding", "The relay moves glimmer packets.",
                                     "odd`name.md#0"),
                                item("finding", "Each packet is folded in copper.",
                                     "odd`name.md#2")])]
    md = render_markdown(data(rows, sub_questions=[Q1], thread_id="t`1"))
    tail = md.split("\n## Sources\n", 1)[1]
    assert "1. ``odd`name.md``: title of odd\\`name.md#0 (src/odd\\`name.md#0)" in tail
    assert "   - passages: ``odd`name.md#0``, ``odd`name.md#2``" in tail
    assert "- Thread: ``t`1``" in md


def test_the_answer_opens_with_the_document_that_names_the_topic_not_the_most_quoted() -> None:
    # Issue 19 (answers12): the first finding came from the page the readers quoted most for
    # a word or two of a paraphrased question, before the page that names all of it
    topic = "How do copper relays hum?"
    rows = [
        row("docs_search", topic, [
            item("passage", "Relays click and hum.", "b.md#0", score=10.0),
            item("passage", "Copper relays hum at night.", "a.md#0", score=9.0),
        ]),
        row("analyst", topic, [
            item("finding", "Relays hum softly.", "b.md#0"),
            item("finding", "Relays hum in the rain.", "b.md#1"),
            item("finding", "Copper relays hum at night.", "a.md#0"),
        ]),
    ]
    answer = answer_section(render_markdown(data(rows, topic=topic, sub_questions=[topic])))
    first = [line for line in answer.splitlines() if line.startswith("- ")][0]
    assert first.startswith("- Copper relays hum at night."), answer


def test_a_section_lists_no_sentence_picked_for_the_words_of_its_kind_alone() -> None:
    # A new user's check on Asymptote's manual: "What is the default value of dotfactor?" was
    # answered by the one sentence on dotfactor, then its section listed "The default value
    # (initially default) is displayed after prompt." and two more defaults of other things
    # (and their pages as sources), and three top passages of other defaults.
    q = "What is the default value of dotfactor?"
    md = render_markdown(data([
        row("analyst", q, [
            item("finding", "A dot is drawn with the line width magnified by dotfactor "
                 "(6 by default).", "asy.pdf:p20#4"),
            item("finding", "The default value (initially default) is displayed after prompt.",
                 "asy.pdf:p61#0"),
            item("finding", "The default interpolation operator is operator -- (linear).",
                 "asy.pdf:p162#1"),
            item("finding", "A dotted line is drawn with dot pens.", "asy.pdf:p20#5"),
        ]),
        row("docs_search", q, [
            item("passage", "Here are the default values of several configuration variables.",
                 "asy.pdf:p9#2"),
        ]),
    ], topic=q, sub_questions=[q]))
    assert "dotfactor (6 by default)" in answer_section(md)
    for other in ("displayed after prompt", "interpolation operator", "configuration variables"):
        assert other not in md, md
    assert "A dotted line is drawn with dot pens." in md  # no word of the question: context
    assert sources(md) == [(1, "asy.pdf:p20")], md


def test_a_glossary_entry_for_the_subject_answers_before_a_stronger_pages_side_fact() -> None:
    # Trial 30, Git's manual: "What is a bare repository?" led with the strongest page's "Another
    # option is to generate an empty bare repository at the client ..." and gave the glossary's
    # entry second ("bare repository: A bare repository is normally ..." reads as no "X is a").
    q = "What is a bare repository?"
    side = ("Another option is to generate an empty bare repository at the client and copy it "
            "to the server.")
    entry = ("bare repository: A bare repository is normally an appropriately named directory "
             "with a .git suffix that has no checked-out copy of the files.")
    md = render_markdown(data([
        row("docs_search", q, [
            item("passage", f"Bare repository setup. {side}", "howto.html#3", score=8.0),
            item("passage", entry, "gitglossary.html#4", score=9.0),
        ]),
        row("analyst", q, [
            item("finding", side, "howto.html#3"),
            item("finding", "Make a bare repository on the server first.", "howto.html#3"),
            item("finding", entry, "gitglossary.html#4"),
        ]),
    ], topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert answer.lstrip().startswith("- bare repository: A bare repository is"), answer


def test_a_definition_by_kind_or_an_expansion_leads_a_what_question() -> None:
    # PostgreSQL's manual: "Partial indexes are a specialized feature, but ..." led "What is a
    # partial index?" above "A partial index is an index built over a subset of a table", and
    # "GIN is designed for ..." led "What does GIN stand for?" above its expansion
    q = "What is a frob index?"
    answer = answer_to(q, [
        item("finding", "Frob indexes are a specialized feature, but they are often useful.",
             "fi.html#0"),
        item("finding", "A frob index is an index built over a subset of a table.", "fi.html#0")])
    assert answer.strip().startswith("- A frob index is an index built over"), answer
    q = "What does GRIN stand for?"
    answer = answer_to(q, [
        item("finding", "GRIN is designed for values made of several items.", "g.html#0"),
        item("finding", "GRIN stands for Generalized Running Index.", "g.html#0")])
    assert answer.strip().startswith("- GRIN stands for Generalized Running Index."), answer


def test_a_table_row_is_about_the_name_before_its_dash() -> None:
    # PostgreSQL's function tables: "What does the function pg_size_pretty do?" led with
    # pg_size_bytes's row, which names pg_size_pretty in its description
    q = "What does the function frob_pretty do?"
    answer = answer_to(q, [
        item("finding", "frob_bytes ( text ) → bigint — Converts a size (as returned by "
                        "frob_pretty) into bytes.", "f.html#5"),
        item("finding", "frob_pretty ( bigint ) → text — Converts a size in bytes into a "
                        "human-readable format.", "f.html#6")])
    assert answer.strip().startswith("- frob_pretty ( bigint )"), answer
