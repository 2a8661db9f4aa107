"""``research --web`` against a local Tavily-compatible server (127.0.0.1), counting requests.

What users rely on: web pages cited by title and URL (once per URL), the key never printed nor
stored, and a search already answered never asked (nor paid for) again: not by a rerun of the
thread, not by a re-dispatched task, not by a resume after SIGKILL. Tavily's errors follow the
model errors' policy: a bad key stops the run (exit 1, one line), a 429 is retried.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from app.research.plan import offline_plan
from tests.conftest import AS_OF, SEVERAL_TOPIC, SMALL_TOPIC, run_cli
from tests.tavily_server import TAVILY_KEY, FakeTavily, pages_for

SIGKILLED = (-9, 137)


@pytest.fixture
def tavily():
    with FakeTavily() as server:
        yield server


def web_env(server: FakeTavily, key: str = TAVILY_KEY) -> dict[str, str]:
    return {"TAVILY_API_KEY": key, "TAVILY_BASE_URL": server.url}


def research(corpus: Path, data: Path, server: FakeTavily, *extra: str, key: str = TAVILY_KEY,
             topic: str = SMALL_TOPIC):
    return run_cli("research", topic, "--as-of", AS_OF, "--corpus", corpus,
                   "--data-dir", data, "--web", "--json", *extra, env=web_env(server, key))


def every_byte_under(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def cached_queries(data: Path) -> set[str]:
    with sqlite3.connect(data / "web.sqlite") as con:
        return {q for (q,) in con.execute("SELECT query FROM searches")}


QUESTIONS = offline_plan(SMALL_TOPIC)


def assert_in_flight_only_repeated(counts: dict[str, int], answered: set[str],
                                   in_flight: int) -> None:
    """After a SIGKILL and a resume: a search whose answer was recorded is never asked again;
    one the kill caught in flight (the server had the request, the record not the answer) is
    asked once more, and at most ``in_flight`` (the run's ``--max-concurrency``) were."""
    assert all(counts[q] == 1 for q in answered), (counts, answered)
    again = [q for q, n in counts.items() if n > 1]
    assert all(counts[q] == 2 for q in again) and len(again) <= in_flight, (counts, answered)


def test_web_results_are_cited_by_url_once_and_the_key_stays_secret(
    tmp_path: Path, small_corpus: Path, tavily: FakeTavily
) -> None:
    data = tmp_path / "data"
    proc = research(small_corpus, data, tavily)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"], summary
    assert summary["expected"] == len(QUESTIONS) * 4  # docs_search, analyst, critic, web_search
    assert "web search (Tavily)" in summary["corpus"]
    # one request per sub-question: web_search and both agents' search_web share the answer
    assert tavily.counts() == {q: 1 for q in QUESTIONS}

    report = Path(summary["report_path"]).read_text("utf-8")
    sources = report.split("## Sources", 1)[1]
    for question in QUESTIONS:
        page = pages_for(question)[0]
        line = f"[{page['title']}]({page['url']})"
        assert sources.count(line) <= 1
    cited_urls = re.findall(r"\]\((https?://[^)]+)\)", sources)
    assert cited_urls and len(cited_urls) == len(set(cited_urls))  # deduplicated by URL

    # the key: never printed, never stored
    assert TAVILY_KEY not in proc.stdout + proc.stderr
    assert TAVILY_KEY.encode() not in every_byte_under(data)

    # the same command again (same thread, same as_of): no new request at all
    again = research(small_corpus, data, tavily)
    assert again.returncode == 0, again.stderr
    assert tavily.counts() == {q: 1 for q in QUESTIONS}


def test_a_re_dispatched_task_asks_the_cache(tmp_path: Path, small_corpus: Path,
                                             tavily: FakeTavily) -> None:
    proc = research(small_corpus, tmp_path / "data", tavily, "--fail-worker", "web_search:1",
                    "--rounds", "2")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"], summary
    # round 1's agents searched the web; round 2's web_search found every answer cached
    assert tavily.counts() == {q: 1 for q in QUESTIONS}


def test_a_resume_after_sigkill_repeats_no_answered_search(tmp_path: Path, small_corpus: Path,
                                                          tavily: FakeTavily) -> None:
    data = tmp_path / "data"
    crashed = research(small_corpus, data, tavily, "--crash-at", "map:6", "--max-concurrency",
                       "2", topic=SEVERAL_TOPIC)  # several searches: some answered, some not
    assert crashed.returncode in SIGKILLED, crashed.stderr
    answered = cached_queries(data)
    assert answered, "the crash came before any search was answered"
    before = tavily.counts()
    assert all(before[q] == 1 for q in answered)

    # the same sources or nothing: continuing the unfinished web thread without --web is refused
    plain = run_cli("research", SEVERAL_TOPIC, "--as-of", AS_OF, "--corpus", small_corpus,
                    "--data-dir", data, env=web_env(tavily))
    assert plain.returncode == 2, plain.stderr
    assert "was started with --web" in plain.stderr

    # `resume THREAD_ID` continues it as it started (corpus and --web from the thread's record)
    from app.runs.ids import default_thread_id

    resumed = run_cli("resume", default_thread_id(SEVERAL_TOPIC, AS_OF), "--data-dir", data,
                      "--json", env=web_env(tavily))
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["ok"]
    after = tavily.counts()
    for query in answered:
        assert after[query] == 1, f"{query!r} was asked again after the resume"
    several = offline_plan(SEVERAL_TOPIC)
    assert set(after) == set(several), after
    assert_in_flight_only_repeated(after, answered, in_flight=2)


def test_a_rejected_key_stops_the_run_with_one_line(tmp_path: Path, small_corpus: Path,
                                                    tavily: FakeTavily) -> None:
    wrong = "tvly-WRONG-0123456789abcdef"
    proc = research(small_corpus, tmp_path / "data", tavily, key=wrong)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "Tavily rejected the key (HTTP 401): check TAVILY_API_KEY" in proc.stderr
    assert wrong not in proc.stdout + proc.stderr  # the server echoed it; nobody prints it
    assert wrong.encode() not in every_byte_under(tmp_path / "data")
    # fatal: no retries spent on a dead key (at most one request per worker in flight)
    assert sum(tavily.counts().values()) <= 4


def test_a_rate_limit_is_retried(tmp_path: Path, small_corpus: Path, tavily: FakeTavily) -> None:
    tavily.fail(429, times=2, retry_after="0")
    proc = research(small_corpus, tmp_path / "data", tavily)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"]
    counts = tavily.counts()
    assert set(counts) == set(QUESTIONS)
    assert sum(counts.values()) == len(QUESTIONS) + 2  # the two 429s, then one answer each


def test_a_rate_limit_holds_the_search_for_its_retry_after(
    tmp_path: Path, small_corpus: Path, tavily: FakeTavily
) -> None:
    # The worker's own backoff would retry after 0.5 s plus up to 1 s of jitter, inside the
    # window; the endpoint's gate (app/llm/provider.py, paced_search) makes it wait the 2 s asked.
    tavily.fail(429, times=1, retry_after="2")
    proc = research(small_corpus, tmp_path / "data", tavily)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"]
    limited_at, query = next((t, q) for t, q, status in tavily.arrivals if status == 429)
    retried_at = next(t for t, q, _ in tavily.arrivals if q == query and t > limited_at)
    assert retried_at - limited_at >= 1.95
    assert sum(tavily.counts().values()) == len(QUESTIONS) + 1  # one 429, one answer each


def test_web_without_a_key_is_one_line_and_exit_2(tmp_path: Path, small_corpus: Path) -> None:
    proc = run_cli("research", SMALL_TOPIC, "--corpus", small_corpus, "--data-dir",
                   tmp_path / "data", "--web")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "error: web search (--web, set for this run or by its thread) needs a Tavily key: set "
        "TAVILY_API_KEY in the environment or in .env (or RESEARCH_SEARCH_PROVIDER=searxng and "
        "SEARXNG_URL, for a SearXNG instance)"
    ]
    assert not (tmp_path / "data").exists()


