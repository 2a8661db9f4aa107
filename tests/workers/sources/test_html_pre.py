"""A ``<pre>`` of an HTML page keeps its lines as a fenced code block, unless it is prose laid
out by hand (trial 30, kind 6: Git's listings and terminal transcripts were joined into one
line, and "$ edit <1> $ git add frotz.c ..." and "! [rejected] ... hint: ..." were a report's
findings; HAProxy's manual writes its prose in ``<pre>``, read as paragraphs as before)."""

from __future__ import annotations

from app.llm.offline.sentences import prose_sentences
from workers.sources.htmlpage import html_page

LISTING = """<html><body><h2>EXAMPLES</h2><p>Undo add:</p>
<div class="listingblock"><div class="content"><pre><code>$ edit    <b>&lt;1&gt;</b>
$ git add frotz.c filfre.c
$ mailx   <b>&lt;2&gt;</b>
$ git reset    <b>&lt;3&gt;</b></code></pre></div></div>
<p>You are happily working on something.</p>
<pre>To nikola:/srv/git/repo.git
 ! [rejected]        master -&gt; master (non-fast-forward)
error: failed to push some refs to 'nikola:/srv/git/repo.git'
hint: Updates were rejected because the tip of your current branch is behind
hint: its remote counterpart. Integrate the remote changes (e.g.
hint: 'git pull ...') before pushing again.</pre>
<pre>Such prose is laid out by hand in this manual, and its lines are wrapped where
the writer chose. It is read as one paragraph, as it always was.</pre></body></html>"""


def test_a_listing_and_a_transcript_keep_their_lines_and_give_no_sentence() -> None:
    text = html_page(LISTING).text
    assert ("```\n$ edit    <1>\n$ git add frotz.c filfre.c\n$ mailx   <2>\n"
            "$ git reset    <3>\n```") in text, text
    assert "```\nTo nikola:/srv/git/repo.git\n ! [rejected]" in text, text
    assert ("Such prose is laid out by hand in this manual, and its lines are wrapped where the "
            "writer chose.") in text  # prose in a <pre>: one paragraph, as before
    sentences = " ".join(prose_sentences(text))
    assert "You are happily working on something." in sentences
    for code in ("git add frotz.c", "hint:", "[rejected]"):
        assert code not in sentences, sentences


def test_a_fence_inside_a_pre_does_not_close_its_block() -> None:
    text = html_page("<pre>Markdown:\n```\ncode\n```\nend</pre>").text
    assert text.startswith("````\n") and text.endswith("\n````"), text


def test_a_text_file_in_one_pre_is_read_block_by_block() -> None:
    # Trial 71, F1: each of Vim's help pages is one <pre>; whole, it read as code, and 10,031
    # of the manual's 12,942 passages were code blocks holding the options' descriptions
    entry = ("\t\t\t\t\t\t*<a name=\"'scrolloff'\"></a><b>'scrolloff'</b>* *'so'*\n"
             "'scrolloff' 'so'\tnumber\t(default 0, set to 5 in |<a href=\"#d\">defaults.vim"
             "</a>|)\n"
             "\tMinimal number of screen lines to keep above and below the cursor.\n"
             "\tThis will make some context visible around where you are working.\n")
    table = "".join(f"\t'opt{i}'\t+ off\t\tno CTRL-_ command {i}\n" for i in range(30))
    listing = "\t:set so=5\n\t:setlocal scrolloff<\n"
    page = (f"<html><head><title>Vim documentation: options</title></head><body><pre>\n"
            f"{table}\n{entry}\n{listing}\n{table}</pre></body></html>")
    text = html_page(page).text
    assert ("'scrolloff' 'so' number (default 0, set to 5 in defaults.vim)\n\nMinimal number "
            "of screen lines to keep above and below the cursor.") in text, text  # its label
    sentences = " ".join(prose_sentences(text))
    assert "Minimal number of screen lines to keep above and below the cursor." in sentences
    assert "*'so'*" not in text and "|" not in text.split("```")[2]  # help markup: its words
    assert "```\n\t:set so=5\n\t:setlocal scrolloff<\n```" in text, text  # a listing: code
    assert "no CTRL-_ command 3" not in sentences  # a table: code, as before
    # a man page: its section's name heads its text, a word broken at a line's end is whole
    man = ("NAME\n       postsuper - Postfix superintendent\n\nDESCRIPTION\n       The "
           "postsuper(1) command does maintenance jobs on the Postfix queue. It reads mes-\n"
           "       sage files and read-\n       only ones, and read-only ones too.\n")
    text = html_page(f"<pre>{man}\n{table}{table}</pre>").text
    assert ("DESCRIPTION\n\nThe postsuper(1) command does maintenance jobs on the Postfix "
            "queue. It reads message files and read-only ones") in text, text
    # a short <pre> read as prose whole: its help markup too (fold.html's "The |indent()|")
    short = html_page("<pre>The |indent()| function can be used in 'foldexpr' to get the "
                      "indent of a line. *fold-expr*\nIt returns the indent as a Number of "
                      "spaces, or -1 when the line is not there.</pre>").text
    assert short.startswith("The indent() function can be used") and "*" not in short, short
    # a short <pre> that is no prose is one code block, as before
    assert html_page(f"<pre>{listing}\n{listing}</pre>").text.count("```") == 2


