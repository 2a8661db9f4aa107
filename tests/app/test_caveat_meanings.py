"""A caveat is a caveat by what it means, not by a word it holds. A new user on git's and
Flask's manuals found statements that are no limitation under Caveats in about eight reports:
a negation that warns of nothing ("does not require", "does not mean much if"), a "However,"
saying something good, a quoted value ("never") and what it does, an option's "Limit fetching
to ...", and, asked "Why shouldn't I use the built-in server in production?", the advice
against it, which is the answer (trial 121, F5)."""

from __future__ import annotations

import pytest

from app.research.caveats import cautions, warnings_found
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row


@pytest.mark.parametrize("text", [
    "HEAD: A symref (see glossary) to the refs/heads/ namespace describing the currently active "
    "branch. It does not mean much if the repository is not associated with any working tree "
    "(i.e. a bare repository), but a valid Git repository must have the HEAD file; some "
    "porcelains may use it to guess the designated \"default\" branch of the repository.",
    "However, in both work trees the line endings would be consistent, that is either all LF "
    "or all CRLF, but never mixed.",
    "The value \"now\" expires all entries immediately, and \"never\" suppresses expiration "
    "altogether.",
    "--mirror: Instead of naming each ref to push, specifies that all refs under refs/ (which "
    "includes but is not limited to refs/heads/, refs/remotes/, and refs/tags/) be mirrored to "
    "the remote repository.",
    "It is easy to install as it does not require additional dependencies or compilation.",
    "--depth=<depth>: Limit fetching to the specified number of commits from the tip of each "
    "remote branch history.",
])
def test_a_statement_with_a_word_of_caution_is_no_caveat(text: str) -> None:
    assert not cautions(text)
    assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])


@pytest.mark.parametrize("text", [
    "However, the database file does not shrink.",
    "Set it to \"never\" and the cache is not kept, so a restart loses it.",
    "Use the new API instead, as the old one is not thread-safe.",
    "It does not require a password, so anyone on the network can fail the job.",
    "It does not matter if the file is missing, but the daemon fails if it is unreadable.",
    "Compression may limit throughput to 10 MB/s on older CPUs.",
    "Limits apply to every user and cannot be raised.",
])
def test_a_limitation_beside_such_words_still_is_one(text: str) -> None:
    assert cautions(text)


_WHY_NOT = "Why shouldn't I use the built-in server in production?"
_ADVICE = ("When running publicly rather than in development, you should not use the built-in "
           "development server (flask run).")


def _report(question: str, findings: list[str]) -> str:
    rows = [row("analyst", question, [item("finding", text, f"server.html#{n}")
                                      for n, text in enumerate(findings)]),
            row("critic", question, [item("caveat", _ADVICE, "server.html#9")])]
    return render_markdown(data(rows, topic=question, sub_questions=[question]))


def test_why_not_is_answered_by_the_advice_against_it_and_its_reason() -> None:
    md = _report(_WHY_NOT, ["The built-in server reloads the code when it changes.",
                            "The built-in server is used by flask run in development.",
                            "Do not use the development server in production. It is not "
                            "designed to be particularly secure, stable, or efficient."])
    answer = answer_section(md)
    assert "not designed to be particularly secure" in answer.strip().splitlines()[0], answer
    assert "you should not use the built-in development server" in answer, answer
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "you should not use" not in caveats, caveats


def test_the_advice_stays_a_caveat_of_another_question() -> None:
    md = _report("What does the built-in server do?",
                 ["The built-in server reloads the code when it changes."])
    assert "you should not use" not in answer_section(md), answer_section(md)
    assert "you should not use" in md.split("## Caveats\n", 1)[1], md
