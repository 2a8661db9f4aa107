"""Each item of an HTML "See also" box opens "See also: " (Sphinx's ``<div class="admonition
seealso">``): read as a paragraph of its own under the box's title, "For relationship
<relationship>, delete-orphan cascade is normally configured only on the one side ... -
background on a common error scenario ..." was quoted as the Answer (trial 123, F2)."""

from __future__ import annotations

from app.research.signposts import is_signpost
from workers.sources.htmlpage import html_page

BOX = """<html><body><section><h2>delete-orphan</h2>
<p>delete-orphan cascade marks a child for deletion when it is de-associated from its
parent.</p>
<div class="admonition seealso"><p class="admonition-title">See also</p>
<p><a class="reference internal" href="../errors.html#error-bbf0"><span>For relationship
&lt;relationship&gt;, delete-orphan cascade is normally configured only on the one side of a
one-to-many relationship.</span></a> - background on a common error scenario.</p>
<p><a href="#passive-deletes"><span>Using foreign key ON DELETE cascade</span></a></p>
</div>
<p>The cascade is off by default.</p></section></body></html>"""


def test_each_see_also_item_is_labelled_and_reads_as_a_pointer() -> None:
    paragraphs = html_page(BOX).text.split("\n\n")
    items = [p for p in paragraphs if "relationship>" in p or "ON DELETE" in p]
    assert [p[:26] for p in items] == ["See also: For relationship",
                                       "See also: Using foreign ke"], paragraphs
    assert all(is_signpost(p) for p in items)
    assert "See also" not in paragraphs, paragraphs  # the box's title is on its items now
    assert paragraphs[-1] == "The cascade is off by default."
