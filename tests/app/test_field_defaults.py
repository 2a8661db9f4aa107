"""A default stated in a field of its entry (Node.js's typed options and properties, Bash's
variables): the entry's own row answers, never a neighbour's sentence that names the setting
asked (trials 43-45; ``app.research.entry_rows``, ``app.research.reference``)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row


def test_a_typed_option_and_a_property_say_their_default_in_a_field() -> None:
    # Node.js's manual (trial 43): an option "highWaterMark <number> ... Default: 16384" and a
    # property entry "server.keepAliveTimeout" whose text says "Default: 5000"; neither was
    # read, and "the default keepAliveTimeout" was answered with "A value of 0 makes ..."
    from app.research.reference import default_rows

    options = ("new stream.Writable([options])\n\nhighWaterMark <number> Buffer level when "
               "stream.write() starts returning false. Default: 16384 (16 KiB).\n\n"
               "decodeStrings {boolean} Whether to encode strings. Default: true.")
    assert [name for name, _row in default_rows(options)] == ["highWaterMark", "decodeStrings"]
    assert default_rows("highWaterMark <number> Sets the default used by streams.") == []
    q = "What is the default `keepAliveTimeout` of an HTTP server?"
    prop = item("passage", "server.keepAliveTimeout\n\n<number> Timeout in milliseconds. "
                "Default: 5000 (5 seconds).\n\nA value of 0 will disable the keep-alive "
                "timeout behavior.", "http.html#110", score=9.0,
                heading="server.keepAliveTimeout")
    md = render_markdown(data([row("docs_search", q, [prop])], topic=q, sub_questions=[q]))
    assert answer_section(md).startswith(
        "\n- `server.keepAliveTimeout`: Default: 5000 (5 seconds)."), md


def test_an_option_row_is_the_defaults_of_the_function_its_entry_heads() -> None:
    # trial 44, F9: "mode {string|integer} ... Default: 0o777." under fs.mkdir's entry did not
    # name fs.mkdir, so the default of fs.mkdir()'s mode was answered with fs.mkdirSync's
    # "This is the synchronous version of fs.mkdir()."
    q = "What is the default mode of fs.mkdir()?"
    own = item("passage", "fs.mkdir(path[, options], callback)\n\nrecursive <boolean> "
               "Default: false\n\nmode {string|integer} Not supported on Windows. Default: "
               "0o777.", "fs.html#149", score=9.0, heading="fs.mkdir(path[, options], callback)")
    twin = item("finding", "This is the synchronous version of fs.mkdir().", "fs.html#260")
    md = render_markdown(data([row("docs_search", q, [own]), row("analyst", q, [twin])],
                              topic=q, sub_questions=[q]))
    assert "mode {string|integer} Not supported on Windows. Default: 0o777." in \
        answer_section(md).strip().splitlines()[0], md


def test_a_typed_line_whose_default_ends_without_a_stop_is_no_heading() -> None:
    # trial 44 (left open, F2's note): server.timeout's "<number> Timeout in milliseconds.
    # Default: 0 (no timeout)" ends without a full stop, so it read as a heading of eight words
    # and its Default: field as nobody's: the Answer quoted server.keepAliveTimeout's prose
    from app.research.reference import default_rows

    text = ("server.timeout\n\nv13.0.0 — Changes: The default timeout changed from 120s to 0 "
            "(no timeout).\n\n<number> Timeout in milliseconds. Default: 0 (no timeout)\n\n"
            "The number of milliseconds of inactivity before a socket is presumed to have "
            "timed out.")
    assert default_rows(text) == [("server.timeout", "Default: 0 (no timeout)")]
    q = "What is the default value of server.timeout?"
    own = item("passage", text, "http.html#109", score=9.0, heading="server.timeout")
    other = item("passage", "server.keepAliveTimeout\n\n<number> Timeout in milliseconds. "
                 "Default: 5000 (5 seconds).\n\nIf the server receives new data before the "
                 "keep-alive timeout has fired, it will reset the regular inactivity timeout, "
                 "i.e., server.timeout.", "http.html#110", score=8.0,
                 heading="server.keepAliveTimeout")
    md = render_markdown(data([row("docs_search", q, [own, other])], topic=q, sub_questions=[q]))
    assert answer_section(md).startswith("\n- `server.timeout`: Default: 0 (no timeout)"), md


def test_an_entrys_own_default_leads_and_another_entrys_default_is_not_beside_it() -> None:
    # trial 45, W4: asked the default of HISTSIZE, the Answer quoted HISTFILESIZE's entry
    # ("The shell sets the default value to the value of HISTSIZE ..."), a neighbour's default
    # naming the variable asked; the HISTSIZE entry's own "default value to 500" was unread
    q = "What is the default value of HISTSIZE?"
    own = item("passage", "HISTSIZE\n\nThe maximum number of commands to remember on the "
               "history list. The shell sets the default value to 500 after reading any "
               "startup files.", "bashref.html#444", score=9.0, heading="HISTSIZE")
    other = item("passage", "HISTFILESIZE\n\nThe maximum number of lines contained in the "
                 "history file. The shell sets the default value to the value of HISTSIZE "
                 "after reading any startup files.", "bashref.html#441", score=8.0,
                 heading="HISTFILESIZE")
    quoted = item("finding", "The shell sets the default value to the value of HISTSIZE after "
                  "reading any startup files.", "bashref.html#441")
    md = render_markdown(data([row("docs_search", q, [own, other]), row("analyst", q, [quoted])],
                              topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert answer.startswith("\n- `HISTSIZE`: The shell sets the default value to 500"), md
    assert "the value of HISTSIZE" not in answer, md


def test_a_sentence_about_this_variable_is_not_the_named_variables() -> None:
    # Trial 45, W10: "What does the TMOUT variable do?" quoted TIMEFORMAT's "If this variable
    # is not set, ...": "variable" counted as the subject, and the sentence said it
    q = "What does the TMOUT variable do?"
    other = item("finding", "If this variable is not set, Bash acts as if it had the value "
                 "of the default format.", "bashref.pdf:p95#3")
    own = item("finding", "The shell will check the value of the TMOUT variable and exit if "
               "a command is not read within the specified number of seconds.",
               "bashref.pdf:p102#1")
    md = render_markdown(data([row("analyst", q, [other, own])], topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert "TMOUT variable and exit" in answer and "this variable" not in answer, md


def test_an_entry_label_giving_its_default_in_brackets_answers() -> None:
    # trial 71, F2: Postfix's postconf(5) labels each parameter "name (default: value):";
    # "What is the default value of mailbox_size_limit?" was answered with the entry's second
    # sentence, "In fact, this limits the size of any file ...", and the default never said
    q = "What is the default value of mailbox_size_limit?"
    text = ("mailbox_size_limit (default: 51200000): The maximal size of any local(8) "
            "individual mailbox or maildir file, or zero (no limit). In fact, this limits the "
            "size of any file that is written to upon local delivery.\n\nThis limit must not "
            "be smaller than the message size limit.\n\nmailbox_transport (default: empty): "
            "Optional message delivery transport that the local(8) delivery agent should use.")
    own = item("passage", text, "postconf.5.html#226", score=9.0,
               heading="Postfix main.cf file format")
    md = render_markdown(data([row("docs_search", q, [own])], topic=q, sub_questions=[q]))
    first = answer_section(md).strip().splitlines()[0]
    assert first.startswith("- mailbox_size_limit (default: 51200000): The maximal size of "
                            "any local(8) individual mailbox"), md
    assert "In fact" not in first and "empty" not in first


def test_an_entry_typed_in_brackets_is_described_by_its_first_sentence() -> None:
    # trial 71, F3: "What does the smtpd_helo_restrictions parameter do?" was answered by a
    # note further down its entry; the label "smtpd_helo_restrictions (default: empty):" was
    # cut at the colon in its brackets, and the sentence after it read as a field listing
    q = "What does the smtpd_helo_restrictions parameter do?"
    text = ("smtpd_helo_restrictions (default: empty): Optional restrictions that the Postfix "
            "SMTP server applies in the context of a client HELO command. See "
            "SMTPD_ACCESS_README for a discussion of evaluation context and time.\n\nNote: "
            "specify \"smtpd_helo_required = yes\" to fully enforce this restriction (without "
            "it, a client can simply skip smtpd_helo_restrictions by not sending HELO).")
    own = item("passage", text, "postconf.5.html#622", score=9.0,
               heading="Postfix main.cf file format")
    note = item("finding", "Note: specify \"smtpd_helo_required = yes\" to fully enforce this "
                "restriction (without it, a client can simply skip smtpd_helo_restrictions by "
                "not sending HELO).", "postconf.5.html#622")
    md = render_markdown(data([row("docs_search", q, [own]), row("analyst", q, [note])],
                              topic=q, sub_questions=[q]))
    first = answer_section(md).strip().splitlines()[0]
    assert first.startswith("- smtpd_helo_restrictions (default: empty): Optional restrictions "
                            "that the Postfix SMTP server applies"), md


def test_a_default_the_answer_gives_is_no_unanswered_section() -> None:
    # trial 89, F11: Celery's "task_acks_late / Default: Disabled." led the Answer, and the
    # question's own section said no sentence retrieved answered it: the Answer's row does not
    # name the setting (its entry's heading does), so it was judged not to answer
    q = "What is the default value of task_acks_late?"
    own = item("passage", "task_acks_late\n\nDefault: Disabled.\n\nLate ack means the task "
               "messages will be acknowledged after the task has been executed, not just before "
               "(the default behavior).", "userguide/configuration.html#32", score=9.0,
               heading="task_acks_late")
    md = render_markdown(data([row("docs_search", q, [own])], topic=q, sub_questions=[q]))
    assert answer_section(md).startswith("\n- `task_acks_late`: Default: Disabled. [1]"), md
    assert "answers it" not in md, md
