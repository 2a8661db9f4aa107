"""A state edit of ``routing`` or ``envelopes`` is checked as an edit of the plan is (trial
14, findings 1, 2 and 10): a fork after ``plan`` with ``"workers": ["evil_worker"]`` ran no
task, ``persist`` then removed every row of the thread and the run ended ``failed`` with no
cause; ``{"routing": 5}`` was an ``AttributeError`` in an edge (LangGraph Server: 500 with a
traceback); ``rounds`` past the operator's bound and ``review: "x"`` were kept. The graph runs
in process, as the server runs it (served ``Resources``, a checkpointer, the choices as the
run's context)."""

from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.errors import BadAsOf, CorpusMismatch
from app.graph.build import build_graph, worker_names
from app.graph.resources import Resources
from app.research.plan_check import BadPlan
from app.settings.config import RunContext, Settings
from tests.results_db import db_rows

TOPIC = "zorblax flux capacitors"
AS_OF = "2026-01-15"


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixture: one xdist worker runs it


def _settings(data: Path, first: Path) -> Settings:
    return Settings(data_dir=str(data), model="offline", rounds_limit=3, sub_questions_limit=6,
                    corpora=(f"first={first}",))


@pytest.fixture(scope="module")
def _run_once(tmp_path_factory, make_corpus):
    """A served thread run once: ``(checkpointer, data_dir, corpus)``, copied by each test."""
    data, first = tmp_path_factory.mktemp("edits") / "data", make_corpus(name="first")
    saver = InMemorySaver()
    graph = build_graph(resources=Resources(_settings(data, first), served=True),
                        checkpointer=saver)
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, {"configurable": {"thread_id": "t1"}},
                 context=RunContext(rounds=1))
    return saver, data, first


@pytest.fixture
def served(tmp_path: Path, _run_once):
    """``(graph, config, data_dir, after_plan)``: a copy of a served thread run once (rounds
    bound 3, sub-questions bound 6: its checkpoints and its data dir), and the config of its
    checkpoint after ``plan``."""
    saver, base, first = _run_once
    data = tmp_path / "data"
    shutil.copytree(base, data)
    graph = build_graph(resources=Resources(_settings(data, first), served=True),
                        checkpointer=copy.deepcopy(saver))
    config = {"configurable": {"thread_id": "t1"}}
    after_plan = next(s.config for s in graph.get_state_history(config)
                      if s.next == ("dispatch",))
    return graph, config, data, after_plan


def _rows(data: Path) -> list[tuple[str, str]]:
    return sorted((r["envelope_id"], r["status"]) for r in db_rows(data, "t1"))


FORK_EDITS = [
    ({"workers": ["evil_worker"]}, "routing.workers: 'evil_worker' is not a worker"),
    ({"workers": []}, "routing.workers names no worker"),
    ({"workers": "docs_search"}, "routing.workers must be a list of worker names, got str"),
    ({"rounds": 1001}, "routing.rounds must be 1 to 1000"),
    ({"rounds": "2"}, "routing.rounds must be 1 to"),
    ({"review": "x"}, "routing.review must be true or false, got 'x'"),
    ({"first_round": 0}, "routing.first_round must be a whole number >= 1"),
    ({"evil": 1}, "routing has no field 'evil'"),
    # trial 32, F9: narrowed to one worker, the run ended ok and persist removed the others' rows
    ({"workers": ["docs_search"]}, "routing.workers leaves out 'analyst': plan fans out to every"),
]


def test_a_routing_edit_at_a_fork_after_plan_is_refused_as_it_is_made(served):
    """The edge after ``plan`` reads routing: LangGraph evaluates it on ``update_state``, so
    the edit is refused with one ``BadPlan`` line (a ``ValueError``: LangGraph Server answers
    400, not 500), nothing is saved and no row goes."""
    graph, config, data, after_plan = served
    before = _rows(data)
    assert before
    routing = graph.get_state(after_plan).values["routing"]
    edits = [{**routing, **edit} for edit, _ in FORK_EDITS] + [5, "x", 0, [1]]
    says = [s for _, s in FORK_EDITS] + ["routing must be a mapping of review, rounds"] * 4
    # trial 31, F5: None and {} were taken as "no routing yet", and the run went on with no
    # review and one round
    edits += [None, {}, {"workers": routing["workers"], "review": True}]
    says += ["routing is missing: plan wrote one", "routing.review is missing",
             "routing.rounds is missing"]
    for edit, line in zip(edits, says, strict=True):
        with pytest.raises(BadPlan, match=re.escape(line)) as caught:
            graph.update_state(after_plan, {"routing": edit}, as_node="plan")
        assert isinstance(caught.value, ValueError)
        assert "\n" not in str(caught.value) and "research --fresh" not in str(caught.value)
    # trial 32, F9: with the sub-questions cleared too, "no plan yet" passed, and the thread
    # ended at once, its review pause gone without a line: plan's first round still says it ran
    with pytest.raises(BadPlan, match="routing is missing: plan wrote one"):
        graph.update_state(after_plan, {"sub_questions": [], "routing": None}, as_node="plan")
    assert graph.get_state(config).values["outcome"] == "ok"
    assert _rows(data) == before


