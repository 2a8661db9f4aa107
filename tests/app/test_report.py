"""The markdown report: numbered citations, one source each, no unsourced claims, safe names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.research.report import ReportInput, render_markdown, report_filename, write_report

AS_OF = "2026-11-30"
Q1, Q2 = "What is the Zorblax relay?", "How does the Zorblax relay work?"


def item(kind: str, text: str, ref: str | None, **extra) -> dict:
    out = {"kind": kind, "text": text, "title": f"title of {ref}", "source": f"src/{ref}"}
    if ref is not None:
        out["ref"] = ref
    return {**out, **extra}


def row(worker: str, task_key: str, items: list[dict] | None = None, *, status: str = "ok",
        error: str | None = None) -> dict:
    return {
        "envelope_id": f"{worker}:{AS_OF}:{abs(hash((worker, task_key))):x}",
        "worker": worker,
        "task_key": task_key,
        "as_of": AS_OF,
        "status": status,
        "error": error,
        "structured": None if items is None else {"items": items},
    }


def data(rows: list[dict], **kw) -> ReportInput:
    return ReportInput(
        topic=kw.pop("topic", "zorblax relay"),
        as_of=AS_OF,
        model_label="offline (deterministic, extractive)",
        thread_id=kw.pop("thread_id", "t-1"),
        sub_questions=kw.pop("sub_questions", [Q1, Q2]),
        rows=rows,
        **kw,
    )


def answer_section(md: str) -> str:
    """The text of a rendered report's ``## Answer`` section, up to the next section."""
    return md.split("## Answer\n", 1)[1].split("\n## ", 1)[0]


def answer_to(q: str, findings: list[dict]) -> str:
    """The ``## Answer`` of a report on ``q`` alone whose one analyst row found ``findings``."""
    return answer_section(render_markdown(data([row("analyst", q, findings)], topic=q,
                                               sub_questions=[q])))


ROWS = [
    row("analyst", Q1, [
        item("finding", "The relay moves glimmer packets between moon stations.", "z.md#0"),
        item("finding", "Each packet is folded into three copper envelopes.", "z.md#1"),
    ]),
    row("docs_search", Q1, [
        item("passage", "The relay moves glimmer packets. It is fictional.", "z.md#0", score=3.2),
        item("passage", "Stations of Quelloria are nine. Harrowgate is largest.", "q.md#0"),
    ]),
    row("analyst", Q2, [
        item("finding", "The outer copper envelope carries the destination.", "z.md#1"),
        item("finding", "The receiving station compares the checksum with its ledger.", "z.md#2"),
    ]),
    row("critic", Q2, [
        item("caveat", "The relay must not be used during a double eclipse.", "z.md#3"),
    ]),
]


def sources(md: str) -> list[tuple[int, str]]:
    tail = md.split("\n## Sources\n", 1)[1]
    return [(int(n), ref) for n, ref in re.findall(r"^(\d+)\. `([^`]+)`", tail, re.MULTILINE)]


def citations(md: str) -> list[int]:
    body = md.split("\n## Sources\n", 1)[0]
    return [int(n) for n in re.findall(r"\[(\d+)\]", body)]


def bullet_number(md: str, text: str) -> int:
    match = re.search(rf"^- .*{re.escape(text)}.* \[(\d+)\]$", md, re.MULTILINE)
    assert match, f"no bullet with {text!r} in:\n{md}"
    return int(match.group(1))


def test_each_document_is_cited_once_with_its_cited_passages_under_it() -> None:
    # Issue 19: one document was cited under two refs (``...override#0`` and ``...#1``).
    md = render_markdown(data(ROWS))
    assert sources(md) == [(1, "z.md"), (2, "q.md")]
    cited = citations(md)
    assert list(dict.fromkeys(cited)) == [1, 2]  # first appearances count up
    # Every passage of a document is cited by the document's number.
    for text in ("three copper envelopes", "outer copper envelope", "moves glimmer packets "
                 "between", "compares the checksum", "double eclipse"):
        assert bullet_number(md, text) == 1
    assert "1. `z.md`: title of z.md#0 (src/z.md#0)" in md
    assert "   - passages: `z.md#0`, `z.md#1`, `z.md#2`, `z.md#3`" in md


