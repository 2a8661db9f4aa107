"""A Sphinx-like page documenting one function, ``tackle.spin_reel``, with its parameters'
rows: the fixture of tests/workers/sources/test_example_calls.py and test_kind_of_owner.py
(trial 126, F3)."""

from __future__ import annotations

FILLER = " ".join(f"The reel keeps its line wound in layer {i} of the spool." for i in range(14))
"""Prose that makes a paragraph long enough to be a passage of its own."""


def reel_page(drag_tail: str = "", entry_tail: str = "", after: str = "") -> str:
    """The page's HTML: ``spin_reel``'s entry (its summary and its ``depth`` and ``drag_kind``
    rows), ``drag_tail`` after the ``drag_kind`` row's text, ``entry_tail`` (HTML) closing the
    entry, then ``after`` (HTML) below it."""
    return f"""
        <html><head><title>Reels</title></head><body><h1>Reels</h1>
        <dl class="py function"><dt class="sig sig-object py" id="tackle.spin_reel">
        <span class="sig-prename">tackle.</span><span class="sig-name">spin_reel</span>(<em
        class="sig-param">line</em>, <em class="sig-param">depth=3</em>, <em
        class="sig-param">drag_kind='auto'</em>)</dt>
        <dd><p>Spin a fishing reel until the line reaches the depth asked. {FILLER}</p>
        <p>depth (int) \u2013 How deep the line is let out, in metres. {FILLER}</p>
        <p>drag_kind (str) \u2013 The drag to use. The 'auto' drag brakes by itself; the 'hand'
        drag needs the angler's thumb on the spool.{drag_tail}</p>{entry_tail}</dd></dl>
        {after}</body></html>
        """
