"""The suite's ``xdist_group`` marks still group: a module with costly module fixtures (the
walkthrough's scripts, the bad-input runs, the eval) runs them once, on one worker.

pytest 9.2 made ``Item.nodeid`` read-only in effect, and pytest-xdist 3.8's ``--dist loadgroup``
groups by appending ``@GROUP`` to ``item._nodeid``: nothing failed, every grouped test was
scheduled on its own, and each module fixture ran once per worker (the walkthrough's three
times, a third of the suite's CPU; pytest-xdist#1386). pyproject.toml pins pytest below 9.2
until xdist is fixed; this test fails on any pair of versions that lose the groups again.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.xdist_group(__name__)


def test_a_grouped_test_carries_its_group_under_loadgroup(request: pytest.FixtureRequest):
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not an xdist worker under --dist loadgroup (e.g. -n 0)")
    assert request.node.nodeid.endswith(f"@{__name__}"), (
        f"{request.node.nodeid!r} lost its xdist_group: --dist loadgroup no longer groups "
        "(pytest-xdist#1386); pin pytest or xdist to a pair that does")
