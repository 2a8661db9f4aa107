"""An HTML page's navigation bar and form fields are not its text (trial 10, finding 15: the
``<nav>`` bar "Home | Census | Herons" was a report's top passage, and a ``<textarea>``'s text
was indexed as a passage)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from workers.sources.htmlpage import html_page

ROOT = Path(__file__).resolve().parents[3]

PAGE = """<html><head><title>Heron census guide</title></head><body>
<nav><a href="/">Home</a> | <a href="/c">Census</a> | <a href="/h">Herons</a></nav>
<h1>Heron census</h1>
<p>The heron census counts nests and adults each spring using aerial photos.</p>
<form><textarea>heron census textarea junk</textarea>
<select><option>heron option junk</option></select></form>
</body></html>"""


def test_nav_bars_and_form_fields_are_left_out() -> None:
    page = html_page(PAGE)
    text = "\n".join(str(part) for part in (page.title, *page.sections))
    assert "counts nests and adults" in text
    for junk in ("Home", "Herons", "textarea junk", "option junk"):
        assert junk not in text, text


# LaTeX2HTML's panel (gnuplot's manual), DocBook's header, Sphinx's bar with a role.
DIV_BARS = """<HTML><BODY>
<DIV CLASS="navigation"><!--Navigation Panel--><B> Next:</B> <A HREF="n2.html">Macros</A>
<B> Up:</B> <A HREF="n1.html">Set-show</A> <B> Previous:</B> <A HREF="n0.html">Locale</A></DIV>
<div class="NavHeader"><table><tr><td>Prev</td><td>Chapter 3. Herons</td><td>Next</td></tr>
</table></div>
<div class="related" role="navigation"><ul><li><a href="i.html">index</a></li></ul></div>
<H2>Logscale</H2><P>Heron counts are plotted on a log scale.</P>
<div class="navigational-aids"><p>A class that only starts like a bar's is text.</p></div>
</BODY></HTML>"""


def test_navigation_bars_written_as_divs_are_left_out() -> None:
    # Trial 26, finding 8: "Logscale: Next: Macros Up: Set-show Previous: Locale Index" was a
    # report's top passage (LaTeX2HTML writes its panel as <DIV CLASS="navigation">, no <nav>).
    page = html_page(DIV_BARS)
    text = "\n".join(body for _heading, body in page.sections)
    assert "plotted on a log scale" in text and "only starts like a bar's" in text
    for junk in ("Next:", "Set-show", "Locale", "Prev", "Chapter 3", "index"):
        assert junk not in text, text


def test_a_navigation_class_on_the_body_or_on_a_block_with_headings_keeps_its_text() -> None:
    # Trial 27: <body class="navigation"> (or a div so classed holding the whole page) left the
    # page with no text, and it was skipped; a bar holds no heading
    for page in ('<html><body class="navigation"><h1>Herons</h1><p>Herons nest in spring.</p>'
                 '</body></html>',
                 '<html><body><div class="navigation"><h2>Herons</h2><p>Herons nest in spring.'
                 '</p></div><div class="navigation">Next Up Previous</div></body></html>'):
        text = "\n".join(body for _heading, body in html_page(page).sections)
        assert "Herons nest in spring." in text and "Previous" not in text, text



def test_a_bar_found_by_two_tests_is_dropped_once() -> None:
    # A LaTeX2HTML panel whose links say where they go (rel="next"...) is a bar by its class
    # and by its links: dropped twice, lxml's drop_tree raised AssertionError and the whole run
    # ended "run failed: AssertionError: (no message)"
    page = html_page('<html><body><p>Herons nest in spring.</p><div class="navigation">'
                     '<a rel="next" href="n.html">Next</a> <a rel="prev" href="p.html">Prev</a>'
                     '</div><p>Egrets nest later.</p></body></html>')
    assert page.text == "Herons nest in spring.\n\nEgrets nest later.", page.text

# HAProxy's manual (haproxy-dconv): a Bootstrap dropdown inside every keyword it mentions, and
# its keyword entries written as <div class="keyword">, not headings; Sphinx's "¶" permalinks.
KEYWORD_PAGE = """<html><body><h2>5.2. Server and default-server options</h2>
<div class="keyword"><b><a class="anchor" name="fall"></a>fall</b> <span>&lt;count&gt;</span>
</div><pre class="text">The "fall" parameter states that a server is dead after count
failed checks. This value defaults to 3 if unspecified. See also the "<span class="dropdown">\
<a class="dropdown-toggle" href="#">inter</a><ul class="dropdown-menu"><li class="dropdown-header"\
>This keyword is available in sections :</li><li><a href="#x">Bind options</a></li></ul></span>"
parameter.</pre>
<div class="keyword"><b>inter</b> &lt;delay&gt;</div>
<div class="keyword"><b>fastinter</b> &lt;delay&gt;</div>
<pre class="text">The "inter" parameter sets the interval between two checks. If left
unspecified, the delay defaults to 2000 ms.</pre>
<h3>Herons<a class="headerlink" href="#herons" title="Permalink">¶</a></h3>
<p>Herons nest in colonies.<span aria-hidden="true">icon junk</span></p>
<div style="display: none"><p>A folded answer shows when asked.</p></div>
</body></html>"""


def test_hidden_ui_is_no_text_and_a_keyword_div_is_its_entrys_heading() -> None:
    # trial 29, findings 2, 3 and 9: the dropdown ("This keyword is available in sections")
    # was in 305 of 2,236 passages, cutting keywords off their own sentences; one passage ran
    # across entries, so fall's "defaults to 3" answered for inter; "Herons¶" headings
    page = html_page(KEYWORD_PAGE)
    text = page.text
    for junk in ("available in sections", "Bind options", "icon junk", "¶"):
        assert junk not in text, text
    assert "A folded answer shows when asked." in text  # a reader unfolds it: text
    assert 'See also the "inter" parameter.' in " ".join(text.split())
    headings = [heading for heading, _text in page.sections]
    # entries with no text of their own share the next one's (a section heading does not)
    assert headings == ["5.2. Server and default-server options", "fall <count>",
                        "inter <delay> / fastinter <delay>", "Herons"], headings
    inter = dict(page.sections)["inter <delay> / fastinter <delay>"]
    assert "defaults to 2000 ms" in inter and "defaults to 3" not in inter


def test_a_paragraph_of_many_footnote_marks_and_icons_is_read_in_linear_time() -> None:
    # Trial 61, F1: each mark or icon left out was dropped on its own, its tail appended to the
    # paragraph's text so far, O(n²) in one paragraph: 30,000 marks took 25 s to index, these
    # 80,000 (and as many icons) about three minutes; in linear time, a second or two. Read in
    # a process of its own, given a minute.
    code = """
