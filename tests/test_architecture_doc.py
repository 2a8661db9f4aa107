"""docs/architecture.md cannot rot: every test it (or any other doc) names exists, and every
section a docstring cites is a heading of the page.

* each ``tests/....py::test_name`` named in ``docs/*.md`` or ``README.md`` is a file of the suite
  that defines that test (a function or class at its top level);
* each citation of a section of docs/architecture.md (the page's name, a comma, the heading in
  quotes) in the code, tests, scripts and docs names a
  ``##``/``###`` heading of the page;
* nothing cites the design file of the project's maintainers, which forkers never get;
* its "The other channels" table is ``state.ResearchState``: every key, with its reducer.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)(?:::(\w+))?")
SECTION_CITE = re.compile(r'docs/architecture\.md,\s+(?:section\s+)?["\']([^"\']+)["\']')


def _sources() -> list[Path]:
    skip = {".venv", ".git", "node_modules", ".pytest_cache"}
    return [
        p for pattern in ("*.py", "*.md") for p in ROOT.rglob(pattern)
        if not skip & set(p.relative_to(ROOT).parts)
    ]


def _top_level_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def test_the_architecture_page_names_tests():
    refs = TEST_REF.findall(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len({name for _, name in refs if name}) >= 30


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_test_a_doc_names_exists(doc: Path):
    missing = []
    for file, name in TEST_REF.findall(doc.read_text(encoding="utf-8")):
        path = ROOT / file
        if not path.is_file():
            missing.append(file)
        elif name and name not in _top_level_names(path):
            missing.append(f"{file}::{name}")
    assert not missing, f"{doc.name} names tests that do not exist: {sorted(set(missing))}"


def test_every_cited_section_is_a_heading_of_the_page():
    headings = {line.lstrip("#").strip()
                for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines()
                if line.startswith("## ") or line.startswith("### ")}
    cited: dict[str, set[str]] = {}
    for path in _sources():
        text = " ".join(path.read_text(encoding="utf-8", errors="replace").split())
        for section in SECTION_CITE.findall(text):
            cited.setdefault(section, set()).add(str(path.relative_to(ROOT)))
    assert cited, "no docstring cites docs/architecture.md"
    unknown = {s: sorted(files) for s, files in cited.items() if s not in headings}
    assert not unknown, f"cited sections that are not headings of docs/architecture.md: {unknown}"


def test_nothing_cites_the_design_file_forkers_never_get():
    name = "DESIGN" + ".md"
    hits = [str(p.relative_to(ROOT)) for p in _sources()
            if name in p.read_text(encoding="utf-8", errors="replace")]
    assert hits == []


def _channel_table() -> dict[str, str]:
    """``{key: reducer column}`` of the table under "### The other channels" (a row may name
    several keys; a key's gloss in parentheses is not a key)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("### The other channels\n", 1)[1].split("\n#", 1)[0]
    rows: dict[str, str] = {}
    table = section.split("| key | writers | reducer |\n|---|---|---|\n", 1)[1]
    for line in table.splitlines():
        if not line.startswith("|"):
            break
        key_cell, _writers, reducer = (c.strip() for c in line.strip("|").split(" | "))
        for key in re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", key_cell)):
            assert key not in rows, f"{key} is listed twice"
            rows[key] = reducer
    return rows


def _named_in_app(key: str) -> bool:
    """``key`` is a quoted string somewhere in ``app/`` (a node writes or reads it)."""
    quoted = re.compile(rf"[\"']{re.escape(key)}[\"']")
    return any(quoted.search(p.read_text(encoding="utf-8")) for p in (ROOT / "app").rglob("*.py"))


def test_the_channel_table_is_the_schema():
    """Every key of ``ResearchState`` is a row, with the reducer it is declared with ("none"
    for a ``LastValue`` key): a forker reads the table as the list (trial 16, finding 8: five
    keys were missing). A key only workers write (a fork's, added by docs/extending.md's "Add
    a state key" recipe, which touches no doc) may be left out; a row never names a key the
    schema lacks, nor another reducer."""
    from typing import Annotated, get_args, get_origin, get_type_hints

    from state import ResearchState

    hints = get_type_hints(ResearchState, include_extras=True)
    declared = {key: get_args(hint)[1].__name__ if get_origin(hint) is Annotated else "none"
                for key, hint in hints.items()}
    rows = _channel_table()
    assert not set(rows) - set(declared), "the table names keys ResearchState does not declare"
    missing = sorted(key for key in set(declared) - set(rows) if _named_in_app(key))
    assert not missing, (f"docs/architecture.md's 'The other channels' table lacks {missing}: "
                         "add a row (its writers and reducer)")
    shown = {key: re.match(r"`?(\w+)", cell).group(1) for key, cell in rows.items()}
    assert shown == {key: declared[key] for key in rows}