def test_a_killed_web_thread_shows_its_pending_web_search_tasks(
        tmp_path: Path, small_corpus: Path, tavily: FakeTavily) -> None:
    """Killed when only ``web_search`` tasks are left (round 1's failed for good, round 2 about
    to re-send them): ``threads``, ``inspect``, ``review`` and ``prune`` read the thread through
    a graph that must know the web worker, or LangGraph drops its pending ``Send``s ("Ignoring
    unknown node name") and the thread looks finished."""
    from app.runs.ids import default_thread_id
    from app.runs.inspect import inspect_thread, list_threads, pending_review
    from app.runs.prune import prune_checkpoints

    data, thread_id = tmp_path / "data", default_thread_id(SMALL_TOPIC, AS_OF)
    round_one = len(QUESTIONS) * 4  # docs_search, analyst, critic, web_search
    crashed = research(small_corpus, data, tavily, "--fail-worker", "web_search:1", "--rounds",
                       "2", "--durability", "sync", "--crash-at", f"map:{round_one}")
    assert crashed.returncode in SIGKILLED, crashed.stderr

    resend = ["web_search"] * len(QUESTIONS)
    listed = {t["thread_id"]: t for t in list_threads(data)}[thread_id]
    assert listed["status"] == "unfinished" and listed["next"] == resend, listed
    assert inspect_thread(data, thread_id)["next"] == resend
    assert pending_review(data, thread_id)[:2] == (None, True)
    pruned = prune_checkpoints(data, dry_run=True)["threads"]
    assert [t["action"] for t in pruned] == ["kept: unfinished"], pruned
    # trial 18, finding 9: resumed without the search provider's settings, the one line spoke
    # of a --web the user never typed
    resumed = run_cli("resume", thread_id, "--data-dir", data)
    assert resumed.returncode == 2, resumed.stderr
    assert resumed.stderr.startswith("error: web search (--web, set for this run or by its "
                                     "thread) needs a Tavily key"), resumed.stderr
    assert "SEARXNG_URL" in resumed.stderr  # the other provider is named too


def test_an_answer_of_another_shape_fails_the_web_search_only_and_is_named(
        tmp_path: Path, small_corpus: Path, tavily: FakeTavily) -> None:
    # trial 39, F6: {"results": "none"} failed the analyst and the critic too, in both rounds,
    # with "AttributeError: 'str' object has no attribute 'get'"; the README promises that
    # their search_web call comes back to them as an error and they answer from the corpus
    from tests.results_db import db_rows

    tavily.body_for = lambda query: {"query": query, "results": "none"}
    data = tmp_path / "data"
    proc = research(small_corpus, data, tavily, "--rounds", "1")
    assert proc.returncode == 1, proc.stderr  # the web_search tasks failed: partial
    summary = json.loads(proc.stdout)
    said = "Tavily sent an answer the app cannot use: its results are a string, not a list"
    assert {e["worker"] for e in summary["errors"]} == {"web_search"}, summary["errors"]
    assert all(said in e["error"] for e in summary["errors"]), summary["errors"]
    assert any(said in n and "the agent answered without it" in n for n in summary["notes"])
    rows = db_rows(data)
    assert {(r["worker"], r["status"]) for r in rows} >= {("analyst", "ok"), ("critic", "ok")}
    assert not cached_queries(data)  # nothing cached: a later run asks again