def test_findings_are_grouped_under_their_sub_question() -> None:
    md = render_markdown(data(ROWS))
    q1 = md.index(f"## 1. {Q1}")
    q2 = md.index(f"## 2. {Q2}")
    caveats = md.index("## Caveats")
    assert q1 < md.index("moves glimmer packets between", q1) < q2
    assert q2 < md.index("compares the checksum") < caveats
    assert caveats < md.index("double eclipse") < md.index("## Sources")
    # Passage bullets show the title and the passage's first sentence, cited.
    assert "- title of q.md#0: Stations of Quelloria are nine. [2]" in md


def test_unsourced_claims_are_dropped() -> None:
    rows = [
        row("analyst", Q1, [
            item("finding", "A sourced finding about the relay ledger.", "z.md#0"),
            item("finding", "An unsourced finding that must not appear.", None),
            item("finding", "An empty-ref finding that must not appear.", ""),
        ]),
    ]
    summary = [
        ("A summary claim with a known source.", ["z.md#0"]),
        ("Dropped: it cites only a ref no row has.", ["nowhere#9"]),
        ("Dropped: it cites nothing.", []),
        ("A summary claim with a known and a bogus ref.", ["nowhere#1", "z.md#0"]),
    ]
    md = render_markdown(data(rows, summary=summary))
    assert "must not appear" not in md
    assert "Dropped" not in md
    assert "- A summary claim with a known source. [1]" in md
    assert "- A summary claim with a known and a bogus ref. [1]" in md
    assert "nowhere" not in md
    assert sources(md) == [(1, "z.md")]
    # a model's summary is the report's answer, before the sections
    assert md.index("## Answer") < md.index("A summary claim") < md.index(f"## 1. {Q1}")


def test_a_summary_with_no_sourced_claim_leaves_the_answer_to_the_findings() -> None:
    md = render_markdown(data(ROWS, summary=[("Nothing backs this.", ["ghost#0"])]))
    assert "Nothing backs this" not in md
    answer = answer_section(md)
    assert "- The relay moves glimmer packets between moon stations. [1]" in answer


def test_summary_cannot_cite_an_item_of_a_failed_row() -> None:
    # An error row keeps no payload when a worker writes it, but a node of your own or an older
    # database may: its items are shown in no section, so no summary sentence may cite them
    # (app.research.rows.ok_items decides, for the sections, the summary and the model's claims
    # alike).
    rows = [*ROWS, row("critic", Q1, [item("caveat", "Half-written by a failed critic.",
                                           "bad.md#0")], status="error", error="boom")]
    summary = [("Rests on the failed row only.", ["bad.md#0"]),
               ("Rests on a finished row.", ["z.md#2", "bad.md#0"])]
    md = render_markdown(data(rows, summary=summary))
    assert "Rests on the failed row only" not in md and "bad.md" not in md
    assert "- Rests on a finished row. [1]" in md
    assert sources(md)[0] == (1, "z.md")


def test_failures_section_names_the_failed_worker_and_error() -> None:
    rows = [*ROWS, row("critic", Q1, None, status="error",
                       error="InjectedWorkerError: critic is set to fail")]
    md = render_markdown(data(rows))
    assert "## Failures" in md
    assert '- `critic` on "What is the Zorblax relay?": InjectedWorkerError: critic is set to ' \
           "fail" in md
    assert "errors: 1" in md
    assert "## Failures" not in render_markdown(data(ROWS))


def test_error_rows_contribute_no_claims_even_with_a_payload() -> None:
    rows = [row("analyst", Q1, [item("finding", "Left over from a failed attempt.", "z.md#0")],
                status="error", error="boom")]
    md = render_markdown(data(rows))
    assert "Left over" not in md
    assert "No sourced answer was found in the corpus." in md
    assert "No sources were cited." in md


def test_empty_run_says_so() -> None:
    md = render_markdown(data([]))
    assert md.count("No sourced answer was found in the corpus.") == 3  # the answer, 2 sections
    assert "No limitations or warnings were found in the corpus." in md
    assert "No sources were cited." in md
    assert citations(md) == []


def test_a_section_whose_findings_were_listed_above_answers_from_them_not_a_placeholder() -> None:
    # Issue 19: "_Answered by the findings above._" filled sections 2-4 of most reports.
    same = item("finding", "Each packet is folded into three copper envelopes.", "z.md#1")
    rows = [row("analyst", Q1, [same]), row("analyst", Q2, [dict(same)])]
    md = render_markdown(data(rows, topic="copper envelopes"))
    q2 = md.split(f"## 2. {Q2}", 1)[1].split("## Caveats", 1)[0]
    assert "- Each packet is folded into three copper envelopes. [1]" in q2
    assert "_" not in q2 and "No sourced answer" not in q2
    assert sources(md) == [(1, "z.md")]


