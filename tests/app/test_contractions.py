"""A contraction's tail is no word of the question (trial 49, F1: "How do I delete every
variable I've created?" was warned that no passage mentions "ve")."""
from __future__ import annotations

import json
from pathlib import Path

from app.research.relevance import topic_terms
from tests.conftest import AS_OF, run_cli

WORKSPACE = """# Cleaning up the workspace

To delete every variable you have created, remove all objects in the workspace with
rm(list = ls()). Variables created in a function are deleted when the function returns.
"""


def test_contractions_leave_no_tail_among_the_topics_words() -> None:
    assert topic_terms("How do I delete every variable I've created?") == [
        "delete", "variable", "created"]
    assert topic_terms("Why won't the workspace’s variables go? They're kept, aren't they")[:3] \
        == ["workspace", "variables", "go"]
    assert "re" in topic_terms("What does the re module do?")  # a word, not a contraction


def test_a_question_with_a_contraction_is_not_warned_of_its_tail(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "workspace.md").write_text(WORKSPACE, encoding="utf-8")
    proc = run_cli("research", "How do I delete every variable I've created?", "--as-of",
                   AS_OF, "--corpus", folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["warnings"] == [], summary["warnings"]
    report = Path(summary["report_path"]).read_text("utf-8")
    assert '"ve"' not in report and "rm(list = ls())" in report, report


def test_other_apostrophes_are_contractions_too() -> None:
    # trial 52, F15: U+02BC searched "iʼve" whole; U+2018, ´ and ′ left a stray "ve"
    for mark in ("\u02bc", "\u2018", "\u00b4", "\u2032", "\uff07"):
        assert topic_terms(f"How do I delete every variable I{mark}ve created?") == [
            "delete", "variable", "created"], mark
