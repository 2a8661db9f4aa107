"""A definition list's term stays with its description (trial 15, finding 1): in a man page's
command list (``<dt>git-gc(1)</dt><dd><p>Cleanup unnecessary files ...</p></dd>``) the report
answered "cleanup unnecessary files and optimize the local repository" with that sentence alone,
without the command it describes; an option list's ``--amend`` was lost the same way."""

from __future__ import annotations

import json
from pathlib import Path

from tests.app.report_rows import first_answer
from tests.conftest import AS_OF, run_cli
from workers.sources.htmlpage import html_page

MAN_PAGE = """<html><head><title>frob(1)</title></head><body>
<h2>COMMANDS</h2>
<div class="dlist"><dl>
<dt class="hdlist1"><a href="frob-tidy.html">frob-tidy(1)</a></dt>
<dd><p>Cleanup unnecessary shards and compact the local vault.</p></dd>
<dt class="hdlist1"><a href="frob-seal.html">frob-seal(1)</a></dt>
<dd><p>Seal a vault against later writes.</p></dd>
</dl></div>
<h2>OPTIONS</h2>
<dl>
<dt>-q</dt>
<dt>--quiet</dt>
<dd><p>Print nothing but errors.</p><p>Errors still go to standard error.</p></dd>
<dt>Notes:</dt>
<dd>See the manual.</dd>
<dt>A term with no description</dt>
</dl>
<p>A paragraph after the list.</p>
</body></html>"""


def test_a_term_and_its_description_are_one_line() -> None:
    text = html_page(MAN_PAGE).text
    assert "frob-tidy(1): Cleanup unnecessary shards and compact the local vault." in text
    assert "frob-seal(1): Seal a vault against later writes." in text
    assert "-q, --quiet: Print nothing but errors.\n\nErrors still go to standard error." in text
    assert "Notes: See the manual." in text  # the term's own colon is not doubled
    assert "A term with no description\n\nA paragraph after the list." in text


def test_the_report_answers_with_the_term_a_description_is_of(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "frob.html").write_text(MAN_PAGE, encoding="utf-8")
    (corpus / "vaults.html").write_text(
        "<html><head><title>Vaults</title></head><body><p>A vault holds the shards of a frob "
        "store, one directory per vault.</p></body></html>", encoding="utf-8")
    run = run_cli("research", "cleanup unnecessary shards and compact the local vault",
                  "--as-of", AS_OF, "--corpus", corpus, "--data-dir", tmp_path / "data",
                  "--json")
    assert run.returncode == 0, run.stderr
    report = Path(json.loads(run.stdout)["report_path"]).read_text(encoding="utf-8")
    answer = report.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "frob-tidy(1)" in answer, answer


# DocBook's variablelist as PostgreSQL's manual writes it: each setting a <dt> with an id (the
# anchor other pages link to), its description in the <dd>
SETTINGS_PAGE = """<html><head><title>20.4. Resource Consumption</title></head><body>
<h2>20.4.1. Memory</h2>
<div class="variablelist"><dl class="variablelist">
<dt id="GUC-FROB-BUFFERS"><span class="term"><code class="varname">frob_buffers</code>
(<code class="type">integer</code>)</span></dt>
<dd><p>Sets the memory used for frob buffers. The default is typically 128 megabytes.</p></dd>
<dt id="GUC-FROB-MEM"><span class="term"><code class="varname">frob_mem</code>
(<code class="type">integer</code>)</span></dt>
<dd><p>Sets the memory of one frob. If this value is specified without units, it is taken as
kilobytes. The default value is four megabytes (4MB).</p></dd>
</dl></div>
</body></html>"""


def test_a_term_with_an_anchor_is_the_heading_of_its_entry() -> None:
    # Read as "frob_buffers (integer): Sets ...", two settings shared a passage under the
    # page's heading: a question on one's default was answered with its neighbour's, and the
    # entry of frob_mem was outranked by passages that repeat its name.
    sections = dict(html_page(SETTINGS_PAGE).sections)
    assert sections["frob_buffers (integer)"] == (
        "frob_buffers (integer)\n\nSets the memory used for frob buffers. The default is "
        "typically 128 megabytes.")
    assert sections["frob_mem (integer)"].endswith("The default value is four megabytes (4MB).")
    assert "frob_mem" not in sections["frob_buffers (integer)"]


