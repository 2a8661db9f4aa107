"""Words of how a question is put never decide that the sources say nothing (trial 116, F10):
an adverb or a preposition the corpus never uses ("Can pruning delete snapshots I *still*
need?", "upgrade quillsync *without* downtime") was weighed as the topic's, and a question's
own wrapper verb and its noun ("How do I *set* the bandwidth *setting*?") as two words an item
had to mention. A question whose distinctive words the corpus has is answered; one whose
words it lacks is still warned."""

from __future__ import annotations

from typing import Any

from app.research.relevance import judge, topic_terms
from app.research.term_stats import TermStats

PRUNING = TermStats(1, {"pruning": 1, "delete": 1, "snapshots": 1, "still": 0, "need": 1})
UPGRADE = TermStats(1, {"upgrade": 1, "quillsync": 1, "without": 0, "downtime": 0})


def _rows(*texts: str, title: str = "Pruning old snapshots") -> list[dict[str, Any]]:
    items = [{"kind": "finding", "ref": "doc.md#0", "title": title, "text": t} for t in texts]
    return [{"status": "ok", "structured": {"items": items}}]


def test_an_adverb_the_corpus_lacks_makes_no_near_miss() -> None:
    rows = _rows("Pruned snapshots are deleted from the remote host whether or not a copy "
                 "exists elsewhere, and they cannot be recovered.")
    verdict = judge("Can pruning delete snapshots I still need?", rows, PRUNING)
    assert verdict.warnings == [] and "still" not in verdict.wanted


def test_a_preposition_the_corpus_lacks_makes_no_near_miss() -> None:
    rows = _rows("Run `quillsync upgrade --live` on the host.", title="Live upgrades")
    verdict = judge("How do I upgrade quillsync without downtime?", rows, UPGRADE)
    assert verdict.warnings == [] and verdict.missing == ("downtime",)


def test_the_one_item_is_not_asked_for_a_filler_word() -> None:
    stats = TermStats(1, {"pruning": 1, "snapshots": 1, "need": 1, "zorblat": 0})
    rows = _rows("Quillsync prunes snapshots older than `keep_days` every night.")
    verdict = judge("Does pruning zorblat the snapshots I need?", rows, stats)
    assert verdict.warnings == [] and verdict.missing == ("zorblat",)


def test_a_wrapper_verb_and_its_noun_are_one_word() -> None:
    assert topic_terms("How do I set the bandwidth setting?") == ["set", "bandwidth"]
    stats = TermStats(8, {"set": 2, "bandwidth": 2})
    rows = _rows("bandwidth The most bytes per second a transfer may use; 0 means no limit.",
                 title="Configuration reference")
    assert judge("How do I set the bandwidth setting?", rows, stats).warnings == []


def test_an_off_topic_question_put_the_same_way_is_still_warned() -> None:
    stats = TermStats(1, {"zebra": 0, "marmalade": 0, "still": 0, "without": 0})
    rows = _rows("Quillsync prunes snapshots older than `keep_days` every night.")
    verdict = judge("Can zebra marmalade still spoil without sugar?", rows, stats)
    assert [w.code for w in verdict.warnings] == ["no_relevant_sources"]
    assert "still" not in verdict.wanted and "without" not in verdict.wanted
