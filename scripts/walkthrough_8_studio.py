"""Walkthrough step 8: LangGraph Studio. The graph ``langgraph dev`` serves, driven the way it is.

``uv run langgraph dev`` starts LangGraph's local Agent Server on http://127.0.0.1:2024 with the
graph ``langgraph.json`` names (``research`` = ``./app/server/studio.py:served_graph``, a factory of
its ``graph``), and prints the link to Studio, whose UI is hosted by LangSmith
(https://smith.langchain.com/studio/?baseUrl=...): it needs a browser, the network and a
LangSmith login. None of that is available offline, so this
script does what the server does with the graph, through the same graph API:

1. read ``langgraph.json`` and import the file and variable it names (the server does the same);
   the graph comes compiled *without* a checkpointer, because the server brings its own;
2. give it one (the server's is its own store; here an in-memory ``InMemorySaver``), and run a
   thread the way Studio's "Submit" does: input ``{"topic": ...}`` and a ``thread_id`` in
   ``config["configurable"]``, streaming ``updates``;
3. look at what the CLI sees in the same data dir: the result rows are there (``persist`` writes
   them to ``RESEARCH_DATA_DIR``'s results database under the server's thread id), and
   ``python -m app threads`` lists the thread as ``rows only``: its checkpoints live in the
   server, not in the CLI's ``checkpoints.sqlite``. Studio threads and CLI threads are separate;
   ``inspect`` shows a Studio thread's rows, ``resume`` cannot continue it, and Studio cannot
   see a CLI thread.

Run: ``uv run python scripts/walkthrough_8_studio.py`` (offline, a few seconds).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _walkthrough import (  # noqa: E402
    AS_OF,
    ROOT,
    TOPIC,
    clean_env,
    db_rows,
    expected_rows,
    remember_tmp,
    run_app,
    verdict,
    write_corpus,
)

THREAD_ID = "studio-thread-1"
"""What Studio would use is a server-made UUID; a fixed one keeps the output the same."""


def load_served_graph(data: Path, corpus: Path):
    """Import the graph ``langgraph.json`` names, as the server does, with the walkthrough's
    data dir and corpus (the server reads the same ``RESEARCH_*`` variables)."""
    config = json.loads((ROOT / "langgraph.json").read_text("utf-8"))
    print(f"langgraph.json graphs: {config['graphs']}")
    path, _, variable = config["graphs"]["research"].partition(":")
    os.environ.update(clean_env({"RESEARCH_DATA_DIR": str(data), "RESEARCH_CORPUS": str(corpus),
                               "RESEARCH_MODEL": "offline"}))
    os.environ.pop("OPENAI_API_KEY", None)
    spec = importlib.util.spec_from_file_location("served_graph", ROOT / path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    # a graph factory (``served_graph``): outside a run the server gets the module's one graph
    served = getattr(module, variable)
    return served if hasattr(served, "invoke") else module.graph


def main() -> int:
    from langgraph.checkpoint.memory import InMemorySaver

    expected = expected_rows()
    with tempfile.TemporaryDirectory(prefix="walkthrough8-") as tmp:
        remember_tmp(Path(tmp))
        corpus = write_corpus(Path(tmp) / "corpus")
        data = Path(tmp) / "data"

        print("1. the graph the server serves")
        graph = load_served_graph(data, corpus)
        print(f"graph name: {graph.name}; compiled with a checkpointer: "
              f"{graph.checkpointer is not None} (the server brings its own)")

        print()
        print(f"2. a Studio run: input {{'topic': {TOPIC!r}, 'as_of': {AS_OF!r}}}, "
              f"thread {THREAD_ID}")
        served = graph.copy(update={"checkpointer": InMemorySaver()})
        config = {"configurable": {"thread_id": THREAD_ID}}
        ran: list[str] = []
        for chunk in served.stream({"topic": TOPIC, "as_of": AS_OF}, config,
                                   stream_mode="updates"):
            ran.extend(chunk)
        # in the graph's own node order (updates of one superstep arrive in completion order)
        counts = {name: ran.count(name) for name in served.nodes if name in ran}
        print("nodes that ran: " + ", ".join(
            f"{name} x{n}" if n > 1 else name for name, n in counts.items()))
        state = served.get_state(config)
        envelopes = state.values.get("envelopes") or []
        print(f"thread {THREAD_ID}: {len(envelopes)} envelopes in the server's checkpoint, "
              f"next: {list(state.next) or 'nothing (finished)'}")

        print()
        print("3. what the CLI sees in the same data dir")
        rows = db_rows(data)
        studio_rows = [r for r in rows if r["thread_id"] == THREAD_ID]
        print(f"results database rows: {len(rows)} (persist wrote them under the server's "
              "thread id)")
        threads = run_app(["threads", "--data-dir", data, "--json"])
        listed = {t["thread_id"]: t["status"] for t in json.loads(threads.stdout or "[]")}
        print(f"python -m app threads lists: {listed or 'no thread'}")

    ok = (
        graph.checkpointer is None
        and len(envelopes) == expected
        and not state.next
        and len(rows) == len(studio_rows) == expected
        and threads.returncode == 0
        and listed == {THREAD_ID: "rows only"}
    )
    return verdict(
        ok,
        f"the served graph ran a Studio-style thread to the end ({expected} rows in the results "
        "database), and the CLI's threads lists it as rows only: its checkpoints are the "
        "server's",
        f"checkpointer={graph.checkpointer!r}, envelopes={len(envelopes)}, next={state.next}, "
        f"rows={len(rows)}, threads exit {threads.returncode} listed {listed}",
    )


if __name__ == "__main__":
    raise SystemExit(main())