def test_a_hanging_indent_is_one_block_not_a_heading_and_its_text() -> None:
    # trial 75, F1: BIND's change log (a <pre>) writes each entry's text at a column its
    # continuation lines align with; read as a heading, "if some signals were blocked by the
    # caller." was quoted as a sentence of its own
    from workers.sources.preformatted import pre_blocks

    entry = ("784.   [bug]           nsupdate and other programs would not quit properly\n"
             "                       if some signals were blocked by the caller. [RT #1081]")
    assert pre_blocks(entry) == [(True, entry)]
    headed = "DESCRIPTION\n       The postsuper command does maintenance jobs on the queue."
    assert [block for _prose, block in pre_blocks(headed)] == [
        "DESCRIPTION", "       The postsuper command does maintenance jobs on the queue."]


def test_the_blank_lines_of_a_pre_of_prose_part_its_paragraphs() -> None:
    # HAProxy's starter guide is prose in <pre> blocks: read as one paragraph a block, its nine
    # steps (a list item each, a blank line between) were cut anywhere, and a passage opened
    # "rules to these connections; - decide which server ..." (trial 79, F6)
    page = html_page("""<html><body><pre class="text">The proxy accepts connections from its
clients, and it forwards each of them to one of the servers of a farm. This document
explains how it does so, and which of its parts take part in each step of the way. It
does not explain how to configure them: the configuration manual does.

Processing incoming connections is by far the most complex task as it depends on a lot of
configuration possibilities, but it can be summarized as the steps below :

  - accept incoming connections from listening sockets that belong to a
    configuration entity known as a "frontend";

  - apply the backend-specific processing rules to these connections;

  - decide which server to forward the connection to according to the load
    balancing strategy;

Frontends and backends are sometimes considered as half-proxies, since they only
look at one side of an end-to-end connection; the frontend only cares about the clients
while the backend only cares about the servers.</pre></body></html>""")
    paragraphs = page.text.split("\n\n")
    assert "- apply the backend-specific processing rules to these connections;" in paragraphs
    assert paragraphs[-1].startswith("Frontends and backends are sometimes"), paragraphs
    assert ("- decide which server to forward the connection to according to the load balancing "
            "strategy;") in paragraphs, paragraphs


def test_a_keywords_one_line_description_is_prose() -> None:
    # trial 111, F5: HAProxy writes what a keyword does on one line of a <pre class="text">,
    # without a full stop; it was kept as code and quoted in backticks after the label
    page = html_page('<html><body><div class="keyword"><b>option httplog</b> <span>[ clf ]'
                     '</span></div><pre class="text">Enable logging of HTTP request, session '
                     'state and timers\n</pre><pre class="text">make install prefix=/usr\n'
                     '</pre></body></html>')
    prose = [block for block in page.text.split("\n\n") if not block.startswith("```")]
    assert "Enable logging of HTTP request, session state and timers" in prose, page.text
    assert "```\nmake install prefix=/usr\n```" in page.text, page.text  # a command: code


def test_a_one_line_directive_is_code_not_prose() -> None:
    # trial 116, F8: Apache's "Options Indexes FollowSymLinks ExecCGI MultiViews", one line of
    # capitalised words in a <pre>, lost its code fence by the rule above
    page = html_page("<html><body><p>Allow CGI in the directory:</p><pre>Options Indexes "
                     "FollowSymLinks ExecCGI MultiViews\n</pre><pre>Header always set "
                     "X-Content-Type-Options nosniff\n</pre><p>Then restart.</p></body></html>")
    assert "```\nOptions Indexes FollowSymLinks ExecCGI MultiViews\n```" in page.text, page.text
    assert "```\nHeader always set X-Content-Type-Options nosniff\n```" in page.text, page.text


def test_a_one_line_description_naming_a_product_is_prose() -> None:
    # trial 119, F11: "Enable the use of OpenSSL engines for cryptographic operations" was
    # quoted as code by the rule above, the keyword's name glued into its code span
    page = html_page("<html><body><h2>ssl-engine</h2><pre>Enable the use of OpenSSL engines for "
                     "cryptographic operations</pre><h2>lua-load</h2><pre>Load and run a LuaJIT "
                     "script file when the process starts</pre></body></html>")
    assert "```" not in page.text, page.text
    for line in ("Enable the use of OpenSSL engines for cryptographic operations",
                 "Load and run a LuaJIT script file when the process starts"):
        assert line in page.text.split("\n\n"), page.text


