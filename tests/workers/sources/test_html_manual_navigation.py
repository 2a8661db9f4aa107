"""A manual made into one HTML file keeps its navigation out of its text (trial 49, issue 19):
R's seven Texinfo manuals had a node header ("Next: ..., Previous: ..., Up: ... [Contents]
[Index]") in 776 of 3,216 passages, their menus and indexes were passages, and the Concept
index outranked the section that answered "What is the .Rbuildignore file?"."""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.sources import Corpus
from workers.sources.htmlpage import html_page

# Texinfo 6 (R's manuals): <div class="header">, <ul class="section-toc">, an index table and
# its "Jump to:" letter bar (a table with no class, its letters <a class="summary-letter">)
OLD = """<html><head><title>Writing Harbour Extensions</title>
<meta name="Generator" content="texi2any"></head><body>
<div class="header"><p>Next: <a href="#Building" accesskey="n" rel="next">Building</a>,
Previous: <a href="#Top" accesskey="p" rel="prev">Writing Harbour Extensions</a>,
Up: <a href="#Top" accesskey="u" rel="up">Writing Harbour Extensions</a> &nbsp;
[<a href="#SEC_Contents" title="Table of contents" rel="contents">Contents</a>]\
[<a href="#Concept-index" title="Index" rel="index">Index</a>]</p></div>
<h2 class="contents-heading">Table of Contents</h2>
<div class="contents"><ul class="no-bullet"><li><a href="#Building">1 Building</a>
<ul class="no-bullet"><li><a href="#Ignoring">1.1 Ignoring files</a></li></ul></li></ul></div>
<h2 class="chapter">1 Building</h2>
<p>A harbour package is built from its source directory by the builder.</p>
<ul class="section-toc"><li><a href="#Ignoring" accesskey="1">Ignoring files</a></li>
<li><a href="#Checking" accesskey="2">Checking</a></li></ul>
<table class="menu" border="0" cellspacing="0"><tr><td align="left" valign="top">&bull;
<a href="#Ignoring" accesskey="1">Ignoring files</a>:</td><td>&nbsp;&nbsp;</td>
<td align="left" valign="top">Files left out of a tide table</td></tr></table>
<div class="header"><p>Next: <a href="#Concept-index" accesskey="n" rel="next">Concept index</a>,
Up: <a href="#Building" accesskey="u" rel="up">Building</a> &nbsp;
[<a href="#SEC_Contents" title="Table of contents" rel="contents">Contents</a>]</p></div>
<h3 class="section">1.1 Ignoring files</h3>
<p>The <a href="#Buoy">.buoyignore file</a> lists the patterns of files the builder leaves
out of the tide table.</p>
<div class="header"><p>Previous: <a href="#Ignoring" accesskey="p" rel="prev">Ignoring</a>,
Up: <a href="#Top" accesskey="u" rel="up">Top</a> &nbsp;
[<a href="#SEC_Contents" title="Table of contents" rel="contents">Contents</a>]</p></div>
<h2 class="unnumbered">Concept index</h2>
<table summary=""><tr><th valign="top">Jump to: &nbsp; </th><td>
<a class="summary-letter" href="#cp_symbol-1"><b>.</b></a> &nbsp;
<a class="summary-letter" href="#cp_letter-B"><b>B</b></a> &nbsp;</td></tr></table>
<table summary="" class="index-cp" border="0">
<tr><td></td><th align="left">Index Entry</th><td>&nbsp;</td><th align="left"> Section</th></tr>
<tr><th id="cp_symbol-1">.</th><td></td><td></td></tr>
<tr><td></td><td valign="top"><a href="#index-buoyignore">.buoyignore file</a>:</td>
<td>&nbsp;</td><td valign="top"><a href="#Ignoring">Ignoring files</a></td></tr>
<tr><th id="cp_letter-B">B</th><td></td><td></td></tr>
<tr><td></td><td valign="top"><a href="#index-Buoys">Buoy tide table</a>:</td>
<td>&nbsp;</td><td valign="top"><a href="#Ignoring">Ignoring files</a></td></tr></table>
</body></html>"""

