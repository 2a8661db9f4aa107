"""A sentence saying a thing "is limited" states a limitation: trial 128, F2. "What is multi
command chaining?" over Click's docs: the critic's only caveat, "The order between options and
arguments is limited for chained commands.", was read as no caution (the words of caution had
"limit" and "limits", not "limited"), and the Caveats said "No limitations or warnings were
found in the passages retrieved." under an Answer quoting it.
"""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import data, item, row

Q = "What is relay chaining?"
REF = "relays.html#3"
DEFINES = "Relay chaining invokes more than one relay in one go."
LIMITED = "The order between hops and relays is limited for chained relays."


def _caveats(caveat: str) -> str:
    passage = f"Relay Chaining\n\n{DEFINES} {caveat}"
    extra = {"title": "Relays", "heading": "Relay Chaining"}
    rows = [row("docs_search", Q, [item("passage", passage, REF, **extra)]),
            row("analyst", Q, [item("finding", DEFINES, REF, **extra)]),
            row("critic", Q, [item("caveat", caveat, REF, **extra)])]
    md = render_markdown(data(rows, topic=Q, sub_questions=[Q]))
    return md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]


def test_a_thing_said_to_be_limited_is_a_caveat() -> None:
    caveats = _caveats(LIMITED)
    assert LIMITED in caveats and "No limitations" not in caveats, caveats


def test_not_limited_to_is_still_no_caveat() -> None:
    caveats = _caveats("Each relay carries more, including, but not limited to, the hops.")
    assert "No limitations or warnings were found" in caveats, caveats
