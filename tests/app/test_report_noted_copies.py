"""One sentence is shown once, whether a page writes it in a note ("Note: ...") or goes on
after it where another page stops (trial 123, F7: SQLAlchemy's pool_pre_ping sentence was an
Answer bullet and, as "Note: The pool ...", a Top passage from another page; the init and
init_failure events' "It is not called when an object is loaded from the database." and
"...; see the InstanceEvents.load() event ..." were two Answer bullets)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, answer_to, data, item, row

SAID = ("This method is only called during a userland construction of an object, in "
        "conjunction with the object's constructor, e.g. its __init__ method. It is not called "
        "when an object is loaded from the database")


def test_a_sentence_and_the_same_sentence_going_on_are_one_bullet() -> None:
    q = "Why isn't my __init__() called when I load objects?"
    longer = f"{SAID}; see the InstanceEvents.load() event in order to intercept a load."
    answer = answer_to(q, [item("finding", longer, "events.html#12"),
                           item("finding", f"{SAID}.", "events.html#13")])
    assert answer.count("userland construction") == 1, answer


def test_a_noted_copy_of_an_answer_is_no_top_passage() -> None:
    q = "What is pool_pre_ping?"
    said = ("The pool pre_ping handler enabled using the create_engine.pool_pre_ping parameter "
            "does not consult this event before deciding if the ping returned false, as opposed "
            "to receiving an unhandled error.")
    then = " For this use case, the legacy recipe based on engine_connect() may be used."
    other = ("Pessimistic testing of connections upon checkout is achievable by using the "
             "Pool.pre_ping argument.")
    rows = [row("analyst", q, [item("finding", said + then, "events.html#40"),
                               item("finding", other, "connections.html#12")]),
            row("docs_search", q, [
                item("passage", said + then, "events.html#40", score=9.0),
                item("passage", f"Note: {said}{then}", "connections.html#88", score=8.0,
                     heading="ExceptionContext.is_disconnect")])]
    md = render_markdown(data(rows, topic=q, sub_questions=[q]))
    assert md.count("does not consult this event") == 1, md
    assert "pre_ping handler" in answer_section(md)
