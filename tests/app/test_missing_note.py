"""The note on a topic's word no retrieved passage mentions tells a word the corpus lacks from one
the search ranked low (trial 49: "RAM" was in the passage after the cited one, and the note
asked whether it was "something the sources do not cover")."""
from __future__ import annotations

from pathlib import Path

from app.research.relevance import judge, missing_note
from app.research.term_stats import TermStats
from tests.app.report_rows import item, row

TOPIC = "Why does top still show lots of RAM after I removed big objects?"


def _rows() -> list[dict]:
    text = ("This question is often asked: I have removed big objects and top still shows the "
            "process using the memory.")
    return [row("docs_search", TOPIC, [item("passage", text, "faq#187", score=2.0)])]


def test_a_name_the_corpus_has_but_the_search_ranked_low_is_said_so() -> None:
    stats = TermStats(1000, {"top": 40, "still": 90, "show": 80, "lots": 10, "ram": 3,
                             "removed": 30, "big": 50, "objects": 200})
    relevance = judge(TOPIC, _rows(), stats)
    assert relevance.missing == ("ram",) and relevance.in_corpus == ("ram",)
    note = missing_note(relevance.missing, relevance.in_corpus)
    assert note.startswith('no passage retrieved mentions "ram", though the corpus has it')
    assert "do not cover" not in note


def test_a_word_the_corpus_lacks_keeps_its_question() -> None:
    assert "something the sources do not cover?" in missing_note(["pendng"])
    both = missing_note(["pendng", "ram"], ["ram"])
    assert both.startswith('no passage retrieved mentions "pendng" (a typo')
    assert 'nor "ram", though the corpus has it' in both



def test_an_irregular_past_is_found_as_its_base(tmp_path: Path) -> None:
    # "ran" was named as a word no passage holds over GNU m4's manual, which says "run"
    # (trial 101, F5): the corpus's counts and the judge count "run" for it
    from workers.sources import Corpus

    topic = "How can I find out if the shell command I ran failed?"
    text = "Expands to the exit status of the last shell command run with syscmd."
    (tmp_path / "m5").mkdir()
    (tmp_path / "m5" / "sysval.md").write_text(f"# Exit status\n\n{text}\n")
    with Corpus.open(tmp_path / "d", folder=tmp_path / "m5") as corpus:
        hits = corpus.search("the command I ran", k=1)
        counts = corpus.term_frequencies(["find", "shell", "command", "ran", "failed"])
    assert [h.ref for h in hits] == ["sysval.md#0"] and counts["ran"] == 1
    rows = [row("docs_search", topic, [item("passage", text, "sysval.md#0", score=2.0)])]
    assert "ran" not in judge(topic, rows, TermStats(1, counts)).missing


def test_a_name_of_two_words_the_corpus_writes_is_said_to_be_ranked_low(tmp_path: Path) -> None:
    # "no passage retrieved mentions "sql in" (a typo ...?)" was said of psycopg2's manual,
    # which writes "the SQL IN operator" in a passage the search ranked low (trial 102, F3)
    from app.research.relevance import corpus_stats
    from workers.sources import Corpus

    topic = "How do I pass a list of values to a SQL IN clause?"
    (tmp_path / "pg").mkdir()
    (tmp_path / "pg" / "usage.md").write_text(
        "# Tuples\n\nPython tuples are converted into a syntax suitable for the SQL IN operator.\n"
        "\n# Lists\n\nA list of values is passed to a SQL ARRAY, in a clause of its own.\n")
    with Corpus.open(tmp_path / "d", folder=tmp_path / "pg") as corpus:
        stats = corpus_stats(corpus, topic)
    assert stats is not None and stats.frequencies["sql in"] == 1
    lists = "A list of values is passed to a SQL ARRAY, in a clause of its own."
    rows = [row("docs_search", topic, [item("passage", lists, "usage.md#1", score=2.0)])]
    relevance = judge(topic, rows, stats)
    assert relevance.missing == ("sql in",) and relevance.in_corpus == ("sql in",)
    assert "though the corpus has it" in missing_note(relevance.missing, relevance.in_corpus)


def test_turn_x_into_y_is_how_people_ask() -> None:
    # trial 105, F9: "turn" was named as a possible typo over libtasn1's manual
    topic = "How do I turn my ASN.1 definitions file into a C array?"
    stats = TermStats(449, {"turn": 0, "asn": 120, "definitions": 40, "file": 200, "array": 30})
    rows = [row("docs_search", topic, [item(
        "passage", "asn1Parser turns the ASN.1 definitions file into a C array.", "p8#0")])]
    assert "turn" not in judge(topic, rows, stats).missing


def test_a_name_is_named_as_the_question_writes_it() -> None:
    # trial 125, F5 (N4): "How do I raise the maximum command line length (ARG_MAX) in bash?"
    # was noted 'No passage retrieved mentions "arg_max", though the corpus has it ...'
    from app.research.report import render_markdown
    from tests.app.report_rows import data

    topic = "How do I raise the maximum command line length (ARG_MAX) in bash?"
    rows = [row("docs_search", topic, [item("passage", "The maximum length of a command line "
                                                       "in bash is raised with care.", "a#0",
                                            score=2.0)])]
    stats = TermStats(1000, {"raise": 20, "maximum": 30, "command": 300, "line": 200,
                             "length": 40, "arg_max": 1, "bash": 800})
    relevance = judge(topic, rows, stats)
    assert relevance.missing == ("arg_max",), relevance
    md = render_markdown(data(rows, topic=topic, sub_questions=[topic], relevance=relevance))
    assert '> No passage retrieved mentions "ARG_MAX", though the corpus has it' in md, md
