"""A FAQ's bare "Yes." or "No." under the question the topic asks is the Answer's first line:
trial 128, F3. "Is libcurl thread-safe?" over curl's docs: FAQ item "5.1 Is libcurl
thread-safe?" opens with a paragraph "Yes." and the Answer quoted only the sentences after it
("libcurl will use thread-safe functions ..."), never saying yes. A reply under a heading that
asks something more than the topic is not its answer.
"""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

REF = "FAQ#7"
EXPLAINED = ("We wrote the relay's code for threaded programs. The relay uses thread-safe "
             "calls where the system has them.")
FINDING = "The relay uses thread-safe calls where the system has them."


def _answer(topic: str, heading: str, reply: str, before: str = "") -> list[str]:
    passage = f"{before}{heading}\n\n  {reply}\n\n  {EXPLAINED}"
    extra = {"title": "FAQ", "heading": heading.lstrip("# ")}
    rows = [row("docs_search", topic, [item("passage", passage, REF, **extra)]),
            row("analyst", topic, [item("finding", FINDING, REF, **extra)]),
            row("critic", topic, [])]
    md = render_markdown(data(rows, topic=topic, sub_questions=[topic]))
    return answer_section(md).strip().splitlines()


def test_a_faqs_yes_under_the_question_asked_opens_the_answer() -> None:
    lines = _answer("Is the relay thread-safe?", "5.1 Is the relay thread-safe?", "Yes.")
    assert lines[0] == "- 5.1 Is the relay thread-safe? Yes. [1]", lines
    assert FINDING in lines[1], lines


def test_a_no_under_a_markdown_heading_too() -> None:
    lines = _answer("Can relays be nested?", "## Can relays be nested?", "No.")
    assert lines[0] == "- Can relays be nested? No. [1]", lines


def test_a_reply_to_a_narrower_question_is_not_the_topics() -> None:
    lines = _answer("Is the relay thread-safe?", "5.2 Is the relay thread-safe on Windows?",
                    "No.")
    assert not any("No." in line for line in lines), lines
