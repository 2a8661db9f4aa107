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


def test_config_table_states_every_settings_upper_bound():
    """A setting the code caps (``must be <= 3600, got 1e9``) says so in its table row: the
    row of ``RESEARCH_RATE_LIMIT_PATIENCE`` stated none, while ``RESEARCH_RETRY_PATIENCE``'s
    said "at most 600" (trial 58, F8)."""
    from app.settings.config import RunContext, Settings
    from app.settings.spec import specs_of

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- config:start.*?<!-- config:end -->", text, re.DOTALL).group(0)
    rows = section.splitlines()
    for spec in (*specs_of(Settings), *specs_of(RunContext)):
        if spec.maximum is None:
            continue
        top = int(spec.maximum) if float(spec.maximum).is_integer() else spec.maximum
        said = [f"at most {top}", f"0 to {top}"]
        if isinstance(top, int) and top > 1024 and top & (top - 1) == 0:  # 2**30
            said.append(f"at most 2**{top.bit_length() - 1}")
        assert any(words in spec.help for words in said), (spec.name, spec.help)
        named = [row for row in rows if spec.env and f"`{spec.env}`" in row
                 or spec.flag and f"`{spec.flag}`" in row]
        if spec.env or spec.group != "faults":  # the fault-injection flags have no row
            assert named and any(words in named[0] for words in said), (spec.name, named)
