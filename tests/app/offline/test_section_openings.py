"""What a heading asks, its section's first sentences answer, in words they need not repeat:
trial 128, F2 and F5. Under click's "Multi Command Chaining" the opening "Sometimes it is useful
to be allowed to invoke more than one subcommand in one go." and under curl's FAQ item "3.8 How
do I tell curl to follow HTTP redirects?" the answer "The Location: header ... is only
interpreted if you are using the -L/--location option." repeat none of the heading's words, so
the offline analyst never quoted them, and the report answered with a limitation or a side
fact. The fixtures are written here, as a search result hands them to the analyst (no heading
of its own: the section's heading is the passage's first line)."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import asked_stems
from workers.sources import Passage

HOW = "How do I make frob fetch mirrored files?"
ANSWER = ("The Mirror: header that names the copy is only read if you are using the "
          "-M/--mirror option.")
FAQ = (f"4.2 {HOW}\n\n  frob does not fetch mirrored files by default. {ANSWER} As in:\n\n"
       "     frob -M http://mirror.example\n\n  Not all mirrors are HTTP ones, see 6.1")
OTHER = ("6.1 Mirrors work in a browser but not with frob\n\n  frob supports mirrored files "
         "well (see item 4.2). Browsers know two other ways to name a mirror.\n\n  There is no "
         "way to make frob fetch these mirrored files. You must find the copy by hand.")

WHAT = "What is relay hopping?"
OPENING = "Sometimes it is useful to send one packet over more than one moon in one go."
GUIDE = ("Relay Hopping\n\nChangelog\n\nNew in version 3.0.\n\n"
         f"{OPENING} For instance a station on the far side forwards each frame it gets to "
         "the next station in line. Starting with Moon 3.0 this is simple to set up.")
LIMITS = ("When using relay hopping you can only have one station (the last) use burst mode on "
          "a link. The order between hops is limited for hopped relays.")


def _chosen(question: str, *texts: str) -> list[str]:
    ranked = [(rank, Passage(f"doc#{rank}", "doc", "doc", "doc", text))
              for rank, text in enumerate(texts)]
    chosen = select(candidate_sentences(ranked), asked_stems(question), frozenset(), (1, 3),
                    set())
    return [s.text for s in chosen]


def test_the_faq_items_answer_is_a_finding_though_it_repeats_no_word_of_the_question() -> None:
    chosen = _chosen(HOW, OTHER, FAQ)
    assert any(" ".join(text.split()) == ANSWER for text in chosen), chosen


def test_the_sections_opening_is_a_finding_beside_its_limitations() -> None:
    chosen = _chosen(WHAT, LIMITS, GUIDE)
    assert OPENING in chosen, chosen


def test_a_heading_naming_less_than_the_question_lends_no_words() -> None:
    chosen = _chosen(WHAT, LIMITS, GUIDE.replace("Relay Hopping", "Moon Relays"))
    assert OPENING not in chosen, chosen


def test_a_sentence_naming_a_header_after_its_article_is_prose_not_a_field() -> None:
    # F5's second cause: "The Location: header ... is only interpreted if you are using the
    # -L/--location option." was read as a field "The Location:" labelled by title-cased words
    # and never quoted; a field's label does not open with an article
    passage = Passage("FAQ#3", "FAQ", "FAQ", "FAQ", f"Mirrors.\n\n{ANSWER}")
    found = [s.text for s in candidate_sentences([(0, passage)])]
    assert ANSWER in found, found
