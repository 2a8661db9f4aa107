"""What makes a sentence a caveat: a limitation, a warning, a requirement said with what fails
without it, a "never"/"must not", a cost, a reassurance that holds only on a condition; not a
description of what a feature does, an example's scenario, a setting's own name ("Limit for
..."), a step of a task or a reassurance without condition. New users found the report's
Caveats holding the second kind and a real caveat dropped (trial 113, on Tornado, Apache,
HAProxy, Python-Markdown and Varnish's manuals and the hostile folder F)."""

from __future__ import annotations

import pytest

from app.research.caveats import cautions, warnings_found
from tests.app.report_rows import item, row


@pytest.mark.parametrize("text", [
    # a neighbour entry's description and default (Tornado's HTTPRequest)
    "max_redirects (int) – Limit for follow_redirects, default 5.",
    # where the documentation states a requirement (Apache's .htaccess tutorial)
    "If a directive is permitted, the documentation for that directive will contain an Override "
    "section, specifying what value must be in AllowOverride for that directive to be permitted.",
    # what a feature does (HAProxy's option httplog)
    'By specifying "option httplog", each log line turns into a much richer format including, '
    "but not limited to, the HTTP request, the connection timers and the session status.",
    # a step of a task (HAProxy's enable dynamic-cookie)
    "A secret key must also be provided.",
    # an example's scenario (Python-Markdown's toc)
    "For example, suppose the Markdown text for a page should not contain any headers higher "
    "than level 3 (<h3>).",
    # a rare use, a need denied (Varnish's varnishtest, the hostile folder F)
    "-cleanup: Once Varnish is stopped, clean everything after it. This is only used in very "
    "few tests and you should never need it.",
    "Most users will never need to restart the daemon by hand.",
    # a requirement without what fails without it (trial 118, F4: "..., which must be a valid
    # domain name, ..." is a rule, as this was, once listed as a caveat)
    "The key file, which must be readable by root, is read once.",
])
def test_a_description_an_example_or_a_step_is_no_caveat(text: str) -> None:
    assert not cautions(text)
    assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])


@pytest.mark.parametrize("text", [
    # conditional reassurances keep their caution: without the condition, it is a problem
    "Interrupting a transfer is not a problem if --partial is set.",
    "Two daemons may share the spool, which is not an issue as long as both are read only.",
    # what the daemon does not notice is its limitation, not the reader's reassurance
    "The daemon does not notice when the destination disk fills up, and the last files it wrote "
    "are left empty.",
    # a requirement said with what happens without it, a forbidding one, a warned example
    "A secret key must also be provided, or the cookies are silently dropped.",
    "The key file, which must be readable by root, or the daemon refuses to start, is read "
    "once.",
    "For instance, the flag is not supported on Windows.",
    # a limit that is no setting's name
    "Compression may limit throughput to 10 MB/s on older CPUs.",
])
def test_a_limitation_a_warning_or_a_conditional_reassurance_is_one(text: str) -> None:
    assert cautions(text)


def test_the_caveat_of_the_entry_asked_by_its_qualified_name_stays() -> None:
    # Tornado's add_callback is documented as ``IOLoop.add_callback(...)``: its thread-safety
    # caveat was dropped as a neighbouring entry's ("No limitations or warnings were found")
    from app.research.report import render_markdown
    from tests.app.report_rows import data

    q = "What is the difference between add_callback and spawn_callback?"
    label = "IOLoop.add_callback(callback: Callable, *args: Any, **kwargs: Any) → None"
    caveat = ("Note that this is the only method in IOLoop that makes this thread-safety "
              "guarantee; all other interaction with the IOLoop must be done from that "
              "IOLoop's thread.")
    passage = item("passage", f"{label}\n\nCalls the given callback on the next I/O loop "
                   f"iteration.\n\nIt is safe to call this method from any thread. {caveat}",
                   "ioloop.html#26", heading=label)
    spawn = "IOLoop.spawn_callback(callback: Callable, *args: Any, **kwargs: Any) → None"
    other = item("passage", f"{spawn}\n\nCalls the given callback on the next IOLoop "
                 "iteration. This method is equivalent to add_callback.", "ioloop.html#27",
                 heading=spawn)
    rows = [row("docs_search", q, [passage, other]),
            row("analyst", q, [item("finding", "Calls the given callback on the next I/O loop "
                                    "iteration.", "ioloop.html#26")]),
            row("critic", q, [item("caveat", caveat, "ioloop.html#26")])]
    md = render_markdown(data(rows, sub_questions=[q], topic=q))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "thread-safety guarantee" in caveats, caveats


def test_a_failure_that_goes_unnoticed_is_a_caveat_whoever_quoted_it() -> None:
    # the hostile folder F: the disk-full sentence was a plain Finding, and the reload
    # question's only Caveat was "Most users will never need to restart the daemon by hand."
    from app.research.report import render_markdown
    from tests.app.report_rows import data

    q = "How does the quillsync daemon reload its configuration?"
    unnoticed = ("The daemon does not notice when the destination disk fills up, and the last "
                 "files it wrote are left empty.")
    rows = [row("analyst", q, [
        item("finding", "The daemon reloads its configuration when it receives SIGHUP.",
             "daemon.md#0"),
        item("finding", unnoticed, "daemon.md#0")]),
        row("critic", q, [item("caveat", "Most users will never need to restart the daemon by "
                               "hand.", "daemon.md#0")])]
    md = render_markdown(data(rows, sub_questions=[q], topic=q))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "does not notice when the destination disk fills up" in caveats, caveats
    assert "never need to restart" not in caveats, caveats


def test_a_sentence_saying_not_to_do_the_thing_asked_is_a_caveat_not_the_answer() -> None:
    # Flask: "How do I enable DEBUG?" led with "Do not enable debug mode when deploying in
    # production." over "To enable debug mode, use the --debug option.", and Caveats said
    # "No limitations or warnings were found"
    from app.research.report import render_markdown
    from tests.app.report_rows import data

    q = "How do I enable DEBUG?"
    warn, how = ("Do not enable debug mode when deploying in production.",
                 "To enable debug mode, use the --debug option.")
    rows = [row("docs_search", q, [item("passage", f"DEBUG: {warn}", "api.html#3"),
                                   item("passage", f"DEBUG: {how}", "quickstart.html#9")]),
            row("analyst", q, [item("finding", warn, "api.html#3"),
                               item("finding", how, "quickstart.html#9")])]
    md = render_markdown(data(rows, sub_questions=[q], topic=q))
    answer = md.split("## Answer\n", 1)[1].split("\n## ", 1)[0]
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert answer.strip().startswith("- To enable debug mode, use the --debug option."), answer
    assert "No limitations or warnings were found" not in caveats, md
    assert not warnings_found([row("analyst", q, [item("finding", "Never mind the order of the "
                                                       "flags.", "a#0")])])
