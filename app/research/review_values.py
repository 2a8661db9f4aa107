"""What a review decision may be: the resume values of the two review pauses, checked as the
graph checks them (:func:`plan_resume`, :func:`results_resume`), and the value the ``review``
command's flags make (:func:`review_value`). The pauses themselves: :mod:`app.research.review`.

Pure (no I/O): a review node that raises on a value runs again and decides the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.research.text import clip
from app.runs.ids import question_key, visible_topic

__all__ = ["MAX_QUESTION_CHARS", "PLAN", "RESULTS", "ReviewError", "plan_resume",
           "results_resume", "review_value"]

PLAN, RESULTS = "plan", "results"
MAX_QUESTION_CHARS = 500
"""The longest question a reviewer may write (a topic's longest): a plan's own may be longer
(:data:`app.research.topics.MAX_QUESTION_CHARS`)."""
_KEYS = {PLAN: {"approve", "sub_questions"}, RESULTS: {"approve", "drop", "redo"}}


class ReviewError(ValueError):
    """A resume value that does not fit what the run awaits; the message is one line."""


def _as_dict(value: Any, stage: str) -> dict[str, Any]:
    if value is None or value is True:
        return {}
    if not isinstance(value, Mapping):
        raise ReviewError(f"the {stage} review expects a dict to resume with, e.g. "
                          f'{{"approve": true}}, got {type(value).__name__}')
    unknown = sorted(set(value) - _KEYS[stage])
    if unknown:
        raise ReviewError(f"the {stage} review does not take {', '.join(unknown)}; it takes "
                          f"{', '.join(sorted(_KEYS[stage]))}")
    if "approve" in value and value["approve"] is not True:  # false, 0, "no", null: no approval
        instead = ("change the plan with sub_questions" if stage == PLAN
                   else "keep results out with drop, or send them again with redo")
        shown = clip(repr(value["approve"]), 40)
        raise ReviewError(f"approve must be true, got {shown}: the {stage} review goes on only "
                          f"when approved; {instead}")
    return dict(value)


def _strings(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ReviewError(f"{name} must be a list of strings")
    if not all(isinstance(v, str) for v in value):
        raise ReviewError(f"{name} must be a list of strings")
    return list(value)


def plan_resume(value: Any, current: Sequence[str], bound: int | None = None) -> list[str]:
    """The sub-questions to run after the plan stage resumed with ``value``.

    Args:
        value: ``{}``, ``{"approve": true}`` or ``{"sub_questions": [str, ...]}`` (None and
            ``True`` mean approve).
        current: the planned sub-questions.
        bound: the most sub-questions a plan may hold (a served run: the operator's
            ``RESEARCH_SUB_QUESTIONS_LIMIT``, which dispatch applies); None: no bound.

    Raises:
        ReviewError: not a dict, an unknown key, ``approve`` with ``sub_questions`` (run the
            plan as it is, and replace it), or sub-questions that are empty, repeated (case,
            spacing and invisible characters aside: :func:`app.runs.ids.question_key`), longer
            than 500 characters, or no question to research by the check every plan must pass
            (:func:`app.research.topics.question_problem`: control characters, no word to
            search for), or more than ``bound`` of them (approved or given), so the plan the
            review takes is never refused at dispatch.
    """
    data = _as_dict(value, PLAN)
    if data.get("sub_questions") is None:
        if bound is not None and len(current) > bound:  # an edit made it so: say how on
            raise ReviewError(f"the plan holds {len(current)} sub-questions, past this "
                              f"server's bound of {bound} (RESEARCH_SUB_QUESTIONS_LIMIT): "
                              f"replace it with sub_questions, at most {bound}")
        return list(current)
    if data.get("approve"):  # else the approval is ignored without a word
        raise ReviewError("approve and sub_questions contradict each other: approve runs the "
                          "plan as it is, sub_questions replaces it; give one of them")
    # as the CLI takes a topic: its white space collapsed, zero-width characters and soft
    # hyphens dropped, so one that prints as another is a repeat
    questions = [visible_topic(q) for q in _strings(data["sub_questions"], "sub_questions")]
    if not questions:
        raise ReviewError("sub_questions must hold at least one question")
    if not all(questions):  # it said "at least one non-empty" of ["What is X?", ""]
        raise ReviewError(f"sub-question {questions.index('') + 1} is empty")
    if len({question_key(q) for q in questions}) != len(questions):  # "what is send ?" too
        raise ReviewError("sub_questions repeats a question")
    if bound is not None and len(questions) > bound:  # tests/app/test_served_plan_bound.py
        raise ReviewError(f"sub_questions holds {len(questions)} questions, past this "
                          f"server's bound of {bound} (RESEARCH_SUB_QUESTIONS_LIMIT)")
    if any(len(q) > MAX_QUESTION_CHARS for q in questions):
        raise ReviewError(f"a sub-question is longer than {MAX_QUESTION_CHARS} characters")
    from app.research.topics import question_problem  # what the plan check asks of each

    for n, question in enumerate(questions, 1):
        if why := question_problem(question):  # "x", "why?", an ESC: refused here, not later
            raise ReviewError(f"sub-question {n} ({clip(question, 80)!r}) "
                              f"{_reworded(why, question)}")
    return questions


def _reworded(why: str, question: str) -> str:
    """A :func:`~app.research.topics.question_problem` line said of sub-question N, for a
    reviewer: without its subject ("the question 'x' has no word ..." -> "has no word ..."),
    and "ask what to find out" for a topic's advice ("say what to research, e.g. ...").

    Example:
        >>> _reworded("the question contains control characters", "a\x1bb")
        'contains control characters'
    """
    for head in (f"the question {question!r} ", "the question "):
        if why.startswith(head):
            why = why[len(head):]
            break
    head, sep, _advice = why.partition("; say what to research")
    return f"{head}; ask what to find out" if sep else why


def results_resume(value: Any, envelope_ids: Iterable[str]) -> tuple[list[str], list[str]]:
    """``(drop, redo)``: the envelope ids to drop and to send again, after the results stage
    resumed with ``value``.

    Args:
        value: ``{}``, ``{"approve": true}``, or ``{"drop": [id, ...], "redo": [id, ...]}``.
        envelope_ids: the ids under review.

    Raises:
        ReviewError: not a dict, an unknown key, an id that is not under review, an id both
            dropped and redone, or ``approve`` with ``redo`` (``approve`` with ``drop`` persists
            all but the dropped, as ``drop`` alone does).
    """
    data = _as_dict(value, RESULTS)
    known = set(envelope_ids)
    drop = list(dict.fromkeys(_strings(data.get("drop"), "drop")))
    redo = list(dict.fromkeys(_strings(data.get("redo"), "redo")))
    for eid in (*drop, *redo):
        if eid not in known:
            raise ReviewError(f"no envelope {eid!r} is under review")
    both = sorted(set(drop) & set(redo))
    if both:
        raise ReviewError(f"envelope {both[0]!r} cannot be both dropped and redone")
    if redo and data.get("approve"):  # else the approval is ignored without a word
        raise ReviewError("approve and redo contradict each other: approve persists the results "
                          "(with drop: all but those), redo sends tasks again and reviews "
                          "again; give one of them")
    return drop, redo


def review_value(payload: Mapping[str, Any], *, approve: bool = False,
                 questions: Sequence[str] = (), drop: Sequence[str] = (),
                 redo: Sequence[str] = ()) -> dict[str, Any]:
    """The resume value for what ``payload`` awaits, from the ``review`` command's flags; checked
    as the graph will check it, so a bad flag fails before anything runs.

    Raises:
        ReviewError: a flag of the other stage, ``--approve`` with a decision that goes on
            otherwise (``--question``, ``--redo``), or a value the stage would refuse.
    """
    stage = payload.get("stage")
    if stage == PLAN:
        if drop or redo:
            raise ReviewError("--drop and --redo are for the results review; this thread awaits "
                              "the plan review (use --question or --approve)")
        if approve and questions:
            raise ReviewError("--approve and --question contradict each other: --approve runs "
                              "the plan as it is, --question replaces it; give one of them")
        value: dict[str, Any] = {"approve": True}
        if questions:
            value = {"sub_questions": list(questions)}
        plan_resume(value, payload.get("sub_questions") or [])
        return value
    if stage == RESULTS:
        if questions:
            raise ReviewError("--question is for the plan review; this thread awaits the results "
                              "review (use --drop, --redo or --approve)")
        if approve and redo:
            raise ReviewError("--approve and --redo contradict each other: --approve persists "
                              "the results (with --drop: all but those), --redo sends tasks "
                              "again and reviews again; give one of them")
        value = {"approve": True}
        if drop or redo:
            value = {"drop": list(drop), "redo": list(redo)}
        results_resume(value, [e["envelope_id"] for e in payload.get("envelopes") or []])
        return value
    raise ReviewError(f"unknown review stage {stage!r}")
