"""Honest relevance: a report over sources that say nothing about the topic says so, a failed
worker is "unavailable", and "answered by the findings above" appears only when it is true."""

from __future__ import annotations

import pytest

from app.research.relevance import (
    NO_RELEVANT_SOURCES,
    Relevance,
    TermStats,
    corpus_stats,
    describe_terms,
    judge,
    name_terms,
    relevance_warnings,
    topic_terms,
    unknown_terms,
)
from app.research.report import render_markdown
from tests.app.report_rows import Q1, Q2, ROWS, data, item, row
from workers.sources.query import mentions

# What a template-driven search returns for a topic the corpus does not know: passages that
# share the plan's words ("mechanism", "meant", "settings") and nothing else.
UNRELATED = [
    row("docs_search", Q1, [
        item("passage", "The retry mechanism waits between attempts.", "r.md#0", score=2.0),
        item("passage", "What is meant by a superstep is one round of tasks.", "s.md#0"),
    ]),
    row("analyst", Q1, [item("finding", "The retry mechanism waits between attempts.", "r.md#0")]),
    row("critic", Q2, [item("caveat", "Settings must not be changed during a run.", "c.md#1")]),
]


def test_topic_terms_are_the_users_words_each_once() -> None:
    assert topic_terms("zebra marmalade") == ["zebra", "marmalade"]
    # words a plan once wrapped around a topic are the user's when the user wrote them: left
    # out, Asymptote's "personal default settings" question was warned as off-topic
    assert topic_terms("Which settings change the default colour?") == [
        "settings", "change", "default", "colour"]
    assert topic_terms("use limitations") == ["use", "limitations"]
    # "vs" joins a comparison as "and" does: no passage says it (trial 7: warned)
    assert topic_terms("Send vs reducers") == topic_terms("Send versus reducers") == [
        "send", "reducers"]


def test_mentions_counts_inflections_not_lookalikes() -> None:
    text = "Checkpoints keep pending writes; cancelled tasks are retried."
    assert mentions(["checkpointer", "pending", "write", "cancellation", "task"], text) == {
        "checkpointer", "pending", "write", "cancellation", "task"}
    assert mentions(["backe", "zebra", "ich"], "the backend backed off, which is rich") == set()


def test_unrelated_sources_get_the_warning_and_no_findings() -> None:
    md = render_markdown(data(UNRELATED, topic="zebra marmalade"))
    head = md.split("## 1.", 1)[0]
    assert 'The sources say nothing about "zebra marmalade".' in head
    assert 'mentions "zebra" or "marmalade"' in head
    # nothing unrelated is presented as a finding, a passage or a caveat
    for text in ("retry mechanism", "superstep", "must not be changed"):
        assert text not in md
    assert "Findings:" not in md and "Top passages:" not in md
    assert md.count("none is shown as a finding") == 1  # Q1 had results; Q2 had none
    assert "No caveat retrieved mentions" in md
    assert "No sources were cited." in md
    [warning] = relevance_warnings("zebra marmalade", UNRELATED)
    assert warning.code == NO_RELEVANT_SOURCES == "no_relevant_sources"
    assert warning.to_dict() == {"code": "no_relevant_sources", "message": warning.message}
    assert "zebra marmalade" in warning.message


def test_an_off_topic_run_says_so_once_not_under_every_sub_question() -> None:
    rows = [*UNRELATED, row("docs_search", Q2, [
        item("passage", "The retry mechanism waits between attempts.", "r.md#0", score=2.0)])]
    md = render_markdown(data(rows, topic="zebra marmalade"))
    assert md.count("none is shown as a finding") == 1 and "## 2." not in md
    assert f'- Not shown as sections, as they would repeat the report: "{Q2}"' in md


def test_a_model_summary_of_unrelated_passages_is_not_shown() -> None:
    md = render_markdown(data(UNRELATED, topic="zebra marmalade",
                              summary=[("Retries wait between attempts.", ["r.md#0"])]))
    assert "## Answer" not in md and "Retries wait" not in md


@pytest.mark.parametrize("topic", ["Wie backe ich einen Apfelkuchen", "猫の餌のレシピ"])
def test_non_english_topics_over_english_sources_get_the_warning(topic: str) -> None:
    assert [w.code for w in relevance_warnings(topic, UNRELATED)] == [NO_RELEVANT_SOURCES]


def test_a_covered_topic_gets_no_warning() -> None:
    assert relevance_warnings("zorblax relay", ROWS) == []
    md = render_markdown(data(ROWS))
    assert "say nothing about" not in md and "Findings:" in md


