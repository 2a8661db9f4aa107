"""Regenerate README.md's generated sections: the graph diagram and the configuration table.

Run after changing the graph, the worker registry or the settings:

    uv run python scripts/update_readme.py

``tests/app/test_readme.py`` fails when README.md is out of date.
"""

from __future__ import annotations

from pathlib import Path

from app.graph.diagram import config_table, graph_mermaid, replace_section

README = Path(__file__).resolve().parent.parent / "README.md"


def render(text: str) -> str:
    """Return ``text`` (README.md's content) with both generated sections brought up to date."""
    text = replace_section(text, "graph", graph_mermaid(), fence="mermaid")
    return replace_section(text, "config", config_table())


def main() -> None:
    """Rewrite README.md in place and say whether anything changed."""
    old = README.read_text(encoding="utf-8")
    new = render(old)
    if new != old:
        README.write_text(new, encoding="utf-8")
        print("README.md updated")
    else:
        print("README.md already up to date")


if __name__ == "__main__":
    main()