# Texinfo 7 (GNU's current manuals): <div class="nav-panel">, <ul class="mini-toc">, and the
# index in <div class="printindex"> (letter bars and entries as classed tables)
NEW = """<html><head><title>Writing Harbour Extensions</title>
<meta name="Generator" content="texi2any"></head><body>
<div class="chapter-level-extent" id="Building">
<div class="nav-panel"><p>Next: <a href="#Concept-index" accesskey="n" rel="next">Concept
index</a>, Up: <a href="#Top" accesskey="u" rel="up">Top</a> &nbsp;
[<a href="#SEC_Contents" title="Table of contents" rel="contents">Contents</a>]\
[<a href="#Concept-index" title="Index" rel="index">Index</a>]</p></div>
<h2 class="chapter" id="Building-1">1 Building</h2>
<p>A harbour package is built from its source directory by the builder.</p>
<ul class="mini-toc"><li><a href="#Ignoring" accesskey="1">Ignoring files</a></li></ul>
<div class="section-level-extent" id="Ignoring">
<div class="nav-panel"><p>[<a href="#Concept-index" title="Index" rel="index">Index</a>]</p></div>
<h3 class="section" id="Ignoring-1">1.1 Ignoring files</h3>
<p>The <a href="#Buoy">.buoyignore file</a> lists the patterns of files the builder leaves
out of the tide table.</p></div></div>
<div class="unnumbered-level-extent" id="Concept-index">
<h2 class="unnumbered" id="Concept-index-1">Concept index</h2>
<div class="printindex cp-printindex">
<table class="cp-letters-header-printindex"><tr><th>Jump to: &nbsp; </th><td>
<a class="summary-letter-printindex" href="#cp_letter-B"><b>B</b></a></td></tr></table>
<table class="cp-entries-printindex" border="0">
<tr><td></td><th class="entries-header-printindex">Index Entry</th><td>&nbsp;</td>
<th class="sections-header-printindex"> Section</th></tr>
<tr><th id="cp_letter-B">B</th><td></td><td></td></tr>
<tr><td></td><td class="printindex-index-entry"><a href="#index-buoyignore">.buoyignore
file</a>:</td><td>&nbsp;</td><td class="printindex-index-section"><a href="#Ignoring">Ignoring
files</a></td></tr></table></div></div>
</body></html>"""

FURNITURE = ("Next:", "Previous:", "Up:", "Contents", "[Index]", "Jump to", "Index Entry",
             "Checking", "accesskey", "Files left out", "Buoy tide table", "Table of Contents")


@pytest.mark.parametrize("markup", [OLD, NEW], ids=["texinfo-6-header", "texinfo-7-nav-panel"])
def test_a_texinfo_manuals_headers_menus_and_index_are_not_its_text(markup: str) -> None:
    page = html_page(markup)
    text = page.text
    for junk in FURNITURE:
        assert junk not in text, (junk, text)
    sections = dict(page.sections)
    # the prose stays, its own links' text too
    assert "built from its source directory" in sections["1 Building"]
    assert "The .buoyignore file lists the patterns" in " ".join(
        sections["1.1 Ignoring files"].split())
    assert sections["Concept index"] == "Concept index"