from workers.sources.htmlpage import html_page
marks = "".join(f'Claim {i} about leaks.<a href="#n{i}"><sup>{i % 9 + 1}</sup></a> '
                f'<span aria-hidden="true">*</span>' for i in range(80_000))
page = html_page(f"<html><body><p>{marks}</p></body></html>")
print(page.text.count("about leaks."), "*" in page.text, "leaks.1" in page.text)
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.stdout.split() == ["80000", "False", "False"], proc.stderr[-2000:]


def test_a_bar_classed_nav_is_left_out() -> None:
    # Trial 61, F2: Valgrind's manual (DocBook) writes its header and footer as
    # <table class="nav">, and "Valgrind Technical Documentation << Valgrind Frequently Asked
    # Questions >>" was an Answer; Django's pages hold "« previous | up | next »" in a
    # <div class="nav"> (1,068 lines of its index)
    page = html_page(
        '<html><body><div class="nav"><a href="a.html">« previous</a> | <a href="..">up</a> | '
        '<a href="b.html">next »</a></div><h1>Herons</h1><p>Herons nest in spring.</p>'
        '<table class="nav" summary="Navigation footer"><tr><td><a accesskey="p" href="p.html">'
        '&lt;&lt;\xa0Egret census</a></td><td><a accesskey="n" href="n.html">Stork census\xa0'
        '&gt;&gt;</a></td></tr></table></body></html>')
    assert page.text == "Herons\n\nHerons nest in spring.", page.text


