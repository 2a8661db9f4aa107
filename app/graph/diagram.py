"""Generated README sections: the graph as Mermaid, and the configuration table.

``scripts/update_readme.py`` writes them between marker comments in README.md; a test fails when
the README and the code disagree, so the picture of the graph is always the compiled graph.
"""

from __future__ import annotations

import re

from app.graph import build_graph
from app.settings.config import SETTINGS
from workers.registry import WORKERS

__all__ = ["config_table", "graph_mermaid", "replace_section"]


def graph_mermaid() -> str:
    """The compiled research graph (registered workers included) as a Mermaid flowchart."""
    # Nodes look their models and corpus up per run: compiling opens nothing.
    mermaid = build_graph(WORKERS).get_graph().draw_mermaid()
    return "\n".join(line.rstrip() for line in mermaid.strip().splitlines())


def config_table() -> str:
    """The README's settings table: every setting with a variable or a flag (the fault-injection
    flags have their own table), its default, who sets it on a server, and its meaning, from
    ``app.settings.config``."""
    from app.settings.config import CLIENT_SETTINGS

    envs = {s.name: s.env for s in SETTINGS}
    lines = [
        "Precedence: CLI flag > environment variable > `.env` file > default. Every variable is",
        "also listed in `.env.example`. On the command line every setting is the operator's. On",
        "LangGraph Server, a run's client may set only the *client* ones, in its `context`",
        "(`app.settings.config.RunContext`), each up to the operator's bound; the variable then",
        "sets the default. The rest come from the server's environment only (docs/deploy.md).",
        "A path's leading `~` is expanded wherever it is set (a flag, a variable, `.env`);",
        "`.env` expands `${HOME}` (python-dotenv's rule) but not `$HOME`, and a path still",
        "holding a `$NAME` is refused with one line rather than made into a folder of that name.",
        "",
        "| variable | flag | default | set by | meaning |",
        "|---|---|---|---|---|",
    ]
    for spec in SETTINGS:
        if spec.group != "run" or not (spec.env or spec.flag):
            continue
        env = f"`{spec.env}`" if spec.env else ""
        flag = f"`{spec.flag}`" if spec.flag else ""
        shown = "" if spec.default in (None, ()) else f"`{spec.default}`"
        who = "operator"
        if spec.name in CLIENT_SETTINGS:
            who = f"client (up to `{envs[spec.bound]}`)" if spec.bound else "client"
        lines.append(f"| {env} | {flag} | {shown} | {who} | {spec.help} |")
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
