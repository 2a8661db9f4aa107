"""Reading a structured-output answer (app.llm.models.parse_structured): the one reader the planner
and the report summary share, so both name an unusable answer the same way."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel, ValidationError

import app.llm.models
from app.llm.models import REASON_CHARS, parse_structured
from app.research.plan import Plan, llm_plan, offline_plan
from app.research.synthesis import ReportSummary

CUT = AIMessage("", response_metadata={"finish_reason": "length"})
FINE = AIMessage("", response_metadata={"finish_reason": "tool_calls"})


def _error(schema: type[BaseModel], value: dict) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        schema.model_validate(value)
    return info.value


@pytest.mark.parametrize("schema,value", [
    (Plan, {"sub_questions": ["a?", "b?"]}),
    (ReportSummary, {"sentences": [{"sentence": "S.", "refs": ["r#0"]}]}),
])
def test_an_answer_that_fits_is_returned_as_the_schema(schema, value):
    expected = schema.model_validate(value)
    assert parse_structured({"raw": FINE, "parsed": expected}, schema, "x") == (expected, "")
    assert parse_structured({"raw": FINE, "parsed": value}, schema, "x") == (expected, "")
    # a model whose with_structured_output ignores include_raw
    assert parse_structured(expected, schema, "x") == (expected, "")
    assert parse_structured(value, schema, "x") == (expected, "")
    # an answer that fits is used even when the message shows a fault
    assert parse_structured({"raw": CUT, "parsed": value}, schema, "x") == (expected, "")


def test_a_provider_fault_is_named_before_the_parsing_error():
    cut = 'the planner\'s output was cut off at its length limit (finish_reason "length")'
    error = ValueError("Expecting ',' delimiter")
    out = {"raw": CUT, "parsed": None, "parsing_error": error}
    assert parse_structured(out, Plan, "the planner") == (None, cut)
    # also when the parsed dict fails validation (the planner used to name the validation
    # error there, the report summary the fault: both name the fault now)
    out = {"raw": CUT, "parsed": {"sub_questions": "not a list"}, "parsing_error": None}
    assert parse_structured(out, Plan, "the planner") == (None, cut)


def test_without_a_fault_the_parsing_or_validation_error_is_the_reason():
    out = {"raw": FINE, "parsed": None, "parsing_error": ValueError("bad\n  json")}
    assert parse_structured(out, Plan, "p") == (None, "bad json")
    wrong = {"sentences": [{"sentence": "S."}]}
    parsed, reason = parse_structured({"raw": FINE, "parsed": wrong}, ReportSummary, "r")
    assert parsed is None
    # the invalid fields, not pydantic's text and its URL (trial 23, finding 5)
    assert _error(ReportSummary, wrong)  # it does fail validation
    assert reason == "invalid arguments: sentences.0.refs (Field required)"


def test_an_answer_written_as_json_text_is_taken_and_other_replies_are_named():
    # trial 23, findings 3 and 6: a model that answered with a fenced JSON block, or with a
    # tool call whose arguments are not JSON, was said to have given "no answer"
    fenced = AIMessage('Sure:\n```json\n{"sub_questions": ["a?", "b?"]}\n```')
    out = {"raw": fenced, "parsed": None, "parsing_error": None}
    assert parse_structured(out, Plan, "p") == (Plan(sub_questions=["a?", "b?"]), "")
    prose = {"raw": AIMessage("Here are some questions."), "parsed": None, "parsing_error": None}
    assert parse_structured(prose, Plan, "p") == (
        None, "answered in text instead of calling its Plan tool")
    broken = AIMessage("", invalid_tool_calls=[{
        "name": "Plan", "args": '{"sub_questions": ["a?",]}', "id": "c1",
        "error": "Expecting value", "type": "invalid_tool_call"}])
    out = {"raw": broken, "parsed": None, "parsing_error": None}
    assert parse_structured(out, Plan, "p") == (
        None, "its Plan call had arguments that are not JSON (Expecting value)")


def test_a_text_answer_that_does_not_fit_and_bad_json_are_named_by_what_is_wrong():
    # trial 24, findings 4 and 5: JSON text with the wrong fields read "answered in text", and
    # arguments that are not JSON quoted LangChain's text with the model's cut arguments
    wrong = AIMessage('```json\n{"questions": "one, two"}\n```')
    out = {"raw": wrong, "parsed": None, "parsing_error": None}
    assert parse_structured(out, Plan, "p") == (
        None, "answered in text, with JSON that does not fit Plan: sub_questions (Field required)")
    error = ('Function ReportSummary arguments:\n\n{"sentences": [{"refs": \n\nare not valid '
             "JSON. Received JSONDecodeError Expecting value: line 1 column 42 (char 41)\nFor "
             "troubleshooting, visit: https://docs.langchain.com/x")
    cut = AIMessage("", invalid_tool_calls=[{"name": "ReportSummary", "args": "{", "id": "c",
                                             "error": error, "type": "invalid_tool_call"}])
    out = {"raw": cut, "parsed": None, "parsing_error": None}
    assert parse_structured(out, ReportSummary, "r") == (None, (
        "its ReportSummary call had arguments that are not JSON (Expecting value: line 1 "
        "column 42 (char 41))"))


def test_no_answer_at_all_is_named():
    assert parse_structured({"raw": FINE, "parsed": None, "parsing_error": None}, Plan, "p") == (
        None, "no answer")
    assert parse_structured(None, Plan, "p") == (None, "no answer")
    assert parse_structured("some text", Plan, "p") == (None, "no answer")


def test_a_long_reason_is_cut_to_one_marked_line():
    out = {"raw": FINE, "parsed": None, "parsing_error": ValueError("word " * 200)}
    parsed, reason = parse_structured(out, Plan, "p")
    assert parsed is None and len(reason) <= REASON_CHARS and reason.endswith("…")


def test_the_planner_note_uses_the_shared_reason(monkeypatch):
    # Before parse_structured, the planner cut its reason at 200 characters with no mark, and
    # said "no plan" where the report summary said "no answer".
    answers = iter([
        {"raw": FINE, "parsed": None, "parsing_error": ValueError("x" * 500)},
        {"raw": FINE, "parsed": None, "parsing_error": None},
    ])
    monkeypatch.setattr(app.llm.models, "structured_output",
                        lambda model, schema: RunnableLambda(lambda _messages: next(answers)))
    long_error, nothing = llm_plan("relay", None), llm_plan("relay", None)
    assert long_error.questions == nothing.questions == offline_plan("relay")
    assert long_error.notes == [f"the planner's answer was unusable ({'x' * 199}…): used the "
                                "offline plan"]
    assert nothing.notes == ["the planner's answer was unusable (no answer): used the offline "
                             "plan"]


def test_a_planned_question_the_plan_check_would_refuse_is_left_out_and_named(monkeypatch):
    # The plan check refuses at dispatch what the planner kept ("was the state edited?"): a
    # question past the limit, with a control character, or with no word to search.
    from app.research.plan import Plan
    from app.research.plan_check import plan_problem
    from app.research.topics import MAX_QUESTION_CHARS

    too_long = "How does the relay " + "fold copper envelopes " * 60 + "?"
    assert len(too_long) > MAX_QUESTION_CHARS
    plan = Plan(sub_questions=["What is the relay?", too_long, "What the?", "How\x07 now?",
                               "Why does the relay fold envelopes?"])
    monkeypatch.setattr(app.llm.models, "structured_output",
                        lambda model, schema: RunnableLambda(
                            lambda _messages: {"raw": FINE, "parsed": plan,
                                               "parsing_error": None}))
    result = llm_plan("relay", None)
    assert result.questions[:2] == ["What is the relay?", "Why does the relay fold envelopes?"]
    assert plan_problem(result.questions) is None
    left_out = [n for n in result.notes if "was left out" in n]
    assert len(left_out) == 3 and left_out == result.notes[:3]
    assert f"has {len(too_long)} characters; the limit is {MAX_QUESTION_CHARS}" in result.notes[0]
    assert "…'" in result.notes[0]  # the question shown is cut with a mark, its quote kept


def test_a_second_different_answer_in_one_message_is_named_not_dropped_silently(monkeypatch):
    # Trial 58, F6 (issue 21 item 1's sibling in another role): a planner that sent two Plan
    # calls in one message, the second another plan, ran the first without a word
    first = Plan(sub_questions=["What is the relay?", "Why does the relay fold envelopes?",
                                "How is the relay configured?"])
    calls = [{"name": "Plan", "args": first.model_dump(), "id": "1"},
             {"name": "Plan", "args": first.model_dump(), "id": "2"},  # the same: one answer
             {"name": "Plan", "args": {"sub_questions": ["What is a copper envelope?"]},
              "id": "3"}]
    raw = AIMessage("", tool_calls=calls, response_metadata={"finish_reason": "tool_calls"})
    monkeypatch.setattr(app.llm.models, "structured_output",
                        lambda model, schema: RunnableLambda(
                            lambda _messages: {"raw": raw, "parsed": first,
                                               "parsing_error": None}))
    result = llm_plan("relay", None)
    assert result.questions == first.sub_questions
    assert result.notes == ["the planner sent 2 different plans in one message: the first was "
                            "used"]
    raw.tool_calls = calls[:2]
    assert llm_plan("relay", None).notes == []
