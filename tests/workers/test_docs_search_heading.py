"""``docs_search`` hands each passage's section heading to the report, for a later passage of
a long entry too (it does not repeat its heading): whose entry a sentence of it speaks of
(trial 26, finding 1: ServerLimit's "use this directive ... MaxRequestWorkers" answered for
MaxRequestWorkers)."""

from __future__ import annotations

from pathlib import Path

from workers import docs_search
from workers.base import WorkerDeps
from workers.sources import Corpus

FILLER = " ".join(f"Quillgate relay note {i} on spooling frames to disk." for i in range(120))


def test_every_passage_of_a_section_carries_its_heading(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "mpm.html").write_text(
        "<html><head><title>Quillgate engines</title></head><body>"
        f"<h2>SpoolLimit Directive</h2><p>{FILLER}</p><p>Use this directive only if you need "
        "to set MaxSpoolers higher than 256 (default).</p>"
        "<h2>MaxSpoolers Directive</h2><p>The default value of MaxSpoolers is 256.</p>"
        "</body></html>", encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=docs) as corpus:
        items = docs_search.build(WorkerDeps(corpus=corpus, search_k=8))(
            {"worker": "docs_search", "sub_question": "MaxSpoolers default",
             "topic": "MaxSpoolers default", "as_of": "2026-11-30", "round": 1}).items
    by_text = {i["text"].split("\n\n")[-1][:40]: i for i in items}
    later = next(i for i in items if "Use this directive" in i["text"])
    assert not later["text"].startswith("SpoolLimit"), "the entry's later passage repeats it"
    assert later["heading"] == "SpoolLimit Directive", by_text
    own = next(i for i in items if "default value of MaxSpoolers" in i["text"])
    assert own["heading"] == "MaxSpoolers Directive"
