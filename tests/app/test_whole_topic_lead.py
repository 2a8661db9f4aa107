"""A sentence naming every word of a "what" question is cited and leads its Answer, though
its document is weaker than one whose sentences name the words only between them, and a
document's own opening "This is ..." points back to nothing (trial 125, F3: asked "What are
the new features in bash-5.2?", NEWS.gz's "This is a terse description of the new features
added to bash-5.2 since the release of bash-5.1." was left out of the report)."""

from __future__ import annotations

from app.research.answer_shapes import opens_document, points_back
from app.research.evidence import settled
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row, sources

Q = "What are the new features in frob-2.1?"
NEWS = ("This is a terse description of the new features added to frob-2.1 since the "
        "release of frob-2.0.")
MANUAL = [
    "This text is a brief description of the features that are present in the Frob tool "
    "(version 2.1, 19 September 2022).",
    "Frob contains features that appear in other popular tools, and some features that only "
    "appear in Frob.",
    "This is Edition 2.1 of The Frob Manual, for Frob, Version 2.1."]
CHANGES = ["This document details the changes between this version, frob-2.1-release, and "
           "the previous version, frob-2.1-rc4.",
           "b. configure has a new option to compile in the completion features."]


def _rows() -> list[dict]:
    passages = [item("passage", f"Frob Features\n\n{MANUAL[0]} {MANUAL[1]} {MANUAL[2]}",
                     "manual.html#1", score=11.0),
                item("passage", " ".join(CHANGES), "CHANGES#0", score=14.0),
                item("passage", f"{NEWS} As always, the manual is the place to look.",
                     "NEWS#0", score=9.0)]
    findings = [*(item("finding", text, "manual.html#1") for text in MANUAL),
                item("finding", NEWS, "NEWS#0"),
                *(item("finding", text, "CHANGES#0") for text in CHANGES)]
    return [row("docs_search", Q, passages), row("analyst", Q, findings)]


def test_a_sentence_naming_the_whole_topic_is_cited_and_leads_the_answer() -> None:
    md = render_markdown(data(_rows(), topic=Q, sub_questions=[Q]))
    first = answer_section(md).strip().splitlines()[0]
    assert "terse description of the new features" in first, md
    assert "NEWS" in [ref for _n, ref in sources(md)], md


def test_the_document_naming_the_whole_topic_in_one_sentence_is_kept() -> None:
    rows = _rows()
    kept = settled(rows, rows, ["new", "features", "frob", "2.1"])
    assert kept is not None and "NEWS" in kept, kept


def test_a_documents_opening_this_points_back_to_nothing() -> None:
    passage = f"{NEWS} As always, the manual is the place to look."
    assert opens_document("NEWS#0", passage, NEWS)
    assert not opens_document("NEWS#3", passage, NEWS)
    assert points_back(NEWS) and not points_back(NEWS, opening=True)