def test_a_routing_edit_after_the_map_step_fails_the_run_and_keeps_the_rows(served):
    """An edit ``as_node`` a worker passes no edge that reads routing: ``route`` refuses it in
    the run, naming the field (the operator's bound and corpus names included); no row is
    removed, and the routing set back runs on."""
    graph, config, data, _ = served
    before = _rows(data)
    routing = graph.get_state(config).values["routing"]
    worker = worker_names(graph)[0]
    for edit, says in [
        ({"workers": ["evil_worker"]}, "routing.workers: 'evil_worker' is not a worker"),
        ({"rounds": 4}, "routing.rounds must be 1 to 3 (the rounds bound), got 4"),
        ({"corpus_name": "/etc"}, "routing.corpus_name: '/etc' is not a corpus of this server"),
        ({"corpus_name": 5}, "routing.corpus_name must be text or null"),
        ({"workers": ["docs_search"]}, "routing.workers leaves out 'analyst'"),
    ]:
        graph.update_state(config, {"routing": {**routing, **edit}}, as_node=worker)
        with pytest.raises(BadPlan, match=re.escape(says)) as caught:
            graph.invoke(None, config, context=RunContext(rounds=1))
        assert "research --fresh" not in str(caught.value)  # a served client's way on
        assert "start a new thread for the topic" in str(caught.value)
        assert _rows(data) == before
    graph.update_state(config, {"routing": routing}, as_node=worker)
    graph.invoke(None, config, context=RunContext(rounds=1))
    assert graph.get_state(config).values["outcome"] == "ok"
    assert _rows(data) == before


def test_a_rerun_on_an_edited_corpus_name_does_not_advise_it(served):
    """``routing.corpus_name`` edited to a value the server refuses: the refusal of a rerun
    does not tell the client to run with it (trial 14, finding 10)."""
    graph, config, data, _ = served
    routing = graph.get_state(config).values["routing"]
    graph.update_state(config, {"routing": {**routing, "corpus_name": "/etc"}},
                       as_node="report")
    with pytest.raises(CorpusMismatch, match="not a corpus of this server") as caught:
        graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=RunContext(rounds=1))
    assert "'/etc', or" not in str(caught.value) and "set it back" in str(caught.value)


def test_an_envelopes_edit_of_the_wrong_type_is_a_value_error_naming_it(served):
    """``{"envelopes": 5}`` and ``[5]`` were a ``TypeError`` of the reducer: LangGraph Server
    answered 500 with a traceback (``{"envelopes": [{"x": 1}]}``, a ``ValueError``, was a clean
    400). Still a ``TypeError`` too, as the reducer documents."""
    graph, config, data, after_plan = served
    before = _rows(data)
    for edit, says in [(5, "envelopes must be a dict, an Envelope, or a list of them; got int"),
                       ([5], "envelopes: an envelope must be a dict or an Envelope, got int 5"),
                       (["e" * 100_000], "got str 'eeee")]:
        with pytest.raises(ValueError, match=re.escape(says)) as caught:
            graph.update_state(after_plan, {"envelopes": edit}, as_node="plan")
        assert isinstance(caught.value, TypeError) and len(str(caught.value)) < 200
    assert _rows(data) == before


def test_an_edit_of_what_the_edges_read_of_the_wrong_type_fails_the_run_in_one_line(served):
    """``{"redo": 5}`` or ``{"sub_questions": 5}`` ``as_node="dispatch"`` failed in the fan-out
    edge (a ``TypeError``: LangGraph Server's 500), ``{"round": "x"}`` in the run,
    ``{"planned": 5}`` and ``{"notes": {"a": 1}}`` in ``report`` after ``persist``: the edges
    read past them, and the run's first node refuses them naming the key; no row goes."""
    graph, config, data, after_plan = served
    before = _rows(data)
    for edit, says in [({"redo": 5}, "redo must be a list of envelope ids, got 5"),
                       ({"dropped": [5]}, "dropped must be a list of envelope ids, got [5]"),
                       ({"round": "x"}, "round must be a whole number >= 1, got 'x'"),
                       ({"sub_questions": 5}, "sub_questions must be a list of strings"),
                       ({"planned": 5}, "planned must be a list of questions, got 5"),
                       ({"notes": {"a": 1}}, "notes must be a list of text lines, got [{")]:
        fork = graph.update_state(after_plan, edit, as_node="dispatch")
        with pytest.raises(BadPlan, match=re.escape(says)):
            graph.invoke(None, fork, context=RunContext(rounds=1))
        assert _rows(data) == before
    with pytest.raises(ValueError, match="dedupe_extend: an item must be hashable"):  # 400
        graph.update_state(after_plan, {"dropped": [["x"]]}, as_node="dispatch")


