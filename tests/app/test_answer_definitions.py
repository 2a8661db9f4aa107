"""A "what is" question is answered with what its subject is (trial 10, findings 2, 11 and 15):
a documented symbol's summary line, a prose page's own sentence before its "Caution:"; never a
code fragment, never a list marker inside a bullet, no bullet said twice, and no "No
limitations or warnings were found" beside a warning the report quotes."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, answer_to, data, item, row

SAVER = "langgraph.checkpoint.base.BaseCheckpointSaver"


def _doc(ref: str, text: str, kind: str = "passage", **extra) -> dict:
    """An item of a docstring's passage (titled by its qualified name, as the package docs)."""
    doc = ref.split("#")[0]
    return {"kind": kind, "text": text, "ref": ref, "title": doc, "source": f"docstring: {doc}",
            **extra}


def _saver_rows(q: str) -> list[dict]:
    listing = ("- **Single-shot workflows**: Use a unique ID (e.g., uuid4) for each run when\n"
               "    executions are independent.\n- **Conversational memory**: Reuse the same "
               "`thread_id` across invocations.")
    return [
        row("docs_search", q, [
            _doc(f"{SAVER}#1", listing, score=29.0),
            _doc(f"{SAVER}#0", "Base class for creating a graph checkpointer.\n\nCheckpointers "
                               "allow LangGraph agents to persist their state.", score=28.4),
        ]),
        row("analyst", q, [_doc(f"{SAVER}#1", "**Single-shot workflows**: Use a unique ID "
                                "(e.g., uuid4) for each run when\n    executions are "
                                "independent.", kind="finding")]),
    ]


def test_a_what_is_question_on_a_symbol_is_answered_with_its_summary_line() -> None:
    # "What is BaseCheckpointSaver?": the Answer was "...BaseCheckpointSaver: - **Single-shot
    # workflows**: ..." (a list item, its marker inside the bullet), said again as the
    # section's first finding; the definition sat in "Top passages".
    q = "What is BaseCheckpointSaver?"
    md = render_markdown(data(_saver_rows(q), topic=q, sub_questions=[q]))
    answer = answer_section(md)
    first = answer.strip().splitlines()[0]
    assert first == ("- `BaseCheckpointSaver`: Base class for creating a graph checkpointer. "
                     "[1]"), answer
    assert md.count("Base class for creating") == 1, md
    assert ": - " not in md and "\n- - " not in md


def test_a_bare_symbol_topic_is_answered_with_its_summary_line_not_its_example_code() -> None:
    # "StateGraph": the Answer was a docstring's example code cut mid-word.
    q, doc = "StateGraph", "langgraph.graph.state.StateGraph"
    code = ("def reducer(a: list, b: int | None) -> list:\n    if b is not None:\n"
            "        return a + [b]\n    return a\n")
    rows = [row("docs_search", "What is StateGraph?", [
        _doc(f"{doc}#2", code, score=25.9),
        _doc(f"{doc}#0", "A graph whose nodes communicate by reading and writing to a shared "
                         "state.\n\nThe signature of each node is `State -> Partial<State>`.",
             score=25.9)])]
    md = render_markdown(data(rows, topic=q, sub_questions=["What is StateGraph?"]))
    answer = answer_section(md)
    assert answer.strip().splitlines()[0].startswith(
        "- `StateGraph`: A graph whose nodes communicate"), answer
    assert "def reducer" not in answer