def test_a_texinfo_node_header_at_a_pages_foot_is_navigation_without_rel() -> None:
    # Texinfo 6.8 (GNU m4, flex): the foot's header has bare links; it was a passage on 58 of
    # m4's 105 pages, "Next: Making temporary files, Previous: ..." (trial 101, F8)
    foot = ('<div class="header"><p>Next: <a href="Mkstemp.html">Making temporary files</a>, '
            'Previous: <a href="Esyscmd.html">Reading the output of commands</a>, Up: '
            '<a href="Shell-commands.html">Macros for running shell commands</a> &nbsp; '
            '[<a href="index.html#SEC_Contents" title="Table of contents">Contents</a>]</p></div>')
    body = ('<h3 class="section">13.4 Exit status</h3><p>To see whether a shell command '
            f'succeeded, use <code>sysval</code>:</p><hr>{foot}</body></html>')
    head = '<html><head><meta name="Generator" content="makeinfo"></head><body>'
    texinfo = html_page(f"{head}{body}")
    assert texinfo.text == ("13.4 Exit status\n\nTo see whether a shell command succeeded, "
                            "use sysval:")
    # another generator's "header" class is its own: a page's header text stays
    other = html_page(f"<html><body>{body}")
    assert "Next: Making temporary files" in other.text
    # and a Texinfo "header" that holds prose, not links, is text (trial 103, F2)
    prose = ('<div class="header"><p>The pelican store keeps every record for seven days, '
             'then drops it.</p></div>')
    assert "seven days" in html_page(f"{head}{prose}{body}").text


def test_links_that_move_through_the_document_are_navigation_by_their_rel_alone() -> None:
    # any generator's bar, whatever its class: two or more links, each next/prev/up/...
    page = html_page('<html><body><h1>Tides</h1><p>Tides turn twice a day.</p>'
                     '<div class="pager"><a rel="prev" href="a.html">Moon</a> | '
                     '<a rel="next" href="c.html">Harbours</a></div>'
                     '<p>See <a rel="next" href="c.html">harbours</a> and '
                     '<a href="d.html">pilots</a> for more.</p>'
                     '<div><a href="x.html">Moon</a> <a href="y.html">Sun</a></div>'
                     '</body></html>')
    assert page.text == ("Tides\n\nTides turn twice a day.\n\nSee harbours and pilots for "
                         "more.\n\nMoon Sun")


def test_an_alphabet_bar_is_not_text_but_a_row_of_short_words_is() -> None:
    letters = " ".join(f'<a href="#{c}">{c}</a>' for c in "ABCDEFG")
    words = " ".join(f'<a href="#{w}">{w}</a>' for w in ("ox", "ax", "is", "it", "at"))
    page = html_page(f"<html><body><h1>Index</h1><p>{letters}</p><p>{words}</p></body></html>")
    assert page.text == "Index\n\nox ax is it at"


def test_the_section_that_answers_outranks_a_one_file_manuals_index(tmp_path: Path) -> None:
    root = tmp_path / "manual"
    root.mkdir()
    (root / "harbour.html").write_text(OLD, encoding="utf-8")
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        hits = corpus.search("What is the .buoyignore file?", k=3)
        assert hits and hits[0].heading == "1.1 Ignoring files", hits
        assert not any("Next:" in h.text or "Jump to" in h.text for h in hits), hits


def test_a_chapter_whose_only_text_was_its_menu_heads_its_first_section() -> None:
    # R-data's "4 Relational databases" was a passage of its heading alone (its menu left out)
    # and was quoted as the answer; a reader sees it above "4.1 Why use a database?"
    page = html_page('<html><head><meta name="Generator" content="makeinfo"></head><body>'
                     '<h2 class="chapter">4 Harbour databases</h2><ul class="mini-toc">'
                     '<li><a href="#why">Why</a></li></ul>'
                     '<h3>4.1 Why use a database?</h3><p>Tide tables outgrow memory.</p>'
                     '<h3>4.2 Drivers</h3><p>ODBC drivers.</p>'
                     '<h2>5 Buoys</h2><h2>6 Pilots</h2><p>Pilots board.</p></body></html>')
    assert page.sections == (
        ("4.1 Why use a database?",
         "4 Harbour databases\n\n4.1 Why use a database?\n\nTide tables outgrow memory."),
        ("4.2 Drivers", "4.2 Drivers\n\nODBC drivers."),
        ("5 Buoys", "5 Buoys"),  # a heading of the same level is no part of it
        ("6 Pilots", "6 Pilots\n\nPilots board."))


