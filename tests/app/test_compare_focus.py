"""Each side of a comparison is searched on its own (trial 26, finding 5b: "git merge vs git
rebase" cited git-rebase's page only, and "What is git merge?" quoted git-rebase's text: the
task's search was focused on the whole topic, whose other side's word ranked the other side's
page first)."""

from __future__ import annotations

from pathlib import Path

from app.research.plan import offline_plan
from app.research.rounds import pending_tasks
from workers import docs_search
from workers.base import WorkerDeps
from workers.sources import Corpus

TOPIC = "heron census vs egret census"
HERON = ("<html><head><title>heron census</title></head><body><h1>heron census</h1><p>The heron "
         "census counts nesting pairs at each colony in spring.</p></body></html>")
EGRET = ("<html><head><title>egret census</title></head><body><h1>egret census</h1>"
         + "".join(f"<p>Unlike the heron census, the egret census {i} counts roosts; the heron "
                   "census method is not used for egrets.</p>" for i in range(6))
         + "</body></html>")


def test_the_question_on_one_side_is_focused_on_that_side(tmp_path: Path) -> None:
    state = {"topic": TOPIC, "as_of": "2026-11-30", "sub_questions": offline_plan(TOPIC)}
    tasks = pending_tasks(state, ["docs_search"])
    assert {t["topic"] for t in tasks} == {TOPIC}  # the run's topic, for every worker
    focus = {t["sub_question"]: t["focus"] for t in tasks}
    assert focus == {"How do heron census and egret census differ?": TOPIC,
                     "What is heron census?": "heron census",
                     "What is egret census?": "egret census"}
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "heron.html").write_text(HERON, encoding="utf-8")
    (docs / "egret.html").write_text(EGRET, encoding="utf-8")
    task = next(t for t in pending_tasks(state, ["docs_search"])
                if t["sub_question"] == "What is heron census?")
    with Corpus.open(tmp_path / "data", folder=docs) as corpus:
        items = docs_search.build(WorkerDeps(corpus=corpus, search_k=2))(task).items
    assert items[0]["ref"].startswith("heron.html"), [i["ref"] for i in items]
