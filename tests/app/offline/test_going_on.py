"""A sentence that goes on from what its passage said before it is quoted with that, or counts
less (trial 112, F2; trial 110, F6): a connective ("As a result,", "Otherwise,", "Failure to
do so"), one of the things the sentence before counted ("One is ..."), "instead" at its end, a
passage's first sentence pointing back, a list's item without its counting lead-in."""

from __future__ import annotations

import pytest

from app.llm.offline.sentences import candidate_sentences
from workers.sources import Passage


def _passage(ref: str, text: str) -> Passage:
    doc = ref.split("#")[0]
    return Passage(ref, doc, doc, doc, text)


def _quotes(text: str, ref: str = "relay.html#3") -> list[str]:
    return [s.text for s in candidate_sentences([(0, _passage(ref, text))])]


@pytest.mark.parametrize(("before", "after"), [
    # Autoconf's "As a result, incompatibilities between headers went unnoticed ..." led the
    # Answer, its cause second
    ("Old versions of the relay checked the spool with the parser instead of the loader.",
     "As a result, broken spools went unnoticed until the relay loaded them."),
    # Tornado's "Failure to do so is the most likely cause of 403 errors ..." without the
    # sentence saying what to do
    ("The relay requires clients from other stations to opt in by overriding check_station.",
     "Failure to do so is the most likely cause of 403 errors when connecting."),
    # Apache's "Otherwise, this directive selects the only available MPM ..."
    ("If relays are built as modules, this option selects the relay loaded by default.",
     "Otherwise, this option selects the only relay, linked into the server."),
    # Libtool's "Finish mode has two functions.", its first function in the next sentence
    ("Finish mode of the relay has two functions.",
     "One is to help station administrators install relay spools so they can be found."),
    # Libtool's "If you want binary compatibility, use the -version-info flag instead"
    ("Be warned that no two releases of the relay will be compatible with this flag.",
     "If you want compatibility, use the -spool-info flag instead (see Spool versions)."),
])
def test_a_sentence_going_on_from_the_one_before_is_quoted_with_it(before: str,
                                                                   after: str) -> None:
    text = f"Relay spools\n\n{before} {after}\n\nThe relay keeps its spool on local disk."
    quotes = _quotes(text)
    assert f"{before} {after}" in quotes, quotes
    assert after not in quotes, quotes


def test_a_passages_first_sentence_pointing_back_leans_on_the_passage_before() -> None:
    # Apache's stopping.html#10 opens "This still will not guarantee that the server will
    # restart correctly.": what "This" is was the passage before's
    text = ("This still will not guarantee that the relay will restart correctly. Start it "
            "as a plain user to check the spool's meaning as well.")
    later = candidate_sentences([(0, _passage("stopping.html#10", text))])
    assert [s.leans for s in later] == [True, False], later
    first = candidate_sentences([(0, _passage("stopping.html#0", text))])
    assert [s.leans for s in first] == [False, False], first


def test_an_item_of_a_list_counted_by_its_lead_in_leans_on_it() -> None:
    # Libtool's "the term is used to refer to two different concepts:" and its two items, each
    # quoted without it (trial 112, F2); Varnish's "A few things to consider:" counts nothing,
    # and its items stand alone
    items = ("Linking a program against a relay spool, which the loader resolves at run time."
             "\n\nThe station calling functions such as spool_open that load spools at run "
             "time.")
    counted = ("Relay spools\n\nIt can be confusing to discuss relaying, because the term is "
               f"used to refer to two different concepts:\n\n{items}")
    found = candidate_sentences([(0, _passage("relay.html#3", counted))])
    assert [s.leans for s in found if s.text.startswith(("Linking", "The station"))] == [
        True, True], found
    considered = f"Relay spools\n\nSizing a spool takes care. A few things to consider:\n\n{items}"
    found = candidate_sentences([(0, _passage("relay.html#3", considered))])
    assert not any(s.leans for s in found), found
