"""A "See also" box of an HTML page, readied for the text stylesheet of
:mod:`workers.sources.htmlpage`: each of its items opens "See also: ", as reStructuredText's
``.. seealso::`` reads in :mod:`workers.sources.rsttext`.

Sphinx (and MkDocs' admonitions) write the box as ``<div class="admonition seealso">``, its
title a paragraph of its own (``<p class="admonition-title">See also</p>``) and each item a
link whose text is the title of the section it points at, often followed by what that section
has: "How do I render SQL expressions as strings, possibly with bound parameters inlined? -
includes a usage example for debugging use cases.". Such a line repeats a question's words and
states nothing; read as a paragraph of its own, under the title alone before it, it was quoted
as the Answer (trial 123, F2: SQLAlchemy's cascades, internals and PostgreSQL pages). Labelled,
each item reads as the pointer it is (:func:`app.research.signposts.is_signpost`).

This module imports :mod:`workers.sources.htmlnav` and :mod:`workers.sources.htmlsource` only;
it reads lxml's elements through their own methods.
"""

from __future__ import annotations

from typing import Any

from workers.sources.htmlnav import class_token
from workers.sources.htmlsource import may_hold

__all__ = ["SEE_ALSO", "see_also_labelled"]

SEE_ALSO = "See also: "
"""What each item of a "See also" box opens with."""
_BOXES = f"//div[{class_token('seealso')}]"
_TITLE = f"./*[{class_token('admonition-title')}]"
_ITEMS = "./p | ./*/dt | ./*/li[not(p)] | ./*/li/p[1]"
"""A box's items: its paragraphs, a list's items (their first paragraph when they hold
paragraphs) and a definition list's terms (Python's "Module pickle" over what it has: the term
and its description are one line, :func:`workers.sources.htmlpage._terms_joined`)."""


def see_also_labelled(root: Any, source: bytes | None = None) -> None:
    """Each item of each "See also" box of ``root`` opening :data:`SEE_ALSO`, the box's own
    title left out (its words are on every item now), in place.

    Example:
        >>> from lxml import html
        >>> page = html.fromstring('<div><div class="admonition seealso"><p class="admonition-'
        ...     'title">See also</p><p><a href="errors.html">Delete-orphan errors</a> - '
        ...     'background.</p><ul><li>Cascades</li></ul></div><p>Other text.</p></div>')
        >>> see_also_labelled(page)
        >>> [" ".join(p.text_content().split()) for p in page.iter("p", "li")]
        ['See also: Delete-orphan errors - background.', 'See also: Cascades', 'Other text.']
    """
    if not may_hold(source, b"seealso"):  # its bytes (htmlsource.page_source): no such box
        return
    for box in root.xpath(_BOXES):
        for title in box.xpath(_TITLE):
            title.drop_tree()
        for item in box.xpath(_ITEMS):
            item.text = SEE_ALSO + (item.text or "").lstrip()