def test_a_commands_option_listing_is_a_row_an_option() -> None:
    # Trial 123, F3: pytest's `pytest --help` in one long <pre> read as prose, each block one
    # run-on paragraph ("--runxfail Report the results of xfail tests as if they were not
    # marked --lf, --last-failed Rerun only ..."), its "fd|sys|no" read as Vim's links
    usage = "$ pytest --help\nusage: pytest [options] [file_or_dir] [file_or_dir] [...]\n\n"
    general = ("general:\n"
               "  -k EXPRESSION         Only run tests which match the given substring\n"
               "                        expression. An expression is a Python evaluatable\n"
               "                        expression where all names are substring-matched.\n"
               "  -x, --exitfirst       Exit instantly on first error or failed test\n"
               "  --capture=method      Per-test capturing method: one of fd|sys|no|tee-sys\n"
               "  --runxfail            Report the results of xfail tests as if they were\n"
               "                        not marked\n"
               "  --lf, --last-failed   Rerun only the tests that failed at the last run (or\n"
               "                        all if none failed)\n"
               "  --lfnf={all,none}, --last-failed-no-failures={all,none}\n"
               "                        Which tests to run with no previously (known) failures\n")
    more = "".join(f"  --opt{i}=value        Set the option number {i} of the test run to the\n"
                   f"                        value given, when the run starts and not before\n"
                   for i in range(20))
    text = html_page(f"<html><body><pre>{usage}{general}\nmore:\n{more}</pre></body></html>").text
    for row in ("--lf, --last-failed: Rerun only the tests that failed at the last run (or all "
                "if none failed)", "--capture=method: Per-test capturing method: one of "
                "fd|sys|no|tee-sys", "--lfnf={all,none}, --last-failed-no-failures={all,none}: "
                "Which tests to run with no previously (known) failures"):
        assert f"\n\n{row}\n\n" in text, text


def test_a_docstrings_rest_markup_in_a_pre_is_read_as_its_words() -> None:
    # Trial 125, F11 (S8): Sphinx's example_google.html was quoted as "This module demonstrates
    # documentation as specified by the `Google Python Style Guide`_."
    lines = ['"""Example Google style docstrings.', "",
             "This module demonstrates documentation as specified by the `Google Python Style",
             "Guide`_. Docstrings may extend over multiple lines, and the ``Attributes`` section",
             "lists what :class:`~heron.Census` counts.", "",
             ".. _Google Python Style Guide:", "   https://google.github.io/styleguide/", '"""',
             "", *[f"count_{n} = {n}" for n in range(45)]]
    text = html_page(f"<html><body><pre>{chr(10).join(lines)}</pre></body></html>").text
    assert ("This module demonstrates documentation as specified by the Google Python Style "
            "Guide. Docstrings may extend over multiple lines, and the `Attributes` section lists "
            "what Census counts.") in text, text


def test_a_short_pre_of_a_paragraph_and_a_table_keeps_its_paragraph_prose() -> None:
    # trial 127, F9: HAProxy's "2.5. Time format" is one <pre>: a paragraph, then a table of
    # units whose "1m = 60s = 60000ms" made the whole read as code; "What time units are
    # supported?" quoted it only as a code excerpt, and fc_rtt's unit led the Answer
    pre = ("<html><body><h2>2.5. Time format</h2><pre class=\"text\">Some parameters involve "
           "values representing time, such as timeouts. These\nvalues are generally expressed "
           "in milliseconds but may be expressed in any\nother unit by suffixing the unit to "
           "the numeric value. Supported units are :\n\n  - ms : milliseconds. 1 millisecond = "
           "1/1000 second. This is the default.\n  - s  : seconds. 1s = 1000ms\n  - m  : "
           "minutes. 1m = 60s = 60000ms\n</pre><pre>x = 1\ny = 2</pre></body></html>")
    text = html_page(pre).text
    sentences = " ".join(prose_sentences(text))
    assert "These values are generally expressed in milliseconds" in sentences, text
    assert "```\n  - ms : milliseconds." in text, text  # the table keeps its lines
    assert "```\nx = 1\ny = 2\n```" in text, text  # a listing is code, as before


def test_a_short_listing_with_comment_lines_stays_one_code_block() -> None:
    # a listing's comments read as prose block by block (SQLite's FTS3 example: "-- Change the
    # title of the row just inserted. UPDATE pages SET ..." was one line of prose): a short
    # <pre> opening with code is code whole
    pre = ("<html><body><pre>CREATE VIRTUAL TABLE pages USING fts4(title, body);\n\n"
           "-- Insert a row and allow FTS to assign a docid value using the same algorithm as\n"
           "-- SQLite uses for rowids.\nINSERT INTO pages(title, body) VALUES('Download', "
           "'All SQLite source code...');\n\n-- Change the title of the row just inserted.\n"
           "UPDATE pages SET title = 'Download SQLite' WHERE rowid = 54;</pre></body></html>")
    text = html_page(pre).text
    assert text.startswith("```\nCREATE VIRTUAL TABLE") and text.endswith("rowid = 54;\n```"), text
    assert text.count("```") == 2, text
