"""A closed compound finds its hyphenated and spaced spellings (trial 128, F8): "How can I set a
timeout for a slow transfer in libcurl?" never found curl's FAQ item "I want a different
time-out", FTS5 having split "time-out" into "time" and "out". The search, the corpus's word
counts, the near-miss warning and the "words not found" note read "time-out", "time out",
"file name" and "e-mail" as the closed word; a path's "lib/curl" is no spelling of "libcurl".
"""

from __future__ import annotations

from pathlib import Path

from app.research.relevance import corpus_stats, judge
from tests.app.report_rows import item, row
from workers.sources import Corpus

TIMEOUT = "Sometimes users want to abort an operation that takes too long: set a time-out."
FILE_NAME = "The file name is given after the -o option; a file name may hold a directory."
EMAIL = "Send an e-mail to the list before you send a patch."
PATHS = "Files: lib/curl_ntlm.c lib/curl_sasl.c\nCopyright: 2010, Somebody"


def _corpus(tmp_path: Path) -> Corpus:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "faq.md").write_text(f"# I want a different time-out\n\n{TIMEOUT}\n")
    (folder / "output.md").write_text(f"# Saving\n\n{FILE_NAME}\n")
    (folder / "mail.md").write_text(f"# Patches\n\n{EMAIL}\n")
    (folder / "copyright.txt").write_text(f"{PATHS}\n")
    (folder / "other.md").write_text("# Proxies\n\nA proxy forwards each request it gets.\n")
    return Corpus.open(tmp_path / "data", folder=folder)


def test_a_closed_word_finds_its_hyphenated_and_spaced_spellings(tmp_path: Path) -> None:
    with _corpus(tmp_path) as corpus:
        timeout = [p.ref for p in corpus.search("How do I change the timeout?", k=3)]
        filename = [p.ref for p in corpus.search("Where is the filename given?", k=3)]
        email = [p.ref for p in corpus.search("Where do I send an email?", k=3)]
        counts = corpus.term_frequencies(["timeout", "filename", "email", "libcurl"])
    assert timeout[:1] == ["faq.md#0"], timeout
    assert filename[:1] == ["output.md#0"], filename
    assert email[:1] == ["mail.md#0"], email
    assert counts == {"timeout": 1, "filename": 1, "email": 1, "libcurl": 0}


def test_a_path_is_no_spelling_of_a_closed_word(tmp_path: Path) -> None:
    with _corpus(tmp_path) as corpus:
        assert corpus.search("What is libcurl?", k=3) == []


def test_the_hyphenated_spelling_is_no_missing_word(tmp_path: Path) -> None:
    topic = "How can I set a timeout for an operation?"
    with _corpus(tmp_path) as corpus:
        stats = corpus_stats(corpus, topic)
    rows = [row("docs_search", topic, [item("passage", TIMEOUT, "faq.md#0", score=2.0,
                                            title="FAQ", heading="I want a different time-out")])]
    relevance = judge(topic, rows, stats)
    assert relevance.missing == () and relevance.warnings == [], relevance
    assert "timeout" not in relevance.note(topic)


def test_an_inflected_split_spelling_is_the_closed_words_mention() -> None:
    # joined_terms looks only for the terms' own splits (each of their forms), so a text's
    # every pair of words is not joined and looked up: the same mentions, either inflected
    from workers.sources.query import mentions, term_matches

    assert mentions(["timeouts"], "Set a time-out.") == {"timeouts"}
    assert mentions(["timeout"], "The time-outs are in seconds.") == {"timeout"}
    assert mentions(["timeout"], "The time, out of range.") == set()
    assert term_matches(["filename", "zebra"], "Give the file name here.") == ({0}, 0)
