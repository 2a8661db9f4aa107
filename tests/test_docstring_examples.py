"""The ``Example:`` blocks in the docstrings of ``state/`` run, and give what they show.

They are the first thing a forker reads about a reducer; a drifted example teaches the wrong rule.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["state.envelope", "state.reducers", "state.reducer_catalog", "state.schema"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name != "state.schema":
        assert result.attempted > 0, f"{name} has no examples left"
