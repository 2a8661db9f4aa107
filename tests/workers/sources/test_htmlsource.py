"""A furniture test asked only of the pages whose bytes hold its word finds on each page what it
finds asked of every page (:mod:`workers.sources.htmlsource`): one page per gated test, each
with furniture to find, some of it spelled in upper case or by character references."""

from __future__ import annotations

import pytest
from lxml import html

from workers.sources.htmlfurniture import page_furniture, tab_labels
from workers.sources.htmlseealso import see_also_labelled
from workers.sources.htmlsource import in_page_links, may_hold, page_source

PAGES = {
    "class": '<div class="Footnote-Reference footnoteref">1</div><p class="x">Text.</p>',
    "id by reference": '<div id="&#x74;oc"><a href="#a">A</a></div><p>Text.</p>',
    "nav class": '<DIV CLASS="NavBar"><a href="a.html">A</a></DIV><p>Text.</p>',
    "math": '<p>where <span class="MATH">4#4</span>axes</p>',
    "role": '<aside><a role="doc-backlink" href="#r">1</a></aside><p>Text.</p>',
    "landmark": '<div role="navigation"><a href="a.html">A</a></div><p>Text.</p>',
    "toc id": '<div id="TOC"><a href="#a">A</a></div><p>Text.</p>',
    "cookie": '<div class="CookieBanner">We use cookies.</div><p>Text.</p>',
    "aria-hidden": '<p>Text <span aria-hidden="true">*</span>.</p>',
    "contents": '<ul><li><a href="#a">A</a></li><li><a href="#b">B</a></li></ul>'
                '<h2 id="a">A</h2><p>Text.</p>',
    "contents by reference": '<ul><li><a href="&#35;a">A</a></li><li><a href="&#x23;b">B</a></li>'
                             '</ul><p>Text.</p>',
    "logo": '<h1><a href="../index.html">Site</a></h1><h1>Page</h1><p>Text.</p>',
    "footnote link": '<p>Text<a href="#fn1"><sup>1</sup></a>.</p>',
    "sidebar": '<div id="docs-SideBar"><a href="#a">A</a> <a href="b.html">B</a></div>'
               '<h2 id="a">A</h2><p>Text.</p>',
    "box": '<table><tr><th>Related Modules</th></tr><tr><td><ul><li><a href="a.html">a</a>'
           '</li></ul></td></tr></table><p>Text.</p>',
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_furniture_found_with_the_bytes_is_the_furniture_found_without(name: str) -> None:
    data = f"<html><body>{PAGES[name]}</body></html>".encode()
    root = html.document_fromstring(data)
    everywhere = page_furniture(root)
    assert everywhere, name  # the page has furniture to find
    assert page_furniture(root, page_source(data)) == everywhere


def test_a_page_without_the_words_is_not_asked() -> None:
    source = page_source(b"<html><body><p>Plain text.</p></body></html>")
    assert not may_hold(source, b"role", b"toc", b"<li") and not in_page_links(source)
    assert may_hold(source) and may_hold(None, b"role") and in_page_links(None)


def test_tabs_and_see_also_boxes_are_read_as_without_the_bytes() -> None:
    page = ('<div role="tablist"><button role="tab" id="t0">Bash</button></div><div '
            'role="tabpanel" aria-labelledby="t0"><p>Add this.</p></div><label class='
            '"sd-tab-label">Zsh</label><div class="admonition seealso"><p class="admonition-'
            'title">See also</p><p>Other.</p></div>')
    data = f"<html><body>{page}</body></html>".encode()
    trees = [html.document_fromstring(data) for _ in range(2)]
    for root, source in zip(trees, (None, page_source(data)), strict=True):
        tab_labels(root, source)
        see_also_labelled(root, source)
    assert html.tostring(trees[0]) == html.tostring(trees[1])
    assert b"See also: Other." in html.tostring(trees[1]) and b"<p>Bash</p>" in html.tostring(
        trees[1])