def test_a_footnotes_linked_mark_is_no_part_of_the_word_it_follows() -> None:
    # trial 49: "directories from source control systems54 or from eclipse55" in an Answer
    page = html_page('<html><body><p>from source control systems<a id="DOCF54" href="#FOOT54">'
                     '<sup>54</sup></a> or from eclipse<sup><a href="#cite_note-1">[1]</a>'
                     '</sup>, as x<sup>2</sup> grows.</p></body></html>')
    assert page.text == "from source control systems or from eclipse, as x^2 grows."


def test_a_docbook_footnote_mark_linked_by_its_pages_name_is_no_part_of_the_word() -> None:
    # trial 81, F8: aptitude's "automatically upgraded[a] to the version" was quoted; DocBook
    # links the mark by the page's file name, not "#..."; the note's text stays
    page = html_page('<html><body><p>Packages are automatically upgraded<a href="ch02s02s03.'
                     'html#ftn.footAuto" class="footnoteref"><sup class="footnoteref">[a]</sup>'
                     '</a> to the version in the archive.</p><div class="footnote"><p><sup>[<a '
                     'href="#footAuto" class="para">a</a>] </sup>Unless they are held.</p>'
                     '</div></body></html>')
    assert page.text == ("Packages are automatically upgraded to the version in the archive."
                         "\n\nUnless they are held."), page.text


def test_a_footnotes_own_mark_is_no_heading_and_only_texinfos_notes_go() -> None:
    # trial 51: R's footnotes were passages titled "(3)", quoted out of their sentences;
    # trial 52, F4: a question answered by a Pandoc or Sphinx footnote alone was told the
    # sources say nothing once every page's notes were dropped
    page = html_page('<html><head><meta name="Generator" content="texi2any"></head><body>'
                     '<h2>1.3.2 Building package tarballs</h2><p>Exclude files with '
                     '.Rbuildignore.</p><div class="footnote"><hr><h4 class="footnotes-heading">'
                     'Footnotes</h4><h5><a id="FOOT3" href="#DOCF3">(3)</a></h5><p>Top-level '
                     'files .Rbuildignore and .Rinstignore are never built.</p></div>'
                     '<section class="footnotes" role="doc-endnotes"><ol><li id="fn1">A Pandoc '
                     'note. <a href="#fnref1" role="doc-backlink">\u21a9</a></li></ol></section>'
                     '</body></html>')
    assert "(3)" not in [h for h, _t in page.sections]
    assert "are never built." not in page.text  # Texinfo's notes: the rest of a sentence
    assert "A Pandoc note." in page.text
    assert "\u21a9" not in page.text


def test_texinfos_class_names_mean_texinfos_markup_only_on_its_pages() -> None:
    # trial 52, F3: a restaurant's table.menu, a small-print div.footnote and a fund list's
    # table.index-table were dropped as Texinfo's
    page = html_page('<html><body><table class="menu"><tr><th>Dish</th><th>Price</th></tr>'
                     '<tr><td>Ramen</td><td>12 dollars</td></tr></table><div class="footnote">'
                     'All prices exclude the sales tax.</div><table class="index-cp"><tr><td>'
                     '<a href="w.html">World Equity</a></td><td>0.2 percent</td></tr></table>'
                     '</body></html>')
    for said in ("Ramen", "12 dollars", "sales tax", "World Equity", "0.2 percent"):
        assert said in page.text, said


def test_prose_that_links_its_neighbours_or_names_letters_is_no_bar() -> None:
    # trial 52, F1 and F2: such paragraphs were dropped whole as navigation or letter bars
    page = html_page('<html><body><p>The default connection timeout is 30 seconds. Retries are '
                     'covered in the <a rel="next" href="r.html">next chapter</a>, and setup in '
                     'the <a rel="prev" href="i.html">previous chapter</a>.</p><p>The basis '
                     'vectors <a href="#x">x</a>, <a href="#y">y</a>, <a href="#z">z</a>, '
                     '<a href="#u">u</a> and <a href="#v">v</a> are orthogonal.</p></body></html>')
    assert "30 seconds" in page.text and "are orthogonal" in page.text


