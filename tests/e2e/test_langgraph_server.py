"""The graph served by LangGraph Server (``langgraph dev``), driven through ``langgraph_sdk``.

A real ``langgraph dev`` process (from ``langgraph-cli[inmem]``, a dev dependency) serves the
repository's ``langgraph.json`` on 127.0.0.1 (a free port, ``--no-browser``, no reload, no
tracing, no CLI analytics). Its own files (``.langgraph_api/``) go to a temp folder, and the
app's (results database, reports, corpus index) to ``RESEARCH_DATA_DIR``. A fake
OpenAI-compatible server on 127.0.0.1 (``tests/llm/fake_openai.py``) stands in for a provider.

What is checked, as a LangGraph Server client sees it:

* a run's ``context`` is that run's settings: a context that makes ``critic`` fail gives
  ``outcome == "partial"`` with the critic's tasks in ``failed_tasks``, and the same thread run
  again with another context is ``ok``, updating the same rows (no new row);
* a fatal model error (an unknown model: HTTP 404) fails that run only: the runs after it on the
  same server, offline and on the fake provider, end ``ok``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.storage.sqlite import SqliteResults
from tests.conftest import AS_OF, ROOT, SMALL_TOPIC, clean_env
from tests.expected import expected_tasks, worker_names
from tests.llm.fake_openai import FAKE_KEY, PLAN_QUESTIONS, FakeOpenAI

START_TIMEOUT = 240.0
RUN_TIMEOUT = 300.0


@dataclass
class Server:
    url: str
    data_dir: Path
    fake: FakeOpenAI
    log: Path

    def rows(self, thread_id: str) -> list[dict]:
        with SqliteResults.in_dir(self.data_dir) as store:
            return store.rows(thread_id=thread_id)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _config(folder: Path) -> Path:
    """The repository's ``langgraph.json`` with its paths made absolute, so the server can run
    from ``folder`` and keep its ``.langgraph_api/`` there (it resolves them from its cwd)."""
    spec = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))
    if "dependencies" in spec:
        spec["dependencies"] = [str((ROOT / d).resolve()) for d in spec["dependencies"]]
    if "source" in spec:  # {"kind": "uv", "root": "."}: the project is the repository
        spec["source"] = {**spec["source"], "root": str(ROOT)}
    spec["graphs"] = {name: str(ROOT / path.removeprefix("./"))
                      for name, path in spec["graphs"].items()}
    path = folder / "langgraph.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("langgraph-dev")
    fake = FakeOpenAI().start()
    fake.known_models = {"gpt-test"}
    port = _free_port()
    env = clean_env({
        "RESEARCH_DATA_DIR": str(folder / "data"),
        "RESEARCH_CORPUS": str(small_corpus),
        "RESEARCH_MODEL": "offline",
        "OPENAI_API_KEY": FAKE_KEY,
        "OPENAI_BASE_URL": fake.url,
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    })
    env.pop("LANGSMITH_API_KEY", None)
    log = folder / "server.log"
    langgraph = Path(sys.executable).with_name("langgraph")
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            [str(langgraph), "dev", "--config", str(_config(folder)), "--host", "127.0.0.1",
             "--port", str(port), "--no-browser", "--no-reload"],
            cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"langgraph dev exited {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/ok", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not up in {START_TIMEOUT:.0f} s:\n"
                            f"{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield Server(url, folder / "data", fake, log)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
        fake.stop()


def _run(server: Server, thread_id: str, context: dict) -> dict:
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server.url, timeout=RUN_TIMEOUT)
    return client.runs.wait(thread_id, "research", input={"topic": SMALL_TOPIC, "as_of": AS_OF},
                            context=context, raise_error=False)


def _new_thread(server: Server) -> str:
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=server.url).threads.create()["thread_id"]


def test_per_run_context_outcome_and_a_rerun_of_the_thread(server: Server) -> None:
    thread_id = _new_thread(server)
    tasks = expected_tasks(SMALL_TOPIC)
    critic_tasks = tasks // len(worker_names())

    first = _run(server, thread_id, {"fail_workers": ["critic"], "rounds": 1})
    assert first["outcome"] == "partial", first
    assert sorted({t["worker"] for t in first["failed_tasks"]}) == ["critic"]
    assert len(first["failed_tasks"]) == critic_tasks
    rows = server.rows(thread_id)
    assert len(rows) == tasks and all(r["write_count"] == 1 for r in rows)
    assert sum(r["status"] == "error" for r in rows) == critic_tasks

    again = _run(server, thread_id, {"rounds": 1})  # another context on the same thread
    assert again["outcome"] == "ok" and again["failed_tasks"] == [], again
    assert Path(again["report_path"]).is_file()
    rows_again = server.rows(thread_id)
    assert sorted(r["envelope_id"] for r in rows_again) == sorted(r["envelope_id"] for r in rows)
    assert all(r["write_count"] == 2 and r["status"] == "ok" for r in rows_again)


def test_a_fatal_model_error_leaves_the_next_runs_unaffected(server: Server) -> None:
    bad_thread = _new_thread(server)
    bad = _run(server, bad_thread, {"model": "openai:no-such-model", "requests_per_second": 0})
    # the run failed (no final state); the server names the error's type, not its message
    assert "outcome" not in bad and "NotFound" in bad["__error__"]["error"], bad
    assert server.fake.requests(status=404), "the unknown model never reached the provider"
    assert server.rows(bad_thread) == []

    offline = _run(server, _new_thread(server), {"model": "offline"})
    assert offline["outcome"] == "ok", offline
    provider_thread = _new_thread(server)
    provider = _run(server, provider_thread, {"model": "openai:gpt-test",
                                              "requests_per_second": 0})
    assert provider["outcome"] == "ok", provider
    assert provider["sub_questions"] == PLAN_QUESTIONS
    assert len(server.rows(provider_thread)) == len(PLAN_QUESTIONS) * len(worker_names())
