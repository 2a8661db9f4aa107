"""A served run's refused topic gives its client an input to send, never a command line: a
``langgraph_sdk`` client sending ``{"topic": "x"}`` was told ``say what to research, e.g.
research "how are failed downloads retried?"`` (new-user trial N, N6), from the server's check
before the run (``app.server.prerun.input_problem``) and the ``plan`` node's (a run past it:
an edit, a fork). The CLI's line keeps its command.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.errors import BadTopic
from app.graph.build import build_graph
from app.graph.resources import Resources
from app.research.topics import topic_problem
from app.server.prerun import input_problem
from app.settings.config import Settings

SENT = 'e.g. input {"topic": "how are failed downloads retried?"}'


@pytest.mark.parametrize("topic", ["x", "", "what is it"])
def test_the_servers_check_says_what_input_to_send(topic):
    line = input_problem({"input": {"topic": topic}, "durability": "async"}, Settings())
    assert line is not None and line.endswith(SENT), line
    assert 'research "' not in line


def test_the_plan_node_of_a_served_graph_says_what_input_to_send(tmp_path: Path):
    settings = Settings(data_dir=str(tmp_path / "data"), model="offline")
    graph = build_graph(resources=Resources(settings, served=True), checkpointer=InMemorySaver())
    with pytest.raises(BadTopic) as caught:
        graph.invoke({"topic": "what is it", "as_of": "2026-11-30"},
                     {"configurable": {"thread_id": "t1"}})
    assert str(caught.value).endswith(SENT), caught.value


def test_the_clis_line_keeps_its_command():
    assert topic_problem("x").endswith('e.g. research "how are failed downloads retried?"')
