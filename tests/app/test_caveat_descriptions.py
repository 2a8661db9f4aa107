"""A caveat is a limitation, a warning, a pitfall or a deprecation, not a rule of syntax, a
default or what a thing does. New users on BIND's, rsyslog's and Exim's manuals found such
sentences under Caveats in twelve reports (trial 118, F4; trial 117, F8), while the real
warnings beside them were handled well and must stay."""

from __future__ import annotations

import pytest

from app.research.caveats import cautions, warnings_found
from tests.app.report_rows import item, row


@pytest.mark.parametrize("text", [
    # defaults and limitless values (BIND's max-cache-size)
    "By default, each view has its own separate cache, which means the total amount of memory "
    "required for cache data is the sum of the cache database sizes for all views (unless the "
    "attach-cache option is used).",
    "The keyword unlimited, or the value 0, places no limit on the cache size; records are then "
    "purged from the cache only when they expire (according to their TTLs).",
    # rules of syntax and requirements (BIND's, Exim's)
    "The keyword key is followed by a key name, which must be a valid domain name, though it "
    "need not actually be hierarchical; thus, a string like rndc_key is a valid name.",
    "Note that this record must have the domain name version.catalog-zone-name.",
    "When this option is set, any command name not listed in allow_commands must contain no "
    "slashes.",
    "If the address list contains white space, it must be enclosed in quotes.",
    "This option is for testing retry rules, and it must be followed by up to three arguments.",
    # what a thing does (rsyslog's, Exim's)
    "For TCP servers, this lookup was never done and 514 always used if no specific port was "
    "configured.",
    "If it isn’t, these items never touch the disk.",
    "Field content is never returned.",
    "The Exim daemon can limit the number of simultaneous incoming connections it is prepared "
    "to handle (see the smtp_accept_max option).",
])
def test_a_rule_a_default_or_a_description_is_no_caveat(text: str) -> None:
    assert not cautions(text)
    assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])


@pytest.mark.parametrize("text", [
    "Warning: Due to the limitations of the current logging code in BIND 9, enabling TLS "
    "pre-master secret logging adversely affects named performance.",
    "Note that in order to enable FlushInterval, AsyncWriting must be set to “on”. Otherwise, "
    "the flush interval will be ignored.",
    "Deep wildcard matches may not work because of the API limits for now.",
    "By default, the cache is not persisted, so a restart loses every entry.",
    "The zone files of dynamic zones cannot normally be edited by hand.",
    "You must never run the daemon as root.",
    "To fully work, rsyslogd must run while the file is rotated.",
    "Clients must use quill 1.4 or later to connect over TLS.",  # trial 120, F8
    "Never edit the journal file by hand.",
    "Keys must not be shared between views.",
    "The name is not listed in the zone, so lookups of it fail.",
    "If set to yes, a trust anchor must be manually configured (the managed-keys statement is "
    "deprecated).",
])
def test_a_limitation_a_warning_or_a_prohibition_still_is_one(text: str) -> None:
    assert cautions(text) or warnings_found([row("analyst", "q", [item("finding", text,
                                                                          "a#0")])])


def _caveats(question: str, rows: list) -> str:
    from app.research.report import render_markdown
    from tests.app.report_rows import data

    md = render_markdown(data(rows, sub_questions=[question], topic=question))
    return md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0].strip()


_RPZ = "6.9.4. Limitations of DNS RPZ"


def test_a_cited_passage_headed_limitations_is_never_none_found() -> None:
    # trial 118, B14: the Findings quoted section "6.9.4. Limitations of DNS RPZ", the Caveats
    # said "No limitations or warnings were found in the passages retrieved."
    q = "What are the limitations of DNS RPZ?"
    text = ("The problem with this suggestion is that there is no way to CNAME only A and AAAA "
            "queries, not even with RPZ.")
    passage = item("passage", f"We're often asked about a CDN. {text}", "chapter6.html#78",
                   heading=_RPZ)
    rows = [row("docs_search", q, [passage]),
            row("analyst", q, [item("finding", text, "chapter6.html#78", heading=_RPZ)])]
    caveats = _caveats(q, rows)
    assert "No limitations" not in caveats, caveats
    assert "no way to CNAME only A and AAAA" in caveats or "Answer above quotes" in caveats


def test_a_passage_headed_limitations_alone_is_pointed_to() -> None:
    q = "What are the limitations of DNS RPZ?"
    passage = item("passage", "Wildcards in the form of *.example records might behave in "
                   "unintuitive ways in DNS RPZ.", "chapter6.html#80", heading=_RPZ)
    caveats = _caveats(q, [row("docs_search", q, [passage])])
    assert "No limitations" not in caveats and _RPZ in caveats, caveats
