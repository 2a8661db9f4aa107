"""README.md's generated sections match the code: the Mermaid diagram is the compiled graph, and
the configuration table lists every setting. Run ``uv run python scripts/update_readme.py`` to fix.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from app.graph.diagram import graph_mermaid
from app.settings.config import ENV_VARS
from workers.registry import WORKERS

ROOT = Path(__file__).resolve().parents[2]


def _render():
    script = ROOT / "scripts" / "update_readme.py"
    spec = importlib.util.spec_from_file_location("update_readme", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.render


def test_readme_generated_sections_are_current():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert _render()(text) == text, "README.md is stale: run uv run python scripts/update_readme.py"


def test_diagram_shows_every_worker_between_dispatch_and_route():
    mermaid = graph_mermaid()
    assert "plan -.-> dispatch;" in mermaid
    for worker in WORKERS:
        assert f"dispatch -.-> {worker.name};" in mermaid
        assert f"{worker.name} --> route;" in mermaid
    assert "report --> __end__;" in mermaid
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert mermaid in text


def test_config_table_lists_every_variable():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- config:start.*?<!-- config:end -->", text, re.DOTALL).group(0)
    for name in ENV_VARS:
        assert f"`{name}`" in section
