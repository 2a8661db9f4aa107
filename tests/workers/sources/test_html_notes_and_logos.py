"""A docutils note's label and a site's banner logo are no headings of a page (trial 123)."""

from __future__ import annotations

from workers.sources.htmlpage import html_page

_NOTE = ("<html><head><title>Core Events</title></head><body><h1>Core Events</h1>"
         '<dl class="py method"><dt id="sqlalchemy.events.ConnectionEvents.handle_error">'
         '<span class="sig-name descname">handle_error</span>(context)</dt><dd><p>Intercept '
         'all exceptions, or invalidate the pool on a specific exception <a class="footnote-'
         'reference brackets" href="#id2" id="id1">1</a>.</p>{note}</dd></dl></body></html>')


def test_a_docutils_footnotes_number_labels_nothing() -> None:
    # trial 123, F8: <dl class="footnote brackets"><dt class="label" id="id2"> (docutils before
    # 0.18) was an entry's heading, and SQLAlchemy's note on handle_error a passage labelled "1"
    for note in ('<dl class="footnote brackets"><dt class="label" id="id2"><span class="brackets">'
                 '<a class="fn-backref" href="#id1">1</a></span></dt><dd><p>The pre_ping '
                 'handler does not consult this event.</p></dd></dl>',
                 '<dl class="footnote brackets"><dt class="label" id="id2"><span class="brackets">'
                 '1</span><span class="fn-backref">(<a href="#id1">1</a>,<a href="#id3">2</a>)'
                 '</span></dt><dd><p>The pre_ping handler does not consult this event.</p></dd>'
                 '</dl>',
                 '<table class="docutils footnote" id="id2"><tbody><tr><td class="label"><a '
                 'class="fn-backref" href="#id1">[1]</a></td><td>The pre_ping handler does not '
                 'consult this event.</td></tr></tbody></table>',
                 '<aside class="footnote brackets" id="id2" role="note"><span class="label">'
                 '<span class="fn-bracket">[</span><a role="doc-backlink" href="#id1">1</a><span'
                 ' class="fn-bracket">]</span></span><p>The pre_ping handler does not consult '
                 'this event.</p></aside>'):
        page = html_page(_NOTE.format(note=note))
        headings = [h for h, _t in page.sections]
        assert "1" not in headings and "[1]" not in headings, (note, page.sections)
        assert "handler does not consult this event." in page.sections[-1][1], page.sections
        assert "\n1\n" not in f"\n{page.text}\n" and "[1]" not in page.text, page.text


def test_a_citations_label_goes_with_its_link_back() -> None:
    # docutils before 0.18 writes a citation as a footnote is: its label is no entry
    page = html_page('<html><body><h1>Regular expressions</h1><p>See [Frie09].</p><dl class='
                     '"citation"><dt class="label" id="frie09"><span class="brackets"><a class='
                     '"fn-backref" href="#id1">Frie09</a></span></dt><dd><p>Friedl, Jeffrey. '
                     'Mastering Regular Expressions.</p></dd></dl></body></html>')
    assert [h for h, _t in page.sections] == ["Regular expressions"], page.sections
    assert "Mastering Regular Expressions." in page.text


def test_a_glossarys_terms_stay_entries() -> None:
    page = html_page('<html><body><h1>Glossary</h1><dl class="glossary"><dt class="label" '
                     'id="term-pool">pool</dt><dd><p>A set of connections kept open.</p></dd>'
                     '</dl></body></html>')
    assert "pool" in [h for h, _t in page.sections], page.sections


def _banner(href: str, title: str = "<h1>ORM Events</h1>") -> str:
    return (f'<html><head><title>ORM Events</title></head><body><div id="docs-header"><h1><a '
            f'href="{href}">SQLAlchemy 1.4 Documentation</a></h1></div>{title}<p>The ORM '
            "includes a wide variety of hooks.</p></body></html>")


def test_a_heading_that_is_only_a_link_home_is_the_sites_logo() -> None:
    # trial 123, F11: SQLAlchemy's banner was passage #0 of 138 pages, its heading alone
    for href in ("../index.html", "index.html", "../../", "/"):
        page = html_page(_banner(href))
        assert "SQLAlchemy 1.4 Documentation" not in page.text, (href, page.sections)
        assert [h for h, _t in page.sections if h] == ["ORM Events"], page.sections


def test_a_linked_heading_that_is_a_title_stays() -> None:
    alone = html_page(_banner("../index.html", title=""))  # the page's one title
    assert "SQLAlchemy 1.4 Documentation" in [h for h, _t in alone.sections], alone.sections
    posts = html_page('<html><body><h1>Field notes</h1><h2><a href="posts/herons/index.html">'
                      'Herons in March</a></h2><p>Three pairs nested.</p><h2><a href="/2020/'
                      'owls/">Owls</a></h2><p>Two owls.</p></body></html>')
    headings = [h for h, _t in posts.sections]
    assert "Herons in March" in headings and "Owls" in headings, posts.sections
