"""A FAQ's numbered question is no finding, and a prose sentence quoting a call inline is no code
(trial 49 on R's manuals: "7.10 How do I convert factors to numeric?" was the Answer's first
line, and "remove all objects in the workspace with rm(list = ls())." was never quoted)."""
from __future__ import annotations

from app.llm.offline.sentences import _acceptable, is_heading, prose_sentences

FAQ = """7.10 How do I convert factors to numeric?

It may happen that when reading numeric data into R, they come in as factors.

Q: Why does the loop never end?

The loop ends when the counter reaches the limit set by the caller."""


def test_a_numbered_or_marked_question_is_no_finding() -> None:
    assert is_heading("7.10 How do I convert factors to numeric?")
    assert prose_sentences(FAQ)[0] == (
        "It may happen that when reading numeric data into R, they come in as factors.")
    for question in ("7.31 Why doesn't R think these numbers are equal?",
                     "Q: Why does the loop never end?", "Q3. What is a reducer?"):
        assert not _acceptable(question, need_terminal=True), question
    assert _acceptable("2 How the loop works is described in the next section.",
                       need_terminal=True)


def test_a_sentence_quoting_a_call_inline_is_prose_a_short_assignment_is_code() -> None:
    text = ("To delete every variable you have created, remove all objects in the workspace "
            "with rm(list = ls()).\n\nx = 5\n\nif a == b: stop\n\nSet queue_limit = 500 on busy "
            "hosts.")
    assert prose_sentences(text) == [
        "To delete every variable you have created, remove all objects in the workspace with "
        "rm(list = ls()).", "Set queue_limit = 500 on busy hosts."]  # trial 52, F14


def test_a_question_in_the_text_is_no_finding_nor_an_excerpt() -> None:
    # trial 125, F10: README.Debian's "What is /etc/bash.bashrc? It doesn't seem to be
    # documented." was a finding, napoleon's "Are you tired of writing docstrings that look
    # like this:" a Top passage's excerpt
    from app.llm.offline.sentences import candidate_sentences
    from app.research.citations import excerpt
    from workers.sources import Passage

    faq = ("5. What is /etc/bash.bashrc? It doesn't seem to be documented.\n\nThe Debian "
           "version of bash is compiled with a special option that makes bash read "
           "/etc/bash.bashrc before ~/.bashrc.")
    quoted = [s.text for s in candidate_sentences(
        [(0, Passage("README#4", "README", "README", "README", faq))])]
    assert not [q for q in quoted if "?" in q or "seem to be documented" in q], quoted
    assert any(q.startswith("The Debian version of bash") for q in quoted), quoted
    tired = ("Are you tired of writing docstrings that look like this:\n\n```\n:param path: "
             "The path\n```\n\nNapoleon parses Google style docstrings.")
    assert excerpt(tired, about=["docstrings"]) == "Napoleon parses Google style docstrings."
