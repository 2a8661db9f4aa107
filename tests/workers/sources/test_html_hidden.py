"""An HTML page's navigation bar and form fields are not its text (trial 10, finding 15: the
``<nav>`` bar "Home | Census | Herons" was a report's top passage, and a ``<textarea>``'s text
was indexed as a passage)."""

from __future__ import annotations

from workers.sources.htmlpage import html_page

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
