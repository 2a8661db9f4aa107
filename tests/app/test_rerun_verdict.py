"""A rerun of a thread never hands back the previous run's verdict (trial 25, finding 2).

``outcome``, ``failed_tasks``, ``warnings``, ``report`` and ``report_path`` are written by
``report`` at a run's end. A rerun that pauses at its review, or stops before its ``report``,
must not carry the run before's: a LangGraph Server client reads ``outcome`` off
``runs.wait``'s result (README, "the run's verdict is in the graph's final state").
"""

from __future__ import annotations

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from app.graph import build_graph
from app.graph.resources import Resources
from app.settings.config import Settings
from tests.durability._helpers import AS_OF, TOPIC, write_corpus
from workers.registry import WORKERS

VERDICT = ("outcome", "failed_tasks", "warnings", "report", "report_path")


def _graph(tmp_path, saver, **faults):
    corpus = write_corpus(tmp_path / "corpus")
    settings = Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus), model="offline",
                        retry_interval=0.01, **faults)
    res = Resources(settings)
    return build_graph(WORKERS, resources=res, checkpointer=saver), res


def _partial_thread(tmp_path, saver, config):
    """Run the thread once with ``critic`` failing for good: a ``partial`` verdict."""
    graph, res = _graph(tmp_path, saver, fail_workers=("critic",))
    try:
        out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context={"rounds": 1})
    finally:
        res.close()
    assert out["outcome"] == "partial"
    assert {t["worker"] for t in out["failed_tasks"]} == {"critic"}
    assert out["report"] and out["report_path"]
    return out


def test_a_rerun_paused_at_review_has_no_verdict_until_its_report(tmp_path):
    saver, config = InMemorySaver(), {"configurable": {"thread_id": "rerun-verdict"}}
    first = _partial_thread(tmp_path, saver, config)
    graph, res = _graph(tmp_path, saver)  # healthy now
    try:
        context = {"review": True, "rounds": 1}
        out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config, context=context)
        assert out["__interrupt__"][0].value["stage"] == "plan"
        assert out.get("outcome") is None
        assert out.get("failed_tasks") == [] and out.get("warnings") == []
        assert out.get("report") is None and out.get("report_path") is None
        shown = graph.get_state(config).values  # what threads.get / Studio show
        assert [shown.get(k) for k in VERDICT] == [None, [], [], None, None]

        out = graph.invoke(Command(resume={"approve": True}), config, context=context)
        out = graph.invoke(Command(resume={"approve": True}), config, context=context)
        assert out["outcome"] == "ok" and out["failed_tasks"] == []
        assert out["report"] and out["report"] != first["report"]  # this run's own
    finally:
        res.close()


def test_a_rerun_stopped_before_its_report_leaves_no_verdict(tmp_path):
    # a run that raises or is cancelled midway: its last checkpoint is the thread's state
    saver, config = InMemorySaver(), {"configurable": {"thread_id": "rerun-stopped"}}
    _partial_thread(tmp_path, saver, config)
    graph, res = _graph(tmp_path, saver)
    try:
        for chunk in graph.stream({"topic": TOPIC, "as_of": AS_OF}, config,
                                  context={"rounds": 1}, stream_mode="updates"):
            if "route" in chunk:
                break  # stopped after the map step, before persist and report
        state = graph.get_state(config)
        assert state.next == ("persist",)
        assert state.values.get("outcome") is None
        assert state.values.get("report") is None and state.values["failed_tasks"] == []
    finally:
        res.close()


def test_the_cli_summary_judges_warnings_a_state_without_an_outcome_has_not():
    # ``plan`` empties ``warnings`` until ``report`` judges: an empty list with no outcome is
    # "not judged yet", and the CLI's summary judges the rows itself, as for a state without it
    from app.runs.summary import _warnings
    from tests.app.test_relevance import UNRELATED

    unjudged = _warnings({"warnings": [], "outcome": None}, "zebra marmalade", lambda: UNRELATED)
    assert [w["code"] for w in unjudged] == ["no_relevant_sources"]
    judged = _warnings({"warnings": [], "outcome": "ok"}, "zebra marmalade", lambda: UNRELATED)
    assert judged == []  # report's verdict, kept