def test_a_plan_edited_past_the_operators_sub_questions_bound_runs_no_task(served):
    """Trial 14, finding 13: a client's fork with 200 sub-questions ran 600 tasks; past the
    operator's ``sub_questions_limit`` the run is refused before a task runs, naming the bound,
    and the thread's rows stay; at the bound it runs."""
    graph, config, data, after_plan = served
    before = _rows(data)
    questions = [f"What does part {n} of the zorblax flux capacitor do?" for n in range(1, 8)]
    graph.update_state(after_plan, {"sub_questions": questions}, as_node="plan")
    with pytest.raises(BadPlan, match=re.escape(
            "sub_questions holds 7 questions, past this server's bound of 6 "
            "(RESEARCH_SUB_QUESTIONS_LIMIT)")):
        graph.invoke(None, config, context=RunContext(rounds=1))
    assert _rows(data) == before
    graph.update_state(after_plan, {"sub_questions": questions[:6]}, as_node="plan")
    graph.invoke(None, config, context=RunContext(rounds=1))
    assert graph.get_state(config).values["outcome"] == "ok"
    assert len(_rows(data)) == 6 * len(worker_names(graph))


def test_a_counter_edit_of_the_wrong_type_is_a_value_error_naming_it(served):
    """``{"tokens": "x"}`` was a ``TypeError`` of ``operator.add`` in ``update_state``:
    LangGraph Server answered 500 with a traceback (trial 14). The counters fold with
    ``state.add_count``, whose ``ValueError`` is the server's 400; a whole number still adds."""
    graph, config, data, after_plan = served
    for key in ("tokens", "unmetered_calls"):
        for edit in ("x", 2.5, True, [1]):
            with pytest.raises(ValueError, match="must be a whole number, got") as caught:
                graph.update_state(after_plan, {key: edit}, as_node="plan")
            assert isinstance(caught.value, TypeError) and len(str(caught.value)) < 120
        before = graph.get_state(after_plan).values.get(key) or 0
        fork = graph.update_state(after_plan, {key: 7}, as_node="plan")
        assert graph.get_state(fork).values[key] == before + 7


@pytest.mark.parametrize(("edit", "says"), [
    ({"as_of": "../../etc"}, "as_of must be a date written YYYY-MM-DD, got '../../etc'"),
    ({"as_of": "2026-02-30"}, "there is no such date"),
    ({"as_of": ""}, "as_of needs a value, got an empty one"),
    ({"topic": "reducers " * 200}, "the topic has 1800 characters; the limit is 500"),
])
def test_an_as_of_or_topic_edit_after_plan_fails_the_run_with_one_bad_plan_line(served, edit,
                                                                                 says):
    # Trial 31, F6: as_of "../../etc" failed the next run as a bare ValueError (every other
    # bad edit is a BadPlan line), and a topic far past the input's bound ran on.
    graph, config, data, after_plan = served
    before = _rows(data)
    fork = graph.update_state(after_plan, edit, as_node="plan")
    with pytest.raises(BadPlan, match=re.escape(says)) as caught:
        graph.invoke(None, fork, context=RunContext(rounds=1))
    assert "\n" not in str(caught.value)
    assert _rows(data) == before


def test_an_edit_putting_round_before_the_runs_first_round_is_refused_as_it_is_made(served):
    # Trial 32, finding 1: routing.first_round edited to 50 (or round to 1 on a rerun whose
    # first round is 2) was accepted; dispatch then sent every task again and again (their
    # envelopes never this run's) until LangGraph's recursion limit: 33M tokens in 7 minutes.
    # And tokens edited negative made the budget endless.
    graph, config, data, after_plan = served
    values = graph.get_state(after_plan).values
    routing = values["routing"]
    assert values.get("round") == routing["first_round"]
    with pytest.raises(BadPlan, match="is before this run's first round"):
        graph.update_state(after_plan, {"routing": {**routing, "first_round": 50}},
                           as_node="plan")
    fork = graph.update_state(after_plan, {"tokens": -10**12}, as_node="plan")
    with pytest.raises(BadPlan, match=re.escape("tokens must be a whole number >= 0")):
        graph.invoke(None, fork, context=RunContext(rounds=1))



