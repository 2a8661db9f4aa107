"""A plain-text FAQ's numbered question heads its answer when it wraps onto lines indented to
its text, or runs past a title's twelve words (trial 126, F5: Vim's FAQ.gz, "5.4. How do I
write a file without the line feed (EOL) at the end of the" over "     file?", and "5.5. How do
I configure Vim to open a file at the last edited location?", fourteen words, headed nothing:
each answer was cut into the passage of the one before, under its "For more information,
read", which labelled the Answer's source)."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus
from workers.sources.textsections import text_sections

FAQ = """\
HERON FAQ

SECTION 2 - NESTS

    2.1. How do I count the nests of a heronry without disturbing the birds
         or their young at dawn?
    2.2. Where do herons build nests?

2.1. How do I count the nests of a heronry without disturbing the birds
     or their young at dawn?

Count them from a hide at least forty metres away, with field glasses, and
never walk under the trees while the young are in the nests.

For more information, read

    Heron Census Handbook, chapter 3

2.2. How can I tell which of the tall trees at the edge of the wood hold nests?

Herons build their nests high in the tallest trees near water, often several
nests to a tree, and return to them every spring.

For more information, read

    Heron Census Handbook, chapter 4
"""


def test_a_wrapped_or_long_numbered_question_heads_its_answer(tmp_path: Path) -> None:
    headings = [heading for heading, _text in text_sections(FAQ)]
    assert ("2.1. How do I count the nests of a heronry without disturbing the birds or their "
            "young at dawn?") in headings, headings
    assert ("2.2. How can I tell which of the tall trees at the edge of the wood hold nests?"
            in headings), headings
    write(tmp_path / "docs", "FAQ.txt", FAQ)
    with Corpus.open(tmp_path / "d", folder=tmp_path / "docs") as c:
        hit = next(h for h in c.search("How do I count heron nests without disturbing them?",
                                       k=3) if "forty metres" in h.text)
        assert hit.heading.startswith("2.1. How do I count the nests of a heronry"), hit.heading
        assert "Herons build their nests" not in hit.text, hit.text
