"""A call's bare signature is its entry's label, never a sentence: Werkzeug's serving.html opens
the run_simple entry with ``werkzeug.serving.run_simple(hostname, port, application, ...,
reloader_type='auto', threaded=False, ...)``, which names every parameter; asked "What does
the reloader_type parameter of run_simple do?", the Top passage showed it as its excerpt, under
the same signature as its label (trial 126, F3)."""

from __future__ import annotations

from app.llm.offline.sentences import candidate_sentences, prose_sentences
from app.research.citations import excerpt
from workers.sources import Passage

SIGNATURE = ("kiteworks.flying.fly_kite(field, wind, kite, use_reel=False, reel_interval=1, "
             "reel_type='auto', tail=None, ribbons=3, string_context=None)")
ENTRY = (f"{SIGNATURE}\n\nStart a kite flight for a field. Various optional features can be "
         f"enabled.\n\nParameters: field (str) – The field to fly over, for example 'meadow'.")


def test_a_bare_signature_is_no_excerpt() -> None:
    shown = excerpt(ENTRY, about=["reel_type", "fly_kite", "kite"])
    assert shown == "Start a kite flight for a field.", shown


def test_a_bare_signature_is_no_sentence() -> None:
    assert SIGNATURE not in prose_sentences(ENTRY)
    found = candidate_sentences([(0, Passage("kites.html#1", "kites.html", "Kites",
                                             "kites.html", ENTRY))])
    assert found and all(not s.text.startswith("kiteworks.") for s in found), found
