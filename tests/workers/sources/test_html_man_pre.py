"""A man page groff rendered to HTML, its text in one ``<pre>`` (Postfix's manual: qshape.1,
postsuper.1, postscreen.8): its words broken at line ends are whole again, and a compound it
writes with its hyphen keeps it (trial 114, F3)."""

from __future__ import annotations

from workers.sources.htmlpage import html_page
from workers.sources.hyphens import compounds, dehyphenated

MAN = """<html><head><title>Postfix manual - qshape(1)</title></head><body><pre>
       The <b>qshape</b> program helps the administrator understand the Postfix queue
       message distribution in time and by sender domain or recipient  domain.
       It reads each queue subdirec-
       tory and shows the queue dis-
       tribution. Mail for the <a href="trivial-rewrite.8.html">trivial-
       rewrite(8)</a> daemon waits to con-
       tact a malfunctioning message delivery transport. The trivial-rewrite(8)
       server is asked once.
</pre></body></html>"""


def test_a_word_groff_broke_at_a_lines_end_is_whole_again() -> None:
    text = html_page(MAN).text
    for whole in ("each queue subdirectory", "the queue distribution",
                  "waits to contact a malfunctioning", "the trivial-rewrite(8) daemon"):
        assert whole in text, text
    assert "- " not in text, text


def test_a_compound_keeps_its_hyphen_unless_the_document_writes_it_joined() -> None:
    keep = compounds(["the post-queue filter and the trivial-rewrite daemon", "postqueue -p"])
    assert keep == frozenset({"trivial-rewrite"})
    text = "a post-\n   queue filter; the trivial-\n   rewrite daemon; mes-\n   sage"
    assert dehyphenated(text, keep) == "a postqueue filter; the trivial-rewrite daemon; message"

