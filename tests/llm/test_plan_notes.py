"""A planner's plan the app had to change says so in the run's notes, over real HTTP: a plan of
no sub-question (the offline plan fills in), one of 500 (cut to 5), and copies of one question
that differ in case or spacing (asked once: :func:`app.runs.ids.question_key`; accents kept,
"año" is no "ano"). Each was silent, and "What is the glimmer relay ?" ran beside "What is the
glimmer relay?", paying for the same searches twice.
"""

from __future__ import annotations

import json

from tests.expected import worker_names


def _planner_notes(summary: dict) -> list[str]:
    return [n for n in summary["notes"] if "the planner" in n]


def test_a_plan_of_no_sub_question_says_the_offline_plan_filled_in(fake_openai, run):
    fake_openai.plan_questions = []
    proc, summary, _ = run()
    assert proc.returncode == 0, proc.stderr
    asked = len(summary["sub_questions"])
    assert asked >= 1
    assert _planner_notes(summary) == [
        f"the planner's plan held no sub-question to ask: the offline plan added {asked}"]


def test_a_plan_of_500_sub_questions_says_how_many_were_left_out(fake_openai, run):
    fake_openai.plan_questions = [f"What is the glimmer relay facet number {i}?"
                                  for i in range(500)]
    proc, summary, _ = run("--rounds", "1")
    assert proc.returncode == 0, proc.stderr
    assert summary["sub_questions"] == fake_openai.plan_questions[:5]
    assert _planner_notes(summary) == [
        "the planner's plan held 500 sub-questions: the first 5 are asked, the other 495 left "
        "out (at most 5)"]


def test_copies_of_a_question_differing_in_case_or_spacing_run_once(fake_openai, run):
    relay = "What is the glimmer relay?"
    fake_openai.plan_questions = [relay] * 4 + [
        "what is the  Glimmer relay?", "What is the glimmer relay ?",
        "What is the glim\u200bmer relay?",
        "How does the glimmer relay fold packets?", "How does the glimmer relay fold packets ?",
        "What are the limitations of the glimmer relay?"]
    proc, summary, _ = run()
    assert proc.returncode == 0, proc.stderr
    assert summary["sub_questions"] == [relay, "How does the glimmer relay fold packets?",
                                        "What are the limitations of the glimmer relay?"]
    assert summary["db_rows"] == 3 * len(worker_names())
    assert _planner_notes(summary) == [
        "7 of the planner's sub-questions repeat an earlier one (case or spacing aside: "
        "'what is the Glimmer relay?' repeats 'What is the glimmer relay?'): each question is "
        "asked once"]
    searched = [json.dumps(s.body) for s in fake_openai.requests("analyst")
                if s.step == "search"]
    assert len(searched) == 3  # one search per question: none paid for twice
