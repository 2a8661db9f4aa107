"""A call in a fenced code example is no signature opening the function's entry (trial 126,
F3: Werkzeug's "Shutting Down The Server" example, whose ``run_simple("localhost", 5000,
app)`` stands after a blank line inside its code block, was read as opening run_simple's
entry; it scored as the entry's own first passage, and with two passages a document, asked
"What does the reloader_type parameter of run_simple do?", the search returned the signature
and that example, never the parameter's row: the Answer quoted the signature)."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from tests.workers.sources.reel_pages import FILLER, reel_page
from workers.sources import Corpus


def test_a_call_in_a_code_example_does_not_outrank_the_entrys_rows(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write(root, "reels.html", reel_page(after=f"""
        <h2>Stopping the Reel</h2>
        <p>{FILLER}</p>
        <div class="highlight"><pre>import tackle

        def stop(line):
            line.cut()

        tackle.spin_reel("bait", 5)

        print("stopped")</pre></div>"""))
    with Corpus.open(tmp_path / "d", folder=root) as c:
        hits = c.search("What does the drag_kind parameter of spin_reel do?", k=4)
        texts = [h.text for h in hits]
        assert any("The drag to use." in t for t in texts), [h.ref for h in hits]
        assert not any("tackle.spin_reel(\"bait\", 5)" in t for t in texts[:2]), texts
