"""What a question asks decides which sentence answers it: the harm or limit it asks about (a
warning or caveat naming it is the answer, not a caveat beside it), the version it asks for
(the changelog heading the sentence stands under), the identifier it writes (before the
context it is asked in)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, answer_to, data, item, row


def test_a_harm_the_question_asks_about_is_its_answer_not_a_caveat() -> None:
    # Trial 34, kind 4: asked which release fixed a crash, the entry saying a crafted file
    # "might cause a worker process crash" was moved to Caveats as a warning, and the Answer
    # gave another release's entry
    q = "Which release of the relay fixed the crash a crafted glimmer packet caused?"
    findings = [
        item("finding", "Bugfix: the relay miscounted glimmer packets after a restart.", "c#1"),
        item("finding", "Security: a crafted glimmer packet might cause a relay worker crash "
                        "(CVE-2031-1).", "c#2"),
    ]
    answer = answer_to(q, findings)
    assert answer.strip().splitlines()[0].startswith("- Security: a crafted glimmer"), answer
    # a question that asks no harm still reads the warning as one: listed after the answer
    other = answer_to("What does the relay do with glimmer packets?", findings)
    assert other.strip().splitlines()[0].startswith("- Bugfix: the relay"), other


def test_a_version_question_is_answered_with_the_changelog_heading_that_names_it() -> None:
    # Trial 34, finding 6: asked which version made PCRE2 the default, the Answer quoted the
    # changelog entry; its version stood only in the heading, shown nowhere but Sources
    q = "In which version is the relay built with the glimmer library by default?"
    entry = "*) Change: now the relay is built with the glimmer library by default."
    rows = [row("analyst", q, [item("finding", entry, "changelog#3")]),
            row("docs_search", q, [item("passage", entry, "changelog#3", score=3.0,
                                        heading="Changes with relay 1.21.5  28 Dec 2021")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert answer.strip().splitlines()[0].startswith(
        f"- Changes with relay 1.21.5 28 Dec 2021: {entry}"), answer
    other = "What is the glimmer library?"  # no version asked: the entry as it is
    rows = [row("analyst", other, [item("finding", entry, "changelog#3")]), rows[1]]
    answer = answer_section(render_markdown(data(rows, topic=other, sub_questions=[other])))
    assert "Changes with relay" not in answer, answer


def test_the_identifier_asked_about_leads_over_the_context_it_is_asked_in() -> None:
    # Trial 34: "What does ip_hash do in an upstream block?" was answered by the file's intro
    # on upstream blocks; the sentence on ip_hash named only ip_hash, not "upstream block"
    q = "What does ip_hash do in an upstream block?"
    answer = answer_to(q, [
        item("finding", "An upstream block allows you to set a list of upstream locations.",
             "upstream#0"),
        item("finding", "ip_hash ensures the same backend is used for client reconnects.",
             "upstream#0"),
    ])
    assert answer.strip().splitlines()[0].startswith("- ip_hash ensures the same backend"), answer


def test_a_caveat_naming_the_limit_asked_about_is_a_candidate_answer() -> None:
    # Trial 37, N3: "The LimitRequestBody directive allows the user to set a limit on the
    # allowed size of an HTTP request message body" was only a caveat of "Which setting limits
    # how large an uploaded request body may be?"
    q = "Which setting limits the relay queue size?"
    limit = "The QueueCap setting limits the relay queue size; packets past it are dropped."
    rows = [row("analyst", q, [item("finding", "The relay keeps a queue of packets.", "a#0")]),
            row("critic", q, [item("caveat", limit, "a#1")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert answer_section(md).strip().splitlines()[0].startswith(f"- {limit}"), md
    assert limit not in md.split("## Caveats", 1)[1]  # said once, as the answer


def test_a_name_asked_with_call_brackets_is_the_name_the_text_writes() -> None:
    # Trial 43: "What does `process.nextTick()` do?" found no sentence naming the name asked
    # (`process.nexttick()`, brackets kept; the text writes process.nextTick), and the
    # Answer fell back to a colon-ended sentence of the entry
    q = "What does `process.nextTick()` do?"
    answer = answer_to(q, [
        item("finding", "This is important when developing APIs in order to give users the "
                        "opportunity to assign event handlers:", "process#114"),
        item("finding", 'process.nextTick() adds callback to the "next tick queue".',
             "process#114"),
    ])
    assert answer.strip().splitlines()[0].startswith("- process.nextTick() adds callback"), answer


def test_a_sentence_ending_in_a_colon_does_not_lead() -> None:
    # Trial 43: "On Windows, using fs.mkdir() on the root directory even with recursion will
    # result in an error:" led the answer to what fs.mkdir() does; it introduces an example
    q = "What does fs.mkdir do?"
    answer = answer_to(q, [
        item("finding", "fs.mkdir creates a directory, as in this example:", "fs#40"),
        item("finding", "fs.mkdir creates a directory and, with recursive set, its parents.",
             "fs#40"),
    ])
    assert answer.strip().splitlines()[0].startswith("- fs.mkdir creates a directory and"), answer


def test_a_sentence_of_the_entry_a_signature_heads_names_the_function() -> None:
    # Trial 43: "What does `util.promisify()` do?" led with util.promisify.custom's sentence;
    # those of the entry headed "util.promisify(original)" named no "util.promisify" (the
    # heading is a call's signature, no keyword) and were no candidates
    q = "What does `util.promisify()` do?"
    own = item("passage", "util.promisify(original)\n\npromisify() assumes that original is a "
               "function taking a callback as its final argument.", "util#79", score=9.0,
               heading="util.promisify(original)")
    other = item("passage", "util.promisify.custom\n\nIn addition to being accessible through "
                 "util.promisify.custom, this symbol is registered globally.", "util#83",
                 score=8.0, heading="util.promisify.custom")
    found = [item("finding", "promisify() assumes that original is a function taking a "
                  "callback as its final argument.", "util#79"),
             item("finding", "In addition to being accessible through util.promisify.custom, "
                  "this symbol is registered globally.", "util#83")]
    md = render_markdown(data([row("docs_search", q, [own, other]), row("analyst", q, found)],
                              topic=q, sub_questions=[q]))
    assert answer_section(md).strip().startswith("- promisify() assumes that original"), md


def test_a_version_history_row_answers_only_a_question_of_versions() -> None:
    # Trial 43: Node.js's entries carry a Version | Changes table; "v18.19.0 — Changes: added
    # highWaterMark in options." led answers, and "v15.4.0 — Changes: No longer experimental."
    # was listed as a caveat
    history = "v18.19.0 — Changes: added highWaterMark in options of readable.map."
    plain = "The highWaterMark option of readable.map limits the items buffered."
    findings = [item("finding", history, "stream#122"), item("finding", plain, "stream#122")]
    answer = answer_to("What does the highWaterMark option of readable.map do?", findings)
    assert answer.strip().splitlines()[0].startswith("- The highWaterMark option"), answer


def test_a_sentence_about_the_quoted_name_asked_leads_over_a_neighbours() -> None:
    # Trial 43: "When is the `'uncaughtException'` event emitted?" led with "The
    # 'uncaughtExceptionMonitor' event is emitted before an 'uncaughtException' event ...":
    # the name asked kept its quotes ("'uncaughtexception'"), so no sentence's subject was it
    q = "When is the `'uncaughtException'` event emitted?"
    answer = answer_to(q, [
        item("finding", "The 'uncaughtExceptionMonitor' event is emitted before an "
                        "'uncaughtException' event is emitted.", "process#20"),
        item("finding", "The 'uncaughtException' event is emitted when an uncaught exception "
                        "bubbles all the way back to the event loop.", "process#20"),
    ])
    assert answer.strip().splitlines()[0].startswith(
        "- The 'uncaughtException' event is emitted when"), answer