def test_no_warning_without_results_to_judge() -> None:
    assert relevance_warnings("zebra marmalade", []) == []
    failed = [row("analyst", Q1, None, status="error", error="boom")]
    assert relevance_warnings("zebra marmalade", failed) == []
    assert relevance_warnings("what is it", UNRELATED) == []  # no content words at all


def test_a_topic_without_content_words_still_gets_its_report() -> None:
    # "what is it" has no searchable word once stopwords go: the CLI refuses it now, but a
    # served run (or a script invoking the graph) still brings it here. The report used to
    # describe the words it wanted before asking whether there were any, and died on an
    # IndexError.
    for topic in ("what is it", "the of"):
        md = render_markdown(data(UNRELATED, topic=topic))
        assert md.startswith(f"# Research report: {topic}\n")
        assert "say nothing about" not in md and "- The retry mechanism waits" in md
        assert judge(topic, UNRELATED) == Relevance("", [])
    assert describe_terms([]) == ""  # the function that raised IndexError


def test_the_report_banner_and_the_warning_name_the_same_words() -> None:
    verdict = judge("zebra marmalade", UNRELATED)
    assert verdict.wanted == '"zebra" or "marmalade"'
    assert verdict.warnings == relevance_warnings("zebra marmalade", UNRELATED)
    [warning] = verdict.warnings
    assert warning.message.endswith(f"mentions {verdict.wanted}")
    assert f"No retrieved passage mentions {verdict.wanted}, so" in render_markdown(
        data(UNRELATED, topic="zebra marmalade"))


def test_a_failed_critic_is_unavailable_not_no_caveats() -> None:
    rows = [r for r in ROWS if r["worker"] != "critic"]
    rows += [row("critic", q, None, status="error", error="TimeoutError: x") for q in (Q1, Q2)]
    md = render_markdown(data(rows))
    caveats = md.split("## Caveats", 1)[1].split("##", 1)[0]
    assert "Unavailable (worker failed: `critic`)" in caveats
    assert "No caveats were found" not in md


def test_a_question_whose_workers_all_failed_is_unavailable() -> None:
    rows = [r for r in ROWS if r["task_key"] == Q1]
    rows += [row(w, Q2, None, status="error", error="boom") for w in ("analyst", "docs_search")]
    md = render_markdown(data(rows))
    q2 = md.split(f"## 2. {Q2}", 1)[1].split("## Caveats", 1)[0]
    assert "- Unavailable (worker failed: `analyst`, `docs_search`); see Failures." in q2
    assert "No sourced answer" not in q2


def test_a_section_answers_from_its_own_evidence_never_a_placeholder() -> None:
    # Issue 19: "_Answered by the findings above._" filled most sections, then each repeated
    # an earlier section's best finding; a sub-question whose evidence is all shown above (a
    # finding listed there, a passage cited there) is named in the Notes instead.
    finding = item("finding", "The relay folds each packet into copper envelopes.", "z.md#1")
    passage = item("passage", "The relay moves glimmer packets between moon stations.", "z.md#0")
    for rows in ([row("analyst", Q1, [finding]), row("analyst", Q2, [dict(finding)])],
                 [row("analyst", Q1, [finding]), row("docs_search", Q1, [passage]),
                  row("docs_search", Q2, [dict(passage)])]):
        md = render_markdown(data(rows))
        assert "## 2." not in md and "_" not in md.split("## Answer", 1)[1].split("## Notes")[0]
        notes = md.split("## Notes", 1)[1]
        assert "No sourced answer" not in md and f'"{Q2}"' in notes, md


def test_one_incidental_word_of_a_longer_topic_is_not_coverage() -> None:
    # "starter" occurs in Python's docs; sourdough and hydration do not: not about the topic
    incidental = [row("docs_search", Q1, [item(
        "passage", "The import system uses a starter module to bootstrap packages.", "i.md#0")])]
    [warning] = relevance_warnings("sourdough starter hydration", incidental)
    assert 'mentions at least 2 of "sourdough", "starter" and "hydration"' in warning.message
    covered = [row("docs_search", Q1, [item(
        "passage", "A sourdough starter needs a hydration of about 100 percent.", "s.md#0")])]
    assert relevance_warnings("sourdough starter hydration", covered) == []


# SQLite's manual, in small: "replace" and "window" are common there, "cracked" and "pane" in no
# passage (the counts are those of the sqlite3-doc package's 11,774 passages)
SQLITE = TermStats(11774, {"replace": 404, "cracked": 0, "window": 590, "pane": 0,
                           "create": 1862, "throwaway": 0, "database": 3930, "never": 399,
                           "touches": 14, "disk": 548})
