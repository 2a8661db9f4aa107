"""The Answer puts a bullet that goes on from a sentence it leaves out, announces what it
leaves out, or only prefaces, after the bullets that stand alone (trial 112, F2; trial 110,
F6)."""

from __future__ import annotations

import pytest

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

_OWN = "The relay's --with-spool=NAME option chooses the default spool of the relay build."


@pytest.mark.parametrize(("leaning", "passage"), [
    # Apache's "Otherwise, this directive selects the only available MPM ..." (configure.html)
    ("Otherwise, the relay's default spool is the only spool, linked into the relay build.",
     "--with-spool=NAME: If spools are modules, the option picks the one loaded. Otherwise, "
     "the relay's default spool is the only spool, linked into the relay build."),
    # Apache's "This command automatically checks the configuration files ..." (apachectl)
    ("This command checks the relay's default spool before the relay build restarts.",
     "graceful: Restarts the relay build gracefully. This command checks the relay's default "
     "spool before the relay build restarts."),
    # Libtool's "Finish mode has two functions.", what they are in the sentences after it
    ("The relay build's default spool has two functions.",
     "The relay build's default spool has two functions. One is to keep packets."),
    # Varnish's "Deciding on cache size can be a tricky task." (a preamble)
    ("Choosing the relay build's default spool can be a tricky task.",
     "Choosing the relay build's default spool can be a tricky task. A few things to "
     "consider:"),
])
def test_a_bullet_leaning_on_what_it_leaves_out_comes_after_one_standing_alone(
        leaning: str, passage: str) -> None:
    q = "How do I choose the default spool of the relay build?"
    rows = [row("docs_search", q, [item("passage", passage, "relay.html#4", score=3.0),
                                   item("passage", _OWN, "relay.html#5", score=2.0)]),
            row("analyst", q, [item("finding", leaning, "relay.html#4"),
                               item("finding", _OWN, "relay.html#5")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert answer.strip().splitlines()[0].startswith(f"- {_OWN}"), answer


def test_a_sentence_pointing_back_at_its_entrys_heading_stands_alone() -> None:
    # "This option limits ..." opening an entry's description points at the entry's name, not
    # at a sentence left out (trial 88, R3): it keeps its place
    q = "How do I choose the default spool of the relay build?"
    own = "This option chooses the relay build's default spool when none is named."
    rows = [row("docs_search", q, [item("passage", f"--spool\n\n{own}", "relay.html#4",
                                        score=3.0),
                                   item("passage", _OWN, "relay.html#5", score=2.0)]),
            row("analyst", q, [item("finding", own, "relay.html#4"),
                               item("finding", _OWN, "relay.html#5")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert own in answer, answer
