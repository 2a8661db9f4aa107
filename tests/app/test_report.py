"""The markdown report: numbered citations, one source each, no unsourced claims, safe names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.research.report import render_markdown, report_filename, write_report
from tests.app.report_rows import (
    AS_OF,
    Q1,
    Q2,
    ROWS,
    answer_section,
    bullet_number,
    citations,
    data,
    item,
    row,
    sources,
)


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
    # Q1's findings answer the topic: said once, in the Answer, not again under Q1 (answers8)
    assert md.index("## Answer") < md.index("moves glimmer packets between") < q1
    assert md.count("moves glimmer packets between") == 1
    assert q1 < md.index("Each holds a relay.") < q2
    assert q2 < md.index("compares the checksum") < caveats
    assert caveats < md.index("double eclipse") < md.index("## Sources")
    # Passage bullets show the title and the passage's sentence that names the question's
    # subject (the relay), not its first, cited.
    assert "- title of q.md#0: Each holds a relay. [2]" in md
    assert "Stations of Quelloria" not in md


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
    assert "No sourced answer was found in the passages retrieved." in md
    assert "No sources were cited." in md


def test_empty_run_says_so() -> None:
    md = render_markdown(data([]))
    # said once, in the Answer: sections 1 and 2 would say it again, they are named in the
    # Notes (answers8: no line of the Answer is said twice)
    assert md.count("No sourced answer was found in the passages retrieved.") == 1
    assert "## 1." not in md
    assert f'would repeat the report: "{Q2}"' in md and f'"{Q1}"' not in md  # the topic's own
    assert "No limitations or warnings were found in the passages retrieved." in md
    assert "No sources were cited." in md
    assert citations(md) == []


def test_a_sub_question_that_found_only_what_a_section_above_shows_is_not_repeated() -> None:
    # Issue 19: the facets of "How do I resume a graph after a crash?" searched the topic's
    # passages again, and sections 2-3 each repeated section 1's best finding (before that,
    # they said "_Answered by the findings above._"). Such a sub-question is named in the
    # Notes; the sections that do show something are numbered in order.
    q3 = "What can go wrong with the Zorblax relay?"
    q4 = "Where is the Zorblax relay built?"
    same = item("finding", "Each packet is folded into three copper envelopes.", "z.md#1")
    rows = [row("analyst", Q1, [same]), row("analyst", Q2, [dict(same)]),
            row("analyst", q3, [dict(same)]),
            row("analyst", q4, [item("finding", "The relay is built on the moon.", "m.md#0"),
                                item("finding", "It stands on the far side.", "m.md#1")])]
    md = render_markdown(data(rows, sub_questions=[Q1, Q2, q3, q4]))
    body = md.split("\n## Caveats\n", 1)[0].split(f"## 1. {Q1}", 1)[1]
    assert body.count("three copper envelopes") == 1 and "_" not in body
    assert f"## 2. {q4}" in body and Q2 not in body and q3 not in body
    notes = md.split("\n## Notes\n", 1)[1].split("\n## ", 1)[0]
    assert f'- Not shown as sections, as they would repeat the report: "{Q2}"; "{q3}"' in notes
    assert {ref for _n, ref in sources(md)} == {"z.md", "m.md"}


def test_duplicate_claims_are_listed_once_per_section() -> None:
    dup = item("finding", "Each packet is folded into three copper envelopes.", "z.md#1")
    rows = [row("analyst", Q1, [dup, dict(dup, text="  Each packet is folded into three  copper "
                                          "envelopes. ")])]
    md = render_markdown(data(rows, sub_questions=[Q1], topic="copper envelopes"))
    assert md.split("## Caveats", 1)[0].count("three copper envelopes") == 1


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
    first, second = render_markdown(data(ROWS)), render_markdown(data(ROWS[:1]))
    assert first != second
    write_report(first, path)
    write_report(second, path)  # a report of this app: written again
    assert path.read_text(encoding="utf-8") == second
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


def test_with_the_topic_alone_as_plan_the_answer_and_its_section_say_no_bullet_twice() -> None:
    # answers8 item 4: with one sub-question, section 1 repeated the Answer's findings word
    # for word. The Answer says its best two; the section says the rest; a limitation the
    # Answer quotes is not listed again under Caveats, which point to it.
    findings = [item("finding", f"The zorblax relay {what}.", f"z.md#{n}")
                for n, what in enumerate(("moves glimmer packets", "has nine stations",
                                          "was built in 2090"))]
    caveat = item("caveat", "The zorblax relay cannot run during an eclipse.", "z.md#7")
    rows = [row("analyst", Q1, findings), row("critic", Q1, [caveat, dict(findings[0])])]
    md = render_markdown(data(rows, sub_questions=[Q1]))
    bullets = [line for line in md.split("## Sources", 1)[0].splitlines()
               if line.startswith("- ") and "[" in line]
    assert len(bullets) == len(set(bullets)), bullets
    answer = md.split("## Answer\n", 1)[1].split("\n## ", 1)[0]
    section = md.split(f"## 1. {Q1}\n", 1)[1].split("\n## ", 1)[0]
    assert answer.count("- ") == 2
    for text in ("moves glimmer packets", "has nine stations", "was built in 2090"):
        assert (text in answer) != (text in section), text  # in one of them, never both
    q = "What are the limitations of the zorblax relay?"
    md = render_markdown(data([row("critic", q, [dict(caveat)])], sub_questions=[q], topic=q))
    assert md.count("cannot run during an eclipse") == 1
    assert "- The Answer above quotes the only limitations or warnings found." in md


def test_a_long_note_keeps_its_count_and_its_reason() -> None:
    # Trial 30, kind 9: a note naming ten skipped files, then "and 229 more: skipped, the
    # source of a page indexed", was cut in the report after the tenth name: no count, no why.
    names = ", ".join(f"git-command-number-{i}.txt (git-command-number-{i}.html)"
                      for i in range(10))
    note = f"{names} and 229 more: skipped, the source of a page indexed"
    md = render_markdown(data(ROWS, notes=[note]))
    [line] = [ln for ln in md.splitlines() if "git-command-number-0.txt" in ln]
    assert line.endswith("and 229 more: skipped, the source of a page indexed"), line
