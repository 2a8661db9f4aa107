"""The model-facing pieces in-process, each against the fake server over real HTTP: the factory's
client settings, error classification of the real client's exceptions, the planner, and the
report synthesis."""

from __future__ import annotations

import time

import openai
import pytest
from langchain_core.exceptions import ModelAuthenticationError, ModelRateLimitError

from app.llm.models import make_model
from app.research.plan import Plan, llm_plan, offline_plan
from app.research.report import ReportInput, render_markdown
from app.research.synthesis import Synthesis, make_summarizer, numbered_claims
from app.settings.config import Settings
from tests.expected import worker_names
from tests.llm.fake_openai import FAKE_KEY, PLAN_QUESTIONS, SYNTHESIS_SENTENCE, UNSOURCED_SENTENCE
from tests.results_db import db_rows
from workers.errors import FatalModelError, describe_fatal, is_fatal, is_transient

TOPIC = "glimmer relay"


def _model(server, timeout: float = 10.0, key: str = FAKE_KEY):
    settings = Settings(model="openai:gpt-4.1-mini", openai_api_key=key,
                        openai_base_url=server.url, timeout=timeout, requests_per_second=1000)
    return make_model(settings.model, settings).model


def _error_of(server, status: int) -> Exception:
    server.fail("*", status=status)
    with pytest.raises(Exception) as info:
        _model(server).invoke("hello")
    return info.value


# --- the client: no retries of its own, timeouts, error classes ---------------------------------

def test_client_has_no_retries_of_its_own(fake_openai):
    model = _model(fake_openai)
    assert model.max_retries == 0 and model.root_client.max_retries == 0
    exc = _error_of(fake_openai, 429)
    assert isinstance(exc, openai.RateLimitError) and isinstance(exc, ModelRateLimitError)
    assert is_transient(exc) and not is_fatal(exc)
    assert len(fake_openai.seen) == 1  # the SDK would have sent 3 with its default retries


def test_timeout_is_configurable_and_transient(fake_openai):
    fake_openai.fail("*", kind="delay", delay=1.5)
    model = _model(fake_openai, timeout=0.3)
    started = time.perf_counter()
    with pytest.raises(Exception) as info:
        model.invoke("hello")
    assert time.perf_counter() - started < 1.4
    assert isinstance(info.value, openai.APITimeoutError)
    assert is_transient(info.value) and not is_fatal(info.value)
    assert len(fake_openai.seen) == 1


@pytest.mark.parametrize(
    ("status", "transient", "fatal"),
    [(429, True, False), (500, True, False), (503, True, False), (400, False, False),
     (401, False, True), (404, False, True)],
)
def test_real_client_errors_are_classified(fake_openai, status, transient, fatal):
    exc = _error_of(fake_openai, status)
    assert getattr(exc, "status_code", None) == status
    assert (is_transient(exc), is_fatal(exc)) == (transient, fatal)


def test_401_is_described_in_one_line_without_the_key(fake_openai):
    fake_openai.expected_key = "sk-another-key-0000000000"
    with pytest.raises(Exception) as info:
        _model(fake_openai).invoke("hello")
    exc = info.value
    assert isinstance(exc, openai.AuthenticationError) and isinstance(exc, ModelAuthenticationError)
    line = describe_fatal(exc)
    assert line.startswith("authentication failed (HTTP 401)")
    assert "\n" not in line and FAKE_KEY not in line and "LEAKCANARY" not in line


def test_redact_masks_key_shapes_and_given_secrets():
    from workers.errors import one_line, redact

    text = f"Incorrect API key provided: {FAKE_KEY}; header Bearer abc.def; other plainsecret99"
    masked = redact(text, ["plainsecret99"])
    assert FAKE_KEY not in masked and "LEAKCANARY" not in masked
    assert "Bearer ***" in masked and "plainsecret99" not in masked
    assert FAKE_KEY not in one_line(RuntimeError(text))
    # trial 24, finding 2: a key echoed percent-encoded, as a URL or a form carries it
    echoed = "Incorrect API key provided: my%20secret%20key%2F9 (or my+secret+key%2F9)"
    assert redact(echoed, ["my secret key/9"]) == "Incorrect API key provided: *** (or ***)"


