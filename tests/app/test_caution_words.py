""""only" is a word of caution where it restricts, not where it describes: BIND's entry summary
"Controls whether the server only adds records to the authority and additional data sections
when they are required." and Werkzeug's "The only required argument to waitress-serve tells it
how to load your application." were listed under Caveats (trial 75, F5)."""

from __future__ import annotations

import pytest

from app.research.caveats import cautions


@pytest.mark.parametrize("text", [
    "Controls whether the server only adds records to the authority and additional data "
    "sections when they are required.",
    "The only required argument to waitress-serve tells it how to load your application.",
])
def test_only_that_describes_is_no_caution(text: str) -> None:
    assert not cautions(text)


@pytest.mark.parametrize("text", [
    "This middleware can only proxy HTTP requests.",
    "The cache is used only if the flag is set.",
    "Only one process may hold the lock.",
    "Signals are only available on POSIX systems.",
])
def test_only_that_restricts_is_one(text: str) -> None:
    assert cautions(text)
