"""A web search that cannot be reached is named as not reached, never read as an empty answer
(trial 7: ``--web`` with SearXNG down, or pointed at a closed 127.0.0.1 port, reported that
"the sources say nothing about" the topic). Both providers, each at a port nobody listens on:
the run's notes and the report's Notes name the source not reached, and the relevance warning
speaks of the sources reached only. The verdict's wording is unit-tested on rows, and a failed
MCP tool (handed to the agent, which answers without it) is named the same way."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from app.research.relevance import judge
from app.research.unreached import unreached_notes, unreached_tools
from tests.conftest import AS_OF, run_cli

TOPIC = "quantum harmonica tuning"
"""A topic the small corpus says nothing about."""


def _closed_port() -> int:
    with socket.socket() as sock:  # bound, then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("provider", ["searxng", "tavily"])
def test_an_unreachable_web_search_is_named_as_not_reached(
        provider: str, tmp_path: Path, small_corpus: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    env = {"RESEARCH_SEARCH_PROVIDER": provider, "SEARXNG_URL": url, "TAVILY_BASE_URL": url,
           "TAVILY_API_KEY": "tvly-not-a-real-key", "RESEARCH_RETRY_INTERVAL": "0"}
    proc = run_cli("research", TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                   "--data-dir", tmp_path / "data", "--web", "--json", "--rounds", "1", env=env)
    assert proc.returncode == 1, proc.stderr  # tasks failed for good: partial
    summary = json.loads(proc.stdout)
    # only the web's own worker failed; the agents answered from the corpus without the web
    # (trial 18, finding 6: the analyst and the critic failed for good, their findings lost)
    assert summary["errors"] and {e["worker"] for e in summary["errors"]} == {"web_search"}
    told = [n for n in summary["notes"] if "the agent answered without it" in n]
    assert told and all(f"cannot reach {'SearXNG' if provider == 'searxng' else 'Tavily'} at "
                        f"{url}" in n for n in told), summary["notes"]
    reached = [n for n in summary["notes"] if n.startswith("source not reached: ")]
    name = "SearXNG" if provider == "searxng" else "Tavily"
    assert len(reached) == 1 and f"cannot reach {name} at {url}" in reached[0], summary["notes"]
    (warning,) = summary["warnings"]
    assert not warning["message"].startswith("the sources say nothing"), warning
    assert warning["message"].startswith("the sources reached say nothing")
    assert "not reached: cannot reach" in warning["message"] and url in warning["message"]
    report = Path(summary["report_path"]).read_text("utf-8")
    assert "The sources say nothing" not in report
    assert "The sources reached say nothing" in report
    notes = report.split("## Notes", 1)[1].split("## Sources", 1)[0]
    assert "source not reached: cannot reach" in notes and url in notes, notes


def test_the_verdict_names_each_source_not_reached_and_only_those() -> None:
    rows = [{"status": "ok", "worker": "docs_search", "task_key": "q",
             "structured": {"items": [{"ref": "a.md#0", "text": "Sprockets are counted."}]}},
            {"status": "error", "worker": "web_search", "task_key": "q",
             "error": "WebTimeout: Tavily did not answer within 30 s"},
            {"status": "error", "worker": "analyst", "task_key": "q",
             "error": "ValueError: analyst finished without a structured response"}]
    tools = unreached_tools(["MCP server 'notes' does not answer: closed; the agent answered "
                             "without it", "round 2: re-dispatching 1 failed task(s)"])
    verdict = judge(TOPIC, rows, tools_failed=tools)
    (warning,) = verdict.warnings
    assert warning.message.startswith("the sources reached say nothing"), warning
    assert warning.message.endswith("; not reached: Tavily did not answer within 30 s; MCP "
                                    "server 'notes' does not answer: closed"), warning
    assert unreached_notes(rows) == [
        "source not reached: Tavily did not answer within 30 s (1 task(s) failed on it): what "
        "it holds is missing from this report, which does not mean it has nothing on the topic"]
    # every source answered: the verdict is on all of them, as before
    answered = judge(TOPIC, rows[:1])
    assert answered.warnings[0].message.startswith("the sources say nothing")
    assert unreached_notes(rows[:1]) == [] and answered.unreached == ()
