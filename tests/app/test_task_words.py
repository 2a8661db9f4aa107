"""A question asking how to do a task names no reference entry by its plain words (trial 111,
F1; trial 112, F1): "How do I take a server out of rotation ...?" is not about HAProxy's
``server`` keyword, whose entry made the ``disable server`` entry a neighbour, and the Answer
said no sentence was about servers; "How do I build only static libraries?" is not about
Libtool's ``build`` variable, whose entry was the Answer."""

from __future__ import annotations

from pathlib import Path

from app.research.neighbours import asked_names
from tests.app.report_rows import first_answer
from tests.app.report_rows import keyword_entry as _entry
from workers.sources.query import search_query
from workers.sources.ranking import asked_words

GUIDE = ("<html><head><title>Management Guide</title></head><body><h1>Management Guide</h1>"
         + _entry("disable server", "&lt;backend&gt;/&lt;server&gt;", "Mark the server DOWN "
                  "for maintenance. In this mode, no more checks will be performed on the "
                  "server until it leaves maintenance.")
         + _entry("enable agent", "&lt;backend&gt;/&lt;server&gt;", "Resume auxiliary agent "
                  "check that was temporarily stopped.")
         + "</body></html>")
CONFIG = ("<html><head><title>Configuration Manual</title></head><body><h1>Configuration "
          "Manual</h1>" + _entry("server", "&lt;name&gt; &lt;address&gt;", "Declare a server "
          "in a backend, with its address and port.")
          + _entry("command", "&lt;command&gt;", "Define the command to start with optional "
                   "arguments.") + "</body></html>")


def test_a_tasks_plain_words_name_no_entry() -> None:
    task = "How do I take a server out of rotation from the command line?"
    headings = ["server <name> <address>", "command <command>", "disable server <b>/<s>"]
    assert asked_names(task, headings) == set()
    assert asked_names("How do I set the server keyword?", headings) == {"server"}
    assert asked_names("What does the server keyword do?", headings) == {"server"}
    assert asked_words(search_query(task)) == []
    assert asked_words(search_query("How do I use --no-undefined?")) == ["undefined"]


def test_a_tasks_answer_is_the_entry_that_does_it(tmp_path: Path) -> None:
    report, first = first_answer(
        tmp_path, {"management.html": GUIDE, "configuration.html": CONFIG},
        "How do I temporarily take a server out of rotation for maintenance from the command "
        "line?")
    assert "No sentence retrieved" not in report, report
    assert "Mark the server DOWN for maintenance." in report.split("## 1.")[0], report


SETTINGS = ("Configuration reference\n\nretries: How many times a dropped transfer is retried "
            "before quillsync gives up. Default: 5. A value of 0 turns retrying off.\n\n"
            "compress: Whether files are compressed in transit. Default: off. Has no effect in "
            "append mode, which sends raw blocks.\n\nverify: Whether each file is read back and "
            "compared after it is written. Default: off. Doubles the time of a run.")


def test_a_task_that_sets_an_entry_keeps_its_neighbours_out() -> None:
    # "Can I set retries to 0?" showed verify's "Doubles the time of a run." and compress's
    # "Has no effect in append mode, ..." unlabelled (trial 116, F3): no entry was asked, and an
    # entry labelled by a plain word ("verify:") was never a neighbour
    from app.research.neighbours import about_neighbour

    asked = asked_names("Can I set retries to 0?", ["Configuration reference"], [SETTINGS])
    assert asked == {"retries"}
    assert about_neighbour("Doubles the time of a run.", SETTINGS, asked)
    assert about_neighbour("Has no effect in append mode, which sends raw blocks.", SETTINGS,
                           asked)
    assert not about_neighbour("A value of 0 turns retrying off.", SETTINGS, asked)
    assert asked_names("How do I take a server out of rotation?", ["server <name>"]) == set()


def test_a_sentence_leaning_on_it_says_what_it_is() -> None:
    # "How do I drain a server before maintenance?" led with "Use it before taking a server
    # down for maintenance.", "How do I use timeout?" with "Set it in the [remote] section, for
    # example timeout = 120." (trial 116, F12)
    from app.research.report import render_markdown
    from tests.app.report_rows import answer_section, data, row

    text = ("Keyword reference\n\ndrain <seconds>: Stops sending new connections to an "
            "upstream. Use it before taking a server down for maintenance.\n\ntimeout: Seconds "
            "to wait. Set it in the [remote] section, for example timeout = 120.")
    for question, sentence, name in [
            ("How do I drain a server before maintenance?",
             "Use it before taking a server down for maintenance.", "drain"),
            ("How do I use timeout?", "Set it in the [remote] section, for example timeout = "
             "120.", "timeout")]:
        base = {"ref": "k.html#0", "title": "k", "source": "k.html", "heading": "Keyword reference"}
        rows = [row("docs_search", question, [{**base, "kind": "passage", "text": text}]),
                row("analyst", question, [{**base, "kind": "finding", "text": sentence}])]
        answer = answer_section(render_markdown(data(rows, topic=question,
                                                     sub_questions=[question])))
        assert f"- `{name}`: {sentence}" in answer, answer


QUILL = ("<html><head><title>quill.conf settings</title></head><body><h1>quill.conf settings"
         "</h1><dl><dt>identity</dt><dd>The SSH key used to log in to the remote host.</dd>"
         "<dt>password</dt><dd>The SSH password used when no key is set. Stored in clear text."
         "</dd><dt>web_auth</dt><dd>Protects the web interface. To require a password for the "
         "web interface, set web_auth = on and put the password in web_pass.</dd><dt>web_port"
         "</dt><dd>The port of the web interface. The default is 8731.</dd></dl></body></html>")


def test_a_tasks_object_is_a_thing_and_its_answer_no_neighbour(tmp_path: Path) -> None:
    # "How do I set a password for the web interface?" was answered by the SSH `password`
    # entry alone, web_auth's sentence dropped as a neighbour's (trial 119, F4)
    from workers.sources.asking import set_words

    assert set_words("How do I set a password for the web interface?") == frozenset()
    for n, article in enumerate(("a", "the")):
        (tmp_path / str(n)).mkdir()
        report, first = first_answer(
            tmp_path / str(n), {"settings.html": QUILL},
            f"How do I set {article} password for the web interface?")
        assert first.startswith("- To require a password for the web interface, set web_auth"), (
            report)
