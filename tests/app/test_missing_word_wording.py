"""A topic's word no passage of the corpus uses is named as what the run knows it to be: a word
the documents never use (perhaps said in other words), or a likely typo of a word they write.

Trial 126, F6: "... sees the proxy's IP address instead of the visitor's" over Werkzeug's manual
(which says "client") was answered right, under 'No passage retrieved mentions "visitor" (a typo,
a word of another language, or something the sources do not cover?)'; "huge request bodies"
the same. The corpus's counts match words by their stem, so the slip "visiter" of "visitor"
counted the passages of "visit": no typo of a word the documents write.
"""
from __future__ import annotations

from pathlib import Path

from app.research.missing_words import missing_note
from tests.cli_env import run_cli
from tests.conftest import write_corpus

PROXY = ("# Behind a proxy\n\nWhen the application runs behind a reverse proxy such as nginx, "
         "the remote address it sees is the proxy's IP address. Wrap the application with the "
         "ProxyFix middleware to read the client's IP address from the X-Forwarded-For "
         "header.\n")
TOUR = ("# Tour\n\nVisit the tutorial first: it shows a small application from start to end.\n"
        "\n# Uploads\n\nThe size of an uploaded file is limited by max_content_length; a "
        "larger body is refused.\n")


def _run(tmp_path: Path, topic: str) -> tuple[str, str]:
    """The terminal's ``warning:`` lines and the report's first quoted line for ``topic``."""
    folder = write_corpus(tmp_path / "docs", {"proxy.md": PROXY, "tour.md": TOUR})
    proc = run_cli("research", topic, "--as-of", "2026-11-30", "--corpus", folder,
                   "--data-dir", tmp_path / "data")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    warned = "\n".join(line.strip() for line in lines if line.strip().startswith("warning:"))
    path = next(line.split(": ", 1)[1] for line in lines if line.startswith("report written:"))
    banner = next((line for line in Path(path).read_text("utf-8").splitlines()
                   if line.startswith("> ")), "")
    return warned, banner


def test_a_word_the_documents_never_use_is_not_asked_as_a_typo(tmp_path: Path) -> None:
    warned, banner = _run(tmp_path, "How do I get a visitor's IP address behind an nginx proxy?")
    said = 'the corpus never uses "visitor" (its documents may say it in other words, or not'
    assert warned.startswith(f"warning: {said}"), warned
    assert banner.startswith('> The corpus never uses "visitor" (its documents'), banner
    assert "typo" not in warned and "typo" not in banner


def test_a_slip_from_a_word_the_documents_write_is_asked_as_its_typo(tmp_path: Path) -> None:
    warned, banner = _run(tmp_path, "How do I limit the size of an uploded file?")
    said = 'the corpus never uses "uploded" (a typo of "uploaded"?): the report answers'
    assert warned.startswith(f"warning: {said}"), warned
    assert banner.startswith('> The corpus never uses "uploded" (a typo of "uploaded"?)'), banner


def test_without_the_corpus_counts_the_question_stays_open() -> None:
    # the web or an MCP tool searched too: what the corpus lacks is not known
    note = missing_note(["zorblat"])
    assert note.startswith('no passage retrieved mentions "zorblat" (a typo, a word of another')
    both = missing_note(["jdbc", "tomcat"], ["tomcat"], absent=["jdbc"])
    assert both == ('the corpus never uses "jdbc" (its documents may say it in other words, or '
                    'not cover it); no passage retrieved mentions "tomcat", though the corpus '
                    "has it in passages the search ranked lower: the report answers the "
                    "topic's other words")


def test_a_failed_search_leaves_the_counts_the_verdict_depends_on() -> None:
    # the typo's search is for the note's wording only: the judge's counts and near stay
    from app.research.relevance import corpus_stats

    class Index:
        def passage_count(self) -> int:
            return 100

        def term_frequencies(self, terms: list[str]) -> dict[str, int]:
            return {t: {"relayhost": 7, "postfix": 60}.get(t, 0) for t in terms}

        def search(self, query: str, k: int = 5) -> list:
            raise RuntimeError("corpus is closed")

    stats = corpus_stats(Index(), "Postfix relayhsot")
    assert stats is not None and stats.near == {"relayhsot": "relayhost"}, stats
    assert stats.typos == {}
