"""A caveat is a limitation or warning about the thing asked. A new user on SQLAlchemy's and
pytest's manuals found under Caveats a plus ("... nor does it inherit any of the performance
limitations of the original query"), and "The Answer above quotes the only limitations or
warnings found" under an Answer that quoted none: its only "warning" was the "instead" of
another way to do another thing (trial 123, F9)."""

from __future__ import annotations

import pytest

from app.research.caveats import cautions, warnings_found
from app.research.report import render_markdown
from tests.app.report_rows import data, item, row


def _caveats(question: str, rows: list) -> str:
    md = render_markdown(data(rows, sub_questions=[question], topic=question))
    return md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0].strip()


@pytest.mark.parametrize("text", [
    # SQLAlchemy's "Select IN loading", the Caveat of "What is Select IN loading?"
    "The SELECT statement emitted by the \u201cselectin\u201d loader strategy, unlike that of "
    "\u201csubquery\u201d, does not require a subquery nor does it inherit any of the performance "
    "limitations of the original query; the lookup is a simple primary key lookup and should "
    "have high performance.",
    "The new loader does not have the restrictions of the old one.",
    "It runs without any of the overhead of a subprocess.",
    # create_engine's pool_size: another way, for another purpose
    "With QueuePool, a pool_size setting of 0 indicates no limit; to disable pooling, set "
    "poolclass to NullPool instead.",
    "If you want plain text, use the text() construct instead.",
])
def test_what_a_thing_is_spared_or_another_way_is_no_caveat(text: str) -> None:
    assert not cautions(text)
    assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])


@pytest.mark.parametrize("text", [
    "The new loader does not remove the limitation on composite keys.",
    "It inherits the performance limitations of the original query.",
    "The old API is not thread-safe; use the new one instead.",
    "To disable pooling, set poolclass to NullPool instead; the pool is not used then.",
])
def test_a_limitation_kept_or_beside_still_is_one(text: str) -> None:
    assert cautions(text)


def test_the_answer_quotes_warnings_only_when_it_quotes_one() -> None:
    # S1's Answer was create_engine's pool_size entry, which warns of nothing
    q = "What is the default pool_size of create_engine?"
    entry = ("pool_size=5 \u2013 the number of connections to keep open inside the connection "
             "pool. With QueuePool, a pool_size setting of 0 indicates no limit; to disable "
             "pooling, set poolclass to NullPool instead.")
    rows = [row("docs_search", q, [item("passage", f"create_engine()\n\n{entry}",
                                        "engines.html#39", heading="create_engine()")]),
            row("analyst", q, [item("finding", entry, "engines.html#39")]),
            row("critic", q, [item("caveat", entry, "engines.html#39")])]
    assert _caveats(q, rows) == "- No limitations or warnings were found in the passages retrieved."
    # a pointer the Answer quotes is no warning either, whatever the text it points to says
    q = "How do I log the TLS session?"
    pointer = "See the TLS README for how to log the TLS session, and what should not be logged."
    rows = [row("docs_search", q, [item("passage", f"TLS session logging\n\n{pointer}",
                                        "tls.html#3", heading="TLS session logging")]),
            row("analyst", q, [item("finding", pointer, "tls.html#3")])]
    assert "quotes the only" not in _caveats(q, rows)


_FIX = ("And importantly, set expire_on_commit to False - When using detached objects, the most "
        "common reason objects need to re-load data is because they were expired from the last "
        "call to Session.commit(). This expiration should not be used when dealing with detached "
        "objects; so the Session.expire_on_commit parameter be set to False.")


@pytest.mark.parametrize("text", [
    _FIX, "Set pool_pre_ping to True; a stale connection should not be handed out.",
    "Most importantly, use selectinload() so that no lazy load is emitted later.",
])
def test_a_recommendation_is_no_caveat(text: str) -> None:
    assert not cautions(text)
    assert not warnings_found([row("analyst", "q", [item("finding", text, "a#0")])])


@pytest.mark.parametrize("text", [
    "Importantly, do not share a session between threads.",
    "Set pool_size to 0, or else the pool fails under load.",
    "Importantly, use the sync driver only; the async one is not supported here.",
])
def test_a_warning_beside_advice_still_is_one(text: str) -> None:
    assert cautions(text)

