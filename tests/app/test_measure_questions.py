"""Questions that ask for a measure ("how long", "how far", "how often", "when"): the word of
the measure is no topic word, a word of how people ask that the corpus never uses is no sign of
a near miss, the plan asks no garbled facet, and the Answer leads with a sentence stating the
measure (trial 12, finding 2: "How long do drone batteries need to charge?" was warned that no
passage mentions "long" or "need"; "how far away should I stay from birds that are nesting"
got the sub-question "How do you how far away should I stay?")."""

from __future__ import annotations

import json
from pathlib import Path

from app.research.plan import offline_plan
from app.research.relevance import topic_terms
from app.research.term_stats import TermStats, unknown_terms
from app.research.topics import topic_kind
from tests.app.report_rows import answer_to, item
from tests.conftest import AS_OF, run_cli

HERONS = """# Heron census

The heron census is done between 15 April and 31 May, when the nests are occupied.
The Harbor Bird Trust counts grey herons and their nesting colonies each spring.
Observers must keep a minimum distance of 150 metres from birds at a nesting colony.
"""
BATTERIES = """# Drone batteries

| Part | Rule |
|---|---|
| Drone battery | Charge for 90 minutes before each flight |

Each team carries a drone kit.
"""


def test_the_measure_asked_for_is_no_word_of_the_topic() -> None:
    assert topic_terms("How long do drone batteries need to charge?") == [
        "drone", "batteries", "need", "charge"]
    assert topic_terms("How far away is the lighthouse?") == ["away", "lighthouse"]
    assert "long" in topic_terms("Why are long passages cut?")  # not asking how long
    assert [topic_kind(q) for q in ("How many nests count?", "When is the census done?",
                                    "How do I count nests?")] == ["measure", "measure", "how"]


def test_a_word_of_how_people_ask_that_the_corpus_lacks_makes_no_near_miss() -> None:
    stats = TermStats(10, {"drone": 2, "need": 0, "away": 0})
    assert unknown_terms(["need", "away", "drone"], stats) == []
    stats = TermStats(10, {"cracked": 0, "pane": 0, "window": 3})  # a near miss still is
    assert unknown_terms(["cracked", "window", "pane"], stats) == ["cracked", "pane"]


def test_a_measure_question_gets_no_how_do_you_facet() -> None:
    for question in offline_plan("how far away should I stay from birds that are nesting"):
        assert "How do you how" not in question and question.count("?") == 1, question


def test_the_answer_to_a_measure_question_states_the_measure() -> None:
    q = "When is the heron census done?"
    answer = answer_to(q, [
        item("finding", "The heron census is done by volunteers of the Bird Trust.", "h.md#0"),
        item("finding", "The heron census is done between 15 April and 31 May.", "h.md#1"),
    ])
    assert answer.strip().splitlines()[0].startswith("- The heron census is done between"), answer


def test_measure_questions_over_a_folder_that_answers_them_are_not_warned(tmp_path: Path
                                                                          ) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "herons.md").write_text(HERONS, encoding="utf-8")
    (folder / "batteries.md").write_text(BATTERIES, encoding="utf-8")
    for topic, said in [("How long do drone batteries need to charge?", "90 minutes"),
                        ("how far away should I stay from birds that are nesting", "150 metres"),
                        ("When is the heron census done?", "15 April and 31 May")]:
        proc = run_cli("research", topic, "--as-of", AS_OF, "--corpus", folder, "--data-dir",
                       tmp_path / "data", "--json")
        assert proc.returncode == 0, proc.stderr
        summary = json.loads(proc.stdout)
        # answered, not warned: a word no page uses ("stay") is at most named
        codes = {w["code"] for w in summary["warnings"]}
        assert codes <= {"words_not_found"}, (topic, summary["warnings"])
        report = Path(summary["report_path"]).read_text("utf-8")
        assert "How do you how" not in report
        assert said in report.split("## Sources")[0], report


def test_a_name_the_corpus_lacks_is_still_a_near_miss_once_the_measure_word_is_gone() -> None:
    # Sibling found by the sqlite3-doc eval: "How tall is Mount Kilimanjaro?" lost its warning
    # when "tall" stopped counting: "Kilimanjaro" was taken for a typo, judged by "mount".
    from app.research.relevance import judge
    from tests.app.report_rows import row

    q = "How tall is Mount Kilimanjaro?"
    rows = [row("docs_search", q, [item("passage", "Mount the database file read-only.",
                                        "uri.html#0", score=2.0)])]
    stats = TermStats(1000, {"mount": 3, "kilimanjaro": 0})
    assert [w.code for w in judge(q, rows, stats).warnings] == ["no_relevant_sources"]
    typo = "checkpointer pendng"  # a typo beside a word the passage names is still answered
    rows = [row("docs_search", typo, [item("passage", "The checkpointer saves.", "c.md#0",
                                           score=2.0)])]
    assert judge(typo, rows, TermStats(1000, {"checkpointer": 5, "pendng": 0})).warnings == []


def test_a_phrase_that_is_a_question_is_asked_as_it_is() -> None:
    # trial 52: "How hot should the water be for green tea?" planned "How do you How hot
    # should the water be?"
    for question in offline_plan("How hot should the water be for green tea?"):
        assert "How do you How" not in question and question.count("?") == 1, question
