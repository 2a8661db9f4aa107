"""An API reference page as Node.js's manual writes it (trial 43): each function under an
``h4``, a permalink mark "#" in every heading, a table of contents of in-page links at the
top. Cut at ``h1``-``h3`` only, ``fs.html`` was 295 passages under 10 headings ("the default
highWaterMark" never found the entry's own ``Default: 16384``), every heading ended in "#",
and 456 contents passages were quoted as answers."""

from __future__ import annotations

from workers.sources.htmlpage import html_page

NODE_PAGE = """<html><head><title>File system | Node.js v18.20.4 Documentation</title></head>
<body>
<details id="toc" open><summary>Table of contents</summary><ul>
<li><a href="#file-system">File system</a><ul>
<li><a href="#fsmkdir"><code>fs.mkdir(path[, options], callback)</code></a></li>
<li><a href="#fsmkdtemp"><code>fs.mkdtemp(prefix[, options], callback)</code></a></li>
</ul></li></ul></details>
<div id="apicontent">
<h2>File system<span><a class="mark" href="#file-system" id="file-system">#</a></span></h2>
<p>The <code>node:fs</code> module enables interacting with the file system.</p>
<h4><code>fs.mkdir(path[, options], callback)</code><span><a class="mark" href="#fsmkdir"
 id="fsmkdir">#</a></span></h4>
<ul><li><code>recursive</code> &lt;boolean&gt; <strong>Default:</strong> <code>false</code></li>
</ul>
<p>Asynchronously creates a directory.</p>
<h4><code>fs.mkdtemp(prefix[, options], callback)</code><span><a class="mark" href="#fsmkdtemp"
 id="fsmkdtemp">#</a></span></h4>
<p>Creates a unique temporary directory.</p>
</div></body></html>"""


def test_each_entry_under_an_h4_is_a_section_of_its_own():
    page = html_page(NODE_PAGE)
    headings = [h for h, _text in page.sections]
    assert headings == ["File system", "fs.mkdir(path[, options], callback)",
                        "fs.mkdtemp(prefix[, options], callback)"], page.sections
    mkdir = dict(page.sections)["fs.mkdir(path[, options], callback)"]
    assert "Default: false" in mkdir and "Asynchronously creates a directory." in mkdir
    assert "temporary" not in mkdir


def test_permalink_marks_and_the_table_of_contents_are_no_text():
    page = html_page(NODE_PAGE)
    assert "#" not in page.text and "Table of contents" not in page.text
    assert page.text.count("fs.mkdtemp") == 1  # its heading, not the contents' link too
    sphinx = html_page('<h1>Retry<a class="headerlink" href="#retry">¶</a></h1><p>Text.</p>'
                       '<h2>Policy<a href="#policy">§</a></h2><p>More.</p>')
    assert [h for h, _t in sphinx.sections] == ["Retry", "Policy"]


def test_a_glossary_of_in_page_links_each_with_its_description_is_text():
    # trial 44, F3: a list whose items each link a term to its anchor and then say what it is
    # was dropped as a table of contents (Node.js's child_process.exec(): "spawns a shell and
    # runs a command within that shell"; git's object types; N-API's parameter lists)
    page = html_page('<h2>Asynchronous process creation</h2><ul>'
                     '<li><a href="#exec"><code>child_process.exec()</code></a>: spawns a shell '
                     'and runs a command within that shell.</li>'
                     '<li><a href="#fork"><code>child_process.fork()</code></a>: spawns a new '
                     'Node.js process.</li></ul>'
                     '<ul><li><a href="#blob">blob</a> <em>stores file data.</em></li>'
                     '<li><a href="#tree">tree</a> <em>ties names to blobs.</em></li></ul>')
    for kept in ("spawns a shell and runs a command", "spawns a new Node.js process",
                 "stores file data", "ties names to blobs"):
        assert kept in page.text, (kept, page.text)


