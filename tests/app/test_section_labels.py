"""A passage bullet is labelled by the heading of the section it lies in, not its page's title,
when the heading tells more (trial 113): "Libtool: If you think libtool should let some flag
through ..." named a one-page manual, not "13.1 Why does libtool strip link flags ...?";
"Purging and banning: And Varnish would then discard the front page." not "HTTP Purging".
A man page's ``DESCRIPTION`` and a Texinfo node's own name tell no more than the title."""

from __future__ import annotations

from pathlib import Path

from app.research.labels import shown_label
from app.research.report import render_markdown
from tests.app.report_rows import data, item, row
from workers.sources import Corpus

_FILLER = " ".join(f"Station {n} keeps its ledger in a folder of its own." for n in range(40))
MANUAL = f"""<!DOCTYPE html><html><head><title>Quillsync</title></head><body>
<h1>Quillsync</h1>
<h2>1 Introduction</h2><p>Quillsync copies folders between moon stations.</p>
<h2>13.1 Why does quillsync strip link flags when creating a bundle?</h2>
<p>{_FILLER}</p><p>{_FILLER}</p>
<p>If you think quillsync should let some link flag through by default, edit the flags file
of the bundle tree and send a patch.</p>
<h2>13.2 Checksums</h2><p>Quillsync compares a checksum with the ledger of each station.</p>
</body></html>"""


def test_a_one_page_manuals_passage_is_labelled_by_its_section(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "quillsync.html").write_text(MANUAL, encoding="utf-8")
    q = "How do I let a link flag through quillsync?"
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        found = [p for p in corpus.search(q, k=5) if "let some link flag" in p.text]
    assert found and not found[0].text.startswith("13.1"), found  # a later passage of 13.1
    passage = item("passage", found[0].text, found[0].ref, score=4.0, title=found[0].title,
                   heading=found[0].heading)
    md = render_markdown(data([row("docs_search", q, [passage])], topic=q, sub_questions=[q]))
    lines = [line for line in md.splitlines() if "let some link flag through" in line]
    assert lines and all(line.startswith("- 13.1 Why does quillsync strip link flags")
                         for line in lines), md


def _labelled(title: str, heading: str, text: str, ref: str = "guide/purging.html#3",
              q: str = "How do I purge a page from the cache over HTTP?") -> str:
    rows = [row("docs_search", q, [item("passage", text, ref, score=4.0, title=title,
                                        heading=heading)])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    return next(line for line in md.splitlines() if text[:30] in line)


def test_a_later_passage_of_a_section_is_labelled_by_its_heading() -> None:
    text = "To purge a page from the cache, send a PURGE request over HTTP for its URL."
    line = _labelled("Purging and banning", "HTTP Purging ¶", text)
    assert line.startswith("- HTTP Purging: To purge a page"), line
    syntax = ("redirect location <loc> [code <code>] <option> [{if | unless} <condition>] / "
              "redirect prefix <pfx> [code <code>] <option> [{if | unless} <condition>]")
    line = _labelled("HAProxy version 2.6 - Configuration Manual", syntax, text)
    assert line.startswith("- redirect location `<loc>` [code `<code>`]"), line


def test_a_heading_that_tells_no_more_than_the_title_leaves_the_title() -> None:
    man = {"ref": "ssh.1#4", "title": "ssh — OpenSSH remote login client",
           "text": "ssh connects and logs into the specified destination."}
    assert shown_label({**man, "heading": "DESCRIPTION"}) == man["title"]
    assert shown_label({**man, "heading": "SEE ALSO / AUTHORS"}) == man["title"]
    assert shown_label({**man, "heading": "TCP FORWARDING"}) == "TCP FORWARDING"
    texinfo = {"ref": "Bash-Variables.html#3", "title": "Bash Variables (Bash Reference Manual)",
               "heading": "5.2 Bash Variables", "text": "A colon-separated list of directories."}
    assert shown_label(texinfo) == texinfo["title"]
    readme = {"ref": "README.md#2", "title": "README.md", "heading": "Compression",
              "text": "Compression shrinks file data before it is sent."}
    assert shown_label(readme) == "Compression"  # a file titled by its name: any heading


def test_a_labels_trailing_hyphen_is_kept_when_it_is_an_argument() -> None:
    # Trial 113, F10: "cd -" was labelled "cd", "git checkout -" "git checkout"; a Sphinx
    # field's dash before its text still goes ("unsafe_hash (Optional[bool]) –", trial 109)
    text = "Switches back to the branch checked out before the current one."
    line = _labelled("Git tips", "git checkout -", text, ref="tips.md#3",
                    q="How do I switch back to the branch checked out before?")
    assert line.startswith("- git checkout -: Switches back"), line
    opened = {"ref": "builtins.md#4", "title": "builtins.md", "text": "cd -\n\nChanges to the "
              "previous directory."}
    assert shown_label(opened) == "cd -"
    field = {"ref": "api.html#9", "title": "API", "text": "timeout (float) -\n\nSeconds to wait."}
    assert shown_label(field) == "timeout (float)"


def test_a_long_signature_with_a_return_annotation_drops_its_arguments_not_a_cut() -> None:
    # Trial 113: "quillsync.Client.open(path: str, ... timeout: float =…" was cut mid-argument
    signature = ("quillsync.Client.open(path: str, mode: str = 'r', retries: int = 5, "
                 "timeout: float = 30.0) -> Client")
    text = "Open a remote folder for syncing and return a client bound to it."
    line = _labelled("quillsync API", signature, text, ref="api.html#7",
                     q="How do I open a remote folder for syncing?")
    assert line.startswith("- quillsync.Client.open(…) -> Client: Open a remote"), line
