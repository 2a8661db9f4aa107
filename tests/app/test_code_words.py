"""A word the question writes as code (``orient()``, ``-nosafe``, "the orient function") is
matched whole, never by a word it looks like an inflection of: "What does the orient function
return?" over Asymptote's manual ranked, cited and quoted the page on the page *orientation*
(five times "orientation", once "returned"), never ``real orient(pair a, pair b, pair c);``
(asymptote-doc eval, asy-27). The same rule holds in the search's ranking, in the report's
judgement of which sources name the topic, and in the offline model's choice of sentences."""

from __future__ import annotations

import json
from pathlib import Path

from app.llm.offline.relevance import code_stems, score
from app.llm.offline.sentences import Sentence
from app.llm.offline.words import stems
from tests.conftest import AS_OF, run_cli
from workers.sources import Corpus
from workers.sources.query import search_query
from workers.sources.ranking import named_words

PAGES = {
    "output.txt": (
        "Page output\n\nThe default page orientation is Portrait; this may be modified by "
        "changing the variable orientation. The orientation UpsideDown rotates the page. The "
        "orientation Seascape rotates it by -90 degrees, and each orientation is returned by "
        "the function currentorientation().\n"),
    "geometry.txt": (
        "Pairs\n\nreal cross(pair z, pair w) returns the scalar product of two pairs.\n\n"
        "The orient function, real orient(pair a, pair b, pair c), returns a positive value if "
        "the points a, b and c are listed counterclockwise, a negative value if clockwise, and "
        "zero if all three points lie on one line.\n"),
}
QUESTION = "What does the orient function return?"


def test_the_word_before_its_kind_is_written_as_code() -> None:
    query = search_query(QUESTION)
    assert query is not None
    assert [query.terms[i] for i in named_words(query)] == ["orient"]
    assert query.context == ("function",)


def test_the_search_ranks_the_function_above_the_word_it_inflects(tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search(QUESTION, k=4)
    assert hits[0].ref.startswith("geometry.txt"), [h.ref for h in hits]


def test_the_offline_model_gives_no_credit_for_an_inflected_look_alike() -> None:
    def sentence(text: str) -> Sentence:
        return Sentence(text, "x#0", 0, 0, stems(text), stems(text))

    code = code_stems(QUESTION)
    question = stems(QUESTION)
    page = sentence("The orientation UpsideDown is returned by the function currentorientation.")
    orient = sentence("The function real orient(pair a, pair b, pair c) returns a positive value.")
    assert score(page, question, frozenset(), code) < score(page, question, frozenset())
    assert score(orient, question, frozenset(), code) > score(page, question, frozenset(), code)


def test_the_report_answers_from_the_function_not_the_orientation(tmp_path: Path) -> None:
    folder = tmp_path / "manual"
    folder.mkdir()
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    proc = run_cli("research", QUESTION, "--as-of", AS_OF, "--corpus", folder, "--data-dir",
                   tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    answer = report.split("## Answer\n", 1)[1].split("\n## ", 1)[0]
    assert "real orient(pair a, pair b, pair c)" in answer, report
    assert "orientation" not in answer, report
