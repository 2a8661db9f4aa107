"""A sentence's own subject (:func:`app.research.sentence_subjects.subject_of`): the words before
its first verb, where a first word that is both a plural noun and a verb's form ("Writes",
"Returns", "Checks") is told by the sentence's shape, not by its spelling (L1-F1:
DeltaChannelHistory's "Writes stored at the target checkpoint itself are pending ..." was read
as a sentence with no subject)."""

from __future__ import annotations

import pytest

from app.research.sentence_subjects import subject_of


@pytest.mark.parametrize(("sentence", "subject"), [
    ("Writes stored at the target checkpoint itself are pending for the next super-step.",
     "Writes stored at the target checkpoint itself "),
    ("Writes to the log are buffered until a flush.", "Writes to the log "),
    ("Checks performed by the verifier are logged.", "Checks performed by the verifier "),
    ("Uses of this function are rare.", "Uses of this function "),
    ("Writes kept in memory are lost on a crash.", "Writes kept in memory "),
])
def test_a_plural_noun_leading_a_participle_or_preposition_and_a_verb_is_the_subject(
        sentence: str, subject: str) -> None:
    assert subject_of(sentence) == subject


@pytest.mark.parametrize("sentence", [
    "Returns a tuple of the values.",  # its object follows: a verb
    "Returns cached values if they are fresh.",  # the later verb is a clause's own
    "Reads from stdin and writes to stdout.",
    "Runs in the background until it is stopped.",
    "Runs in a thread until the graph is done.",  # "until" opens a clause of its own
    "Returns: A tuple of the values.",  # a docstring's label, and no verb after it
    "Is stored in the table.",
])
def test_a_verb_leading_a_sentence_stays_its_verb(sentence: str) -> None:
    assert subject_of(sentence) == ""


def test_a_one_word_label_is_no_verb() -> None:
    # "Returns:" labels a docstring's section; the verb is the sentence's after it, and the
    # label is part of the subject as any entry's label is ("`PS4`: Default is ...")
    assert subject_of("Returns: The value is cached.") == "Returns: The value "
    assert subject_of("PS4: Default is '+ '.") == "PS4: Default "


@pytest.mark.parametrize(("sentence", "subject"), [
    ("That’s done by a shell, not the command you are spawning.", "That"),
    ("They're kept until the run ends.", "They"),
    ("The server's name is sent first.", "The server's name "),
])
def test_a_pronouns_contracted_verb_ends_the_subject(sentence: str, subject: str) -> None:
    # trial 127, F1: "That’s" is "That is"; a noun's "'s" is no verb
    assert subject_of(sentence) == subject


def test_a_contracted_it_standing_for_a_clause_points_back_to_nothing() -> None:
    from app.research.answer_shapes import points_back
    assert points_back("That’s done by a shell.")
    assert not points_back("It’s possible to spawn a shell with the command.")
