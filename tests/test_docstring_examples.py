"""Every ``Example:`` block in the docstrings of ``state/``, ``workers/`` and ``app/`` runs, and
gives what it shows.

They are the first thing a forker reads about a reducer, an error rule or a helper; a drifted
example teaches the wrong rule. One test walks every module, so a new module's examples are run
without anyone listing it; the modules that teach through examples must keep some.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

MODULES = sorted(
    ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
    for package in ("state", "workers", "app")
    for path in (REPO / package).rglob("*.py")
    if path.name != "__main__.py"
)

TEACH_BY_EXAMPLE = {
    "state.envelope", "state.reducers", "state.reducer_catalog", "workers.errors",
    "workers.usage", "workers.pacing", "workers.retry", "app.research.rows", "app.research.text",
    "app.llm.models",
}
"""Modules whose examples are their documentation: losing them all is a failure too."""


def test_the_walk_finds_the_modules_that_teach_by_example():
    assert TEACH_BY_EXAMPLE <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name in TEACH_BY_EXAMPLE:
        assert result.attempted > 0, f"{name} has no examples left"