NEAR = [row("docs_search", Q1, [item(
    "passage", "REPLACE is an alias of INSERT OR REPLACE; a window function may follow it.",
    "lang_replace.html#0")])]


def test_a_near_miss_whose_distinctive_words_no_passage_uses_is_warned() -> None:
    topic = "How do I replace a cracked window pane?"
    # half its words meet in one passage: by the retrieved items alone it looks covered
    assert relevance_warnings(topic, NEAR) == []
    verdict = judge(topic, NEAR, SQLITE)
    [warning] = verdict.warnings
    assert warning.code == NO_RELEVANT_SOURCES
    assert verdict.wanted == '"cracked" or "pane"'
    assert warning.message.endswith('no retrieved passage mentions "cracked" or "pane"')
    assert unknown_terms(topic_terms(topic), SQLITE) == ["cracked", "pane"]


def test_a_paraphrase_with_a_word_the_docs_never_use_is_not_warned() -> None:
    topic = "Can I create a throwaway database that never touches the disk?"
    rows = [row("docs_search", Q1, [item(
        "passage", "An in-memory database is never written to disk.", "inmemorydb.html#0")])]
    assert unknown_terms(topic_terms(topic), SQLITE) == []  # "throwaway" is a third of it
    assert relevance_warnings(topic, rows, SQLITE) == []


def test_an_indefinite_pronoun_is_no_word_of_the_topic() -> None:
    # Asymptote's manual (777 passages): "paint" is in none, and "everything" was too, which
    # made half the question's weight unknown and warned an on-topic question
    topic = "How do I paint everything outside a closed curve?"
    stats = TermStats(777, {"paint": 0, "everything": 0, "outside": 10, "closed": 3,
                            "curve": 26})
    assert topic_terms(topic) == ["paint", "outside", "closed", "curve"]
    assert unknown_terms(topic_terms(topic), stats) == []
    # trial 63, F5: curl's docs never say "whose", and it was warned as a word they lack
    assert topic_terms("How do I trust a server whose certificate is self-signed?") == [
        "trust", "server", "certificate", "self", "signed"]
    rows = [row("docs_search", Q1, [item(
        "passage", "fill(p) fills the region bounded by the closed curve p.", "asy.pdf:p21")])]
    assert relevance_warnings(topic, rows, stats) == []


def test_words_of_how_people_ask_weigh_nothing() -> None:
    # trial 81, F4: aptitude's manual says neither "rid" nor "anymore", and the question was
    # warned
    topic = "How do I get rid of libraries that nothing needs anymore?"
    stats = TermStats(487, {"rid": 0, "libraries": 4, "needs": 20, "anymore": 0})
    rows = [row("docs_search", Q1, [item(
        "passage", "Unused libraries are removed when nothing depends on them.", "ch2.html#6")])]
    assert relevance_warnings(topic, rows, stats) == []


def test_a_word_said_twice_in_two_forms_weighs_once() -> None:
    # Asymptote's manual: "sheet" and "european" are in no passage; counted as "sheets" and
    # "sheet", the one unknown word outweighed the question's known ones
    topic = ("My figures are centred for US letter sheets; how do I switch to the European "
             "sheet size?")
    stats = TermStats(777, {"figures": 26, "centred": 36, "letter": 2, "sheets": 0, "sheet": 0,
                            "switch": 2, "european": 0, "size": 115})
    assert topic_terms(topic) == ["figures", "centred", "letter", "sheets", "switch", "european",
                                  "size"]
    assert unknown_terms(topic_terms(topic), stats) == []


def test_a_long_question_needs_two_of_its_words_in_one_passage() -> None:
    topic = "How do I compute a running total over ordered rows without a self-join?"
    rows = [row("docs_search", Q1, [item(
        "passage", "A window function can keep a running total.", "windowfunctions.html#0")])]
    assert relevance_warnings(topic, rows) == []  # "running" and "total" meet in it
    one = [row("docs_search", Q1, [item("passage", "A join of two tables.", "join.html#0")])]
    assert [w.code for w in relevance_warnings(topic, one)] == [NO_RELEVANT_SOURCES]


