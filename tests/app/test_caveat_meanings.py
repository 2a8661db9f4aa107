"""A caveat is a caveat by what it means, not by a word it holds. A new user on git's and
Flask's manuals found statements that are no limitation under Caveats in about eight reports:
a negation that warns of nothing ("does not require", "does not mean much if"), a "However,"
saying something good, a quoted value ("never") and what it does, an option's "Limit fetching
to ..." (trial 121, F5)."""

from __future__ import annotations

import pytest

from app.research.caveats import cautions, warnings_found
from tests.app.report_rows import item, row


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
