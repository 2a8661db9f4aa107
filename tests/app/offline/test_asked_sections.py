"""A section whose heading asks the question is the answer's place, and a link to it is none
(trial 123, F1, on SQLAlchemy's docs): "Is the session thread-safe?" quoted the contextual
sessions page's sentences naming "thread" and never the FAQ entry's first sentence, "The Session
is very much intended to be used in a non-concurrent fashion"; "How do I render SQL expressions
as strings, possibly with bound parameters inlined?" was answered by an API page's "see also"
line repeating the question, then a dash and its blurb."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import _acceptable, candidate_sentences
from app.llm.offline.words import asked_stems
from workers.sources import Passage

QUESTION = "Is the session thread-safe?"
BASICS = ("Is the session thread-safe?\n\nThe Session is very much intended to be used in a "
          "non-concurrent fashion, which usually means in only one thread at a time.\n\nThe "
          "Session should be used in such a way that one instance exists for a single series "
          "of operations within a single transaction. Another is to use a pattern where the "
          "Session is passed between functions and is otherwise not shared with other threads.")
CONTEXTUAL = ("The scoped_session.remove() method, as always, removes the current Session "
              "associated with the thread, if any. Callers who call upon the registry in a "
              "different thread get a Session instance that is local to that other thread.")


def _passage(ref: str, text: str, heading: str = "") -> Passage:
    doc = ref.split("#")[0]
    return Passage(ref, doc, doc, doc, text, heading=heading)


def test_the_first_sentence_under_a_heading_asking_the_question_leads() -> None:
    ranked = [(0, _passage("orm/session_basics.html#78", BASICS, QUESTION)),
              (1, _passage("orm/contextual.html#11", CONTEXTUAL, "Thread-Local Scope"))]
    chosen = select(candidate_sentences(ranked), asked_stems(QUESTION), frozenset(), (1, 5),
                    set())
    assert chosen[0].text.startswith("The Session is very much intended"), [
        c.text for c in chosen]


def test_only_the_sentence_opening_the_section_counts_as_its_answer() -> None:
    sentences = candidate_sentences([(0, _passage("s.html#78", BASICS, QUESTION))])
    assert [s.opens for s in sentences] == [True, False, False]


def test_a_link_titled_by_a_question_with_its_blurb_is_no_finding() -> None:
    assert not _acceptable("How do I render SQL expressions as strings, possibly with bound "
                           "parameters inlined? - includes a usage example for debugging use "
                           "cases.", need_terminal=True)
    assert _acceptable("Why it fails is a long story - the pool was closed before the "
                       "request came in.", need_terminal=True)
