"""Search finds what a question names or asks in the documents' own words (trial 115, F2): an
entry in capitals inside a definition list's passage, above the pages that use its name."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus


def _entry(name: str, arguments: str, text: str) -> str:
    return (f'<dt><span><tt>{name}</tt>{arguments}</span></dt>\n<dd><p>{text}</p>\n'
            '<p>If this is made local, it is not implicitly set to 0.</p></dd>\n')


PARAMETERS = (
    "<html><head><title>15 Parameters (zsh)</title></head><body>"
    "<h2>15.6 Parameters Used By The Shell</h2><dl>"
    + _entry("reply", "", "As REPLY, but for array values rather than strings.")
    + _entry("RPROMPT", " &lt;S&gt;", "This prompt is displayed on the right-hand side of the "
             "screen when the primary prompt is being displayed on the left. It is expanded in "
             "the same way as PS1.")
    + _entry("RPROMPT2", " &lt;S&gt;", "This prompt is displayed on the right-hand side of "
             "the screen when the secondary prompt is being displayed on the left.")
    + _entry("SAVEHIST", "", "The maximum number of history events to save in the history "
             "file.")
    + "</dl></body></html>")
BUILTINS = (
    "<html><head><title>17 Shell Builtin Commands (zsh)</title></head><body>"
    "<h2>fc -p [ -a ] [ filename [ histsize [ savehist ] ] ]</h2>"
    "<p>If no arguments are specified, $HISTFILE is unset, and $HISTSIZE &amp; $SAVEHIST are "
    "set to their default values. If a second argument is specified, $HISTSIZE &amp; "
    "$SAVEHIST are instead set to the single specified numeric value. Finally, if a third "
    "argument is specified, $SAVEHIST is set to a separate value from $HISTSIZE.</p>"
    "</body></html>")


def test_an_entry_in_capitals_inside_a_passage_ranks_above_its_uses(tmp_path: Path) -> None:
    # trial 115, F2a: "What is SAVEHIST?" answered from fc -p's "$HISTSIZE & $SAVEHIST are
    # instead set ..."; the SAVEHIST entry, the fourth of a passage opening with reply's, was
    # no entry (a name in capitals), and a page saying the name four times outranked it
    root = tmp_path / "zsh"
    write(root, "Parameters.html", PARAMETERS)
    write(root, "Shell-Builtin-Commands.html", BUILTINS)
    with Corpus.open(tmp_path / "d", folder=root) as c:
        found = c.search("What is SAVEHIST?", k=3)
        assert found[0].doc_id == "Parameters.html", [p.ref for p in found]
        assert "SAVEHIST: The maximum number of history events" in found[0].text
