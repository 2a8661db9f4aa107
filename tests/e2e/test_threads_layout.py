"""``threads`` stays readable in a narrow terminal and when piped: thread ids whole (they are what
you copy into ``resume``), the topic never folded into pieces a few characters wide. ``inspect``
(its sibling) never drops a column: at 40 columns rich used to shrink every column but the
envelope id to nothing.

The terminal cases run the CLI on a pseudo-terminal (``pty``), so rich sees a real terminal of
``COLUMNS`` width; the piped case reads a plain pipe with ``COLUMNS=80``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, clean_env, run_cli

AS_OF = "2026-11-30"
TOPICS = [
    "how does the checkpointer save pending writes when a superstep fails halfway through",
    "zorblax relay",
]


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir whose results database records two runs (one with a long topic and so a long
    thread id); ``threads`` lists them without needing a checkpoint."""
    from app.runs.ids import default_thread_id
    from app.storage import open_storage

    data = tmp_path_factory.mktemp("threads-layout") / "data"
    with open_storage(data).results() as store:
        for topic in TOPICS:
            store.start_run(default_thread_id(topic, AS_OF), topic=topic, as_of=AS_OF,
                            model="offline")
        store.upsert([{"envelope_id": f"docs_search:{AS_OF}:{i:020x}", "worker": "docs_search",
                       "task_key": f"question {i}", "as_of": AS_OF, "status": status}
                      for i, status in enumerate(["ok", "error", "ok"])],
                     thread_id=default_thread_id(TOPICS[1], AS_OF), topic=TOPICS[1])
    return data


def _ids() -> list[str]:
    from app.runs.ids import default_thread_id

    return [default_thread_id(t, AS_OF) for t in TOPICS]


def _on_terminal(columns: int, *args: str) -> str:
    """Run ``python -m app *args`` with stdout on a pseudo-terminal; return what it printed,
    without colour codes."""
    import pty

    master, slave = pty.openpty()
    env = clean_env({"COLUMNS": str(columns), "TERM": "xterm"})
    proc = subprocess.Popen([sys.executable, "-m", "app", *args], cwd=ROOT, env=env,
                            stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.wait(timeout=120) == 0, proc.stderr.read()
    text = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def _assert_readable(text: str, columns: int) -> None:
    lines = [line for line in text.splitlines() if line.strip()]
    for thread_id in _ids():
        assert any(thread_id in line for line in lines), (thread_id, text)
    long_topic = TOPICS[0]
    # the topic is cut (with an ellipsis) or whole, never folded: its start is on one line
    assert any(long_topic[:20] in line for line in lines), text
    for line in lines:
        if not any(t in line for t in _ids()):  # an id may be longer than a narrow terminal
            assert len(line) <= columns, (line, text)


@pytest.mark.parametrize("columns", [80, 40])
def test_threads_on_a_narrow_terminal(data_dir: Path, columns: int) -> None:
    text = _on_terminal(columns, "threads", "--data-dir", str(data_dir))
    _assert_readable(text, columns)


def test_threads_piped_is_one_line_per_thread(data_dir: Path) -> None:
    proc = run_cli("threads", "--data-dir", data_dir, env={"COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["thread_id", "status", "step", "as_of", "topic"]
    assert len(lines) == 1 + len(TOPICS), proc.stdout
    for thread_id, topic in zip(_ids(), TOPICS, strict=True):
        line = next(line for line in lines if line.startswith(thread_id + " "))
        assert line.endswith(topic) and "unfinished" in line and AS_OF in line, line


@pytest.mark.parametrize("columns", [120, 40])
def test_inspect_keeps_every_column_on_a_narrow_terminal(data_dir: Path, columns: int) -> None:
    text = _on_terminal(columns, "inspect", _ids()[1], "--data-dir", str(data_dir))
    lines = text.splitlines()
    assert any(line.split() == ["status", "round", "attempts", "writes", "envelope_id"]
               for line in lines), text
    for i, status in enumerate(["ok", "error", "ok"]):
        envelope_id = f"docs_search:{AS_OF}:{i:020x}"
        row = next(line for line in lines if envelope_id in line)
        assert row.split() == [status, "1", "1", "1", envelope_id], text