def test_cli_masks_a_key_of_any_shape(fake_openai, llm_corpus, tmp_path, cli_in_process):
    from tests.llm.conftest import llm_env, research_args

    key = "plainkey4242424242"  # not sk-shaped: masked because it is the configured key
    fake_openai.expected_key = "something-else"
    proc = cli_in_process(research_args(llm_corpus, tmp_path / "data"),
                          llm_env(fake_openai, OPENAI_API_KEY=key))
    assert proc.returncode == 1
    assert "Incorrect API key provided: ***" in proc.stderr
    assert key not in proc.stderr + proc.stdout


def test_connection_refused_is_transient():
    settings = Settings(model="openai:gpt-4.1-mini", openai_api_key=FAKE_KEY,
                        openai_base_url="http://127.0.0.1:9/v1", timeout=2)
    with pytest.raises(Exception) as info:
        make_model(settings.model, settings).model.invoke("hello")
    assert isinstance(info.value, openai.APIConnectionError)
    assert is_transient(info.value)


# --- the planner --------------------------------------------------------------------------------

def test_planner_structured_output_by_function_calling(fake_openai):
    result = llm_plan(TOPIC, _model(fake_openai))
    assert result.questions == PLAN_QUESTIONS
    assert result.notes == []
    assert result.tokens == fake_openai.total_tokens > 0
    (seen,) = fake_openai.seen
    assert seen.body["tool_choice"] == {"type": "function", "function": {"name": "Plan"}}
    assert seen.body["messages"][0]["role"] == "system"
    assert TOPIC in seen.body["messages"][-1]["content"]


def test_json_schema_method_works_against_the_server_too(fake_openai):
    """The alternative (``response_format`` json_schema); the app uses function calling."""
    planner = _model(fake_openai).with_structured_output(Plan, method="json_schema")
    plan = planner.invoke("Topic: glimmer relay")
    assert plan.sub_questions == PLAN_QUESTIONS
    assert fake_openai.seen[0].body["response_format"]["type"] == "json_schema"


@pytest.mark.parametrize("kind", ["bad_json", "bad_args"])
def test_unusable_plan_falls_back_to_the_offline_plan(fake_openai, kind):
    fake_openai.fail("planner", kind=kind)
    result = llm_plan(TOPIC, _model(fake_openai))
    assert result.questions == offline_plan(TOPIC)
    assert result.notes and "used the offline plan" in result.notes[0]
    assert result.tokens == fake_openai.total_tokens > 0  # the call still cost tokens


def test_short_plan_is_filled_and_long_one_cut(fake_openai):
    fake_openai.plan_questions = ["Only one?", "only one?", "  "]
    assert llm_plan(TOPIC, _model(fake_openai)).questions[:1] == ["Only one?"]
    # filled from the offline plan, as far as it offers questions (no template to make up 3)
    assert llm_plan(TOPIC, _model(fake_openai)).questions == ["Only one?", *offline_plan(TOPIC)]
    fake_openai.plan_questions = [f"Question {i}?" for i in range(8)]
    assert len(llm_plan(TOPIC, _model(fake_openai)).questions) == 5


# --- the report synthesis -----------------------------------------------------------------------

def _rows():
    def row(worker, question, items, status="ok"):
        return {"worker": worker, "task_key": question, "status": status, "error": None,
                "structured": {"items": items} if items is not None else None}

    return [
        row("analyst", PLAN_QUESTIONS[0], [
            {"kind": "finding", "text": "The glimmer relay carries glimmer packets.",
             "ref": "relay.md#0", "title": "relay.md", "source": "relay.md"},
            {"kind": "finding", "text": "Every station runs one relay per route.",
             "ref": "stations.txt#0", "title": "stations.txt", "source": "stations.txt"},
        ]),
        row("critic", PLAN_QUESTIONS[2], [
            {"kind": "caveat", "text": "It must not be used during a double eclipse.",
             "ref": "relay.md#1", "title": "relay.md", "source": "relay.md"},
        ]),
        row("critic", PLAN_QUESTIONS[1], None, status="error"),
    ]


def _input(rows=None) -> ReportInput:
    return ReportInput(topic=TOPIC, as_of="2026-01-15", model_label="test", thread_id="t",
                       sub_questions=list(PLAN_QUESTIONS), rows=_rows() if rows is None else rows)


def test_numbered_claims_come_from_the_rows_only():
    claims = numbered_claims(_input())
    assert [(c["n"], c["ref"], c["kind"]) for c in claims] == [
        ("1", "relay.md#0", "finding"), ("2", "stations.txt#0", "finding"),
        ("3", "relay.md#1", "caveat"),
    ]


