"""The typed result item (``state.ResultItem``) and its check (``state.check_items``)."""

from __future__ import annotations

import typing

import pytest

from state import ITEM_KINDS, ResultItem, check_items


def item(**fields):
    return {"kind": "finding", "text": "t", "ref": "doc.md#0", "title": "doc.md",
            "source": "docs/doc.md", **fields}


def test_the_kinds_are_declared_once_as_a_literal():
    assert ITEM_KINDS == ("finding", "caveat", "passage")
    hints = typing.get_type_hints(ResultItem)
    assert typing.get_args(hints["kind"]) == ITEM_KINDS
    assert ResultItem.__required_keys__ == {"kind", "text", "ref", "title", "source"}
    assert ResultItem.__optional_keys__ == {"score", "heading"}


def test_known_kinds_pass_unchanged():
    items = [item(), item(kind="caveat"), item(kind="passage", score=1.5)]
    checked = check_items(items)
    assert checked == items and all(a is b for a, b in zip(checked, items, strict=True))
    assert check_items(()) == []


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (item(kind="summary"), "item 1 has the unknown kind 'summary'; the kinds are finding, "
                               "caveat, passage"),
        (item(kind=None), "item 1 has the unknown kind None"),
        (item(text=None), r"item 1 \(finding\) has no text string: None"),
        ({k: v for k, v in item().items() if k != "ref"}, r"item 1 \(finding\) has no ref"),
        ("just text", "item 1 is a str, not a dict"),
    ],
    ids=["unknown-kind", "no-kind", "no-text", "no-ref", "not-a-dict"],
)
def test_a_bad_item_is_a_one_line_value_error_naming_it(bad, message):
    with pytest.raises(ValueError, match=message) as info:
        check_items([item(), bad])
    assert "\n" not in str(info.value)
