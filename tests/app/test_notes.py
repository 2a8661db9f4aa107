"""app.research.notes.coalesce_notes: one line per stretch of rounds, not one note per round (issue
21, item 8: ``--rounds 1000`` with a worker that always fails printed ~1,000 "note: round N")."""

from __future__ import annotations

from app.research.notes import coalesce_notes


def _round(n: int, k: int = 4) -> str:
    return f"round {n}: re-dispatching {k} failed task(s)"  # as the route node writes it


def test_a_thousand_rounds_are_one_line():
    notes = [_round(n) for n in range(2, 1001)] + ["4 task(s) still failed after 1000 round(s)"]
    assert coalesce_notes(notes) == ["rounds 2–1000: re-dispatched 4 failed task(s) each",
                                     "4 task(s) still failed after 1000 round(s)"]


def test_a_lone_round_note_and_other_notes_are_kept_word_for_word_in_their_place():
    notes = ["planner: 3 questions", _round(2, 1), "budget spent"]
    assert coalesce_notes(notes) == notes


def test_counts_that_change_are_summed_and_a_gap_in_rounds_starts_a_new_stretch():
    notes = [_round(2, 4), _round(3, 2), _round(4, 1), "redo at review", _round(6, 1),
             _round(7, 1)]
    assert coalesce_notes(notes) == [
        "rounds 2–4: re-dispatched 1 to 4 failed task(s) a round, 7 in all",
        "redo at review",
        "rounds 6–7: re-dispatched 1 failed task(s) each",
    ]
    assert coalesce_notes([_round(2), _round(4)]) == [_round(2), _round(4)]  # not consecutive


def test_nothing_is_lost_or_made_up():
    assert coalesce_notes([]) == []
    odd = ["round 2: re-dispatching 4 failed task(s) (and more)", "round x: re-dispatching"]
    assert coalesce_notes(odd) == odd


def test_the_report_lists_a_stretch_of_rounds_on_one_line():
    from app.research.report import ReportInput, render_markdown

    notes = [f"round {r}: re-dispatching 4 failed task(s)" for r in range(2, 101)]
    report = render_markdown(ReportInput(topic="t", as_of="2026-11-30", model_label="offline",
                                         thread_id="t", sub_questions=["q"], rows=[],
                                         notes=notes))
    assert "rounds 2–100: re-dispatched 4 failed task(s) each" in report
    assert "round 50:" not in report
