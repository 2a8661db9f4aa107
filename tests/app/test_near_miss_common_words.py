"""A word the corpus lacks beside only the words of the whole corpus is the topic (trial 118,
F9): "How do I configure DNS over QUIC in BIND?" over BIND's manual, where "dns", "bind" and
"configure" are each in a sixth of the passages or more and "quic" in none, is a near miss, not
a typo to name while the report answers "BIND 9 is a complete implementation of the DNS
protocol."."""

from __future__ import annotations

from app.research.relevance import NO_RELEVANT_SOURCES, corpus_stats, judge
from app.research.report import render_markdown
from app.research.term_stats import TermStats, slips
from tests.app.report_rows import Q1, data, item, row

# BIND 9's ARM (bind9-doc 9.18) as counted by its index: 4,297 passages
ARM = TermStats(4297, {"configure": 1763, "dns": 915, "bind": 721, "quic": 0, "tls": 160,
                       "https": 171, "bnid": 0, "zone": 1200, "transfers": 200})
INTRO = [row("docs_search", Q1, [item(
    "passage", "BIND 9 is a complete implementation of the DNS protocol. To configure it "
    "as an authoritative name server, edit named.conf.", "chapter1.html#0")])]


def test_a_missing_word_beside_only_the_corpus_words_is_a_near_miss() -> None:
    topic = "How do I configure DNS over QUIC in BIND?"
    verdict = judge(topic, INTRO, ARM)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    md = render_markdown(data(INTRO, topic=topic, sub_questions=[Q1], relevance=verdict))
    assert "complete implementation" not in md and "say nothing about" in md


def test_a_missing_word_beside_a_word_of_the_topic_is_still_named() -> None:
    # "transfers" is in 5% of the passages: the topic is zone transfers, "bnid" a typo
    said = [row("docs_search", Q1, [item(
        "passage", "To configure zone transfers in BIND, set allow-transfer in each zone.",
        "reference.html#7")])]
    verdict = judge("How do I configure zone transfers in BNID?", said, ARM)
    assert verdict.warnings == [] and verdict.missing == ("bnid",), verdict
    # and a word the corpus has, however few passages, is no near miss
    tls = [row("docs_search", Q1, [item(
        "passage", "DNS over TLS is configured in BIND with a tls statement.", "ref.html#9")])]
    assert judge("How do I configure DNS over TLS in BIND?", tls, ARM).warnings == []


def test_a_typo_beside_only_the_corpus_words_is_named_not_warned() -> None:
    # trial 120, F6: "How do I confgure Postfix?" and "... use a relayhsot?" over Postfix's
    # docs were warned that the sources say nothing, the typo taken for the topic; the corpus
    # has "relayhost", one typing slip away (term_stats.slips), though no item retrieved has
    counts = {"configure": 900, "postfix": 3000, "smtp": 2000, "client": 800, "use": 2500}
    said = [row("docs_search", Q1, [item(
        "passage", "To configure the Postfix SMTP client, edit main.cf and reload Postfix.",
        "STANDARD_CONFIGURATION_README.html#3")])]
    topic = "How do I configure the Postfix SMTP client to use a relayhsot?"
    typo = judge(topic, said, TermStats(6383, counts, {"relayhsot": "relayhost"}))
    assert typo.warnings == [] and typo.missing == ("relayhsot",), typo
    assert [w.code for w in judge(topic, said, TermStats(6383, counts)).warnings] == [
        NO_RELEVANT_SOURCES]  # no word of the corpus near it: the topic it lacks
    assert "relayhost" in slips("relayhsot") and slips("quic") == []


def test_corpus_stats_find_the_word_a_typo_slipped_from() -> None:
    class Index:
        def passage_count(self) -> int:
            return 100

        def term_frequencies(self, terms: list[str]) -> dict[str, int]:
            return {t: {"relayhost": 7, "postfix": 60}.get(t, 0) for t in terms}

    stats = corpus_stats(Index(), "Postfix relayhsot")
    assert stats is not None and stats.near == {"relayhsot": "relayhost"}, stats
