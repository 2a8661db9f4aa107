"""The result item: one sourced claim or passage in an envelope's ``structured["items"]``.

Workers return them (``workers.base.WorkerResult.items``), the results database keeps them in the
envelope's payload, and the report groups them by ``kind``: ``"finding"`` items under their
sub-question, ``"caveat"`` items in the Caveats section, ``"passage"`` items as top passages.
The kinds are declared here once; the worker node wrapper checks every item with
:func:`check_items`, so an item of another kind becomes that task's error envelope naming the
kind, instead of a claim the report would not show (docs/architecture.md, "The envelope
contract").

Example:
    >>> check_items([{"kind": "finding", "text": "Send dispatches one task.",
    ...               "ref": "send.md#0", "title": "send.md", "source": "corpus"}])[0]["kind"]
    'finding'
    >>> check_items([{"kind": "summary", "text": "t", "ref": "r", "title": "t", "source": "s"}])
    Traceback (most recent call last):
    ...
    ValueError: item 0 has the unknown kind 'summary'; the kinds are finding, caveat, passage
"""

from collections.abc import Sequence
from typing import Any, Literal, get_args

from typing_extensions import NotRequired, TypedDict

__all__ = ["ITEM_KINDS", "ItemKind", "ResultItem", "check_items"]

ItemKind = Literal["finding", "caveat", "passage"]
"""What an item is: a claim answering the sub-question, a caveat, or a quoted passage."""

ITEM_KINDS: tuple[str, ...] = get_args(ItemKind)
"""The kinds, in the order the report shows them."""

_TEXT_FIELDS = ("text", "ref", "title", "source")


class ResultItem(TypedDict):
    """One sourced item of a worker's result."""

    kind: ItemKind
    text: str
    """The claim, or the passage's text; quoted from the passage ``ref`` names."""
    ref: str
    """The corpus passage it comes from (``deps.corpus.passage(ref)`` is not None): the report
    cites it."""
    title: str
    """The title of that passage's document."""
    source: str
    """Where the document came from (a package, a folder)."""
    score: NotRequired[float]
    """The search score, for passages."""
    heading: NotRequired[str]
    """The heading of the section a passage is cut from (a directive's, an option's entry), for
    passages whose section has one: whose entry a sentence of it speaks of."""


def check_items(items: Sequence[Any]) -> list[ResultItem]:
    """Check that ``items`` are result items: dicts of a known ``kind`` whose text fields are
    strings.

    Args:
        items: what a worker's ``run`` returned as ``WorkerResult.items``.

    Returns:
        ``items`` as a list (the same dicts).

    Raises:
        ValueError: one line naming the first bad item and what is wrong (an unknown kind names
            the kind and the known ones).
    """
    out = list(items)
    for i, item in enumerate(out):
        if not isinstance(item, dict):
            raise ValueError(f"item {i} is a {type(item).__name__}, not a dict")
        kind = item.get("kind")
        if kind not in ITEM_KINDS:
            raise ValueError(
                f"item {i} has the unknown kind {kind!r}; the kinds are {', '.join(ITEM_KINDS)}"
            )
        for name in _TEXT_FIELDS:
            if not isinstance(item.get(name), str):
                raise ValueError(f"item {i} ({kind}) has no {name} string: {item.get(name)!r}")
    return out