def test_the_answers_passage_line_is_prose_and_not_said_again() -> None:
    # No finding and no summary line: the Answer quotes a passage; not its code, not its list
    # marker, and no section repeats it.
    q = "What is the zorblax relay?"
    rows = [row("docs_search", q, [
        item("passage", "```python\nrelay = zorblax.Relay()\n```", "z.md#3", score=9.0),
        item("passage", "- Keeps a ledger of every packet it moves, and of its moon.",
             "z.md#4", score=8.0)]),
        row("analyst", q, [item("finding", "Keeps a ledger of every packet it moves, and of "
                                           "its moon.", "z.md#4")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "relay = zorblax" not in answer_section(md)
    assert md.count("Keeps a ledger") == 1, md
    assert ": - " not in md


def test_a_long_sentence_the_answers_passage_line_cuts_is_not_said_again_whole() -> None:
    # Trial 26, finding 11: the passage line showed a sentence cut at its length with "…", and
    # a section below said the same sentence whole (the cut text was the key of what was shown)
    q = "What is the zorblax relay?"
    long = ("Keeps a ledger of every packet it moves, " + "and of every moon it passes, " * 12
            + "and of its own moon.")
    rows = [row("docs_search", q, [item("passage", long, "z.md#4", score=8.0,
                                        title="Zorblax relay")]),
            row("analyst", q, [item("finding", long, "z.md#4")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert md.count("Keeps a ledger") == 1, md


def test_a_definition_comes_before_the_caution_beside_it_and_caveats_do_not_deny_it() -> None:
    # An HTML page whose definition paragraph comes before "Caution: ...": the Answer led with
    # the caution, and the Caveats said "No limitations or warnings were found".
    q = "heron census"
    caution = "Caution: census counts are unreliable in fog — repeat the survey."
    rows = [row("analyst", f"What is {q}?", [
        item("finding", "The heron census counts nests & adults each spring using aerial "
                        "photos.", "page.html#1"),
        item("finding", caution, "page.html#1")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[f"What is {q}?"]))
    answer = answer_section(md)
    assert answer.index("counts nests") < answer.index("Caution:") if caution in answer \
        else "counts nests" in answer, answer
    assert "No limitations or warnings were found" not in md
    assert md.count(caution) == 1, md


def test_a_finding_in_beta_is_listed_under_caveats() -> None:
    # A replaced plan's "What is BaseCheckpointSaver?" quoted "This method is ... in beta" and
    # "... may change" as findings, and Caveats said "No limitations or warnings were found".
    q = "What is the zorblax relay?"
    beta = "This method of the zorblax relay is in beta and its output may change."
    rows = [row("analyst", q, [
        item("finding", "The zorblax relay is a courier network between moon stations.",
             "z.md#0"),
        item("finding", "The zorblax relay keeps a ledger of the packets.", "z.md#1"),
        item("finding", beta, "z.md#2")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert beta in caveats and "No limitations" not in md
    assert md.count(beta) == 1, md


def test_a_definition_that_uses_the_name_only_as_a_word_is_shown_under_the_name() -> None:
    # "Send": "A message or packet to send to a specific node in the graph." says "send", the
    # verb, not ``Send``: it is shown under the name, as any summary line that does not name it.
    q, doc = "Send", "langgraph.types.Send"
    rows = [row("docs_search", "What is Send?", [
        _doc(f"{doc}#0", "A message or packet to send to a specific node in the graph.\n\nMore.",
             score=9.0)])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=["What is Send?"])))
    assert answer.strip().splitlines()[0].startswith("- `Send`: A message or packet"), answer


def test_an_of_topic_is_answered_by_sentences_on_its_head_not_on_what_it_is_of() -> None:
    # trial 10, finding 20: "retry policy of a graph node" was answered by "Useful for
    # edgeless graphs with nodes that return `Command` objects." (it says graph and node)
    topic = "retry policy of a graph node"
    q = "What is the retry policy of a graph node?"
    add_node = "langgraph.graph.state.StateGraph.add_node"
    defaults = "langgraph.graph.state.StateGraph.set_node_defaults"
    off = "Useful for edgeless graphs with nodes that return `Command` objects."
    on = "The retry policy of every node defaults to the graph's own retry settings."
    rows = [
        row("docs_search", q, [_doc(f"{add_node}#0", off, score=9.0),
                               _doc(f"{defaults}#0", on, score=8.0)]),
        row("analyst", q, [_doc(f"{add_node}#0", off, kind="finding"),
                           _doc(f"{defaults}#0", on, kind="finding")]),
    ]
    answer = answer_section(render_markdown(data(rows, topic=topic, sub_questions=[q])))
    assert on in answer and off not in answer, answer


def test_a_sentence_about_a_part_of_the_thing_follows_its_definition() -> None:
    # trial 51: "What is a coprocess?" opened with "The return status of a coprocess is ..."
    from tests.app.report_rows import answer_to, item

    answer = answer_to("What is a coprocess?", [
        item("finding", "The return status of a coprocess is the exit status of command.",
             "bash.html#40"),
        item("finding", "A coprocess is a shell command preceded by the coproc reserved word.",
             "bash.html#40"),
    ])
    assert answer.strip().splitlines()[0].startswith("- A coprocess is a shell command"), answer


def test_a_definition_in_the_plural_comes_before_a_side_fact() -> None:
    # Trial 62, F4: "What is a constraints file?" opened with "Constraints file support was
    # added in pip 7.1."; "Constraints files are requirements files that only control ..." came
    # second: "Xs are Ys that ..." was no definition (only "is a", "are the" ... were)
    q = "What is a constraints file?"
    answer = answer_to(q, [
        item("finding", "Constraints file support was added in pip 7.1.", "user_guide.rst#3"),
        item("finding", "Constraints files are requirements files that only control which "
                        "version of a requirement is installed, not whether it is installed or "
                        "not.", "user_guide.rst#3"),
    ])
    assert answer.index("are requirements files") < answer.index("support was added"), answer


def test_a_passage_of_headings_alone_is_no_top_passage_nor_the_answer() -> None:
    # Trial 69, F6: SQLAlchemy's joinedload entry ends in a "See also" list of linked titles;
    # the report's Top passages showed it as code, "`Relationship Loading Techniques Joined
    # Eager Loading`", and FFmpeg's "`11.44 crop`" (a heading whose body was lost)
    q, page = "What does the joinedload function do?", "orm/loading_relationships.html"

    def html(ref: str, text: str, **extra) -> dict:
        return {"kind": "passage", "text": text, "ref": f"{page}#{ref}", "title":
                "Relationship Loading Techniques", "source": page, **extra}

    titles = "Relationship Loading Techniques\n\nJoined Eager Loading"
    rows = [row("docs_search", q, [
        html("103", titles, score=30.0),
        html("99", "function sqlalchemy.orm.joinedload(*keys, **kw)\n\nIndicate that the "
                   "given attribute should be loaded using joined eager loading.", score=29.0),
        html("12", "The joinedload() option emits a LEFT OUTER JOIN by default, so that the "
                   "lead object is returned whether or not it has a related row.", score=28.0),
    ])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "Joined Eager Loading`" not in md and "Indicate that the given attribute" in md, md
    md = render_markdown(data([row("docs_search", q, [html("103", titles, score=30.0)])],
                              topic=q, sub_questions=[q]))
    assert "Joined Eager Loading`" not in md, md



def test_a_passage_that_is_only_its_heading_is_no_top_passage() -> None:
    # trial 89, F10: Celery's entries written without a description were one passage, its
    # heading alone, "relative = False / remaining_estimate(last_run_at) / property seconds",
    # shown as a Top passage with that label and that text
    q, page = "How do I run a job every 10 seconds?", "reference/celery.schedules.html"
    bare = "relative = False / remaining_estimate(last_run_at) / property seconds"
    due = ("(True, 20) means the job should run now, and the next check is in 20 seconds, "
           "every 10 seconds after that.")
    rows = [row("analyst", q, [item("finding", due, f"{page}#18")]),
            row("docs_search", q, [item("passage", bare, f"{page}#23", score=30.0, heading=bare),
                                   item("passage", due, f"{page}#18", score=29.0)])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "remaining_estimate" not in md, md

def test_an_option_headed_by_its_name_and_argument_is_defined_by_its_first_sentence() -> None:
    # Trial 72, F1: ImageMagick's "-resize geometry" entry opens "Resize an image."; the Answer
    # was "If the -filter option ... precedes the -resize option, the image is resized ...": the
    # option was no name, its heading no entry, and its sentence too short for a definition
    q, page = "What does the -resize option do?", "www/command-line-options.html"
    entry = ("-resize geometry\n\nResize an image.\n\nSee Image Geometry for complete details "
             "about the geometry argument.\n\nIf the -filter option or -define "
             "filter:option=value precedes the -resize option, the image is resized with the "
             "specified filter.")
    rows = [row("docs_search", q, [{"kind": "passage", "text": entry, "ref": f"{page}#438",
                                    "title": "Command-line Options", "source": page,
                                    "heading": "-resize geometry", "score": 22.0}]),
            row("analyst", q, [item("finding", "If the -filter option or -define filter:option="
                                    "value precedes the -resize option, the image is resized "
                                    "with the specified filter.", f"{page}#438")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert answer_section(md).strip().splitlines()[0] == "- `-resize`: Resize an image. [1]", md


def test_one_sentence_in_two_wordings_is_one_answer_bullet() -> None:
    # Trial 72, F9: Zsh's manual says it on two pages, and the Answer said it twice
    q = "Which styles control the types of aliases expanded?"
    one = ("The types of alias expanded can be controlled with the styles regular, global and "
           "disabled.")
    two = ("The types of aliases which are to be expanded can be controlled with the styles "
           "regular, global and disabled.")
    other = "An alias expands a short word into a longer command when the line is read."
    rows = [row("analyst", q, [item("finding", one, "Completion-System.html#310"),
                               item("finding", two, "Zsh-Line-Editor.html#88"),
                               item("finding", other, "Shell-Grammar.html#40")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert ("styles regular, global and disabled" in answer
            and answer.count("styles regular, global and disabled") == 1), answer


def test_a_keyword_entry_under_its_synopsis_is_defined_by_its_first_sentence() -> None:
    # Trial 72, F1: "What does the setopt builtin do?" skipped "Set the options for the shell.";
    # its synopsis line had too many words for a heading, and "builtin" was no kind of name
    q, page = "What does the setopt builtin do?", "Shell-Builtin-Commands.html"
    synopsis = "setopt [ {+|-}options | {+|-}o option_name ] [ -m ] [ name ... ]"
    entry = (f"{synopsis}\n\nSet the options for the shell. All options specified either with "
             "flags or by name are set.")
    rows = [row("docs_search", q, [{"kind": "passage", "text": entry, "ref": f"{page}#149",
                                    "title": "Shell Builtin Commands", "source": page,
                                    "heading": synopsis, "score": 29.0}]),
            row("analyst", q, [item("finding", "This is because set is regarded as a special "
                                    "builtin by the POSIX standard, but setopt is not.",
                                    f"{page}#140")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert answer_section(md).strip().splitlines()[0] == (
        "- `setopt`: Set the options for the shell. [1]"), md


def test_a_definition_whose_verb_is_uncommon_comes_before_a_usage_line() -> None:
    # Trial 94, F3: "What is the Sane Lists extension?" opened with "Use sane_lists as the name
    # of the extension."; the definition, "The Sane Lists extension alters the behavior of ...",
    # had no subject for the Answer (its verb, "alters", was in no list), so it did not count
    # as about the extension and lost by order. Docutils' "The sectnum directive automatically
    # numbers sections ..." likewise (trial 90, D3).
    answer = answer_to("What is the Sane Lists extension?", [
        item("finding", "Use sane_lists as the name of the extension.", "sane_lists.html#1"),
        item("finding", "The Sane Lists extension alters the behavior of the Markdown List "
                        "syntax to be less surprising.", "sane_lists.html#0"),
    ])
    assert answer.strip().splitlines()[0].startswith("- The Sane Lists extension alters"), answer
    answer = answer_to("What is the sectnum directive?", [
        item("finding", "Sections are numbered if there is a sectnum directive in the "
                        "document.", "ref/rst/directives.html#80"),
        item("finding", 'The "sectnum" directive automatically numbers sections and '
                        "subsections in a document.", "ref/rst/directives.html#81"),
    ])
    assert answer.strip().splitlines()[0].startswith('- The "sectnum" directive'), answer


def test_a_sentence_whose_subject_is_another_option_does_not_answer_for_the_one_asked() -> None:
    # Trial 95, F1: "What does the dont-use-other-dicts option do?" opened with "The
    # --dont-clean-words option can be used to prevent the removal of non-word characters.":
    # its subject shares "dont" with the option asked, and counted as about it
    own = "dont-use-other-dicts: (boolean) Disable use of personal and session dictionaries."
    other = ("The --dont-clean-words option can be used to prevent the removal of non-word "
             "characters.")
    q = "What does the dont-use-other-dicts option do?"
    ref = "The-Options.html#3"
    rows = [row("docs_search", q, [item("passage", f"{other}\n\n{own}", ref, score=3.0,
                                        heading="4.2.1 Dictionary Options")]),
            row("analyst", q, [item("finding", other, ref), item("finding", own, ref)])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert answer.strip().splitlines()[0].startswith("- dont-use-other-dicts: (boolean)"), answer
    assert "--dont-clean-words" not in answer.strip().splitlines()[0], answer


def test_a_sentence_the_answer_quoted_in_other_words_is_not_said_again_below() -> None:
    # Trial 97, R1: Bash's reference manual and its man page word -n a little apart; the Answer
    # quoted the manual's page ("-n Read commands but do not execute them. ...") and the
    # section below the man page's "-n: Read commands ... check a shell script ..."
    from app.research.citations import said

    pdf = ("-n Read commands but do not execute them. This may be used to check a script for "
           "syntax errors. This option is ignored by interactive shells.")
    man = ("-n: Read commands but do not execute them. This may be used to check a shell script "
           "for syntax errors. This is ignored by interactive shells.")
    shown = {(" ".join(pdf.split()).lower(), "bashref.pdf:p74#1")}
    assert said({"text": man, "ref": "bash.html#462"}, shown)
    other = "-x: Print a trace of simple commands and their arguments after they are expanded."
    assert not said({"text": other, "ref": "bash.html#462"}, shown)


def test_a_pdf_page_is_shown_under_its_section_not_its_file_name() -> None:
    # Trial 97, R2: "bashref.pdf: In an interactive shell, the value is interpreted as ..."
    # named the file; its section is "Bash Variables"
    q = "How long does an interactive shell wait for a line of input after the prompt?"
    text = ("In an interactive shell, the value is interpreted as the number of seconds to wait "
            "for a line of input after issuing the primary prompt.")
    rows = [row("docs_search", q, [item("passage", text, "bashref.pdf:p96#0", score=3.0,
                                        title="bashref.pdf", heading="Bash Variables")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert "Bash Variables: In an interactive shell" in md, md
    assert "bashref.pdf: In an interactive" not in md, md


def test_a_sentence_whose_subject_is_the_asked_thing_leads_over_the_page_quoted_most() -> None:
    # Apache's manual (trial 110, F1): "What is suEXEC?" opened with configure.html's "The
    # following options are used to fine tune the behavior of suexec.", the page the analyst
    # quoted most, and suexec.html's own sentence was not shown
    q = "What is suEXEC?"
    says = ("The suEXEC feature provides users of the Apache HTTP Server the ability to run CGI "
            "and SSI programs under user IDs different from the user ID of the web server.")
    tune = "The following options are used to fine tune the behavior of suexec."
    findings = [item("finding", tune, "configure.html#32"),
                item("finding", "--with-suexec-bin: This defines the path to suexec binary.",
                     "configure.html#32"),
                item("finding", "See Configuring and installing suEXEC for more.",
                     "configure.html#32"),
                item("finding", says, "suexec.html#0")]
    enable = "--enable-suexec: This option enables the suEXEC feature, never on by default."
    findings.append(item("finding", enable, "suexec.html#12"))
    passages = [item("passage", f"Configuring suEXEC\n\n{enable}", "suexec.html#12", score=13.2),
                item("passage", f"suEXEC Support\n\n{says}", "suexec.html#0", score=13.1),
                item("passage", f"suexec configuration options\n\n{tune}", "configure.html#32",
                     score=12.9)]
    rows = [row("docs_search", q, passages), row("analyst", q, findings)]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert answer.strip().splitlines()[0].startswith(f"- {says[:40]}"), answer