def test_a_list_of_links_to_other_pages_or_with_prose_is_text():
    page = html_page('<h1>See also</h1><ul><li><a href="other.html#x">Other</a></li>'
                     '<li><a href="more.html">More</a></li></ul>'
                     '<ul><li><a href="#a">A</a> explains the first step.</li>'
                     '<li>The second has no link.</li></ul>'
                     '<p>Marks <a href="#top">##</a> and a link <a href="#top">#1</a>.</p>')
    for kept in ("Other", "More", "explains the first step", "The second has no link",
                 "##", "#1"):
        assert kept in page.text, kept


def test_docutils_contents_with_its_items_in_paragraphs_is_no_text():
    # trial 63: docutils 0.17+ writes each contents item as <li><p><a>; CMake's module pages
    # opened with "Contents FetchContent Overview Commands Variables Examples ..."
    item = '<li><p><a class="reference internal" href="#{0}">{1}</a></p>{2}</li>'
    toc = ('<ul class="simple">' + item.format("fetch", "Fetch", '<ul>' + item.format(
        "overview", "Overview", "") + "</ul>") + item.format("examples", "Examples", "") + "</ul>")
    glossary = ('<ul><li><p><a href="#blob">blob</a> stores file data.</p></li>'
                '<li><p><a href="#tree">tree</a> ties names to blobs.</p></li></ul>')
    for contents in (f'<div class="contents local topic" id="contents"><p class="topic-title">'
                     f'Contents</p>{toc}</div>', toc):
        page = html_page(f"<h1>Fetch</h1><p>New in version 3.11.</p>{contents}<h2>Overview"
                         f"</h2><p>Populates content.</p><h2>Examples</h2><p>One.</p>{glossary}")
        assert "Contents" not in page.text and page.text.count("Overview") == 1, page.text
        assert "stores file data" in page.text and "ties names to blobs" in page.text


def test_latex2html_placeholders_and_page_references_are_no_text():
    # trial 65, F6, F7: gnuplot's latex2html pages left "4#4axes5#5" for an unrendered
    # "<axes>" and "(p. )" where a cross-reference icon was
    page = html_page('<h1>Logscale</h1><p>where <SPAN CLASS="MATH">4#4</SPAN>axes<SPAN CLASS='
                     '"MATH">5#5</SPAN> may be any of <B>x</B>, <B>y</B>. See <B>gprintf (p.&nbsp;'
                     '<A HREF="node303.html#gprintf"><IMG ALT="[*]" SRC="crossref.png"></A>)'
                     '</B> for <SPAN CLASS="MATH">2 &lt; x</SPAN> (p. 12).</p>')
    assert "where axes may be any of x, y. See gprintf for 2 < x (p. 12)." in page.text, page.text


def test_a_texinfo_definitions_empty_category_is_no_text():
    # trial 68, F2: Octave's manual labels each function ": fzero (fun, x0)", and ": " began
    # labels and an Answer ("- : inputParser.Parameters: Return list of parameter names")
    dt = ('<dt id="index-{0}"><span class="category">{1}</span><span><strong>{0}</strong> '
          '<em>(<var>fun</var>, <var>x0</var>)</em></span></dt>')
    page = html_page(f'<h2>Solvers</h2><dl class="def">{dt.format("fzero", ": ")}'
                     f'<dd><p>Find a zero of a univariate function.</p></dd></dl>'
                     f'<dl class="def">{dt.format("fsolve", "Function: ")}'
                     f'<dd><p>Solve a system of nonlinear equations.</p></dd></dl>')
    assert "fzero (fun, x0)" in page.text and ": fzero" not in page.text, page.text
    assert "Function: fsolve (fun, x0)" in page.text, page.text  # a category is kept


def test_sphinx_general_and_module_indexes_are_no_text():
    # trial 68: Flask's genindex.html was 42 passages of "url_value_preprocessor()
    # (flask.Blueprint method)", a list of links to the entries the pages hold
    page = html_page('<h1>Index</h1><h2 id="A">A</h2><table class="indextable genindextable">'
                     '<tr><td><ul><li><a href="api.html#flask.abort">abort() (in module flask)'
                     '</a></li></ul></td></tr></table><p>The abort helper raises errors.</p>')
    assert "in module flask" not in page.text and "abort helper raises" in page.text, page.text
