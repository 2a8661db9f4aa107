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


@pytest.mark.parametrize(("text", "caution"), [
    # a feature offered, a reassurance: no caveat (pexpect, trial 102, F6)
    ("This call might be faster: it is possible to limit the search to the buffer's end.", False),
    ("In general, this fixes the problem and so this should not be an issue for most users.",
     False),
    ("Valgrind's suppression system then filters these out, so you should not see them.", False),
    # a limitation worded "may limit", a reassurance a contrast follows (trial 103, F3, F4)
    ("Enabling compression may limit throughput to 10 MB/s on older CPUs.", True),
    ("This will not be a problem on small disks; on disks over 2 TB the index wraps.", True),
    ("Setting it to zero is not a problem for reads, but concurrent writers corrupt the spool.",
     True),
])
def test_a_reassurance_or_a_feature_is_no_caution_but_a_contrast_is(text: str,
                                                                    caution: bool) -> None:
    from app.research.caveats import warnings_found
    from tests.app.report_rows import item, row

    assert cautions(text) is caution
    if not caution:  # nor a warning found among the findings
        assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])


@pytest.mark.parametrize(("text", "caution"), [
    # "avoid" in the passive after a modal or "best" advises against, as "should not" does
    # (L2-F4, after trial 123): each was neither a caveat nor a warning
    ("Mixing the two loader styles in one query should also be avoided.", True),
    ("Calling flush() inside a flush event is best avoided.", True),
    ("Global state must be avoided in application factories.", True),
    ("Such patterns are generally best avoided.", True),
    ("Sharing a session between threads is to be avoided.", True),
    # a way out, or what a thing spares: no advice against
    ("The extra round trip can be avoided by setting expire_on_commit to False.", False),
    ("A second query is avoided entirely by the selectin loader.", False),
])
def test_avoid_in_the_passive_with_a_modal_warns(text: str, caution: bool) -> None:
    from app.research.caveats import warns

    assert cautions(text) is caution and warns(text) is caution


def test_the_advice_to_avoid_answers_why_not() -> None:
    from app.research.caveat_shapes import against

    assert against("Why shouldn't I mix loader styles in one query?",
                   "Mixing the two loader styles in one query should also be avoided.")
