"""A setting's reference entry answers "what is its default" (trial 17, findings F2 and F4):
the ``Default:`` row of the entry the question names leads the Answer, never a narrative page's
sentence or a neighbour's row; a warning the report quotes is listed under Caveats; a passage
is labelled by its entry's heading, not its page's title; a section asking a default is not
folded away when nothing in the report says the default."""

from __future__ import annotations

import json
from pathlib import Path

from app.research.caveats import WARNING
from app.research.plan import offline_plan
from app.research.reference import default_rows
from app.research.report import render_markdown
from app.research.synthesis import numbered_claims
from app.research.topics import topic_kind
from tests.app.report_rows import answer_section, data, item, row
from tests.conftest import AS_OF, run_cli

_ENTRY = """<div class="directive-section"><h2 id="{low}">{name} Directive
<a class="permalink" href="#{low}">&para;</a></h2>
<table class="directive">
<tr><th><a href="dict.html#Description">Description:</a></th><td>{what}</td></tr>
<tr><th><a href="dict.html#Syntax">Syntax:</a></th>
<td><code>{name} <var>seconds</var></code></td></tr>
<tr><th><a href="dict.html#Default">Default:</a></th><td><code>{name} {default}</code></td></tr>
<tr><th><a href="dict.html#Context">Context:</a></th><td>server config</td></tr>
</table>
<p>The number of seconds Quillgate waits {more}.</p>
<p>Setting <code>{name}</code> to a high value may cause performance problems in busy relays.</p>
</div>
"""
CORE = ("<html><head><title>core - Quillgate Relay Server 3.1</title></head><body>"
        "<h1>Quillgate Core Features</h1><p>Directives every relay build has.</p>"
        + _ENTRY.format(name="KeepIdleWait", low="keepidlewait", default="5",
                        what="Time the relay waits for the next message on an open link",
                        more="for the next message on an open link before closing it")
        + _ENTRY.format(name="IdleWait", low="idlewait", default="60",
                        what="Time the relay waits for a slow peer",
                        more="for a slow peer to send its next byte")
        + "</body></html>")
TUNING = """<html><head><title>Tuning a Quillgate relay</title></head><body>
<h1>Tuning for many links</h1>
<p>When open links are kept, workers sit idle waiting on them. The default KeepIdleWait of 15
seconds in Quillgate 1.0 was lowered, because idle workers cost memory on a busy relay.</p>
</body></html>
"""


def _corpus(folder: Path, default: str = "5") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "core.html").write_text(CORE.replace("KeepIdleWait 5<", f"KeepIdleWait {default}<"),
                                      encoding="utf-8")
    (folder / "tuning.html").write_text(TUNING, encoding="utf-8")
    return folder


def _report(tmp_path: Path, folder: Path, topic: str, data_dir: str = "data") -> str:
    proc = run_cli("research", topic, "--as-of", AS_OF, "--corpus", folder, "--data-dir",
                   tmp_path / data_dir, "--json")
    assert proc.returncode == 0, proc.stderr
    return Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")


def test_the_answer_to_a_default_is_the_reference_entrys_default_row(tmp_path: Path) -> None:
    # The Answer said the tuning page's "default KeepIdleWait of 15 seconds" (an old release's)
    # while the entry's own "Default: KeepIdleWait 5" row was retrieved: edit the row and the
    # Answer must change with it.
    for default, data_dir in (("5", "data"), ("7", "data-edited")):
        folder = _corpus(tmp_path / f"corpus-{default}", default)
        for topic in ("What is the default KeepIdleWait?", "KeepIdleWait default"):
            answer = answer_section(_report(tmp_path, folder, topic, data_dir))
            first = answer.strip().splitlines()[0]
            assert first.startswith(f"- Default: KeepIdleWait {default}."), (topic, answer)


def test_a_neighbours_default_row_is_no_answer(tmp_path: Path) -> None:
    # "IdleWait" is a part of "KeepIdleWait": its row, not the neighbour's, answers
    folder = _corpus(tmp_path / "corpus")
    answer = answer_section(_report(tmp_path, folder, "What is the default IdleWait?"))
    assert "Default: IdleWait 60." in answer and "KeepIdleWait 5" not in answer, answer