def test_the_default_a_settings_entry_states_answers_for_it(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "resource.html").write_text(SETTINGS_PAGE, encoding="utf-8")
    (corpus / "tuning.html").write_text(
        "<html><head><title>Tuning</title></head><body><p>Raise frob_mem when sorts spill; "
        "frob_mem is a per-sort limit, so many sorts use many times frob_mem.</p>"
        "</body></html>", encoding="utf-8")
    run = run_cli("research", "What is the default value of frob_mem?", "--as-of", AS_OF,
                  "--corpus", corpus, "--data-dir", tmp_path / "data", "--json")
    assert run.returncode == 0, run.stderr
    report = Path(json.loads(run.stdout)["report_path"]).read_text(encoding="utf-8")
    answer = report.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert answer.startswith("\n\n- `frob_mem (integer)`: The default value is four megabytes"), (
        report)
    assert "128 megabytes" not in report, report


def test_the_text_after_a_list_of_entries_is_its_sections_not_the_last_entrys() -> None:
    # libpq's CONNECTION_CONSUME, the last status code of a list inside PQconnectPoll's entry,
    # took the note and the code example written after the list, about every code of it
    page = html_page(SETTINGS_PAGE.replace(
        "</dl></div>", "</dl></div><p>Each of these settings is read at server start.</p>"))
    sections = dict(page.sections)
    assert "read at server start" not in sections["frob_mem (integer)"]
    assert "Each of these settings is read at server start." in sections["20.4.1. Memory"]


def test_the_text_after_lists_in_a_row_is_the_heading_theirs_were_in() -> None:
    # psycopg2's cursor page: each method its own <dl> inside the class's; the rubric after
    # setinputsizes' list, "Results retrieval methods", was labelled with mogrify, the entry
    # before it (trial 102, F1)
    method = ('<dl class="py method"><dt class="sig sig-object py" id="cursor.{0}">{0}(sizes)'
              '</dt><dd><p>{1}</p></dd></dl>')
    page = html_page('<html><body><h1>The cursor class</h1><dl class="py class">'
                     '<dt class="sig sig-object py" id="cursor">class cursor</dt><dd>'
                     '<p>Allows Python code to run commands.</p>'
                     + method.format("mogrify", "Return a query string after binding.")
                     + method.format("setinputsizes", "It currently does nothing.")
                     + '<p class="rubric">Results retrieval methods</p><p>Read rows after an '
                     'execute() call.</p>'
                     + method.format("fetchone", "Fetch the next row.")
                     + "</dd></dl></body></html>")
    rubric = [h for h, t in page.sections if "Results retrieval methods" in t]
    assert rubric == ["class cursor"], page.sections
    assert "Return a query string" in dict(page.sections)["mogrify(sizes)"], page.sections


def test_an_entry_whose_text_follows_its_list_heads_that_text() -> None:
    # Trial 60, A2: Django's reference writes each method as <h4>, then a <dl> whose <dt> has
    # an id and whose <dd> is empty, then the description; the entry was glued to the next
    # heading ("select_related(*fields) / prefetch_related()" headed prefetch_related's text)
    # and the <h4> and the signature were passages of a heading alone
    entry = ('<h4><code>{0}()</code></h4><dl class="py method"><dt class="sig sig-object py" '
             'id="QuerySet.{0}"><code class="sig-name descname">{0}</code>(*fields)</dt><dd>'
             '</dd></dl><p>{1}</p>')
    page = html_page("<html><body><h1>QuerySet API</h1>"
                     + entry.format("select_related", "Follows foreign keys in one query.")
                     + entry.format("prefetch_related", "Retrieves related objects in a batch.")
                     + "</body></html>")
    by_heading = dict(page.sections)
    # each method written with its class, as its id names it (trial 89, F4)
    assert "Follows foreign keys in one query." in by_heading["QuerySet.select_related(*fields)"]
    assert "Retrieves related objects" in by_heading["QuerySet.prefetch_related(*fields)"]
    assert not any(" / " in h for h, _t in page.sections), page.sections
    assert all(t.strip() != h.strip() for h, t in page.sections if h), page.sections