def test_an_edit_to_the_highest_round_refuses_the_rerun_before_any_task_runs(served):
    # trial 122, F1: an envelope's round edited to 2**63 - 1 was accepted; every later run of
    # the thread ran all its tasks, then failed on its own round 2**63, and an edit could no
    # longer lower the rounds the failed runs had written
    from state import delete_envelope

    graph, config, data, _ = served
    before, envelope = _rows(data), graph.get_state(config).values["envelopes"][0]
    graph.update_state(config, {"envelopes": [
        {"envelope_id": envelope["envelope_id"], "round": 2**63 - 1}]}, as_node="report")
    with pytest.raises(BadPlan, match=r"highest round, 9223372036854775807, leaves no round"):
        graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=RunContext(rounds=1))
    values = graph.get_state(config).values
    assert values["round"] < 2**53 and _rows(data) == before  # plan wrote nothing, ran nothing
    graph.update_state(config, {"envelopes": [delete_envelope(envelope["envelope_id"])]},
                       as_node="report")
    graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=RunContext(rounds=1))
    assert _rows(data) == before

@pytest.mark.parametrize(("as_of", "says"), [
    ("1999-13-01", "as_of '1999-13-01': there is no such date (there is no month 13)"),
    ("../../etc", "as_of must be a date written YYYY-MM-DD, got '../../etc'"),
    ("", "as_of needs a value, got an empty one"),  # trial 58, F2: it ran as of today
])
def test_an_as_of_edit_before_plan_fails_the_run_with_one_bad_as_of_line(served, as_of, says):
    # Trial 42, F6: an edit as __start__ failed plan as a bare ValueError (the topic's, a BadTopic)
    graph, config, data, _ = served
    before = _rows(data)
    fork = graph.update_state(config, {"as_of": as_of}, as_node="__start__")
    with pytest.raises(BadAsOf) as caught:
        graph.invoke(None, fork, context=RunContext(rounds=1))
    assert str(caught.value) == says
    assert _rows(data) == before


def test_an_envelope_edited_unfit_fails_the_run_in_one_line_and_writes_no_row(served):
    """Trial 64, F2 and F3: ``"structured": "x"`` failed every later run in ``report`` with an
    ``AttributeError``, ``"worker": None`` with ``sqlite3.IntegrityError``, ``"status"`` and
    ``"attempts"`` out of range were saved as given, and an envelope of a worker the run does
    not use, with its own matching id, was persisted and reported as a worker's row."""
    from state import make_envelope_id

    graph, config, data, _ = served
    before = _rows(data)
    worker = worker_names(graph)[0]
    [first, *_] = graph.get_state(config).values["envelopes"]
    live = {**first, "structured": {"items": []}}  # a result not yet persisted
    forged = {**live, "worker": "evil", "persisted": False, "structured": {"items": []},
              "envelope_id": make_envelope_id("evil", first["task_key"], first["as_of"])}
    for edit, says in [({**live, "structured": "x" * 10}, "its structured must be a mapping"),
                       ({**live, "worker": None}, "its worker must be non-empty text, got None"),
                       ({**live, "status": "weird"}, "its status must be 'ok' or 'error'"),
                       ({**live, "attempts": -1}, "its attempts must be a whole number from 1"),
                       ({**live, "tokens": -5}, "its tokens must be a whole number from 0"),
                       # trial 67, F4: an ok row of nothing
                       ({**live, "structured": None}, "must hold its result in structured"),
                       (forged, "'evil' is not a worker of this run's routing")]:
        graph.update_state(config, {"envelopes": [{**edit, "persisted": False}]}, as_node=worker)
        with pytest.raises(BadPlan, match=re.escape(says)) as caught:
            graph.invoke(None, config, context=RunContext(rounds=1))
        assert "\n" not in str(caught.value)
        assert _rows(data) == before
        graph.update_state(config, {"envelopes": [first]}, as_node=worker)  # set back


def test_an_envelope_edit_adding_a_key_no_envelope_has_is_refused_naming_it(served):
    """N9: ``{"summary": "EDITED"}`` (the results review's word, no envelope field) was
    accepted and did nothing, the run ending ``ok``: it is refused as a field of the wrong type
    is, naming the key and the closest field; written away, the run goes on."""
    from state import delete_envelope

    graph, config, data, _ = served
    before = _rows(data)
    worker = worker_names(graph)[0]
    [first, *_] = graph.get_state(config).values["envelopes"]
    graph.update_state(config, {"envelopes": [{**first, "summary": "EDITED"}]}, as_node=worker)
    with pytest.raises(BadPlan, match=re.escape(
            "it has no field 'summary' (closest: 'structured'")) as caught:
        graph.invoke(None, config, context=RunContext(rounds=1))
    assert "\n" not in str(caught.value)
    assert _rows(data) == before
    graph.update_state(config, {"envelopes": [delete_envelope(first["envelope_id"]), first]},
                       as_node=worker)
    graph.invoke(None, config, context=RunContext(rounds=1))
    assert _rows(data) == before
