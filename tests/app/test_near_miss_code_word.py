"""A word the topic writes as code ("Python's *threading* module") is matched whole, never by a
plain word of its forms the topic also says ("threads"): trial 127, F4. "How do I spawn threads
in Python's threading module?" over pexpect's manual was judged by "threads", which its Common
problems page says ("you cannot spawn a child from a different thread"), and by "spawn",
"Python" and "module", which its front page says, and was answered by "Pexpect is a pure Python
module for spawning child applications" with no warning. The module no item names, with the
word it modifies ("module": the front page's module is another), is the subject a near miss
asks about; a page that names the module answers it.
"""

from __future__ import annotations

from app.research.relevance import NO_RELEVANT_SOURCES, corpus_stats, judge
from app.research.report import render_markdown
from app.research.term_stats import TermStats
from tests.app.report_rows import Q1, data, item, row

# a small automation library's manual: 360 passages, "python" and "spawn" on most pages
COUNTS = {"spawn": 100, "threads": 8, "threading": 8, "python": 46, "module": 29, "log": 9,
          "logging": 9, "errors": 30}
STATS = TermStats(360, COUNTS)
FRONT = item("passage", "Zap is a pure Python module for spawning child applications and "
             "controlling them.", "html/index.html#0")
ISSUES = item("passage", "Common problems. Threads: on some systems you cannot spawn a child "
              "from one thread and hand it to another thread.", "html/issues.html#0")
THREADS = "How do I spawn threads in Python's threading module?"


def test_a_module_named_by_no_item_is_a_near_miss() -> None:
    rows = [row("docs_search", Q1, [FRONT, ISSUES])]
    verdict = judge(THREADS, rows, STATS)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    assert verdict.warnings[0].message.endswith('no retrieved passage mentions "threading"')
    md = render_markdown(data(rows, topic=THREADS, sub_questions=[Q1], relevance=verdict))
    assert "say nothing about" in md and "pure Python module for spawning" not in md


def test_the_same_kind_with_another_module() -> None:
    topic = "How do I log errors with Python's logging module?"
    issues = item("passage", "Common problems. Errors: the child's errors are written to its "
                  "own log, not to yours.", "html/issues.html#1")
    verdict = judge(topic, [row("docs_search", Q1, [FRONT, issues])], STATS)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    assert '"logging"' in verdict.warnings[0].message


def test_a_page_naming_the_module_answers_it() -> None:
    named = item("passage", "Threads: a child spawned with the threading module must be read "
                 "from the thread that spawned it.", "html/issues.html#0")
    verdict = judge(THREADS, [row("docs_search", Q1, [FRONT, named])], STATS)
    assert verdict.warnings == [], verdict


def test_the_corpus_counts_the_module_as_written() -> None:
    class Index:
        def passage_count(self) -> int:
            return 360

        def term_frequencies(self, terms):
            return {t: COUNTS.get(t, 0) for t in terms}

    stats = corpus_stats(Index(), THREADS)
    assert stats is not None and stats.frequencies.get("threading") == 8
