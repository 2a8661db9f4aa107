"""A page named for a version (``version9.html``) or a to-do list (``todo.html``) is a change
log: its terse entries name every feature and answer none (trial 126, F2: Vim's
``version9.html`` answered "How do I record typed characters into a register?" with "Patch
8.2.4237 Problem: Record buffer wrong if character in Select mode was not typed.", and
``todo.html``'s "Perhaps keep a cached list ..." was a finding)."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def test_a_page_named_for_a_version_ranks_below_the_page_it_changes(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    patches = "".join(f"<p>Patch 4.2.{i} Problem: Kite spool winding recorded the wrong line "
                      f"tension. Solution: Record the kite line tension again.</p>"
                      for i in range(30))
    write(root, "version4.html", _page("Manual: version4", patches))
    todos = "".join(f"<p>Perhaps record the kite line tension per spool {i}.</p>"
                    for i in range(30))
    write(root, "todo.html", _page("Manual: todo", todos))
    write(root, "kites.html", _page("Manual: kites", "<p>The spool winder keeps the kite line "
                                    "taut. To record the line tension, hold the brake and read "
                                    "the gauge on the spool.</p>"))
    with Corpus.open(tmp_path / "d", folder=root) as c:
        hits = c.search("How do I record the kite line tension?", k=3)
        assert hits[0].doc_id == "kites.html", [h.doc_id for h in hits]
        asked = c.search("Which patch changed the kite line tension recording?", k=3)
        assert asked[0].doc_id == "version4.html", [h.doc_id for h in asked]
