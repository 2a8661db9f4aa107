"""A name followed by the word for its kind and the thing that owns it ("the reloader_type
parameter of run_simple") asks about the name: the kind word is context, and the two words are
no compound name (trial 126, F3: "reloader_type parameter" was searched as a name, so
Werkzeug's "Changed in version 0.10: ... through the reloader_type parameter." outranked the
parameter's own row, "reloader_type (str) – The reloader to use. ...", which the two-passage
cap then left out)."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus
from workers.sources.query import search_query

_FILLER = " ".join(f"The reel keeps its line wound in layer {i} of the spool." for i in range(14))


def test_the_kind_word_before_an_owner_is_context_not_a_name() -> None:
    query = search_query("What does the drag_kind parameter of spin_reel do?")
    assert query is not None
    assert "parameter" in query.context and "parameter" not in query.terms, query
    assert [n.phrase for n in query.names] == ["drag_kind", "spin_reel"], query.names
    plain = search_query("What is a retry policy?")  # no kind word: a compound name, as before
    assert plain is not None and [n.phrase for n in plain.names] == ["retry policy"]


def test_the_parameters_row_outranks_a_note_naming_the_kind(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write(root, "reels.html", f"""
        <html><head><title>Reels</title></head><body><h1>Reels</h1>
        <dl class="py function"><dt class="sig sig-object py" id="tackle.spin_reel">
        <span class="sig-prename">tackle.</span><span class="sig-name">spin_reel</span>(<em
        class="sig-param">line</em>, <em class="sig-param">depth=3</em>, <em
        class="sig-param">drag_kind='auto'</em>)</dt>
        <dd><p>Spin a fishing reel until the line reaches the depth asked. {_FILLER}</p>
        <p>depth (int) \u2013 How deep the line is let out, in metres. {_FILLER}</p>
        <p>drag_kind (str) \u2013 The drag to use. The 'auto' drag brakes by itself; the 'hand'
        drag needs the angler's thumb on the spool. {_FILLER}</p>
        <p>Changed in version 0.9: Added the drag_kind parameter. {_FILLER}</p>
        </dd></dl></body></html>
        """)
    with Corpus.open(tmp_path / "d", folder=root) as c:
        hits = c.search("What does the drag_kind parameter of spin_reel do?", k=4)
        texts = [h.text for h in hits]
        assert any("The drag to use." in t for t in texts), [h.ref for h in hits]