def test_a_wikis_cited_works_and_letter_marks_are_no_text() -> None:
    # trial 52, F5: a citation's title answered a question, "^ Heronries ..." kept its caret,
    # and a letter mark glued onto its word ("years agoa")
    page = html_page('<html><body><p>Herons nest in colonies, as they did years ago<sup>'
                     '<a href="#cite_note-a">a</a></sup> and still do<sup><a href="#n1">'
                     '[note 1]</a></sup>.</p><ol class="references"><li id="cite_note-1"><span '
                     'class="mw-cite-backlink"><a href="#cite_ref-1">^</a></span> Heronries of '
                     'Europe, 1990.</li></ol></body></html>')
    assert page.text == "Herons nest in colonies, as they did years ago and still do."


def test_a_breadcrumb_trail_is_no_text_but_links_in_a_sentence_are() -> None:
    # trial 57, F3: Apache's <div id="path"> trail differs on each page in its last link, so
    # the folder's repeated-text filter kept it, and "Apache > HTTP Server > Documentation >
    # Version 2.4 > Rewrite" was a Top passage
    page = html_page('<html><body><div id="path"><a href="/">Apache</a> &gt; <a href="/h">HTTP '
                     'Server</a> &gt; <a href="/d">Documentation</a> &gt; <a href="r.html">'
                     'Rewrite</a></div><h1>RewriteRule Flags</h1><p>The [L] flag stops the '
                     'rewriting.</p><p>See <a href="a.html">A</a>, <a href="b.html">B</a> and '
                     '<a href="c.html">C</a>.</p><p><a href="m.html">Modules</a> | '
                     '<a href="g.html">Glossary</a> | <a href="s.html">Sitemap</a></p>'
                     '</body></html>')
    assert "Documentation" not in page.text and "Sitemap" not in page.text
    assert "The [L] flag stops the rewriting." in page.text and "See A, B and C." in page.text


def test_links_with_bars_inside_code_a_cell_or_an_item_stay_text() -> None:
    # trial 59, F3: "Set the mode to on|off|auto" became "Set the mode to to control ...", and
    # groff mom's macro arguments "LINE | NUMBER | SUPERSCRIPT" were dropped as a trail
    bars = ' | '.join(f'<a href="#{w}">{w}</a>' for w in ("LINE", "NUMBER", "SUPERSCRIPT"))
    page = html_page(f'<html><body><p>Set the mode to <code><a href="#on">on</a>|<a href="#off">'
                     f'off</a>|<a href="#a">auto</a></code> to control it.</p><table><tr><td>'
                     f'{bars}</td></tr></table><ul><li>{bars}</li></ul></body></html>')
    assert "Set the mode to on|off|auto to control it." in page.text
    assert page.text.count("LINE | NUMBER | SUPERSCRIPT") == 2, page.text


def test_a_themes_sidebar_and_navigation_named_by_their_ids_are_not_text() -> None:
    # trial 92, F3: Mako's theme writes its chapter list in <div id="docs-sidebar"> under an
    # <h3>, and "Previous: Inheritance", "Next: The Unicode Chapter" in <div
    # id="docs-narrow-top-navigation">: a passage of them was a report's Top passage
    page = html_page(
        '<html><body><div id="docs-header"><h1><a href="index.html">Mako Documentation</a></h1>'
        '</div><div id="fixed-sidebar"><div id="docs-sidebar"><h3><a href="index.html">Mako '
        'Documentation</a></h3><ul><li><a href="usage.html">Usage</a></li><li><a href='
        '"syntax.html">Syntax</a></li><li><a href="#n">Turning off Filtering with the n Filter'
        '</a></li></ul></div></div><div id="docs-narrow-top-navigation"><ul><li><b>Previous:'
        '</b> <a href="inheritance.html">Inheritance</a></li><li><b>Next:</b> <a href='
        '"unicode.html">The Unicode Chapter</a></li></ul></div>'
        '<h2 id="n">Turning off Filtering with the n Filter</h2><p>The n filter disables all '
        'default filtering.</p><div class="sidebar"><p>A sidebar of the text itself stays, with '
        'its <a href="x.html">link</a>.</p></div></body></html>')
    text = page.text
    assert "Previous" not in text and "Usage" not in text and "Unicode" not in text, text
    assert "The n filter disables all default filtering." in text, text
    assert "A sidebar of the text itself stays" in text, text
    assert "Mako Documentation" not in text, text  # the banner's link home: trial 123, F11



