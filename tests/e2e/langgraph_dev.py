"""One ``langgraph dev`` for the test session: the repository's ``langgraph.json`` served on
127.0.0.1, with the helpers its tests share (``tests/e2e/test_langgraph_server.py``,
``tests/e2e/test_server_time_travel.py``).

A real ``langgraph dev`` process (from ``langgraph-cli[inmem]``, a dev dependency) on a free port,
``--no-browser``, no reload, no tracing, no CLI analytics. Its own files (``.langgraph_api/``) go
to a temp folder, and the app's (results database, reports, corpus index) to
``RESEARCH_DATA_DIR``. A fake OpenAI-compatible server on 127.0.0.1
(``tests/llm/fake_openai.py``) stands in for a provider. Auth is on (``RESEARCH_API_TOKENS``: two
users). Each start costs seconds, so ``tests/e2e/conftest.py`` starts one per session (and its
tests share one xdist group, so one worker runs them all); each test makes its own threads.
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
from tests.llm.fake_openai import FAKE_KEY, FakeOpenAI

START_TIMEOUT = 240.0
RUN_TIMEOUT = 300.0
TOKENS = {"alice": "alice-token-7f3a", "bob": "bob-token-9c2e"}


@dataclass
class Server:
    """A running ``langgraph dev``: its URL, the app's data dir, the fake provider, its log,
    its process id (the leader of its process group)."""
    url: str
    data_dir: Path
    fake: FakeOpenAI
    log: Path
    pid: int = 0

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
    spec["auth"]["path"] = str(ROOT / spec["auth"]["path"].removeprefix("./"))
    path = folder / "langgraph.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


def serve(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> Iterator[Server]:
    """Start ``langgraph dev`` (and the fake provider); yield its :class:`Server`; stop both."""
    folder = tmp_path_factory.mktemp("langgraph-dev")
    (folder / "empty-corpus").mkdir()
    fake = FakeOpenAI().start()
    fake.known_models = {"gpt-test"}
    port = _free_port()
    env = clean_env({
        "RESEARCH_DATA_DIR": str(folder / "data"),
        "RESEARCH_CORPUS": str(small_corpus),
        "RESEARCH_CORPORA": f"empty={folder / 'empty-corpus'}",  # nothing to index in it
        "RESEARCH_MODEL": "offline",
        "RESEARCH_ALLOWED_MODELS": "offline,openai:gpt-test,openai:no-such-model",
        "RESEARCH_RETRY_INTERVAL": "0.01",
        "RESEARCH_API_TOKENS": ",".join(f"{token}={user}" for user, token in TOKENS.items()),
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
        yield Server(url, folder / "data", fake, log, proc.pid)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
        fake.stop()


def client(server: Server, user: str = "alice"):
    """A ``langgraph_sdk`` sync client of ``server``, authenticated as ``user``."""
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=server.url, timeout=RUN_TIMEOUT,
                           headers={"Authorization": f"Bearer {TOKENS[user]}"})


def run(server: Server, thread_id: str, context: dict | None = None, **kwargs) -> dict:
    """One run of the research graph on ``thread_id`` (the small topic), waited for."""
    return client(server).runs.wait(thread_id, "research",
                                     input={"topic": SMALL_TOPIC, "as_of": AS_OF},
                                     context=context, raise_error=False, **kwargs)


def new_thread(server: Server, user: str = "alice") -> str:
    """A new thread of ``user``'s; its id."""
    return client(server, user).threads.create()["thread_id"]


def refusal(call, *args, **kwargs) -> tuple[int | None, str]:
    """The HTTP status and ``detail`` line ``call(*args, **kwargs)`` (a client's) was refused
    with; ``(None, "")``: it was not."""
    import httpx

    try:
        call(*args, **kwargs)
    except httpx.HTTPStatusError as exc:
        return exc.response.status_code, exc.response.json().get("detail", "")
    return None, ""


def status_of(call) -> int | None:
    """The HTTP status a client call failed with (None: it did not fail)."""
    import httpx

    try:
        call()
    except httpx.HTTPStatusError as exc:  # what langgraph_sdk's errors derive from, or raise
        return exc.response.status_code
    return None