def test_duplicate_claims_are_listed_once_per_section() -> None:
    dup = item("finding", "Each packet is folded into three copper envelopes.", "z.md#1")
    rows = [row("analyst", Q1, [dup, dict(dup, text="  Each packet is folded into three  copper "
                                          "envelopes. ")])]
    md = render_markdown(data(rows, sub_questions=[Q1], topic="copper envelopes"))
    assert md.split(f"## 1. {Q1}", 1)[1].count("three copper envelopes") == 1


def test_multiline_text_stays_on_one_bullet_line() -> None:
    rows = [row("critic", Q1, [item("caveat", "Warning:\n    never launch\n\nduring an eclipse.",
                                    "z.md#3")])]
    md = render_markdown(data(rows, sub_questions=[Q1], topic="eclipse launches"))
    assert "- Warning: never launch during an eclipse. [1]" in md


HOSTILE_TOPICS = [
    "../../etc/passwd",
    "..",
    ".hidden",
    "/absolute/path",
    "C:\\Windows\\system32",
    "a/b\\c",
    "\x00nul",
    "🛰️ 检查点",
    "",
    "x" * 500,
    '"NEAR(a b)" OR *',
    "zorblax'; DROP TABLE results; --",
    "con",
]


@pytest.mark.parametrize("topic", HOSTILE_TOPICS)
def test_report_filename_is_a_plain_name_inside_the_reports_folder(topic: str, tmp_path) -> None:
    name = report_filename(topic, AS_OF)
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*-2026-11-30-[0-9a-f]{8}\.md", name), name
    assert len(name) <= 100
    reports = tmp_path / "reports"
    assert (reports / name).resolve().parent == reports.resolve()
    assert name == report_filename(topic, AS_OF)  # deterministic


def test_report_filenames_keep_topics_apart() -> None:
    names = {report_filename(t, AS_OF) for t in ("Relay!", "relay?", "RELAY", "relay")}
    assert len(names) == 4  # same slug, different topics: the hash tells them apart
    assert report_filename("relay", AS_OF) != report_filename("relay", "2026-12-01")


def test_write_report_replaces_the_file_atomically(tmp_path: Path) -> None:
    path = tmp_path / "reports" / "r.md"
    write_report("first\n", path)
    write_report("second\n", path)
    assert path.read_text(encoding="utf-8") == "second\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["r.md"]  # no temp file left


def test_an_item_of_an_unknown_kind_is_named_in_the_notes_not_dropped_silently() -> None:
    # Workers cannot produce one (their node wrapper makes it an error envelope); a node of your
    # own writing envelopes, or an older database, can.
    rows = [*ROWS, row("word_count", Q1, [item("summary", "Two words.", "z.md#0"),
                                          item("summary", "Three words here.", "z.md#1")])]
    md = render_markdown(data(rows, notes=["round 2: nothing to re-dispatch"]))
    notes = md.split("\n## Notes\n", 1)[1].split("\n## ", 1)[0]
    assert "- round 2: nothing to re-dispatch" in notes
    assert ("- 2 item(s) of word_count have the kind 'summary', which the report has no section "
            "for (finding, caveat, passage): not shown") in notes
    assert "Two words." not in md
    assert render_markdown(data(ROWS)).count("## Notes") == 0  # nothing unknown: no note


@pytest.mark.parametrize("topic", [
    "how do LangGraph checkpointers keep pending writes across a crash and a resume",
    "x" * 500,
    "short",
])
def test_the_report_file_is_named_after_its_thread_id(topic: str) -> None:
    """A long topic gave ``<60-char slug>...md`` next to a thread id cut at 40 (issue 21, 11)."""
    from app.runs.ids import default_thread_id, fresh_thread_id

    thread = default_thread_id(topic, AS_OF)
    assert report_filename(topic, AS_OF) == report_filename(topic, AS_OF, thread) == (
        f"{thread}.md")
    fresh = fresh_thread_id(topic, AS_OF)
    assert report_filename(topic, AS_OF, fresh) == f"{fresh}.md"


