"""A ``<pre>`` of an HTML page keeps its lines as a fenced code block, unless it is prose laid
out by hand (trial 30, kind 6: Git's listings and terminal transcripts were joined into one
line, and "$ edit <1> $ git add frotz.c ..." and "! [rejected] ... hint: ..." were a report's
findings; HAProxy's manual writes its prose in ``<pre>``, read as paragraphs as before)."""

from __future__ import annotations

from app.llm.offline.sentences import prose_sentences
from workers.sources.htmlpage import html_page

LISTING = """<html><body><h2>EXAMPLES</h2><p>Undo add:</p>
<div class="listingblock"><div class="content"><pre><code>$ edit    <b>&lt;1&gt;</b>
$ git add frotz.c filfre.c
$ mailx   <b>&lt;2&gt;</b>
$ git reset    <b>&lt;3&gt;</b></code></pre></div></div>
<p>You are happily working on something.</p>
<pre>To nikola:/srv/git/repo.git
 ! [rejected]        master -&gt; master (non-fast-forward)
error: failed to push some refs to 'nikola:/srv/git/repo.git'
hint: Updates were rejected because the tip of your current branch is behind
hint: its remote counterpart. Integrate the remote changes (e.g.
hint: 'git pull ...') before pushing again.</pre>
<pre>Such prose is laid out by hand in this manual, and its lines are wrapped where
the writer chose. It is read as one paragraph, as it always was.</pre></body></html>"""


def test_a_listing_and_a_transcript_keep_their_lines_and_give_no_sentence() -> None:
    text = html_page(LISTING).text
    assert ("```\n$ edit    <1>\n$ git add frotz.c filfre.c\n$ mailx   <2>\n"
            "$ git reset    <3>\n```") in text, text
    assert "```\nTo nikola:/srv/git/repo.git\n ! [rejected]" in text, text
    assert ("Such prose is laid out by hand in this manual, and its lines are wrapped where the "
            "writer chose.") in text  # prose in a <pre>: one paragraph, as before
    sentences = " ".join(prose_sentences(text))
    assert "You are happily working on something." in sentences
    for code in ("git add frotz.c", "hint:", "[rejected]"):
        assert code not in sentences, sentences


def test_a_fence_inside_a_pre_does_not_close_its_block() -> None:
    text = html_page("<pre>Markdown:\n```\ncode\n```\nend</pre>").text
    assert text.startswith("````\n") and text.endswith("\n````"), text
