"""What ``langgraph dev`` keeps of a thread on a hard kill: its checkpoints as of the last flush
(every 10 s), once a client has read a state (``app/server/checkpoint_flush.py``).

Trial S, H2: after any ``get_state`` the in-memory server's flush loop no longer wrote the
shared checkpoints (``langgraph-runtime-inmem`` 0.36.7), so a SIGKILL lost every checkpoint
since the server started; a thread whose run had written its rows was refused ever after
(``ForeignRows``). Its own ``langgraph dev`` (about 15 s to start), not the session's: it is
killed.
"""

from __future__ import annotations

import os
import pickle
import signal
import time
from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC
from tests.e2e.langgraph_dev import client, new_thread, serve

pytestmark = pytest.mark.xdist_group("langgraph_dev")  # beside the session's server, not at once

FLUSH = 10.0
"""``langgraph_runtime_inmem._persistence._flush_interval``."""


def test_a_hard_kill_keeps_the_checkpoints_of_the_last_flush(
        tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> None:
    started = serve(tmp_path_factory, small_corpus)
    server = next(started)
    try:
        thread_id = new_thread(server)
        final = client(server).runs.wait(thread_id, "research",
                                         input={"topic": SMALL_TOPIC, "as_of": AS_OF})
        assert final["outcome"] == "ok"
        history = client(server).threads.get_history(thread_id, limit=100)  # a state read
        ended = time.time()
        saved = server.data_dir.parent / ".langgraph_api" / ".langgraph_checkpoint.1.pckl"
        deadline = time.monotonic() + FLUSH + 3
        while not (saved.is_file() and saved.stat().st_mtime > ended):
            assert time.monotonic() < deadline, "no checkpoint was flushed in 13 s"
            time.sleep(0.25)
        time.sleep(0.5)  # the flush of the same tick writes the other two files
        os.killpg(server.pid, signal.SIGKILL)
        # what the restarted server loads: every checkpoint of the thread, the last one the
        # finished run's (its report's); none of them before the change
        with open(saved, "rb") as file:
            storage = pickle.load(file)
        kept = storage.get(thread_id, {}).get("", {})
        assert sorted(kept) == sorted(h["checkpoint"]["checkpoint_id"] for h in history)
        assert server.rows(thread_id)  # the rows the restarted server's thread accounts for
    finally:
        started.close()
