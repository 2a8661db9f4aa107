"""A comparison's Answer names each thing compared by its definition or defining sentence, the
sentence contrasting them first, and a yes-or-no comparison is planned as a "What is the
difference" one (trial 113: Tornado's add_callback and spawn_callback, Varnish's purge and ban,
HAProxy's frontend and backend, libtool's -release and -version-info)."""

from __future__ import annotations

import pytest

from app.research.plan import offline_plan
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, row

DIFFER, WHAT_A, WHAT_B = "How do alpha_cb and beta_cb differ?", "What is alpha_cb?", \
    "What is beta_cb?"


def _doc(ref: str, text: str, kind: str = "finding", **extra) -> dict:
    doc = ref.split("#")[0]
    return {"kind": kind, "text": text, "ref": ref, "title": doc, "source": doc, **extra}


@pytest.mark.parametrize("topic", [
    "Is add_callback different from spawn_callback?",
    "Does add_callback differ from spawn_callback?",
    "Are add_callback and spawn_callback different?",
    "add_callback vs spawn_callback",
])
def test_every_form_of_a_comparison_is_planned_alike(topic: str) -> None:
    # "Is add_callback different from spawn_callback?" was planned as one sub-question and
    # answered by spawn_callback's definition alone
    assert offline_plan(topic) == offline_plan(
        "What is the difference between add_callback and spawn_callback?")


def test_the_sentence_contrasting_the_two_leads_and_each_is_defined() -> None:
    # the analyst's "As of Tornado 6.0, this method is equivalent to add_callback." (under
    # spawn_callback's heading) was not shown; the Answer was add_callback's definition alone
    head = "Loop.{}(callback: Callable) -> None"
    rows = [
        row("analyst", DIFFER, [
            _doc("io.html#34", "As of version 6.0, this method is equivalent to alpha_cb.",
                 heading=head.format("beta_cb")),
            _doc("io.html#26", "To add a callback from a signal handler, see alpha_cb_signal.",
                 heading=head.format("alpha_cb"))]),
        row("analyst", WHAT_A, [_doc("io.html#26", "alpha_cb: Calls the given callback on the "
                                     "next loop iteration.", heading=head.format("alpha_cb"))]),
        row("analyst", WHAT_B, [_doc("io.html#34", "beta_cb: Calls the given callback on the "
                                     "next IOLoop iteration.", heading=head.format("beta_cb"))]),
    ]
    answer = answer_section(render_markdown(data(rows, topic="alpha_cb vs beta_cb",
                                                 sub_questions=[DIFFER, WHAT_A, WHAT_B])))
    lines = [line for line in answer.splitlines() if line.startswith("- ")]
    assert lines[0].startswith("- `beta_cb`: As of version 6.0, this method is equivalent"), answer
    assert any("alpha_cb: Calls" in line for line in lines[1:]), answer
    assert any("beta_cb: Calls" in line for line in lines[1:]), answer


def test_a_counter_or_a_listing_row_is_no_definition() -> None:
    # "What is the difference between a purge and a ban?" was answered by Varnish's counter
    # "Count of bans replaced by later identical bans.", a frontend and a backend by HAProxy's
    # "1 + 2 + 4 = 7 -> frontend + backend + server."
    differ, what_a, what_b = ("How do a purge and a ban differ?", "What is a purge?",
                              "What is a ban?")
    rows = [
        row("analyst", differ, [
            _doc("stat.html#1", "1 + 2 + 4 = 7 -> purge + ban + server."),
            _doc("counters.html#3", "Count of bans replaced by later identical bans.")]),
        row("analyst", what_a, [
            _doc("purging.html#1", "Usually a purge is invoked through HTTP with PURGE."),
            _doc("purging.html#2", "A purge is what happens when you pick out an object from "
                                   "the cache and discard it.")]),
        row("analyst", what_b, [
            _doc("counters.html#4", "Count of bans added to the ban list."),
            _doc("purging.html#5", "You can think of bans as a sort of a filter on objects "
                                   "already in the cache.")]),
    ]
    answer = answer_section(render_markdown(data(rows, topic="What is the difference between a "
                                                 "purge and a ban?",
                                                 sub_questions=[differ, what_a, what_b])))
    assert "A purge is what happens" in answer and "sort of a filter" in answer, answer
    assert "Count of" not in answer and "1 + 2" not in answer, answer
