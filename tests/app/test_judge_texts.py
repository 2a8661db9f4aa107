"""The relevance verdict reads each retrieved passage's words once, however many rows cite it:
the rows of a run cite the same passages again and again, and the judges (what the items leave
unsaid of the topic: app/research/unsaid.py) made a string of each item's words per item, 2.9 MB
of copies at the peak of a 1,200-task run's report (issue 21, item 13). Same verdict."""

from __future__ import annotations

import app.research.unsaid as unsaid
from app.research.term_stats import TermStats

PASSAGE = {"kind": "passage", "ref": "a#0", "title": "pytest",
           "text": "Run the tests with --junitxml for JUnit XML."}


def test_a_passage_many_rows_cite_is_read_once_for_the_verdict(monkeypatch) -> None:
    rows = [{"status": "ok", "task_key": f"q{i}", "structured": {"items": [dict(PASSAGE)]}}
            for i in range(50)]
    rows.append({"status": "ok", "task_key": "other", "structured": {"items": [
        {"kind": "passage", "ref": "b#0", "text": "Maven is not named here."}]}})
    seen: list[str] = []
    real = unsaid.mentioned

    def mentioned(terms, text, names=()):
        seen.append(text)
        return real(terms, text, names)

    monkeypatch.setattr(unsaid, "mentioned", mentioned)
    stats = TermStats(2705, {"run": 500, "junit": 46, "tests": 1592, "maven": 0, "gradle": 0})
    terms = ["run", "junit", "tests", "gradle"]
    assert unsaid.unsaid_subject(terms, {"junit", "gradle"}, rows, stats) == ["gradle"]
    assert unsaid.unretrieved_words(terms, rows) == ("gradle",)
    assert len(seen) == len(set(seen)) * 2 == 4, seen  # two texts, once per judge
