"""The Answer's ranking has a named key (:class:`app.research.answer_rank.AnswerRank`): its
readers, the Answer's order and a how-to's code (``beside_code``), read its criteria by name.
They read ``key[2]``, ``key[3]`` and ``key[-2]`` of tuples whose shape differed by the kind of
question, and a criterion added to one shape moved the others (code review after trial 124)."""

from __future__ import annotations

import re
from pathlib import Path

from app.research.answer_rank import AnswerRank

ROOT = Path(__file__).resolve().parents[2]


def test_the_rank_lists_its_criteria_in_order_of_precedence() -> None:
    listed = re.findall(r"^        (\w+): ", AnswerRank.__doc__ or "", re.MULTILINE)
    assert listed == list(AnswerRank._fields), listed


def test_no_reader_of_the_rank_indexes_it_by_position() -> None:
    for name in ("answer.py", "answer_rank.py", "code_answers.py"):
        text = (ROOT / "app" / "research" / name).read_text(encoding="utf-8")
        assert not re.search(r"\b(?:key|rank|rest)\[-?\d", text), name


def test_a_how_to_sentence_saying_what_to_do_ranks_as_its_code() -> None:
    from app.research.code_answers import beside_code

    ranked = [(AnswerRank(unfit=2, off_topic=True, position=0), "To do it, run x."),
              (AnswerRank(unfit=0, position=1), "Like this: x"),
              (AnswerRank(unfit=2, no_advice=True, off_topic=True, position=2), "X is fun.")]
    raised = [rank for rank, _ in beside_code("how", ranked)]
    assert [(r.unfit, r.off_topic) for r in raised] == [(0, False), (0, False), (2, True)]
    assert beside_code("what", ranked) == ranked
