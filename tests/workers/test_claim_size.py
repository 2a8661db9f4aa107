"""A model's claim is one sentence: one of a megabyte was stored whole in every row and
checkpoint of the run, for a report that showed 400 characters of it (trial 83, F3)."""

from __future__ import annotations

from types import SimpleNamespace

from workers.agent import MAX_CLAIM_CHARS, _cited_items


class _NoPassages:
    def passage(self, ref: str) -> None:
        return None


def test_a_huge_claim_is_cut_to_the_claims_size_and_a_sentence_kept_whole() -> None:
    huge = SimpleNamespace(claim="word " * 200_000, ref="a.md#0")
    short = SimpleNamespace(claim="Pending writes are kept per task.", ref="a.md#1")
    cut, kept = _cited_items([huge, short], "finding", _NoPassages())
    assert len(cut["text"]) <= MAX_CLAIM_CHARS and cut["text"].endswith("[…]"), cut["text"][-20:]
    assert kept["text"] == "Pending writes are kept per task."
