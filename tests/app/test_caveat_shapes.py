"""Sentences whose words of caution caution nothing, and how the Caveats section words a list
of none. New users on Postfix's and Click's manuals (trial 114, F6, F12) and zsh's (trial 115,
F10) found a pointer, a default with how to change it, what a setting lists, a setting's own
description and an empty history "left empty" by choice under Caveats; and "No other
limitations or warnings were found" under no list at all."""

from __future__ import annotations

import pytest

from app.research.caveats import cautions, warnings_found
from app.research.report import render_markdown
from tests.app.report_rows import data, item, row


@pytest.mark.parametrize("text", [
    # a pointer (Postfix's ADDRESS_REWRITING_README)
    "See RFC 2606 for examples of domain names that are guaranteed not to be owned by anyone.",
    "For details, see the TLS README, which explains what must not be logged.",
    # a default, with how to change it (Click's options page)
    "By default, options are not required, however to make an option required, simply pass "
    "in required=True as an argument to the decorator.",
    # what a setting lists (Postfix's masquerade_exceptions)
    "The masquerade_exceptions configuration parameter specifies what user names should not be "
    "subjected to address masquerading.",
    # a setting's own description (postconf(5))
    "bounce_queue_lifetime (5d) Consider a bounce message as undeliverable, when delivery "
    "fails with a temporary error, and the time in the queue has reached the "
    "bounce_queue_lifetime limit.",
    # a range kept to (Postfix's QSHAPE/queue scheduling text)
    "The next retry time is set by doubling the message's age in the queue, and adjusting up or "
    "down to lie within the limits.",
    # an empty list by the user's own choice (zsh's fc -p)
    "If no arguments are specified, the history list is left empty and HISTFILE is unset.",
])
def test_a_pointer_a_default_a_listing_or_a_description_is_no_caveat(text: str) -> None:
    assert not cautions(text)
    assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])


@pytest.mark.parametrize("text", [
    "The fallback relays must be SMTP destinations, or mail to them is deferred.",
    "By default, the cache is not persisted, so a restart loses every entry.",
    "bounce_queue_lifetime (5d) Do not set this below 1d, or mail is returned early.",
    "The daemon does not notice when the disk fills up, and the files are left empty.",
    "Seeding the cache is not supported on NFS.",
    "Each request must stay within the limits, or it is refused.",
    "A setting whose name is misspelled is silently ignored.",
])
def test_their_siblings_that_warn_still_do(text: str) -> None:
    assert cautions(text) or warnings_found([row("analyst", "q", [item("finding", text,
                                                                          "a#0")])])


def _caveats(question: str, rows: list) -> str:
    md = render_markdown(data(rows, sub_questions=[question], topic=question))
    return md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0].strip()


def test_a_section_listing_none_never_says_other() -> None:
    # Click's "How do I make an option mandatory?": the Answer quoted the default sentence,
    # and the Caveats said "No other limitations or warnings were found ..."
    q = "How do I make an option mandatory?"
    text = ("By default, options are not required, however to make an option required, simply "
            "pass in required=True as an argument to the decorator.")
    rows = [row("analyst", q, [item("finding", text, "options.html#3")]),
            row("critic", q, [item("caveat", text, "options.html#3")])]
    caveats = _caveats(q, rows)
    assert "other" not in caveats, caveats
    assert caveats == "- No limitations or warnings were found in the passages retrieved."


def test_off_topic_reports_word_their_empty_caveats_alike() -> None:
    # O1 (nothing came back) said "No limitations or warnings were found ...", O2 (an
    # unrelated caveat came back) "No caveat retrieved mentions ...; none is listed."
    q = "What is the boiling point of water at high altitude?"
    unrelated = item("passage", "The zorblax relay moves glimmer packets.", "z.md#0")
    alone = _caveats(q, [row("docs_search", q, [unrelated])])
    caveat = item("caveat", "The zorblax relay cannot run during an eclipse.", "z.md#1")
    beside = _caveats(q, [row("docs_search", q, [unrelated]), row("critic", q, [caveat])])
    assert alone == beside, (alone, beside)
    assert alone.startswith("- No caveat retrieved mentions"), alone


def test_what_is_meant_to_be_ignored_is_no_warning() -> None:
    # trial 116, F6: the only Caveat of "How do I reload the quillsync configuration?"
    text = "Blank lines and comment lines in quillsync.conf are silently ignored."
    assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])