def test_a_sphinx_sidebar_and_source_links_are_left_out() -> None:
    # Trial 62, F2 and F7: Sphinx's sidebar (role="navigation", headed "Table of Contents",
    # "Previous topic", "Next topic", "Quick search") was 3,590 of Django's 17,747 passages; a
    # method's "[source]" link labelled passages ("class LiveServerTestCase[source]")
    page = html_page(
        '<html><body><div class="document"><h1>Sending email</h1><dl class="py function">'
        '<dt id="send_mail">send_mail(subject)<a href="_modules/mail.html"><span '
        'class="viewcode-link">[source]</span></a></dt><dd><p>Sends a heron census email.</p>'
        '</dd></dl></div><div class="sphinxsidebar" role="navigation"><h3>Table of Contents</h3>'
        '<ul><li><a href="#">Sending email</a></li></ul><h4>Previous topic</h4><p><a href="s.html">'
        'Cryptographic signing</a></p><h3>Quick search</h3></div></body></html>')
    assert "Sends a heron census email." in page.text
    for junk in ("[source]", "Table of Contents", "Previous topic", "Cryptographic", "Quick"):
        assert junk not in page.text, page.text


def test_a_sidebar_whose_heading_is_the_projects_logo_is_left_out() -> None:
    # Trial 96, F8: Alabaster's sidebar (role="navigation") opens with the project's logo, an
    # <h1> that is a link home; the h1 kept the whole sidebar ("Navigation", the manual's
    # chapter list, "Related Topics") as cairocffi's passages, and "Navigation: cairo versions
    # Basic usage" was quoted in two reports. A page's own title in such a block still keeps it.
    sidebar = ('<div class="sphinxsidebar" role="navigation"><h1 class="logo"><a href="index.html">'
               'cairocffi</a></h1><h3>Navigation</h3><ul><li><a href="#versions">cairo versions'
               '</a></li><li><a href="#usage">Basic usage</a></li></ul><h3>Related Topics</h3>'
               '<ul><li>Previous: <a href="index.html">Documentation</a></li></ul></div>')
    page = html_page('<html><body><div class="body"><h1>Overview</h1><p>Use cairo_version() to '
                     f'test the version number for cairo.</p></div>{sidebar}</body></html>')
    assert "Use cairo_version()" in page.text
    for junk in ("Navigation", "Basic usage", "Related Topics", "Documentation"):
        assert junk not in page.text, page.text
    titled = html_page('<html><body><div role="navigation"><h1>Heron census</h1><p>Herons '
                       'nest in spring.</p></div></body></html>')
    assert "Herons nest in spring." in titled.text, titled.text


def test_tab_labels_head_their_panels_not_run_together() -> None:
    """sphinx-tabs writes its buttons in a row above the panels: Click's shell-completion page
    read "BashZshFish Add this to ~/.bashrc:" (trial 114, F12a); sphinx-design writes each
    label before its panel."""
    tabs = ('<div class="sphinx-tabs"><div role="tablist"><button role="tab" id="t-0">Bash'
            '</button><button role="tab" id="t-1">Zsh</button></div>'
            '<div role="tabpanel" aria-labelledby="t-0"><p>Add this to ~/.bashrc:</p>'
            '<pre>eval "$(_FOO_COMPLETE=bash_source foo)"</pre></div>'
            '<div role="tabpanel" aria-labelledby="t-1" hidden="true">'
            '<p>Add this to ~/.zshrc:</p></div></div>'
            '<div class="sd-tab-set"><input type="radio" id="s1"><label class="sd-tab-label" '
            'for="s1">Fish</label><div class="sd-tab-content"><p>Save the script.</p></div>'
            '</div>')
    text = html_page(f"<html><body><h1>Completion</h1>{tabs}</body></html>").text
    assert "BashZsh" not in text and "FishSave" not in text
    assert "Bash\n\nAdd this to ~/.bashrc:" in text
    assert "Zsh\n\nAdd this to ~/.zshrc:" in text
    assert "Fish\n\nSave the script." in text