def test_words_of_how_a_question_is_asked_are_not_asked_of_a_passage() -> None:
    # asymptote-doc eval, asy-35: the manual's page on transparent fills was warned because it
    # named one of "make", "filled", "shape" and "see", where two were asked; the search had
    # looked for "filled" and "shape" only
    topic = "How can I make a filled shape see-through?"
    rows = [row("docs_search", Q1, [item(
        "passage", 'pen Courier(string series="m", string shape="n"); opacity(real a)',
        "asymptote.pdf:p48#1")])]
    assert relevance_warnings(topic, rows) == []
    asking_only = [row("docs_search", Q1, [item(
        "passage", "See the make targets; make sure to see the index.", "build.html#0")])]
    [warning] = relevance_warnings(topic, asking_only)
    assert 'mentions "filled" or "shape"' in warning.message


def test_a_name_is_not_matched_by_a_word_it_looks_like_an_inflection_of() -> None:
    topic = "Why is locking slow on Windows?"
    assert name_terms(topic) == {"windows"}
    rows = [row("docs_search", Q1, [item(
        "passage", "Window functions are slow without an index.", "w.html#0")])]
    [warning] = relevance_warnings(topic, rows)
    assert 'mentions at least 2 of "locking", "slow" and "Windows"' in warning.message
    on_windows = [row("docs_search", Q1, [item(
        "passage", "Locking is slow on Windows network drives.", "lock.html#0")])]
    assert relevance_warnings(topic, on_windows) == []
    # a title-cased topic capitalizes every word: only inner capitals mark a name there
    assert name_terms("Checkpointer Pending Writes In LangGraph") == {"langgraph"}


def test_corpus_stats_count_the_passages_a_search_would_match(tmp_path) -> None:
    from workers.sources import Corpus

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "w.md").write_text("# Windows\n\nWindow functions compute running totals.\n")
    (folder / "r.md").write_text("# Replace\n\nREPLACE deletes the old row first.\n")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        stats = corpus_stats(corpus, "replace a cracked window pane")
    assert stats is not None and stats.passages == 2
    # porter stems, as search matches: "window" counts "Windows" and "Window"
    assert stats.frequencies == {"replace": 1, "cracked": 0, "window": 1, "pane": 0}
    assert corpus_stats(object(), "replace a cracked window pane") is None  # no statistics


# The package docs, in small: "checkpointer" and "writes" in a few hundred passages, the typo
# "pendng" and the German "funktioniert" in none (the counts of the default corpus's 4,073)
PACKAGES = TermStats(4073, {"checkpointer": 196, "writes": 143, "pendng": 0, "funktioniert": 0,
                            "wie": 0, "der": 0})
PENDING = [row("docs_search", Q1, [item(
    "passage", "Store intermediate writes linked to a checkpoint; the checkpointer keeps them.",
    "x.BaseCheckpointSaver.put_writes#0")])]


@pytest.mark.parametrize("topic", ["checkpointer pendng writes", "Checkpointer funktioniert"])
def test_one_word_no_passage_contains_is_named_not_a_blank_report(topic: str) -> None:
    # Trial 10, finding 4: a one-letter typo (or one German word) made the whole report "The
    # sources say nothing about ...", though the corpus covers the topic's other words well.
    verdict = judge(topic, PENDING, PACKAGES)
    assert verdict.warnings == [] and len(verdict.missing) == 1, verdict
    md = render_markdown(data(PENDING, topic=topic, sub_questions=[Q1], relevance=verdict))
    # the counts say the corpus never uses it; no word it writes is one slip away (trial 126)
    assert f'> The corpus never uses "{verdict.missing[0]}" (its documents may say it' in md
    assert "say nothing about" not in md


def test_one_missing_word_still_warns_when_the_rest_meets_in_no_passage() -> None:
    # the rest of the topic must be covered, in one retrieved item: "writes" alone is not
    rows = [row("docs_search", Q1, [item("passage", "Writes go to the log.", "log.md#0")])]
    assert judge("checkpointer pendng writes", rows, PACKAGES).warnings
    # and more than one word the corpus lacks is not a typo: still warned, as a near miss is
    assert judge("Wie funktioniert der Checkpointer?", PENDING, PACKAGES).warnings


# Apache's manual in small (trial 17): "tomcat" in a few passages, "jdbc" and "kubernetes" in none
APACHE = TermStats(5674, {"tomcat": 4, "jdbc": 0, "connection": 310, "pool": 40, "size": 260,
                          "graceful": 30, "restart": 90, "kubernetes": 0, "mount": 12})
POOL = [row("docs_search", Q1, [item(
    "passage", "Connections created on demand can be retained in a pool: the pool size is "
    "set by max.", "mod/mod_proxy.html#3")])]
RESTART = [row("docs_search", Q1, [item(
    "passage", "The graceful restart signal lets children finish their requests.",
    "stopping.html#1")])]


