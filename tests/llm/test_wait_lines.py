"""A long wait is said once, as it starts: what the run waits for and how long (trial 11: a
retry interval, a provider's ``Retry-After`` or a rate limit's backoff, each up to 600 s, passed
without a word, like a hang). One ``waiting`` line per wait, never a spinner; the default short
retry waits (0.5 s, 1 s) stay silent (``workers.waits.ANNOUNCED_WAIT``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC
from tests.llm.conftest import llm_env, research_args


def _waits(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("waiting ")]


def test_a_retry_after_is_said_once_with_its_length(fake_openai, cli_in_process, llm_corpus,
                                                    tmp_path: Path) -> None:
    fake_openai.fail("planner", status=429, retry_after="3", times=1)
    proc = cli_in_process(research_args(llm_corpus, tmp_path / "data", "--json"),
                          llm_env(fake_openai))
    assert proc.returncode == 0, proc.stderr
    assert _waits(proc.stderr) == [
        "waiting 3 s for the Retry-After openai:gpt-4.1-mini asked for (no request to it until "
        "then; at most RESEARCH_RETRY_PATIENCE)"], proc.stderr
    assert proc.stdout.count("\n") == 1  # the --json object alone on stdout


def test_a_rate_limit_backoff_is_said_once_per_wait(fake_openai, cli_in_process, llm_corpus,
                                                    tmp_path: Path) -> None:
    fake_openai.fail("planner", status=429, times=2)  # no Retry-After: backoff from 2 x 1 s
    proc = cli_in_process(research_args(llm_corpus, tmp_path / "data"),
                          llm_env(fake_openai, RESEARCH_RETRY_INTERVAL="1"))
    assert proc.returncode == 0, proc.stderr
    waits = _waits(proc.stdout)
    assert len(waits) == 2, proc.stdout  # 2 s to 3 s, then 4 s to 6 s
    for refused, line in enumerate(waits, start=1):
        assert line.endswith(f" s for the rate limit of the planner to lift (HTTP 429, "
                             f"{refused} time(s); 60 s in all at most: "
                             "RESEARCH_RATE_LIMIT_PATIENCE)"), line
        assert 2 ** refused <= int(line.split()[1]) <= 3 * 2 ** (refused - 1), line


def test_a_retry_interval_is_said_before_the_attempt_it_delays(
        tmp_path: Path, small_corpus: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, cli_env: None) -> None:
    from app.cli import main

    monkeypatch.setenv("RESEARCH_RETRY_INTERVAL", "2")
    monkeypatch.setenv("RESEARCH_MAX_ATTEMPTS", "2")
    assert main(["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus),
                 "--data-dir", str(tmp_path / "data"), "--fail-rate", "1", "--seed", "1",
                 "--rounds", "1"]) == 1  # every attempt fails: each task waits once
    waits = _waits(capsys.readouterr().out)
    assert sorted(w.split(" s ", 1)[1] for w in waits) == [
        f"before attempt 2 of {worker} on 'What is {SMALL_TOPIC}?' (RESEARCH_RETRY_INTERVAL "
        "2 s, doubled per attempt, plus up to 1 s of jitter)"  # trial 60, F1: 3 s for 2 s
        for worker in ("analyst", "critic", "docs_search")], waits
    assert all(2 <= int(w.split()[1]) <= 3 for w in waits), waits


def test_a_wait_for_the_request_rate_is_said_with_its_length() -> None:
    # the sibling of the retry waits: at RESEARCH_REQUESTS_PER_SECOND 0.4 a request waits 2.5 s
    # for its token (at the lowest rate, 1/600, it is 600 s), and was as silent
    from langchain_core.rate_limiters import InMemoryRateLimiter

    from app.llm.provider import PacedRateLimiter
    from workers.pacing import RetryAfterGate
    from workers.waits import announcing_waits

    said: list[dict] = []
    limiter = PacedRateLimiter(RetryAfterGate(), InMemoryRateLimiter(requests_per_second=0.4))
    with announcing_waits(said.append):
        assert limiter.acquire()
    assert said == [{"waiting": {"seconds": 2.5, "for": "for a request slot of the model rate "
                                 "limiter (RESEARCH_REQUESTS_PER_SECOND 0.4)"}}]