def test_a_themes_sidebar_named_by_its_class_is_not_text() -> None:
    # trial 120, F2: a sidebar expanded under the current page (its sections' links among the
    # other pages' titles) repeats on no other page, and "Scheduling Configuration Hooks Install
    # Server" was a report's Top passage
    page = html_page(
        '<html><head><title>Backup - quill</title></head><body><div class="sidebar"><ul><li><a '
        'href="backup.html">Backup</a><ul><li><a href="#scheduling">Scheduling</a></li></ul>'
        '</li><li><a href="config.html">Configuration</a></li><li><a href="hooks.html">Hooks'
        '</a></li></ul></div><div class="main"><h1>Backup</h1><h2 id="scheduling">Scheduling'
        '</h2><p>Add the dump command to cron to back up the state every night.</p></div>'
        '</body></html>')
    assert "Configuration" not in page.text and "Hooks" not in page.text, page.text
    assert "Add the dump command to cron" in page.text, page.text
    # SQLite's about.html: a box of links beside the text, to other pages only, is content
    page = html_page(
        '<html><body><h1>About SQLite</h1><div class="rightsidebar border2px"><h4>Executive '
        'Summary</h4><ul><li><a href="fullsql.html">Full-featured SQL</a><li>Max DB size: <a '
        'href="limits.html">281 terabytes</a></ul></div><p>SQLite is an in-process library.'
        '</p></body></html>')
    assert "Max DB size: 281 terabytes" in page.text, page.text

