"""The Answer to a question of a kind other than "what" leads with a sentence naming a name
the question writes that sets its candidates apart ("PDF"), not with one that fits the kind by
its shape alone (trial 125, F2)."""

from __future__ import annotations

from tests.app.report_rows import answer_to, item


def _first(q: str, texts: list[str]) -> str:
    answer = answer_to(q, [item("finding", t, f"m.html#{n}") for n, t in enumerate(texts)])
    return answer.strip().splitlines()[0]


def test_a_way_shown_with_code_for_another_format_goes_after_the_one_naming_it() -> None:
    # Sphinx: "For example, to build your documentation in EPUB format, run ... make epub" led
    # "How do I build a PDF of my documentation?"; only the -b entry's "latex:" names a PDF
    first = _first("How do I build a PDF of my documentation?", [
        "For example, to build your documentation in EPUB format, run this command from the "
        "docs directory:\n\n```\n$ make epub\n```",
        "latex: Build LaTeX sources that can be compiled to a PDF document using pdflatex.",
        "htmlhelp, epub: Build HTML files for building a documentation collection.",
        "man: Build manual pages of the documentation.",
    ])
    assert "PDF document" in first, first


def test_three_candidates_set_none_apart() -> None:
    # asymptote-doc asy-21: "two" and "pens" set "a two-dimensional array of pens" apart from
    # "Axial gradient shading varying smoothly from pena to penb ...", which then went second
    first = _first("How do I get axial gradient shading between two pens?", [
        "Axial gradient shading varying smoothly from pena to penb can be achieved with "
        "axialshade.",
        "Lattice gradient shading over a two-dimensional array of pens can be produced with "
        "latticeshade.",
        "An example of axial shading is provided in the file axialshade.asy.",
    ])
    assert first.startswith("- Axial gradient shading"), first


def test_words_every_candidate_names_set_none_apart() -> None:
    # no word sets the candidates apart: the order is the kind's, as before
    first = _first("How do I build the manual?", [
        "To build the manual, run make with the manual target.",
        "The manual build writes its pages under build/.",
    ])
    assert "run make" in first, first