def test_a_warning_in_the_report_is_listed_under_caveats(tmp_path: Path) -> None:
    # "may cause performance problems" led an Answer while Caveats said "No limitations or
    # warnings were found in the corpus."
    folder = _corpus(tmp_path / "corpus")
    report = _report(tmp_path, folder, "What is the default KeepIdleWait?")
    caveats = report.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "may cause performance problems" in report
    assert "No limitations or warnings were found" not in caveats, report
    assert WARNING.search("Setting X to less than minimal is not recommended.")
    assert WARNING.search("In no event should you raise this above about 60 seconds.")
    assert not WARNING.search("The default is 5 seconds.")
    # trial 20, finding 6: FastAPI's docs mark a warning with a sign, not a word
    assert WARNING.search("\U0001f6a8 Keep in mind that these events run for the main app only.")
    assert WARNING.search("\u26a0\ufe0f The old API is gone.")
    assert not WARNING.search("Events run for the main app \U0001f680 only.")
    # trial 81, F6: Sphinx's "Watch out!" and HAProxy's "strongly recommended not to" (trial 79)
    assert WARNING.search("Watch out! This operation overwrites translations in transifex.")
    assert WARNING.search("It is strongly recommended not to change this from the default.")
    assert not WARNING.search("We watch the output and recommend it to others.")



def test_advice_to_avoid_a_thing_is_a_warning_the_caveats_never_deny() -> None:
    # Trial 96, F1: bup fsck's "However, you may want to avoid this option if you're paranoid."
    # stood in the Answer to "What does the --quick option do?" while Caveats said "No
    # limitations or warnings were found in the passages retrieved."
    q = "What does the --quick option of bup fsck do?"
    advice = "However, you may want to avoid this option if you're paranoid."
    md = render_markdown(data([row("analyst", q, [
        item("finding", "--quick: don't run a full git verify-pack on each pack file.",
             "bup-fsck.1.html#2"),
        item("finding", advice, "bup-fsck.1.html#2")])], topic=q, sub_questions=[q]))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "No limitations or warnings were found" not in caveats, md
    assert advice in md, md
    for said in ("This mode is best avoided on slow disks.", "Such names should be avoided.",
                 "You might want to avoid symlinks here."):
        assert WARNING.search(said), said
    assert not WARNING.search("To avoid this, set the timeout.")
    # trial 98, F9: lxml's "Normally, this will result in a segfault." was a finding beside
    # "No limitations or warnings were found"
    assert WARNING.search("Normally, this will result in a segfault.")
    assert WARNING.search("It may lead to a segmentation fault in the parser.")


