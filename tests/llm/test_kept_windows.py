"""A ``Retry-After`` window outlives a run killed inside it (trial 39, finding 10), over real HTTP.

The README promises that a ``Retry-After`` "holds back every request to that provider, whatever
its role, until the window is over". The gate lived in memory only: a run killed while it waited
out a 40 s window, then continued by the same command, sent its first request 6 s after the 429.
Now the data dir keeps the window's end (``app/llm/kept_windows.py``), and the continuing run
waits out what is left, saying so.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.expected import worker_names
from tests.llm.conftest import llm_env, research_args
from tests.llm.fake_openai import PLAN_QUESTIONS
from workers.errors import RetryAfterTooLong

WINDOW = 8.0


def test_a_run_killed_in_a_retry_after_window_continues_after_it(
        fake_openai, llm_corpus, tmp_path, cli_in_process):
    fault = fake_openai.fail("critic", status=429, retry_after=str(int(WINDOW)), times=None)
    env = llm_env(fake_openai)
    args = research_args(llm_corpus, tmp_path / "data")
    proc = subprocess.Popen([sys.executable, "-m", "app", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not fake_openai.requests(status=429) and time.monotonic() < deadline:
            time.sleep(0.02)
        (limited, *_more) = fake_openai.requests(status=429)
        time.sleep(0.3)  # the client holds the window (and keeps it) as it reads the 429
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    killed_at = time.monotonic()
    assert killed_at - limited.at < WINDOW - 1, "the kill came after the window"
    fault.times = 0  # the provider recovers
    seen_before = len(fake_openai.seen)

    done = cli_in_process(args + ["--json"], env)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["db_rows"] == len(PLAN_QUESTIONS) * len(worker_names())
    after = fake_openai.seen[seen_before:]
    assert after, "the continued run asked nothing"
    first = min(s.at for s in after)
    assert first >= limited.at + WINDOW - 0.1, (first - limited.at, WINDOW)
    said = done.stdout + done.stderr
    assert "asked for in an earlier run (no request to it until then)" in said, said


def test_a_web_searchs_window_is_kept_in_the_data_dir_too(tmp_path, monkeypatch):
    """The sibling: a search API's gate (Tavily, SearXNG) is kept as a model's is, under a
    digest of its endpoint (a SearXNG URL may hold a credential, Tavily's endpoint a key)."""
    import workers.pacing as pacing
    from app.graph.sources import open_web
    from app.llm.kept_windows import FILE
    from app.settings.config import Settings

    endpoint = "http://user:secret-pw@127.0.0.1:1"
    settings = Settings(search_provider="searxng", searxng_url=endpoint,
                        data_dir=str(tmp_path))
    monkeypatch.setattr(pacing, "_gates", {})
    open_web(settings)
    pacing.gate_for("searxng", endpoint).hold(30)  # a Retry-After of 30 s
    monkeypatch.setattr(pacing, "_gates", {})  # the next process
    open_web(settings)
    assert 29 < pacing.gate_for("searxng", endpoint).remaining() <= 30
    kept = (tmp_path / FILE).read_text(encoding="utf-8")
    assert "secret-pw" not in kept and "127.0.0.1" not in kept


def test_a_kept_file_no_run_can_use_is_read_as_no_window(tmp_path):
    # a number too large for a float ended every run in "OverflowError: int too large to
    # convert to float"; a window's end far ahead (a clock corrected since, an edited file)
    # held every run 600 s until that date, whatever RESEARCH_RETRY_PATIENCE said; a FIFO in
    # the file's place hung the run before its first line
    from app.llm.kept_windows import FILE, _key, keep_windows
    from workers.pacing import RetryAfterGate

    key = _key("openai", "http://x/v1")
    path = tmp_path / FILE
    for held in (f'{{"{key}": 1{"0" * 400}}}', f'{{"{key}": 4102444800}}'):
        path.write_text(held, encoding="utf-8")
        gate = RetryAfterGate()
        keep_windows(gate, tmp_path, "openai", "http://x/v1", "openai:m")
        assert gate.remaining() == 0, held
    path.write_text(f'{{"{key}": {time.time() + 300}}}', encoding="utf-8")
    gate = RetryAfterGate()
    keep_windows(gate, tmp_path, "openai", "http://x/v1", "openai:m", patience=5)
    # longer than the run waits: refused while it lasts, as a Retry-After in the run is; it
    # was cut to the run's patience, and a run given 0 s sent its first request 42 s inside
    # the window (trial 83, F1)
    assert 295 < gate.remaining() <= 300
    with pytest.raises(RetryAfterTooLong, match="RESEARCH_RETRY_PATIENCE"):
        gate.wait()
    keep_windows(gate := RetryAfterGate(), tmp_path, "openai", "http://x/v1", "openai:m",
                 patience=0)
    with pytest.raises(RetryAfterTooLong):
        gate.wait()
    path.unlink()
    os.mkfifo(path)
    keep_windows(RetryAfterGate(), tmp_path, "openai", "http://x/v1", "openai:m")  # no hang


def test_windows_kept_at_once_are_all_kept(tmp_path):
    # two writers read, merged and replaced the file unlocked: 194 of 400 windows were lost
    from app.llm.kept_windows import FILE, _write

    until = time.time() + 60
    def keep(start: int) -> None:
        for n in range(start, start + 100):
            _write(tmp_path / FILE, f"key{n}", until)

    writers = [threading.Thread(target=keep, args=(start,)) for start in (0, 100, 200)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert len(json.loads((tmp_path / FILE).read_text())) == 300


def test_a_kept_window_longer_than_the_runs_patience_sends_nothing_and_exits_75(
        fake_openai, llm_corpus, tmp_path, cli_in_process):
    # trial 83, F1: a window kept by a run stopped inside it was cut to the next run's
    # RESEARCH_RETRY_PATIENCE; with 0 s, its first request went 42 s inside the window
    from app.llm.kept_windows import FILE, _key

    data = tmp_path / "data"
    data.mkdir()
    (data / FILE).write_text(json.dumps({_key("openai", fake_openai.url): time.time() + 300}),
                             encoding="utf-8")
    env = llm_env(fake_openai, RESEARCH_RETRY_PATIENCE="0")
    done = cli_in_process(research_args(llm_corpus, data), env)
    assert done.returncode == 75, (done.returncode, done.stderr)
    assert not fake_openai.seen, "a request went inside the kept window"
    assert "RESEARCH_RETRY_PATIENCE" in done.stdout + done.stderr


@pytest.mark.parametrize("role", ["planner", "analyst"])
def test_a_retry_after_past_the_patience_holds_every_request_and_is_kept(
        fake_openai, llm_corpus, tmp_path, cli_in_process, role):
    # trial 91, F1 and F2: a Retry-After of 120 s against a patience of 5 failed its call, but
    # the window was neither held nor kept: the other workers, the next round and the report's
    # summary sent theirs at once, and a rerun 6 s later sent 6 requests inside it
    from app.llm.kept_windows import FILE, _key

    fake_openai.fail(role, status=429, retry_after="120", times=1)
    data = tmp_path / "data"
    env = llm_env(fake_openai, RESEARCH_RETRY_PATIENCE="5", RESEARCH_MAX_CONCURRENCY="1")
    done = cli_in_process(research_args(llm_corpus, data), env)
    assert done.returncode == (75 if role == "planner" else 1), (done.returncode, done.stderr)
    (limited,) = fake_openai.requests(status=429)
    after = [(s.role, round(s.at - limited.at, 2)) for s in fake_openai.seen
             if s.at > limited.at]
    assert after == [], f"requests inside the window: {after}"
    kept = json.loads((data / FILE).read_text(encoding="utf-8"))
    assert kept[_key("openai", fake_openai.url)] > time.time() + 100, kept
    again = cli_in_process(research_args(llm_corpus, data), env)
    assert again.returncode in (1, 75), (again.returncode, again.stderr)
    assert not [s for s in fake_openai.seen if s.at > limited.at], "the rerun sent a request"
