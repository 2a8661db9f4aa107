"""Text the report quotes is never the report's markup (``workers.sources.base.inert_markdown``):
a search result's snippet held ``<script>`` and ``[x](javascript:...)``, its URL's path a ``)``
that closed the Sources link and opened a ``javascript:`` one, and a planner's sub-question
``<img onerror=...>`` as a section heading; a markdown viewer would run or offer each."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from app.research.report import render_markdown
from tests.app.report_rows import data, item, row
from workers.sources.base import inert_markdown

URL = "https://example.org/a) [click me](javascript:alert(1)"
Q = "What is the relay? <img src=x onerror=alert(1)> [click](javascript:alert(2))"


def test_quoted_text_opens_no_tag_and_no_link() -> None:
    snippet = ("The relay moves packets. <script>alert(1)</script> [x](javascript:alert(2)) "
               "and `<code>` stays code.")
    web = item("finding", snippet, f"{URL}#0", title="<img src=x onerror=alert(3)> Relay",
               source=URL)
    md = render_markdown(data([row("analyst", Q, [web])], topic=Q, sub_questions=[Q]))
    shown = MarkdownIt("commonmark").render(md)  # what a viewer renders
    assert not re.search(r"<(script|img)", shown), shown
    assert not [h for h in re.findall(r'href="([^"]*)"', shown) if h.startswith("javascript")]
    assert "`<code>` stays code" in md  # a code span is shown as it is
    sources = md.split("## Sources", 1)[1]
    assert "(https://example.org/a%29%20%5Bclick%20me%5D%28javascript:alert%281%29)" in sources
    assert "&lt;img src=x onerror=alert(3)> Relay" in sources, sources


def test_backticks_left_unclosed_open_no_code_span() -> None:
    # "```<img src=x onerror=alert(1)>``": a run of three backticks is closed only by three
    # (CommonMark 6.1), so the tag is live text, and the escaping took it for code
    snippet = "```<img src=x onerror=alert(1)>`` then [x](javascript:alert(2))"
    web = item("finding", f"The relay moves packets. {snippet}", f"{URL}#0",
               title="Relay\\", source=URL)
    md = render_markdown(data([row("analyst", Q, [web])], topic=Q, sub_questions=[Q]))
    body = md.split("## Sources")[0]
    assert "<img" not in body and "](javascript" not in body, md
    assert "[Relay\\\\](https://example.org/a%29" in md, md  # its backslash escapes no "]"


def test_a_type_written_as_a_tag_is_shown_as_code_and_stays_inert() -> None:
    # Trial 43: Node.js writes types as tags ("data <any> a chunk of data"), and every such line
    # of a report read "data &lt;any> a chunk"; shown as code, it reads as written, and is as
    # inert: rendered by a CommonMark parser, no tag is live, backticks left unclosed or not
    snippet = ("The relay sends data <any> a chunk of the stream; ` an unclosed run, then "
               "<b>bold</b> and <script>alert(1)</script>")
    web = item("finding", snippet, f"{URL}#0", title="Streams", source=URL)
    md = render_markdown(data([row("analyst", Q, [web])], topic=Q, sub_questions=[Q]))
    assert "&lt;any>" not in md, md
    html = MarkdownIt("commonmark").render(md)
    assert "data <code>&lt;any&gt;</code> a chunk" in html, html
    assert not re.search(r"<(b|script|img)\b", html), html


def test_a_placeholder_in_prose_is_one_code_span_of_single_backticks() -> None:
    # Trial 121, F11: "pop [--index] [-q|--quiet] [``<stash>``]": the report's own code spans
    # (its thread, its refs) were counted as runs a placeholder's fence must not match
    claim = "pop [--index] [<stash>]: Remove a single stashed state from the stash list."
    found = item("finding", claim, "git-stash.html#8", title="git-stash(1)")
    asked = "What does stash pop remove?"
    md = render_markdown(data([row("analyst", asked, [found])], topic=asked,
                              sub_questions=[asked]))
    assert "pop [--index] [`<stash>`]: Remove" in md, md
    html = MarkdownIt("commonmark").render(md)
    assert "[<code>&lt;stash&gt;</code>]" in html, html


def test_a_placeholder_is_code_in_one_backtick_beside_a_line_with_code() -> None:
    # trial 123, F10: the header's "- Thread: `...`" made every tag "``<relationship>``"
    said = ("For relationship <relationship>, delete-orphan cascade is normally configured "
            "only on the one side of a one-to-many relationship.")
    q = "What does delete-orphan cascade do?"
    md = render_markdown(data([row("analyst", q, [item("finding", said, "cascades.html#3")])],
                              topic=q, sub_questions=[q]))
    assert "For relationship `<relationship>`, delete-orphan" in md, md
    assert "<code>&lt;relationship&gt;</code>" in MarkdownIt("commonmark").render(md)


def test_a_tag_is_code_whatever_backticks_its_block_or_others_hold() -> None:
    for text in ("- a ` b\n- c <script>x", "a ` b\nc <script>x\n\nd ` e", "# h `\n<script>x",
                 "- `` a\n  b <script> ``", "- a\n\n  ` b <script> ` <img>", "x `` y\n- <img>"):
        shown = MarkdownIt("commonmark").render(inert_markdown(text))
        assert not re.search(r"<(script|img)", shown), (text, shown)