@pytest.mark.parametrize("thread", ["../up", ".hidden", "a/b", "-x", "mine.md", "é"])
def test_a_thread_id_that_is_no_plain_name_still_gives_a_safe_distinct_name(thread, tmp_path):
    name = report_filename("t", AS_OF, thread)
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*-t[0-9a-f]{8}\.md", name), name
    assert (tmp_path / name).resolve().parent == tmp_path.resolve()
    assert name != report_filename("t", AS_OF, thread.lower() + "x")


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
    # (an index of requirements, a cross-reference), each another source and seldom the answer.
    rows = [
        row("docs_search", Q1, [
            item("passage", "The relay moves glimmer packets.", "z.md#0", score=10.0),
            item("passage", "Harrowgate keeps the relay ledger.", "near.md#0", score=7.0),
            item("passage", "Relay races are run at noon.", "side.md#0", score=3.0),
            item("passage", "A quoted relay page, ranked low.", "low.md#0", score=2.0),
        ]),
        row("analyst", Q1, [item("finding", "The relay moves glimmer packets.", "z.md#0")]),
        row("critic", Q2, [item("caveat", "The relay must not be used at noon.", "low.md#3")]),
    ]
    md = render_markdown(data(rows))
    assert "Harrowgate keeps" in md  # close to the best: still listed
    assert "Relay races" not in md and "side.md" not in md
    assert "A quoted relay page" in md  # a worker drew on its document


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
    section = md.split(f"## 2. {Q2}", 1)[1].split("\n## ", 1)[0]
    assert "wired as the relay plan" in section and "folds packets" in section
    assert "Relay races" not in md and "side.md" not in md


def test_a_later_limitations_section_shows_no_side_pages_caveat() -> None:
    q3 = "What are the limitations of the Zorblax relay?"
    rows = [
        row("analyst", Q1, [item("finding", "The relay moves glimmer packets.", "z.md#0")]),
        row("docs_search", q3, [
            item("passage", "The relay must not be opened.", "z.md#1", score=9.0),
            item("passage", "Relay races must not start late.", "side.md#0", score=3.0),
        ]),
        row("critic", q3, [item("caveat", "Relay races must not start late.", "side.md#0"),
                           item("caveat", "The relay must not be opened.", "z.md#1")]),
    ]
    md = render_markdown(data(rows, sub_questions=[Q1, q3]))
    section = md.split(f"## 2. {q3}", 1)[1].split("\n## ", 1)[0]
    assert "must not be opened" in section and "Relay races" not in section


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


def test_a_warning_quoted_as_a_finding_is_a_caveat_never_denied() -> None:
    # The warning of a "## Limitations" section came back from the analyst (a finding of
    # every sub-question) and from the critic (a caveat): the report quoted it, answered the
    # limitations question with an unrelated sentence, and said no warning was found.
    warning = "Warning: relay counts cannot see packets under the canopy."
    plain = "The relay moves glimmer packets between moon stations."
    q3 = "What are the limitations of the Zorblax relay?"
    rows = [row("analyst", q, [item("finding", plain, "z.md#0"), item("finding", warning,
                                                                      "z.md#0")])
            for q in (Q1, Q2, q3)]
    rows += [row("critic", q, [item("caveat", warning, "z.md#0")]) for q in (Q1, Q2, q3)]
    md = render_markdown(data(rows, sub_questions=[Q1, Q2, q3]))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert f"- {warning} [1]" in caveats and "No limitations" not in md
    limits = md.split(f"## 3. {q3}", 1)[1].split("\n## ", 1)[0]
    assert warning in limits and plain not in limits
    first = md.split(f"## 1. {Q1}", 1)[1].split("\n## ", 1)[0]
    assert plain in first and warning not in first  # listed under Caveats, not repeated here


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


class _Counted(dict):
    """A row that counts how often its ``task_key`` is read."""

    reads = 0

    def get(self, key, default=None):
        if key == "task_key":
            type(self).reads += 1
        return super().get(key, default)

    def __getitem__(self, key):
        if key == "task_key":
            type(self).reads += 1
        return super().__getitem__(key)


def test_the_report_walks_the_rows_once_not_once_per_question():
    """A report of 4,000 sub-questions over 12,000 rows walked every row for each question,
    several times (O(questions x rows), issue 21, item 13): rows are grouped once."""
    questions = [f"What does part {i} of the zorblax relay say?" for i in range(60)]
    rows = [_Counted(row(worker, q, [item("finding", f"The zorblax relay part {i} {worker}.",
                                          f"z.md#{i}"),
                                     item("passage", f"Zorblax relay passage {i}.",
                                          f"z.md#{i}")]))
            for i, q in enumerate(questions) for worker in ("analyst", "docs_search")]
    _Counted.reads = 0
    markdown = render_markdown(data(rows, sub_questions=questions))
    assert "The zorblax relay part 59 analyst." in markdown  # every section is still there
    assert _Counted.reads <= 5 * len(rows)  # a few reads a row; was about 4 x 60 x 120
