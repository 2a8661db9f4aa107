"""Whose row, whose caveat, said once: a reference entry's rows and sentences belong to the
entry that heads them, not to a neighbour they name (trials 78, 79, 82, 84 on rsyslog's,
HAProxy's, Requests' and lighttpd's references)."""

from __future__ import annotations

from app.research.reference import default_rows
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row


def test_a_row_led_by_its_values_type_is_its_headings() -> None:
    # rsyslog: each parameter's heading, then "integer — default: ...; mandatory: no"; the row
    # of queue.lightDelayMark ("default: 70% of queue.size") answered queue.size's default
    # (trial 78, F4)
    q = "What is the default value of queue.size?"
    light = ("queue.lightDelayMark\n\ninteger — default: 70% of queue.size; mandatory: no.\n\n"
             "When the queue fills to this mark, delayable inputs are slowed.")
    size = ("queue.size\n\ninteger — default: 1000/50000; mandatory: no.\n\nThis is the "
            "maximum size of the queue in number of messages.")
    assert default_rows(size) == [("queue.size", "integer — default: 1000/50000; mandatory: no.")]
    rows = [row("docs_search", q, [
        item("passage", light, "queue.html#7", score=4.0, heading="queue.lightDelayMark"),
        item("passage", size, "queue.html#5", score=3.0, heading="queue.size")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    first = answer.strip().splitlines()[0]
    assert "1000/50000" in first and "70%" not in answer, answer


def test_a_sentence_the_answer_says_is_not_said_again_inside_a_longer_quote() -> None:
    # Requests: "`max_redirects`: This defaults to ... 30." then "If the request exceeds this
    # limit, a TooManyRedirects exception is raised. This defaults to ... 30." (trial 82, F4)
    q = "What is the default value of max_redirects?"
    text = ("max_redirects\n\nMaximum number of redirects allowed. If the request exceeds this "
            "limit, a TooManyRedirects exception is raised. This defaults to "
            "requests.models.DEFAULT_REDIRECT_LIMIT, which is 30.")
    said = ("If the request exceeds this limit, a TooManyRedirects exception is raised. This "
            "defaults to requests.models.DEFAULT_REDIRECT_LIMIT, which is 30.")
    rows = [row("docs_search", q, [item("passage", text, "api.html#33", score=3.0,
                                        heading="max_redirects")]),
            row("analyst", q, [item("finding", said, "api.html#33")]),
            row("critic", q, [item("caveat", said, "api.html#33")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert md.count("which is 30.") == 1, md


def test_a_neighbouring_entrys_limitation_is_no_caveat() -> None:
    # HAProxy: asked the default of tune.bufsize, the Caveat was tune.h2.max-frame-size's "The
    # main purpose of this setting is to allow to limit the maximum frame size ..." (trial 79, F8)
    q = "What is the default value of tune.bufsize?"
    own = ("tune.bufsize <number>\n\nSets the buffer size to this size (in bytes). The default "
           "value is 16384. Never set it below 1024, as very low values break statistics.")
    other = ("tune.h2.max-frame-size <number>\n\nSets the maximum frame size. The default is "
             "the buffer size (tune.bufsize). This setting can only limit the frame size when "
             "large buffers are used.")
    passages = [item("passage", own, "conf.html#232", score=4.0, heading="tune.bufsize <number>"),
                item("passage", other, "conf.html#240", score=3.0,
                     heading="tune.h2.max-frame-size <number>")]
    caveats = [item("caveat", "This setting can only limit the frame size when large buffers are "
                    "used.", "conf.html#240"),
               item("caveat", "Never set it below 1024, as very low values break statistics.",
                    "conf.html#232")]
    md = render_markdown(data([row("docs_search", q, passages), row("critic", q, caveats)],
                              topic=q, sub_questions=[q]))
    section = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "Never set it below 1024" in section, md
    assert "can only limit the frame size" not in section, md


def test_a_definition_lists_default_row_is_its_terms() -> None:
    # trial 84, F2: lighttpd's reST field list (":connection.kbytes-per-second:", its indented
    # description, then "default: 0 (no limit)") gave the default of no entry, and the Answer
    # to its default quoted the field's description with its colons
    text = ("Options\n\n:connection.kbytes-per-second:\n  limit the throughput for each single "
            "connection\n  in kbyte/s\n\n  default: 0 (no limit)\n\n:server.kbytes-per-second:"
            "\n  limit the throughput for all connections")
    assert default_rows(text) == [("connection.kbytes-per-second", "default: 0 (no limit)")]
    q = "What is the default value of connection.kbytes-per-second?"
    rows = [row("docs_search", q, [item("passage", text, "traffic-shaping.txt#2", score=3.0,
                                        heading="Options")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "0 (no limit)" in answer.strip().splitlines()[0], answer


def test_a_sentence_under_an_entrys_name_and_field_rows_is_that_entrys() -> None:
    # Exim: each option its name alone, then "Use: main", "Default: ..." rows, several to a
    # passage; bounce_return_size_limit's "The limit should be less than ... the global
    # message_size_limit" was the Answer's second bullet for message_size_limit (trial 86, F7)
    q = "What is the default value of frob_size_limit?"
    passage = ("frob_return_limit\n\nUse: main\n\nDefault: 100K\n\nThis option caps returned "
               "frobs. The limit should be less than the value of the global frob_size_limit."
               "\n\nfrob_size_limit\n\nUse: main\n\nDefault: 50M\n\nThis option limits the "
               "size of a frob.")
    rows = [row("docs_search", q, [item("passage", passage, "main.html#4", score=3.0,
                                        heading="Alphabetical list of main options")]),
            row("analyst", q, [
                item("finding", "The limit should be less than the value of the global "
                     "frob_size_limit.", "main.html#4"),
                item("finding", "This option limits the size of a frob.", "main.html#4")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "limits the size of a frob" in answer and "less than" not in answer, answer


def test_a_top_passage_a_caveat_quotes_whole_is_not_shown_again() -> None:
    # Trial 87, FA7: journald.conf's "This means that, in effect, there might still be more
    # space used than SystemMaxUse= ..." was a Top passage, then a Caveat with the sentence
    # before it
    q = "How do I cap the space the frob logs take?"
    caveat = ("Only archived files are deleted. This means that, in effect, more space may be "
              "taken by frob logs than the limit allows.")
    rows = [row("docs_search", q, [item("passage", caveat, "frob.conf#17", score=3.0),
                                   item("passage", "Frob logs take space on disk.", "b.conf#1",
                                        score=2.0)]),
            row("analyst", q, [item("finding", "Frob logs take space on disk.", "b.conf#1")]),
            row("critic", q, [item("caveat", caveat, "frob.conf#17")])]
    report = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert report.count("more space may be taken") == 1, report
