"""A Python file in a user's folder, read as its docstrings: the module's, then each public
class's and function's under its qualified name (the folder corpus's ``.py`` reader), their reST
roles, links and literals as the words they show."""

from __future__ import annotations

import ast
from pathlib import Path

from workers.sources.packages import docstrings
from workers.sources.rsttext import rst_inline

__all__ = ["python_file_sections"]


def python_file_sections(source: str, rel: str) -> tuple[tuple[str, str], ...]:
    """The docstrings of a Python file as ``(heading, text)`` sections: the module's under
    heading ``""``, then each public class/function's under its qualified name (``Roster.rotate``,
    its text headed ``Roster.rotate():``); ``()`` when it has none or does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ()
    module = Path(rel).stem
    sections = []
    for qual, kind, doc in docstrings(tree, module):
        if not doc.strip():
            continue
        doc = rst_inline(doc)  # its reST roles and links as their words (trial 125, F11)
        if kind == "module":
            sections.append(("", doc.strip()))
        else:
            name = qual.split(".", 1)[1]
            call = "()" if kind == "function" else ""
            sections.append((name, f"{name}{call}:\n{doc.strip()}"))
    return tuple(sections)