def test_a_passage_is_labelled_by_its_entry_not_its_page_title() -> None:
    q = "What is the Frobnicate directive?"
    text = ("Frobnicate Directive ¶\n\nSyntax: Frobnicate n.\n\nThis directive "
            "controls how many frobs each relay keeps.")
    rows = [row("docs_search", q, [item("passage", text, "core.html#3", score=3.0,
                                        title="core - Quillgate Relay Server 3.1")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "- Frobnicate Directive: This directive controls" in answer, answer
    assert "Quillgate Relay Server 3.1:" not in answer, answer


def test_default_rows_of_tables_and_label_cells() -> None:
    assert default_rows("Syntax:\n\nkeepidle 75s;\n\nDefault:\n\nkeepidle 75s;") == [
        ("", "Default:\n\nkeepidle 75s;".replace("\n\n", " "))]
    assert default_rows("wait_time — Default: 30; Unit: seconds.") == [
        ("wait_time", "wait_time — Default: 30; Unit: seconds.")]
    assert default_rows("The default is 5.\n\nDefaults are kept.") == []


def test_a_setting_named_then_default_asks_its_default() -> None:
    assert [topic_kind(t) for t in ("KeepIdleWait default", "page size default value",
                                    "reset to default", "restore the default")] == [
        "default", "default", "topic", "how"]


def test_a_warning_the_answer_quotes_from_a_passage_is_a_caveat_found() -> None:
    q = "What is the Frobnicate directive?"
    text = "Frobnicate Directive ¶\n\nUnder normal conditions, Frobnicate should not be changed."
    rows = [row("docs_search", q, [item("passage", text, "core.html#3", score=3.0)])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "Frobnicate should not be changed" in answer_section(md), md
    assert "The Answer above quotes the only limitations or warnings found." in md, md


def test_a_default_section_is_shown_when_nothing_in_the_report_says_the_default() -> None:
    # The Notes said "Not shown as sections, as they would repeat the report" of a question
    # on a default that nothing in the report answered.
    q1, q2 = "What does Frobnicate do?", "What is the default of Frobnicate?"
    said = item("finding", "Frobnicate controls how many frobs each relay keeps.", "c.html#3")
    rows = [row("analyst", q1, [said]), row("analyst", q2, [said])]
    md = render_markdown(data(rows, topic="Frobnicate", sub_questions=[q1, q2]))
    section = md.split(f". {q2}\n", 1)[1].split("\n## ", 1)[0]  # q1's is folded: the Answer's
    assert "No sentence retrieved for this question answers it" in section, md
    assert f'would repeat the report: "{q2}"' not in md, md
    # its own passage's Default: row is its answer, shown in its section
    entry = item("passage", "Frobnicate Directive ¶\n\nDefault: Frobnicate 12.", "c.html#3",
                 score=2.0)
    rows.append(row("docs_search", q2, [entry]))
    md = render_markdown(data(rows, topic="Frobnicate", sub_questions=[q1, q2]))
    section = md.split(f". {q2}\n", 1)[1].split("\n## ", 1)[0]
    assert "- Default: Frobnicate 12. [1]" in section, md


def test_a_section_whose_default_the_answer_says_is_folded() -> None:
    q = "What is the default of Frobnicate?"
    entry = item("passage", "Frobnicate Directive ¶\n\nDefault: Frobnicate 12.", "c.html#3",
                 score=2.0)
    md = render_markdown(data([row("docs_search", q, [entry])], topic=q, sub_questions=[q]))
    assert answer_section(md).strip().startswith("- Default: Frobnicate 12."), md
    assert f"## 1. {q}" not in md, md
    # the topic's own question, answered by the Answer, is not named as folded (trial 26,
    # finding 10: "would repeat the report: <the topic itself>" read as a dropped question)
    assert "would repeat the report" not in md, md


def test_a_name_ending_like_a_verb_then_default_is_planned_as_its_default() -> None:
    # "DeflateBufferSize default" ends in "ize": it was read as an instruction, planned as
    # "How do I DeflateBufferSize default?", and answered as a how-question
    assert offline_plan("QuillBufferSize default") == ["What is the default of QuillBufferSize?"]
    assert topic_kind("QuillBufferSize default") == "default"
    assert offline_plan("serialize a graph") == ["How do I serialize a graph?"]


def test_a_report_models_claims_open_with_the_entrys_default_row() -> None:
    # with a key, the model writes the Answer from the numbered claims: no reader quotes the
    # Default: row, so it was never among them
    q = "What is the default of Frobnicate?"
    entry = item("passage", "Frobnicate Directive ¶\n\nDefault: Frobnicate 12.\n\nFrobnicate "
                 "sets the frobs.", "c.html#3", score=2.0)
    said = item("finding", "Frobnicate sets the frobs each relay keeps.", "c.html#3")
    rows = [row("docs_search", q, [entry]), row("analyst", q, [said])]
    claims = numbered_claims(data(rows, topic=q, sub_questions=[q]))
    assert [c["text"] for c in claims[:2]] == ["Default: Frobnicate 12.", said["text"]], claims


def test_a_listed_setting_that_says_its_default_answers_it_once() -> None:
    # Trial 20, finding 5: FastAPI's "* `max_age` - Sets a maximum time in seconds ... Defaults
    # to `600`." was quoted cut before its default; the Answer said 600 only from a changelog.
    q = "What is the default max_age?"
    listing = ("The following arguments are supported:\n\n* `allow_credentials` - Cookies are "
               "supported. Defaults to `False`.\n* `max_age` - Sets a maximum time in seconds "
               "for browsers to cache responses. Defaults to `600`.")
    rows = [row("analyst", q, [item("finding", "`max_age` - Sets a maximum time in seconds for "
                                    "browsers to cache responses.", "cors.md#5")]),
            row("docs_search", q, [item("passage", listing, "cors.md#5", score=5.0)])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    first = answer_section(md).strip().splitlines()[0]
    assert first.startswith("- `max_age` - Sets a maximum time") and "`600`" in first, md
    assert md.count("for browsers to cache responses") == 1, md  # its fragment is not said again
    assert "allow_credentials" not in answer_section(md)
    assert default_rows("    timeout (float): Seconds to wait. Defaults to 30.") == [
        ("timeout", "timeout (float): Seconds to wait. Defaults to 30.")]
    assert default_rows("The timeout defaults to 30 seconds.") == []


RATE_LIMITING = """# Rate limiting

Add the middleware to cap how many requests one client makes in a window of time.

```python
app.add_middleware(RateLimitMiddleware, limit=100, window_seconds=60)
```

| setting | default | description |
|---|---|---|
| limit | 100 | How many requests one client may make in a window. |
| window_seconds | 60 | How long one window of the rate limiter lasts, in seconds. |

A client over the limit gets a 429 response; its requests are never queued.
"""


def test_a_settings_table_row_named_like_a_caution_word_is_no_caveat(tmp_path: Path) -> None:
    # Trial 20, finding 12: a rate limiter's "limit — default: 100." row was listed under
    # Caveats, "limit" being a word of caution; its name is a setting's, and the page's
    # real limitation ("never queued") stays one
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "rate-limiting.md").write_text(RATE_LIMITING, encoding="utf-8")
    report = _report(tmp_path, folder, "rate limiting middleware settings")
    caveats = report.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "limit — default: 100; description: How many requests" in report, report
    assert "— default:" not in caveats, caveats
    assert "never queued" in caveats, caveats


def test_a_row_named_like_a_warning_is_no_limitation_to_answer() -> None:
    # trial 24, finding 8: a settings row named "warning" led the Answer to "What are the
    # limitations of ...?"; what the row says decides, not its setting's name
    from app.research.sentence_kinds import fits

    assert not fits("limitation", "warning — default: on; description: Prints a line.")
    assert fits("limitation", "retries — default: 3; description: Deprecated: do not use.")
    assert fits("default", "limit — default: 100; description: Packets per second.")
    # trial 24, finding 4: prose led by a label is no table row: its warning stays one
    from app.research.caveats import cautions

    assert cautions("Warning — the relay overheats above 40 degrees.")
    assert fits("limitation", "Warning — the relay overheats above 40 degrees.")
    assert not cautions("warning — default: on; description: Prints a line.")


def test_what_an_entry_does_is_answered_by_its_description_row(tmp_path: Path) -> None:
    # Trial 34: asked what the FallbackResource directive does, the Answer gave a side fact
    # from the entry's third passage while its "Description:" row was retrieved; edit the row
    # and the Answer must change with it
    for what, data_dir in (("Time the relay waits for a slow peer", "data"),
                           ("How long a slow peer may pause", "data-edited")):
        folder = _corpus(tmp_path / f"corpus-{data_dir}")
        page = folder / "core.html"
        page.write_text(page.read_text("utf-8").replace("Time the relay waits for a slow peer",
                                                        what), encoding="utf-8")
        answer = answer_section(_report(tmp_path, folder, "What does the IdleWait directive do?",
                                        data_dir))
        first = answer.strip().splitlines()[0]
        assert first.startswith(f"- `IdleWait Directive`: {what}"), answer
        assert "KeepIdleWait" not in first  # the neighbour's row is not its definition


def test_the_entry_a_default_question_names_is_kept_when_a_side_page_is_strongest() -> None:
    # "What is the default value of shared_buffers?" (PostgreSQL's manual): the page naming
    # shared_buffers beside block_size's default was the strongest document, so the report
    # cited it alone and dropped the setting's own entry; its Answer was the side page's
    q = "What is the default value of shared_buffers?"
    side = ("Preset Options\n\nThe meaning of some configuration variables (such as "
            "shared_buffers) is influenced by block_size. The default value is 8192 bytes.")
    entry = ("Memory\n\nshared_buffers (integer) : Sets the amount of memory the server uses "
             "for shared memory buffers. The default is typically 128 megabytes (128MB).")
    rows = [
        row("docs_search", q, [item("passage", side, "preset.html#0", score=30.0),
                               item("passage", entry, "resource.html#1", score=29.0)]),
        row("analyst", q, [
            item("finding", "The default value is 8192 bytes.", "preset.html#0"),
            item("finding", "The meaning of some configuration variables (such as "
                            "shared_buffers) is influenced by block_size.", "preset.html#0")]),
    ]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert answer.startswith("\n- shared_buffers (integer)") and "128 megabytes" in answer, md
    assert "8192" not in md, md


def test_a_one_word_entrys_default_is_read_from_its_sentence() -> None:
    # PostgreSQL's "ssl (boolean)": a plain word names no identifier, so the entry's "The
    # default is off." was not read, and the Answer quoted libpq's "the default SSL library"
    from app.research.reference import default_rows

    text = "ssl (boolean)\n\nEnables SSL connections. The default is off."
    assert default_rows(text) == [("ssl (boolean)", "The default is off.")]
    assert default_rows("Memory\n\nSee below.\n\nHeron counts\n\nThe default is 5.") == []


def test_a_defaults_column_of_flags_is_no_default() -> None:
    # HAProxy's keyword entries: "May be used in sections — defaults: yes; frontend: no; ..."
    # names the `defaults` section; the Answer to "the default of timeout connect" read it
    from app.research.reference import default_rows

    entry = ("timeout connect <timeout>\n\nSet the maximum time to wait for a connection.\n\n"
             "May be used in sections — defaults: yes; frontend: no; listen: yes; backend: yes.")
    assert default_rows(entry) == []
    assert default_rows("defaults: yes; frontend: no; listen: yes; backend: yes") == []
    assert default_rows("Timeout Directive\n\nDefault: no") == [
        ("Timeout Directive", "Default: no")]


def test_a_default_in_a_later_passage_of_an_entry_is_the_entrys() -> None:
    # PostgreSQL's listen_addresses: its entry's second passage says "The default value is
    # localhost"; read without its entry's heading, the Answer said no sentence named it
    q = "What is the default value of listen_addresses?"
    later = item("passage", "The special entry 0.0.0.0 allows listening for all IPv4 "
                 "addresses. The default value is localhost, which allows only local "
                 "connections.", "conn.html#3", score=9.0, heading="listen_addresses (string)")
    md = render_markdown(data([row("docs_search", q, [later])], topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert answer.startswith("\n- `listen_addresses (string)`: The default value is localhost"), md


def test_a_sentence_of_another_typed_entry_is_a_neighbours() -> None:
    # PostgreSQL's DateStyle: IntervalStyle's "The value postgres (which is the default) will
    # produce output ... when the DateStyle parameter was set to ISO" was the Answer's second
    # bullet, another setting's default
    q = "What is the default of DateStyle?"
    own = item("passage", "DateStyle (string)\n\nSets the display format. The built-in default "
               "is ISO, MDY.", "client.html#44", score=9.0, heading="DateStyle (string)")
    other = item("passage", "The value postgres (which is the default) will produce output "
                 "matching old releases when the DateStyle parameter was set to ISO.",
                 "client.html#45", score=8.0, heading="IntervalStyle (enum)")
    found = item("finding", "The value postgres (which is the default) will produce output "
                 "matching old releases when the DateStyle parameter was set to ISO.",
                 "client.html#45")
    md = render_markdown(data([row("docs_search", q, [own, other]), row("analyst", q, [found])],
                              topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert "The built-in default is ISO, MDY." in answer and "postgres" not in answer, md


def test_an_option_that_handles_warning_messages_is_no_caveat() -> None:
    # trial 72, F5: ImageMagick's "-quiet — Description: suppress all warning messages." and
    # "-regard-warnings — Description: pay attention to warning messages." were Caveats; the
    # messages are what the options handle, no warning of the manual's
    from app.research.caveats import cautions

    assert not cautions("-quiet — Description: suppress all warning messages.")
    assert not cautions("-regard-warnings — Description: pay attention to warning messages.")
    assert not cautions("The -verbose option prints error messages as they come.")
    assert cautions("Warning: writing over an image file loses its original pixels.")
    assert cautions("Error messages are lost when the log is full.")  # "lost" still cautions
