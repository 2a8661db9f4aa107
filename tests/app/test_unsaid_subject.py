"""The thing a question asks about, named by no passage the run retrieved, makes the run a near
miss (trial 123, F5; trial 121, F7): "How do I run JUnit tests with Maven?" over pytest's manual
was answered by its JUnit XML passages under a note asking whether "maven" was a typo, and the
words of the asker's situation ("my *app*", "*sitting* idle") are never named in that note."""

from __future__ import annotations

from app.research.relevance import NO_RELEVANT_SOURCES, judge, missing_note
from app.research.report import render_markdown
from app.research.term_stats import TermStats
from tests.app.report_rows import Q1, data, item, row

# pytest 7.2's manual as counted by its index (2,705 passages); "kubernetes" in its plugin list
PYTEST = TermStats(2705, {"run": 500, "junit": 46, "tests": 1592, "maven": 0, "configure": 162,
                          "kubernetes": 3, "ingress": 0, "controller": 52})
JUNIT = [row("docs_search", Q1, [item(
    "passage", "To create result files which can be read by Jenkins or other Continuous "
    "integration servers, run the tests with --junitxml=path: JUnit XML.", "how-to/output#9")])]
WARNINGS = [row("docs_search", Q1, [item(
    "passage", "Controlling warnings: the configuration below will ignore all user warnings.",
    "how-to/capture-warnings#4")])]


def _codes(topic: str, rows: list[dict], stats: TermStats) -> list[str]:
    return [w.code for w in judge(topic, rows, stats).warnings]


def test_a_product_no_passage_names_is_the_topic_not_a_typo() -> None:
    topic = "How do I run JUnit tests with Maven?"
    verdict = judge(topic, JUNIT, PYTEST)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    assert '"Maven"' in verdict.warnings[0].message
    md = render_markdown(data(JUNIT, topic=topic, sub_questions=[Q1], relevance=verdict))
    assert "say nothing about" in md and "junitxml" not in md


def test_a_name_the_corpus_has_elsewhere_counts_with_the_words_it_lacks() -> None:
    # Kubernetes is in 3 passages (the plugin list), none retrieved; "ingress" in none
    topic = "How do I configure a Kubernetes ingress controller?"
    verdict = judge(topic, WARNINGS, PYTEST)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    assert '"Kubernetes" or "ingress"' in verdict.warnings[0].message


def test_the_heavier_words_retrieved_keep_the_topic_answered() -> None:
    # Git's manual (11,778 passages): a pipeline named by no item, but a Jenkins the manual
    # lacks outweighs what the items say ("configure", "run", "git", "push")
    git = TermStats(11778, {"configure": 1270, "jenkins": 0, "pipeline": 22, "run": 1312,
                            "git": 9339, "push": 906})
    push = [row("docs_search", Q1, [item(
        "passage", "To configure git push to run the hooks of each submodule, set "
        "push.recurseSubmodules.", "git-config#812")])]
    topic = "How do I configure a Jenkins pipeline to run on every git push?"
    assert _codes(topic, push, git) == [NO_RELEVANT_SOURCES]
    # a name an item says is no subject left unsaid
    verdict = judge("How do I run JUnit tests with Jenkins?", JUNIT, PYTEST)
    assert verdict.warnings == [], verdict
    assert judge("How do I run JUnit tests?", JUNIT, PYTEST).warnings == []


def test_the_words_of_the_askers_situation_are_not_named() -> None:
    # trial 123, S7: answered well, under a note naming "app" and "sitting" as unretrieved
    stats = TermStats(13314, {"app": 5, "lose": 19, "mysql": 759, "connection": 1994,
                              "sitting": 1, "idle": 13, "overnight": 0})
    rows = [row("docs_search", Q1, [item(
        "passage", "MySQL Server has gone away: MySQL closes a connection idle for eight hours; "
        "connections lose their link, so set pool_recycle.", "faq/connections#3")])]
    topic = "Why does my app lose its MySQL connection after sitting idle overnight?"
    verdict = judge(topic, rows, stats)
    assert verdict.warnings == [] and verdict.missing == ("overnight",), verdict
    assert '"app"' not in missing_note(verdict.missing, verdict.in_corpus)