def test_every_term_of_a_list_of_anchored_entries_heads_its_entry() -> None:
    # Trial 72, F2: Texinfo anchors some of Zsh's builtins (autoload, read) and not others
    # (setopt): the 98 passages after read's entry were labelled "read [...]", and setopt's
    # "Set the options for the shell." was kept out of its Answer as a neighbour's
    page = html_page(
        "<html><body><h2>Shell Builtin Commands</h2><dl>"
        "<dt id='index-read'><span><tt>read</tt> [ <tt>-rsz</tt> ] [ <var>name</var> ... ]"
        "</span></dt><dd><p>Read one line and split it into fields.</p></dd>"
        "<dt><span><tt>readonly</tt></span></dt><dd><p>Same as typeset -r.</p></dd>"
        "<dt><span><tt>setopt</tt> [ {<tt>+</tt>|<tt>-</tt>}<var>options</var> ] [ <tt>-m</tt>"
        " ] [ <var>name</var> ... ]</span></dt><dd><p>Set the options for the shell. All "
        "options specified either with flags or by name are set.</p></dd></dl></body></html>")
    headings = [heading for heading, _text in page.sections]
    assert "setopt [ {+|-}options ] [ -m ] [ name ... ]" in headings, headings
    assert "readonly" in headings, headings
    setopt = dict(page.sections)["setopt [ {+|-}options ] [ -m ] [ name ... ]"]
    assert "Set the options for the shell." in setopt and "Read one line" not in setopt


# Postfix's postconf.5.html: each parameter a <dt> holding a named anchor, its default beside
# its name, one <dl> for the page's 1,000 parameters
POSTCONF_PAGE = """<html><head><title>Frobd Configuration Parameters</title></head><body>
<h1>Frobd main.cf file format</h1><dl>
<dt><b><a name="frob_error_limit">frob_error_limit</a> (default: 20)</b></dt><dd><p>The most
errors a client may make. The server disconnects when the limit is reached.</p></dd>
<dt><b><a name="frob_helo_required">frob_helo_required</a> (default: no)</b></dt><dd><p>Require
that a client introduces itself with HELO first.</p></dd>
<dt><b><a name="screen_helo_required">screen_helo_required</a>
(default: $<a href="#frob_helo_required">frob_helo_required</a>)</b></dt><dd><p>Require that a
client sends HELO before a transaction.</p></dd>
</dl></body></html>"""


def test_a_term_holding_a_named_anchor_is_the_heading_of_its_entry() -> None:
    # Trial 85, F1: read as one list of terms, frob_error_limit's sentences shared a passage
    # with frob_helo_required's under the page's heading, and were its Findings and Caveats
    sections = dict(html_page(POSTCONF_PAGE).sections)
    assert sections["frob_helo_required (default: no)"] == (
        "frob_helo_required (default: no)\n\nRequire that a client introduces itself with HELO "
        "first.")
    assert "disconnects" in sections["frob_error_limit (default: 20)"]


def test_an_entry_whose_default_names_the_one_asked_is_its_neighbour(tmp_path: Path) -> None:
    # Trial 85: screen_helo_required's heading names frob_helo_required as its default, and its
    # "Require that a client sends HELO before a transaction." was the Answer's second bullet
    report, _first = first_answer(tmp_path, {"postconf.5.html": POSTCONF_PAGE},
                                  "What does frob_helo_required do?")
    assert "introduces itself with HELO first" in report, report
    assert "before a transaction" not in report and "disconnects" not in report, report


def test_a_sentence_docutils_cut_into_a_term_and_its_description_reads_on() -> None:
    # trial 89, F10: a docstring's wrapped line, indented, made a definition list in Celery's
    # reference, and the report quoted "... and the next: time to check is in 20 seconds."
    page = html_page("<html><body><h1>is_due</h1><ul><li><dl class=\"simple\"><dt><code>(True, "
                     "20)</code>, means the task should be run now, and the next</dt><dd><p>time "
                     "to check is in 20 seconds.</p></dd></dl></li></ul><dl><dt>--amend</dt><dd>"
                     "<p>replace the tip of the branch.</p></dd></dl></body></html>")
    assert ("(True, 20), means the task should be run now, and the next time to check is in 20 "
            "seconds.") in page.text, page.text
    assert "--amend: replace the tip of the branch." in page.text, page.text  # a term: a colon


