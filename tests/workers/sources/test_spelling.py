"""A question spelled in British English finds a manual written in American English, and the
other way round (issue 19: a word the corpus spells otherwise was a word it "never used").

The failing input: "How do I choose a colour?" over a manual that says "color" found nothing,
and the relevance judge counted "colour" as a word no passage uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.sources import Corpus
from workers.sources.query import mentions, search_query, spelled_terms
from workers.sources.spelling import spellings

PAGES = {
    "color.md": "# Pens\n\nA pen sets the color of what is drawn. Use rgb(r, g, b) to make a "
                "color, and fill to paint the inside of a path.\n",
    "shapes.md": "# Shapes\n\nA filled shape is a closed path drawn with fill. A shape may be a "
                 "circle, a box or any cyclic path.\n",
    "labels.md": "# Labels\n\nA label is centered on its point unless an alignment is given.\n",
    "tuning.md": "# Tuning\n\nThe planner can optimize a query when the table is analyzed.\n",
}


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    folder = tmp_path_factory.mktemp("us-manual")
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return Corpus.open(tmp_path_factory.mktemp("us-manual-data"), folder=folder)


@pytest.mark.parametrize(("word", "others"), [
    ("colour", ("color",)), ("color", ("colour",)), ("behaviours", ("behaviors",)),
    ("optimise", ("optimize",)), ("organized", ("organised",)), ("analyse", ("analyze",)),
    ("centred", ("centered",)), ("centre", ("center",)), ("fibre", ("fiber",)),
    ("catalogue", ("catalog",)), ("grey", ("gray",)), ("licence", ("license",)),
])
def test_a_word_has_its_other_spelling(word: str, others: tuple[str, ...]) -> None:
    assert spellings(word) == others


@pytest.mark.parametrize("word", ["hour", "four", "your", "for", "tour", "size", "rise", "are",
                                  "more", "store", "analysis", "blog", "acre"])
def test_a_word_with_one_spelling_keeps_it(word: str) -> None:
    assert spellings(word) == ()


def test_a_search_and_the_word_matcher_take_both_spellings() -> None:
    assert search_query("How do I colour a centred label?").fts == (
        '"colour" OR "color" OR "centred" OR "centered" OR "label" OR "centredlabel"'
        ' OR namekey : "centredlabel"')  # two words side by side may name a symbol
    assert mentions(["colour", "centred"], "The color of a centered label") == {
        "colour", "centred"}
    assert spelled_terms(["query", "query"]) == ["query"]


def test_a_british_question_finds_the_american_page(manual: Corpus) -> None:
    assert [p.doc_id for p in manual.search("How do I choose a colour?", k=2)] == ["color.md"]
    assert manual.search("Where is a label centred?", k=1)[0].doc_id == "labels.md"
    assert manual.search("When does the planner optimise?", k=1)[0].doc_id == "tuning.md"


def test_the_corpus_knows_a_word_it_spells_otherwise(manual: Corpus) -> None:
    counts = manual.term_frequencies(["colour", "optimised", "centred", "zebra"])
    assert counts == {"colour": 1, "optimised": 1, "centred": 1, "zebra": 0}


def test_an_american_question_finds_a_british_page(tmp_path: Path) -> None:
    folder = tmp_path / "uk"
    folder.mkdir()
    (folder / "colour.md").write_text("# Colour\n\nThe colour of a pen is set by rgb.\n", "utf-8")
    (folder / "pens.md").write_text("# Pens\n\nA pen has a width and a line type.\n", "utf-8")
    corpus = Corpus.open(tmp_path / "data", folder=folder)
    assert [p.doc_id for p in corpus.search("Which color does a pen have?", k=2)][0] == "colour.md"
    assert [p.doc_id for p in corpus.search("How do I pick a color?", k=2)] == ["colour.md"]