@pytest.mark.parametrize("topic", ["Tomcat JDBC connection pool size",
                                   "tomcat jdbc connection pool size"])
def test_a_word_the_corpus_lacks_is_named_though_too_light_to_warn(topic: str) -> None:
    # Trial 17, finding 3: "JDBC" is in no file of the manual, yet the mod_proxy pool was the
    # Answer with no note: the word weighs under half the topic, so nothing was said of it;
    # and the note's "the report answers the topic's other words" holds: the pool passage
    # says nothing of Tomcat either (trial 57, F1: "worker_connections in the nginx events
    # block" named "worker_connections" alone, and no passage cited said "nginx")
    verdict = judge(topic, POOL, APACHE)
    assert verdict.warnings == [] and verdict.missing == ("jdbc", "tomcat"), verdict
    md = render_markdown(data(POOL, topic=topic, sub_questions=[Q1], relevance=verdict))
    # each as the question writes it (trial 125, F5)
    assert 'the corpus never uses "jdbc"' in md.lower(), md
    assert 'no passage retrieved mentions "tomcat", though the corpus has it' in md.lower(), md


def test_a_name_no_retrieved_passage_mentions_is_named_though_the_corpus_has_it() -> None:
    # Trial 26, finding 3: "Tomcat" is in 4 passages of the manual, none retrieved: the pool
    # passage answered the question without a word that it says nothing of Tomcat
    topic = "What is the connection pool size in Tomcat?"
    verdict = judge(topic, POOL, APACHE)
    assert verdict.warnings == [] and verdict.missing == ("tomcat",), verdict
    md = render_markdown(data(POOL, topic=topic, sub_questions=[Q1], relevance=verdict))
    assert 'No passage retrieved mentions "Tomcat"' in md  # as written (trial 125, F5)
    # a plain word is not a name: "pool" retrieved, "connection" not, nothing named
    assert judge("connection pool size", POOL, APACHE).missing == ()
    named = [row("docs_search", Q1, [item("passage", "The Tomcat pool size is set by max.",
                                          "mod/mod_proxy.html#4")])]
    assert judge(topic, named, APACHE).missing == ()
    # trial 27: a plural of the name the passages name in the singular is no missing name
    rule = [row("docs_search", Q1, [item("passage", "A RewriteRule may use back-references.",
                                         "rewrite/intro.html#2")])]
    rules = TermStats(5674, {"rewriterules": 20, "use": 2000, "back": 300, "references": 200})
    assert judge("How do RewriteRules use back-references?", rule, rules).missing == ()


def test_a_name_the_corpus_lacks_beside_a_covered_phrase_is_named_not_warned() -> None:
    # Trial 17, finding 8: "graceful restart in kubernetes" was answered with a note, the same
    # topic with "Kubernetes" capitalised blanked the report as "the sources say nothing"
    lower = judge("graceful restart in kubernetes", RESTART, APACHE)
    upper = judge("graceful restart in Kubernetes", RESTART, APACHE)
    assert lower.warnings == upper.warnings == [], upper
    assert lower.missing == upper.missing == ("kubernetes",)
    # a name beside a single word is still the topic, whatever passage has that word
    mount = [row("docs_search", Q1, [item("passage", "Mount the volume first.", "m.html#0")])]
    assert judge("How tall is Mount Kilimanjaro?", mount,
                 TermStats(5674, {"mount": 12, "kilimanjaro": 0})).warnings


PACKAGE_WORDS = TermStats(4073, {"stategraph": 80, "reducers": 60, "using": 900, "code": 700,
                                 "checkpointing": 40, "work": 300, "beginner": 0,
                                 "tutorial": 0, "pitfalls": 0, "snippet": 0, "hood": 0})
GRAPH = [row("docs_search", Q1, [item(
    "passage", "A StateGraph folds each node's writes with the channel's reducers; "
    "checkpointing saves them.", "langgraph.graph.StateGraph#0")])]


@pytest.mark.parametrize("topic", ["beginner tutorial for StateGraph",
                                   "pitfalls of using reducers", "code snippet for reducers",
                                   "how does checkpointing work under the hood"])
def test_words_of_the_help_asked_for_are_neither_warned_nor_named(topic: str) -> None:
    # Trial 19, findings 10 and 11: "snippet" was named as a typo; "beginner tutorial for
    # StateGraph" and "... under the hood" blanked on-topic reports
    verdict = judge(topic, GRAPH, PACKAGE_WORDS)
    assert verdict.warnings == [] and verdict.missing == (), verdict