def test_a_description_that_opens_with_its_type_alone_reads_on_from_it() -> None:
    # Trial 95, F1: Texinfo wrote Aspell's "<dd><p><i>(boolean)</i></p><p>Disable use of ...",
    # the entry's line was "dont-use-other-dicts: (boolean)" and its description a paragraph of
    # its own, so "What does the dont-use-other-dicts option do?" found no entry saying it
    page = html_page("<html><body><h1>Options</h1><dl><dt><b>extra-dicts</b></dt><dd><p><i>(list)"
                     "</i> Extra dictionaries to use.</p></dd><dt><b>dont-use-other-dicts</b></dt>"
                     "<dd><p><i>(boolean)</i>\n</p><p>Disable use of personal, replacement &amp; "
                     "session dictionaries.</p></dd><dt><b>lang</b></dt><dd><p><i>(string)</i></p>"
                     "</dd></dl><h2>Encoding Options</h2><p>These options set encodings.</p>"
                     "</body></html>")
    assert ("dont-use-other-dicts: (boolean) Disable use of personal, replacement & session "
            "dictionaries.") in page.text, page.text
    assert "extra-dicts: (list) Extra dictionaries to use." in page.text, page.text
    assert "lang: (string)\n" in page.text and "(string) Encoding" not in page.text, page.text


def test_groffs_tagged_paragraphs_are_a_term_and_its_description() -> None:
    # Trial 99, R1: groff's HTML writes an option and its description as two <p>, the second
    # indented further; a passage ended between "simple, never" and "always make simple
    # backups", and the next was labelled "always make simple backups: input files are in
    # Java .properties syntax"
    body = ('<h2>DESCRIPTION</h2><p style="margin-left:11%;">simple, never</p>'
            '<p style="margin-left:22%;">always make simple backups</p>'
            '<p style="margin-left:11%; margin-top: 1em"><b>Input file syntax: <br>-P</b>, '
            '<b>--properties-input</b></p><p style="margin-left:22%;">input files are in Java '
            '.properties syntax</p><p style="margin-left:11%;">The backup suffix is ~.</p>'
            '<p style="margin-left:22%;">Set it with --suffix.</p>')
    groff = html_page('<html><head><meta name="generator" content="groff -Thtml, see '
                      f'www.gnu.org"></head><body>{body}</body></html>')
    assert "simple, never: always make simple backups" in groff.text, groff.text
    assert ("-P, --properties-input: input files are in Java .properties syntax"
            in groff.text), groff.text
    assert "The backup suffix is ~.\n\nSet it with --suffix." in groff.text, groff.text  # prose
    other = html_page(f"<html><body>{body}</body></html>")  # not groff's: paragraphs as written
    assert "simple, never\n\nalways make simple backups" in other.text, other.text


# man2html's bash.html: one <DL> of builtins under SHELL BUILTIN COMMANDS, no anchors, its
# <DT> and <DD> left open, a builtin's options a <DL> inside its description
BUILTINS_PAGE = """<HTML><HEAD><TITLE>Man page of FROB</TITLE></HEAD><BODY>
<H2>SHELL BUILTIN COMMANDS</H2>
<P>Unless otherwise noted, each builtin accepts -- to end its options.
<DL COMPACT>
<DT><B>frobset</B> [<B>-pq</B>] [<I>name</I> ...]<DD>
Toggle the values of settings controlling optional frob behavior.
<DL COMPACT>
<DT><B>-p</B><DD>Print each setting in a form that may be reused as input.
<DT><B>-q</B><DD>Suppress normal output; the status says whether the name is set.
</DL>
<DT><B>frobtrap</B> [<I>arg</I>]<DD>
Run arg when the frob shell receives a signal.
</DL>
<H2>SEE ALSO</H2><P>frob(7)
</BODY></HTML>"""


def test_each_term_of_a_list_of_commands_with_their_own_lists_heads_its_entry(
        tmp_path: Path) -> None:
    # Trial 125, leftover 2: every builtin's passages were labelled "SHELL BUILTIN COMMANDS",
    # shopt's "-q: Suppresses normal output ..." as much as complete's, whose "-A action" list
    # holds "shopt: Shell option names as accepted by the shopt builtin."
    sections = dict(html_page(BUILTINS_PAGE).sections)
    frobset = sections["frobset [-pq] [name ...]"]
    assert "Toggle the values" in frobset and "-q: Suppress normal output" in frobset, sections
    assert "Run arg" in sections["frobtrap [arg]"], sections
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "frob.html").write_text(BUILTINS_PAGE, encoding="utf-8")
    from workers.sources import Corpus
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [found, *_] = corpus.search("frobset -q suppress normal output", k=2)
    assert found.heading == "frobset [-pq] [name ...]", (found.heading, found.text)