def test_synthesis_over_http_keeps_sourced_sentences_only(fake_openai):
    fake_openai.handed_out_refs = ["relay.md#1"]  # the server cites the refs it "showed"
    summarize = make_summarizer(_model(fake_openai), sleep=lambda s: None)
    data = _input()
    result = summarize(data)
    assert isinstance(result, Synthesis)
    assert list(result) == [(SYNTHESIS_SENTENCE, ["relay.md#1"])]
    assert result.tokens == fake_openai.total_tokens > 0
    assert result.notes == ["model summary: 1 sentence(s) without a known source were dropped"]
    (seen,) = fake_openai.seen
    assert seen.body["tool_choice"] == {"type": "function", "function": {"name": "ReportSummary"}}
    prompt = seen.body["messages"][-1]["content"]
    assert "[3] (ref: relay.md#1) caveat: It must not be used during a double eclipse." in prompt
    data.summary = list(result)
    report = render_markdown(data)
    assert f"- {SYNTHESIS_SENTENCE} [1]" in report and UNSOURCED_SENTENCE not in report


def test_synthesis_maps_claim_numbers_to_refs():
    from app.research.synthesis import _resolve_refs

    claims = numbered_claims(_input())
    assert _resolve_refs(["[2]", "3", "`relay.md#0`", "ref: relay.md#0", "nope#1"], claims) == [
        "stations.txt#0", "relay.md#1", "relay.md#0"
    ]


def test_a_sentence_the_summary_says_twice_is_said_once_with_both_refs():
    # trial 23, finding 11: the Answer repeated a model's repeated sentence word for word
    from app.research.synthesis import ReportSummary, _cited_sentences

    claims = numbered_claims(_input())
    parsed = ReportSummary.model_validate({"sentences": [
        {"sentence": "The relay folds packets.", "refs": ["[1]"]},
        {"sentence": "It must not be used during an eclipse.", "refs": ["[3]"]},
        {"sentence": "The relay  folds packets.", "refs": ["[2]"]},
        {"sentence": "the relay folds packets", "refs": ["[1]"]}]})  # trial 24, finding 13
    assert _cited_sentences(parsed, claims) == ([
        ("The relay folds packets.", ["relay.md#0", "stations.txt#0"]),
        ("It must not be used during an eclipse.", ["relay.md#1"])], 0)


def test_synthesis_retries_transient_errors_then_gives_up_with_a_note(fake_openai):
    fake_openai.fail("report", status=503, times=2)
    fake_openai.handed_out_refs = ["relay.md#0"]
    waits: list[float] = []
    summarize = make_summarizer(_model(fake_openai), max_attempts=3, retry_interval=0.01,
                                sleep=waits.append)
    assert list(summarize(_input())) == [(SYNTHESIS_SENTENCE, ["relay.md#0"])]
    assert waits == [0.01, 0.02]
    fake_openai.fail("report", status=500, times=None)
    result = summarize(_input())
    assert list(result) == [] and result.tokens == 0
    assert result.notes[0].startswith("no model summary: OpenAIAPIError")


def test_synthesis_waits_as_the_nodes_do(fake_openai):
    # One backoff formula (workers.retry.backoff_delay): doubled per attempt, capped at 8x or
    # 1 s, whichever is longer. The summary used to cap at 8x: 0.08 s here, not 0.16 s.
    from workers.retry import backoff_delay

    fake_openai.fail("report", status=503, times=5)
    fake_openai.handed_out_refs = ["relay.md#0"]
    waits: list[float] = []
    summarize = make_summarizer(_model(fake_openai), max_attempts=6, retry_interval=0.01,
                                sleep=waits.append)
    assert list(summarize(_input())) == [(SYNTHESIS_SENTENCE, ["relay.md#0"])]
    assert waits == [backoff_delay(n, 0.01) for n in range(2, 7)]
    assert waits == pytest.approx([0.01, 0.02, 0.04, 0.08, 0.16])
    assert len(fake_openai.requests("report")) == 6


def test_synthesis_fatal_error_stops_the_run(fake_openai):
    fake_openai.fail("report", status=401)
    summarize = make_summarizer(_model(fake_openai), sleep=lambda s: None)
    with pytest.raises(FatalModelError) as info:
        summarize(_input())
    assert is_fatal(info.value) and not is_transient(info.value)
    assert describe_fatal(info.value).startswith("report model: authentication failed")
    assert len(fake_openai.seen) == 1


