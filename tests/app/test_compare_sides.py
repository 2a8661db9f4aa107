"""A comparison's Answer labels a sentence with a side only when the sentence lies in that
side's own entry or section, and covers every thing compared (trial 116: F2, a Markdown page of
transfer modes, one passage whose heading path names every mode; F7, a definition list of
keywords where backlog's "The default is the value of maxconn." stood for maxconn)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, row

MODES = """# Transfer modes

Quillsync has three transfer modes, chosen with `mode` in quillsync.conf.

## mirror

In mirror mode the destination is made identical to the source: files deleted from the source \
are deleted from the destination too.

## archive

In archive mode nothing is ever deleted from the destination; files deleted from the source \
are kept there.

## append

In append mode only new files are copied; a file that changed at the source is not copied again.

## Choosing a mode

Unlike mirror, archive never deletes anything, so the destination grows without bound. Use \
append for logs and other files that are only ever added to."""
KEYWORDS = """Keyword reference

maxconn <number>: Sets the most connections the listener accepts at once; further clients \
wait in the kernel's queue. Write it inside the listener block, for example maxconn 2000. \
The default is 256.

backlog <number>: Sets the length of the kernel's queue of connections not yet accepted. \
The default is the value of maxconn."""


def _answer(text: str, heading: str, question: str, topic: str, sentences: list[str]) -> str:
    ref = "doc.md#0"
    base = {"ref": ref, "title": "doc", "source": "doc.md", "heading": heading}
    rows = [row("docs_search", question, [{**base, "kind": "passage", "text": text,
                                           "score": 5.0}]),
            row("analyst", question, [{**base, "kind": "finding", "text": s}
                                      for s in sentences])]
    return answer_section(render_markdown(data(rows, topic=topic, sub_questions=[question])))


def _bullets(answer: str) -> list[str]:
    return [line for line in answer.splitlines() if line.startswith("- ")]


def test_each_mode_is_defined_under_its_own_name() -> None:
    # "`archive mode`: In mirror mode the destination is made identical ..." (the passage's
    # heading path "Transfer modes / mirror / archive / ..." named archive), and with three
    # modes "`append`: Unlike mirror, archive never deletes anything ..." was the whole Answer
    path = "Transfer modes / mirror / archive / append / Choosing a mode"
    found = ["Unlike mirror, archive never deletes anything, so the destination grows "
             "without bound.",
             "In mirror mode the destination is made identical to the source: files deleted "
             "from the source are deleted from the destination too.",
             "In archive mode nothing is ever deleted from the destination; files deleted "
             "from the source are kept there.",
             "In append mode only new files are copied; a file that changed at the source is "
             "not copied again."]
    two = _answer(MODES, path, "How do mirror mode and archive mode differ?",
                  "Is mirror mode different from archive mode?", found)
    assert "`archive mode`: In mirror" not in two and "`archive" not in two, two
    assert any(b.startswith("- In mirror mode") for b in _bullets(two)), two
    assert any(b.startswith("- In archive mode") for b in _bullets(two)), two
    three = _answer(MODES, path, "How do mirror, archive and append differ?",
                    "What is the difference between mirror, archive and append?", found)
    assert "`append`: Unlike" not in three, three
    for mode in ("mirror", "archive", "append"):
        assert any(b.startswith(f"- In {mode} mode") for b in _bullets(three)), three


def test_a_sentence_naming_the_other_side_does_not_stand_for_it() -> None:
    # "What is the difference between backlog and maxconn?": backlog's entry, then "The
    # default is the value of maxconn." standing for maxconn
    found = ["The default is the value of maxconn.",
             "Write it inside the listener block, for example maxconn 2000.",
             "backlog <number>: Sets the length of the kernel's queue of connections not yet "
             "accepted.",
             "maxconn <number>: Sets the most connections the listener accepts at once; further "
             "clients wait in the kernel's queue."]
    answer = _answer(KEYWORDS, "Keyword reference", "How do backlog and maxconn differ?",
                     "What is the difference between backlog and maxconn?", found)
    bullets = _bullets(answer)
    assert not any("value of maxconn" in b for b in bullets), answer
    assert any(b.startswith("- maxconn") and "Sets the most" in b for b in bullets), answer
    assert any(b.startswith("- backlog") and "Sets the length" in b for b in bullets), answer
