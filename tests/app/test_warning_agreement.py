"""The Answer and the Caveats agree on what a warning is: the Answer put after its answering
sentences any sentence that matched the words of a warning (:data:`app.research.caveats.WARNING`)
while the Caveats section asked :func:`app.research.caveats.warns`, which also knows a
recommendation, a pointer or an example's scenario is none. SQLAlchemy's fix, "And importantly,
set expire_on_commit to False ... should not be used with detached objects", went after the
Answer's other sentence as a warning the Caveats did not list (L2-F1, after trial 123, F9)."""

from __future__ import annotations

import pytest

from app.research.answer_shapes import goes_after
from app.research.caveats import WARNING, warns
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

Q = "How do I keep loaded attributes usable after commit with the async session?"


@pytest.mark.parametrize("text", [
    "And importantly, set expire_on_commit to False; expiration should not be used with "
    "detached objects.",
    "See the TLS README, which explains what should not be logged.",
    "For example, suppose the Markdown text for a page should not contain any headers.",
])
def test_a_sentence_the_caveats_call_no_warning_does_not_go_after_the_answer(text: str) -> None:
    assert WARNING.search(text) and not warns(text)  # the two disagreed on it
    assert not goes_after(Q, "how", text, text)


def test_a_warning_still_goes_after_the_answer() -> None:
    text = "Autoflush should not be disabled while a flush is in progress."
    assert warns(text) and goes_after(Q, "how", text, text)


def test_the_recommendation_leads_the_answer() -> None:
    fix = ("And importantly, set expire_on_commit to False on the session so that loaded "
           "attributes stay usable after commit; expiration should not be used with detached "
           "objects.")
    other = "The async session loads attributes of the session's objects after commit."
    rows = [row("analyst", Q, [item("finding", other, "async.html#1"),
                               item("finding", fix, "async.html#2")])]
    answer = answer_section(render_markdown(data(rows, sub_questions=[Q], topic=Q)))
    assert answer.index("expire_on_commit") < answer.index("The async session loads"), answer
