"""Trials 117 and 118: what a folder's pages share that is their content, not their furniture
(a reference entry's field rows), and the pages a site's generator made of links."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus

PAGE = ("<html><head><title>{name}</title></head><body><p>Home | Prev | Next</p>"
        "<p>Quokka manual</p><h1>The {name} driver</h1><p>Contents below</p>"
        "<p>The {name} driver moves mail for the quokka.</p>"
        "<table><tr><td>{name}_retry</td><td>Use: {name}</td><td>Type: boolean</td>"
        "<td>Default: false</td></tr></table><p>When set, the {name} driver retries.</p>"
        "<table><tr><td>timeout</td><td>Use: {name}</td><td>Type: time</td>"
        "<td>Default: unset</td></tr></table><p>How long the {name} driver waits.</p>"
        "<p>Copyright the quokka authors</p></body></html>")


def test_a_reference_entrys_rows_that_pages_share_are_kept(tmp_path: Path) -> None:
    # F1 (trial 117): Exim's "Type: boolean" / "Default: false" rows and an option named
    # "timeout" on several pages were stripped as navigation; the bars around them still go
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("pipe", "lmtp", "smtp", "autoreply", "appendfile"):
        (folder / f"{name}.html").write_text(PAGE.format(name=name), "utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        text = corpus.read("pipe.html").text
    assert "pipe_retry" in text and "Type: boolean" in text and "Default: false" in text, text
    assert "timeout" in text and "Type: time" in text and "Default: unset" in text, text
    for furniture in ("Home | Prev", "Quokka manual", "Contents below", "Copyright"):
        assert furniture not in text, text