def test_options_man_pages_share_are_their_text_not_boilerplate(tmp_path: Path) -> None:
    # Trial 98, F2: gettext's man pages (groff's HTML) share their common options word for
    # word ("Input file syntax: -P, --properties-input", "-V, --version"), and the folder's
    # repeated-paragraph rule stripped them from every page: msgmerge's page said "input files
    # are in Java .properties syntax" with no option before it, and "What does the
    # --properties-input option of msgmerge do?" cited other tools
    from workers.sources import Corpus

    folder = tmp_path / "docs"
    folder.mkdir()
    shared = ("<p><b>Input file syntax: <br>-P</b>, <b>--properties-input</b></p>"
              "<p>input files are in Java .properties syntax</p>"
              "<p><b>-V</b>, <b>--version</b></p><p>output version information and exit</p>")
    for tool in ("msgmerge", "msgcat", "msgattrib", "msgcomm", "msgconv"):
        (folder / f"{tool}.1.html").write_text(
            f"<html><head><title>{tool.upper()}</title></head><body><h2>NAME</h2><p>{tool} - "
            f"the {tool} tool of the suite</p><h2>DESCRIPTION</h2><p>The {tool} tool reads "
            f"catalogs.</p>{shared}<h2>AUTHOR</h2><p>Written by someone.</p></body></html>",
            "utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        text = corpus.read("msgmerge.1.html").text
    assert "-P, --properties-input" in text, text
    assert "input files are in Java .properties syntax" in text, text
    assert "-V, --version" in text and "output version information and exit" in text, text


def test_a_man_pages_links_to_its_own_sections_are_not_its_text() -> None:
    # Trial 98, F4: groff's HTML opens each man page with in-page links separated by <br>,
    # one per section; "NGETTEXT: NAME SYNOPSIS DESCRIPTION RETURN VALUE ERRORS BUGS SEE ALSO"
    # was a Top passage. A paragraph naming other things line by line stays.
    page = html_page(
        '<html><body><h1 align="center">NGETTEXT</h1><a href="#NAME">NAME</a><br>'
        '<a href="#SYNOPSIS">SYNOPSIS</a><br><a href="#DESCRIPTION">DESCRIPTION</a><br>'
        '<a href="#SEE ALSO">SEE ALSO</a><br><hr><h2>NAME<a name="NAME"></a></h2><p>ngettext - '
        'translate message and choose plural form</p><h2>SYNOPSIS</h2><p>ngettext msgid</p>'
        '<h2>DESCRIPTION</h2><p>The ngettext program translates a message.</p><p>NAME<br>'
        'SYNOPSIS<br>FILES</p><h2>SEE ALSO</h2><p>info ngettext</p></body></html>')
    assert "NAME\nSYNOPSIS\nDESCRIPTION" not in page.text, page.text
    assert "ngettext - translate message and choose plural form" in page.text, page.text
    assert "NAME\nSYNOPSIS\nFILES" in page.text, page.text  # FILES heads no section of it


def test_a_heading_linked_back_to_the_contents_keeps_its_text() -> None:
    # trial 110, F2: Docutils writes a heading under a ".. contents::" with backlinks as a link
    # back to the table of contents, role="doc-backlink" as Pandoc's footnote marks; each of
    # Tornado's FAQ headings was dropped with them
    page = html_page('<html><body><section><h2><a class="toc-backref" href="#id2" '
                     'role="doc-backlink">Why is my sleep not running in parallel?</a>'
                     '<a class="headerlink" href="#why">\u00b6</a></h2><p>Because sleep '
                     'blocks the loop.</p></section></body></html>')
    assert ("Why is my sleep not running in parallel?" in [h for h, _t in page.sections]
            ), page.sections
    assert "\u00b6" not in page.text


def test_a_box_of_related_links_is_furniture_and_a_table_of_values_is_not() -> None:
    # trial 110, F8: Apache's "Related Modules / Related Directives" table beside a section
    # opened its passage and was a Finding ("core — Related Directives: DocumentRoot ...")
    page = html_page('<html><body><h2>Using Name-based Virtual Hosts</h2><table class="x">'
                     '<tr><th>Related Modules</th><th>Related Directives</th></tr><tr><td><ul>'
                     '<li><a href="core.html">core</a></li></ul></td><td><ul><li><a href="c.html'
                     '#dr">DocumentRoot</a></li><li><a href="c.html#sn">ServerName</a></li></ul>'
                     '</td></tr></table><p>The first step is to create a block.</p>'
                     '<table><tr><th>Name</th><th>Default</th></tr><tr><td><ul><li><a href="#t">'
                     'Timeout</a> 60 seconds</li></ul></td><td><ul><li>60</li></ul></td></tr>'
                     '</table></body></html>')
    assert "Related Directives" not in page.text and "DocumentRoot" not in page.text, page.text
    assert "The first step" in page.text and "60 seconds" in page.text, page.text


def test_a_table_of_files_to_download_is_the_page_and_no_box_of_links() -> None:
    # trial 116, F4: a download page's table of packages was dropped as a box of related links,
    # and "Which package do I download for Windows on ARM?" was told the sources say nothing
    cell = '<td><ul><li><a href="{0}">{0}</a></li></ul></td>'
    page = html_page('<html><body><h1>Download quillsync 2.0</h1><p>Pick the package for your '
                     'system.</p><table><tr><th>Linux</th><th>macOS</th><th>Windows</th></tr>'
                     '<tr>' + "".join(cell.format(f) for f in (
                         "quillsync_2.0_amd64.deb", "quillsync-2.0-universal.pkg",
                         "quillsync-2.0-arm64.msi")) + '</tr></table></body></html>')
    assert "quillsync-2.0-arm64.msi" in page.text and "Windows" in page.text, page.text
    links = html_page(  # links to the site's pages under a heading naming a thing: content too
        '<html><body><h1>Install</h1><table><tr><th>Windows</th></tr><tr>'
        + cell.format("install-windows.html") + '</tr></table></body></html>')
    assert "install-windows.html" in links.text, links.text
