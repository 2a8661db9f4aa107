"""Names of two words or more that the passages never write together are named on the report's
first line (trial 53, A5: "GitHub Pages" over Git's manual; trial 55, A2: "Group Policy" beside
"PowerShell"), whatever number or joining the passages write them in (trial 56, F5)."""

from __future__ import annotations

from app.research.relevance import judge, name_terms
from app.research.term_stats import TermStats
from tests.app.report_rows import Q1, item, row


def test_a_name_of_two_words_the_passages_never_write_together_is_named() -> None:
    # Trial 53, A5: "GitHub Pages" over Git's manual, which mentions GitHub and pages apart,
    # was answered ("the mirror on GitHub ...") without a word of what it lacks
    git = [row("docs_search", Q1, [item(
        "passage", "Clone the repository from the mirror on GitHub. Publishing the changes "
        "to the pages of your remote repository requires a write privilege.", "user.html#3")])]
    words = TermStats(12071, {"github": 39, "pages": 400, "publish": 60, "website": 2,
                              "repository": 3000, "turn": 200})
    verdict = judge("How do I turn on GitHub Pages to publish a website from my repository?",
                    git, words)
    # and "website", in 2 passages of 12,071, none retrieved, is named with it (trial 57, F1)
    assert verdict.warnings == [] and verdict.missing == ("github pages", "website"), verdict
    # a name the passages do write, plural or hyphenated, is no news
    for text in ("Turn on the GitHub pages of a repository.", "Turn on GitHub-Pages here."):
        said = [row("docs_search", Q1, [item("passage", text, "u.html#1")])]
        verdict = judge("How do I turn on GitHub Pages?", said, words)
        assert verdict.warnings == [] and verdict.missing == (), verdict


def test_a_name_of_two_words_is_named_beside_a_word_the_corpus_lacks() -> None:
    # Trial 55, A2: "push Group Policy settings ... with PowerShell" named "powershell" only;
    # "Group Policy", which the handbook never writes, went unsaid
    handbook = [row("docs_search", Q1, [item(
        "passage", "Winbind lets users of a Windows server log in; the group and the policy "
        "settings of each user are kept.", "samba.html#3")])]
    words = TermStats(5000, {"push": 40, "group": 300, "policy": 80, "settings": 500,
                             "users": 900, "powershell": 0, "windows": 60, "server": 700})
    verdict = judge("How do I push Group Policy settings to users with PowerShell on Windows "
                    "Server?", handbook, words)
    assert verdict.missing == ("powershell", "group policy"), verdict


def test_a_name_in_capitals_written_in_lower_case_as_a_command_is_named() -> None:
    # Trial 82, F2: "How can I stop APT from ...?" over the Debian Reference: "the apt-mark(8)
    # command from the apt package" was judged to say nothing of "APT", and the report said
    # no passage retrieved mentions it; prose's "the rest of it" is still no REST
    debian = [row("docs_search", Q1, [item(
        "passage", "The flag can also be changed with the apt-mark(8) command; recommended "
        "packages are then not pulled in.", "ch02.en.html#40")])]
    words = TermStats(3500, {"apt": 900, "automatically": 60, "pulling": 5, "recommended": 40,
                             "extra": 30, "packages": 1200, "stop": 50})
    verdict = judge("How can I stop APT from automatically pulling in recommended extra "
                    "packages?", debian, words)
    assert verdict.warnings == [] and "apt" not in verdict.missing, verdict
    prose = [row("docs_search", Q1, [item(
        "passage", "The rest of the framework builds the serializer.", "api.html#3")])]
    verdict = judge("How do I build a REST serializer?", prose,
                    TermStats(900, {"rest": 4, "build": 30, "serializer": 12}))
    assert "rest" in verdict.missing or verdict.warnings, verdict


def test_a_topic_in_capitals_names_nothing_by_its_case() -> None:
    # Trial 83, F5: "SEND AND REDUCERS" was warned as saying nothing, each word a name matched
    # only in capitals, where "Send and reducers" was answered
    assert name_terms("SEND AND REDUCERS") == frozenset()
    rows = [row("docs_search", Q1, [item(
        "passage", "Send a packet to a node; reducers merge the writes of a superstep.",
        "types.md#2")])]
    words = TermStats(4000, {"send": 60, "reducers": 40})
    assert judge("SEND AND REDUCERS", rows, words).warnings == []
