"""A served run's ``web`` is the client's choice, whatever workers the server's graph has (trial 25,
finding 9).

LangGraph Server compiles one graph per process, with the operator's workers (``RESEARCH_WEB=1``
adds ``web_search``); a client's ``{"web": false}`` ended ``partial``, every ``web_search`` task
failed with "run with --web". ``plan`` now routes only to the workers the run's context allows.
The graph runs in process, as the server runs it (served ``Resources``, a checkpointer, the
choices as the run's context).
"""

from __future__ import annotations

from langgraph.checkpoint.memory import InMemorySaver

from app.graph.resources import Resources
from app.runs.threads import research_graph
from app.settings.config import Settings
from tests.durability._helpers import AS_OF, TOPIC, write_corpus
from tests.results_db import db_rows


def test_a_served_run_without_web_fans_out_to_no_web_worker(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    settings = Settings(data_dir=str(tmp_path / "data"), corpus=str(corpus), model="offline",
                        retry_interval=0.01, web=True, tavily_api_key="tvly-operator-key")
    res = Resources(settings, served=True)
    graph = research_graph(InMemorySaver(), web=settings.web, resources=res)  # as studio.py
    assert "web_search" in graph.nodes
    config = {"configurable": {"thread_id": "no-web"}}
    try:
        out = graph.invoke({"topic": TOPIC, "as_of": AS_OF}, config,
                           context={"web": False, "rounds": 1})
    finally:
        res.close()
    assert out["outcome"] == "ok", out["failed_tasks"]
    assert {e["worker"] for e in out["envelopes"]} == {"docs_search", "analyst", "critic"}
    assert "web_search" not in graph.get_state(config).values["routing"]["workers"]
    assert {r["worker"] for r in db_rows(tmp_path / "data", "no-web")} == {
        "docs_search", "analyst", "critic"}
