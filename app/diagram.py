"""Generated README sections: the graph as Mermaid, and the configuration table.

``scripts/update_readme.py`` writes them between marker comments in README.md; a test fails when
the README and the code disagree, so the picture of the graph is always the compiled graph.
"""

from __future__ import annotations

import re
from pathlib import Path

from app.config import ENV_VARS
from app.graph import GraphConfig, build_graph
from app.models import ModelChoice
from app.offline_model import OfflineChatModel
from workers.base import WorkerDeps
from workers.registry import WORKERS

__all__ = ["config_table", "graph_mermaid", "replace_section"]


def graph_mermaid() -> str:
    """The compiled research graph (registered workers included) as a Mermaid flowchart."""
    cfg = GraphConfig(
        workers=WORKERS,
        worker_deps=WorkerDeps(corpus=None),  # workers build lazily: nothing is opened
        planner=ModelChoice(OfflineChatModel(), "offline", True),
        model_label="offline",
        data_dir=Path(".data"),
    )
    mermaid = build_graph(cfg).get_graph().draw_mermaid()
    return "\n".join(line.rstrip() for line in mermaid.strip().splitlines())


def config_table() -> str:
    """The README's configuration table: every environment variable, its default, its meaning."""
    lines = [
        "Precedence: CLI flag > environment variable > `.env` file > default. Every variable is",
        "also listed in `.env.example`.",
        "",
        "| variable | default | meaning |",
        "|---|---|---|",
    ]
    for name, (_attr, _typ, default, help_text) in ENV_VARS.items():
        shown = "" if default is None else f"`{default}`"
        lines.append(f"| `{name}` | {shown} | {help_text} |")
    return "\n".join(lines)


def replace_section(text: str, name: str, body: str, fence: str | None = None) -> str:
    """Replace what stands between ``<!-- name:start ... -->`` and ``<!-- name:end -->``.

    Raises:
        ValueError: the markers are missing.
    """
    pattern = re.compile(rf"(<!-- {name}:start[^>]*-->\n)(.*?)(<!-- {name}:end -->)", re.DOTALL)
    if not pattern.search(text):
        raise ValueError(f"README has no <!-- {name}:start --> ... <!-- {name}:end --> markers")
    content = f"```{fence}\n{body}\n```\n" if fence else f"{body}\n"
    return pattern.sub(lambda m: m.group(1) + content + m.group(3), text, count=1)
