"""Sentences that say nothing without the one before them are quoted with it, or count less,
and open no Answer (trial 124, M3-F3, Django's docs): a concession on it ("Though this is
convenient, ..."), a default with no subject ("Default is False."), a reason for the
paragraph before ("That's because this view is grossly inefficient ..."), and a sentence saying
what the text after it shows ("The following examples illustrate the difference ...")."""

from __future__ import annotations

from app.llm.offline.sentences import candidate_sentences
from app.research.answer_shapes import points_back, unnamed_default
from tests.app.offline.test_going_on import _passage, _quotes


def test_a_concession_and_a_default_without_subject_are_quoted_with_the_sentence_before(
        ) -> None:
    stored = "By default, the relay stores its spool in the station's database."
    though = ("Though this is convenient, in some setups it's faster to store the spool "
              "elsewhere.")
    quotes = _quotes(f"Configuring the spool\n\n{stored} {though}\n\nSee the spool options.")
    assert f"{stored} {though}" in quotes and though not in quotes, quotes
    field = "blank: If True, the relay is allowed to skip its spool. Default is False."
    quotes = _quotes(f"Relay options\n\n{field}\n\nnull: If True, the relay keeps no spool.")
    assert field in quotes and "Default is False." not in quotes, quotes


def test_a_reason_for_the_paragraph_before_is_quoted_with_it() -> None:
    # ref/contrib/staticfiles.html: the critic's caveat began "That's because this view is
    # grossly inefficient ...", the warning it explains a paragraph above it
    warning = "Warning: This view will only work if DEBUG is True."
    reason = "That's because this view is grossly inefficient and probably insecure."
    quotes = _quotes(f"views.serve(request, path)\n\nThis view serves spools.\n\n{warning}\n\n"
                     f"{reason}", "staticfiles.html#35")
    assert f"{warning}\n\n{reason}" in quotes and reason not in quotes, quotes
    # below a heading, or saying its own thing of "this", a sentence opens its own quote
    own = "This is not suitable for production use!"
    quotes = _quotes(f"Serving spools\n\n{reason}\n\nIt serves spools by hand.\n\n{own}")
    assert reason in quotes and own in quotes, quotes


def test_a_sentence_saying_what_follows_leans() -> None:
    text = ("Returns a QuerySet that follows relays.\n\nThe following examples illustrate the "
            "difference between plain lookups and relay lookups.\n\n```\nx = 1\n```")
    found = candidate_sentences([(0, _passage("querysets.html#64", text))])
    assert [s.leans for s in found] == [False, True], found


def test_such_sentences_open_no_answer() -> None:
    assert points_back("Though this is convenient, in some setups it's faster elsewhere.")
    assert unnamed_default("Default is False.")  # unless shown under its entry's name
    assert not points_back("Though slow, the relay is safe.")


def test_a_remark_on_the_sentence_before_is_quoted_with_it() -> None:
    # Django's "Note that this ..." paragraphs (trial 124, FB2)
    said = "Negative indexing on a relay's spool is not supported by the station's query engine."
    note = "Note that this is different than slicing from the end of a list in Python."
    quotes = _quotes(f"Limiting spools\n\n{said}\n\n{note}\n\nSee the spool options.")
    assert f"{said}\n\n{note}" in quotes and note not in quotes, quotes
    quotes = _quotes(f"Limiting spools\n\n{said} {note}\n\nSee the spool options.")
    assert f"{said} {note}" in quotes and note not in quotes, quotes
    # an "it" standing for the clause after it says its own thing
    own = "Note that it is possible to compare two relay spools by their station numbers."
    quotes = _quotes(f"Limiting spools\n\n{said}\n\n{own}")
    assert said in quotes and own in quotes, quotes
    assert points_back(note) and not points_back(own)


def test_a_remark_after_a_paragraph_ending_in_an_acronym_is_quoted_with_it() -> None:
    # a paragraph ending "... the station's API." was read as ending in no sentence (its last
    # word in capitals), and the "Note that this ..." paragraph after it was quoted alone
    said = "Spools are written through the relay's public API."
    note = "Note that this does not flush the spool to the station's disk."
    quotes = _quotes(f"Writing spools\n\n{said}\n\n{note}\n\nSee the spool options.")
    assert f"{said}\n\n{note}" in quotes and note not in quotes, quotes


def test_a_hedge_ending_its_passage_is_not_quoted_alone() -> None:
    # Django's signals.html: "Strictly speaking, signal handling ... can live anywhere you
    # like, ..." ended its passage, "In practice, signal handlers are usually defined in a
    # signals submodule ..." opened the next, and the hedge was a finding alone
    hedge = ("Strictly speaking, relay handling code can live anywhere you like, although it's "
             "recommended to avoid the station's root module.")
    practice = "In practice, relay handlers are usually defined in a relays submodule."
    found = candidate_sentences([
        (0, _passage("relays.html#9", f"Where should this code live?\n\n{hedge}")),
        (1, _passage("relays.html#10", f"{practice} They are connected at start-up."))])
    assert [s.text for s in found][:1] == [practice], found
    assert hedge not in [s.text for s in found], found
    # followed in its passage, it is quoted as before
    assert hedge in _quotes(f"Where should this code live?\n\n{hedge} {practice}")
