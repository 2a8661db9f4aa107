"""A sentence opening its section with "This" or "It" for its subject speaks of what the
section's heading names: trial 128, F6. "What is the Alt-Svc cache file format?" over curl's
ALTSVC.md, whose section "# Alt-Svc cache file format" opens "This is a text based file with
one line per entry ...": the Answer quoted the page's first line ("curl features support for
the Alt-Svc: HTTP header."), as "This" named nothing asked. The Answer now leads with the
section's sentence, labelled by the section, so a reader knows what "This" is.
"""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

Q = "What is the relay journal format?"
REF = "RELAY.md#0"
FIRST = "The relay supports the Hop: header of the moon stations."
OPENS = "This is a text based file with one line per hop and five fields on each line."


def _answer(section: str) -> list[str]:
    passage = (f"# Relay\n\n{FIRST}\n\n## Build\n\n`./configure --enable-relay`\n\n"
               f"# Relay journal format\n\n{section}\n\n## Example\n\n```\nh2 moon 8443\n```")
    extra = {"title": "Relay", "heading": "Relay / Build / Relay journal format / Example"}
    rows = [row("docs_search", Q, [item("passage", passage, REF, **extra)]),
            row("analyst", Q, [item("finding", FIRST, REF, **extra),
                               item("finding", OPENS, REF, **extra)]),
            row("critic", Q, [])]
    md = render_markdown(data(rows, topic=Q, sub_questions=[Q]))
    return answer_section(md).strip().splitlines()


def test_the_sentence_opening_the_section_asked_leads_under_its_title() -> None:
    lines = _answer(OPENS)
    assert lines[0] == f"- Relay journal format: {OPENS} [1]", lines


def test_a_pronoun_inside_a_section_is_not_read_as_its_heading() -> None:
    lines = _answer(f"Hops are kept. {OPENS}")
    assert not any(line.startswith("- Relay journal format:") for line in lines), lines