def test_synthesis_unusable_answer_costs_the_summary_only(fake_openai):
    fake_openai.fail("report", kind="bad_args")
    result = make_summarizer(_model(fake_openai), sleep=lambda s: None)(_input())
    assert list(result) == [] and result.tokens > 0
    assert result.notes[0].startswith("no model summary: unusable answer")


def test_synthesis_without_claims_makes_no_call(fake_openai):
    result = make_summarizer(_model(fake_openai))(_input(rows=[]))
    assert list(result) == [] and fake_openai.seen == []
    assert result.notes == ["no model summary: the run found no sourced claims"]


# --- the wiring: roles, labels, re-runs ---------------------------------------------------------

def _run_settings(server, data_dir, corpus, **kw) -> Settings:
    return Settings(**{
        "model": "openai:gpt-4.1-mini", "openai_api_key": FAKE_KEY, "openai_base_url": server.url,
        "data_dir": data_dir, "corpus": corpus, "retry_interval": 0.01,
        "requests_per_second": 1000, "timeout": 10, **kw,
    })


def test_roles_get_their_own_models_and_the_label_names_them(fake_openai, llm_corpus, tmp_path):
    from app.runs.compiled import open_graph

    settings = _run_settings(fake_openai, tmp_path, llm_corpus, report_model="offline",
                             planner_model="openai:gpt-4.1")
    with open_graph(settings) as (_graph, labels, _resources):
        assert labels["model"] == (
            f"openai:gpt-4.1-mini via {fake_openai.url} (planner: openai:gpt-4.1 via "
            f"{fake_openai.url}, report: offline (deterministic, extractive))"
        )
    assert FAKE_KEY not in labels["model"]


def test_rerun_of_a_thread_keeps_its_plan_and_updates_rows_in_place(
    fake_openai, llm_corpus, tmp_path
):
    from app.runs.run import RunRequest, run_research

    settings = _run_settings(fake_openai, tmp_path, llm_corpus)
    request = RunRequest(topic=TOPIC, as_of="2026-01-15")
    first = run_research(request, settings)
    assert first.ok and first.sub_questions == PLAN_QUESTIONS
    fake_openai.plan_questions = ["A different question?", "Another one?", "And a third?"]
    second = run_research(request, settings)
    assert second.ok and second.sub_questions == PLAN_QUESTIONS  # the thread's plan is kept
    assert len(fake_openai.requests("planner")) == 1
    counts = [r["write_count"] for r in db_rows(tmp_path)]
    # same envelope ids, same rows: one per worker per sub-question, each written twice
    assert counts == [2] * len(PLAN_QUESTIONS) * len(worker_names())
    assert second.tokens > 0 and second.tokens < first.tokens  # no planner call the 2nd time


def test_numbered_claims_lead_with_the_definition_of_the_symbol_asked_about():
    # Trial 10, finding 11: "Base class for creating a graph checkpointer." was in a passage
    # no worker quoted; the model is given it as the first claim of a "what is" topic.
    doc = "langgraph.checkpoint.base.BaseCheckpointSaver"
    q = "What is BaseCheckpointSaver?"

    def row(worker, items):
        return {"worker": worker, "task_key": q, "status": "ok", "error": None,
                "structured": {"items": items}}

    rows = [row("docs_search", [
        {"kind": "passage", "ref": f"{doc}#1", "title": doc, "source": doc, "score": 9.0,
         "text": "- **Single-shot workflows**: Use a unique ID for each run."},
        {"kind": "passage", "ref": f"{doc}#0", "title": doc, "source": doc, "score": 8.0,
         "text": "Base class for creating a graph checkpointer.\n\nMore."}]),
        row("analyst", [{"kind": "finding", "ref": f"{doc}#1", "title": doc, "source": doc,
                            "text": "**Single-shot workflows**: Use a unique ID for each run."}])]
    data = ReportInput(topic=q, as_of="2026-01-15", model_label="test", thread_id="t",
                       sub_questions=[q], rows=rows)
    claims = numbered_claims(data)
    assert [(c["ref"], c["text"]) for c in claims][:1] == [
        (f"{doc}#0", "Base class for creating a graph checkpointer.")]
    assert len(claims) == 2
