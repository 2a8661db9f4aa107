"""A name followed by the word for its kind and the thing that owns it ("the reloader_type
parameter of run_simple") asks about the name: the kind word is context, and the two words are
no compound name (trial 126, F3: "reloader_type parameter" was searched as a name, so
Werkzeug's "Changed in version 0.10: ... through the reloader_type parameter." outranked the
parameter's own row, "reloader_type (str) – The reloader to use. ...", which the two-passage
cap then left out)."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from tests.workers.sources.reel_pages import FILLER, reel_page
from workers.sources import Corpus
from workers.sources.query import search_query


def test_the_kind_word_before_an_owner_is_context_not_a_name() -> None:
    query = search_query("What does the drag_kind parameter of spin_reel do?")
    assert query is not None
    assert "parameter" in query.context and "parameter" not in query.terms, query
    assert [n.phrase for n in query.names] == ["drag_kind", "spin_reel"], query.names
    plain = search_query("What is a retry policy?")  # no kind word: a compound name, as before
    assert plain is not None and [n.phrase for n in plain.names] == ["retry policy"]


def test_the_parameters_row_outranks_a_note_naming_the_kind(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write(root, "reels.html", reel_page(
        drag_tail=f" {FILLER}",
        entry_tail=f"<p>Changed in version 0.9: Added the drag_kind parameter. {FILLER}</p>"))
    with Corpus.open(tmp_path / "d", folder=root) as c:
        hits = c.search("What does the drag_kind parameter of spin_reel do?", k=4)
        texts = [h.text for h in hits]
        assert any("The drag to use." in t for t in texts), [h.ref for h in hits]
