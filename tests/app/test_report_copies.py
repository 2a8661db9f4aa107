"""One manual in several copies (trial 45, fault 6): Debian's bash-doc holds the Bash manual as
HTML and PDF, the man page as HTML and PDF, and RBASH repeats a section. A report says each
sentence once, whatever copy it came from, and cites the copy of a document it cites already."""

from __future__ import annotations

import re

import pytest

from app.research.report import render_markdown
from app.research.synthesis import ReportSummary, _cited_sentences, numbered_claims
from app.research.text import wording
from tests.app.report_rows import answer_section, data, item, row, sources

Q = "What does the TMOUT variable do?"
TMOUT = ("The shell will check the value of the TMOUT variable and exit if a command is not read "
         "within the specified number of seconds after printing $PS1")


def _bullets(md: str) -> list[str]:
    """Every cited bullet above the Sources, its citation marks dropped."""
    body = md.split("\n## Sources\n", 1)[0]
    return [re.sub(r"( \[\d+\])+$", "", line) for line in body.splitlines()
            if line.startswith("- ") and re.search(r"\[\d+\]$", line)]


def _report(rows: list[dict], question: str = Q, scores: dict[str, float] | None = None) -> str:
    """The report on ``question`` alone, its search having found each item's passage, scored
    as ``scores`` gives (12.9 else): copies of one text are found about as strong, and the
    report cites each such page."""
    found: dict[str, str] = {}
    for r in rows:
        for f in r["structured"]["items"]:
            found[f["ref"]] = f"{found.get(f['ref'], '')} {f['text']}".strip()
    search = row("docs_search", question, [
        item("passage", text, ref, score=(scores or {}).get(ref, 12.9))
        for ref, text in found.items()])
    return render_markdown(data([*rows, search], topic=question, sub_questions=[question]))


def test_a_sentence_in_each_copy_of_a_manual_is_said_once() -> None:
    # W10: both Answer bullets were one sentence, "(see Bash Variables)" in the HTML and
    # "(see Section 5.2 [Bash Variables], page 78)" in the PDF; the PDF's man page says it with
    # broken spacing, a ligature and a hyphen at a line's end
    rows = [row("analyst", Q, [
        item("finding", f"{TMOUT} (see Bash Variables).", "bashref.html#517"),
        item("finding", f"{TMOUT} (see Section 5.2 [Bash Variables], page 78).",
             "bashref.pdf:p102#3"),
        item("finding", "The shell will check the value of the TMOUT vari- able and ex it if a "
             "command is not read within the speciﬁed number of seconds after printing $PS1.",
             "bash.pdf:p20#1"),
        item("finding", "The TMOUT variable also sets the default timeout of the read builtin.",
             "bashref.html#300"),
    ])]
    md = _report(rows, scores={"bashref.html#517": 8.4, "bashref.html#300": 8.0})
    said = [b for b in _bullets(md) if "TMOUT vari" in b and "PS1" in b]
    assert len(said) == 1, md
    assert "read builtin" in answer_section(md), md  # the Answer's other bullet: another one
    assert "bash.pdf:p20" not in [ref for _n, ref in sources(md)], md  # cites nothing new


def test_a_how_question_is_answered_by_two_sentences_not_one_twice() -> None:
    # an Answer to a question of another kind than "what" was its first two findings as they
    # came: both copies of one sentence when the PDF's came next
    q = "How do I make the shell exit when a command takes too long to type?"
    rows = [row("analyst", q, [
        item("finding", "To make the shell exit, set TMOUT to the number of seconds a command "
             "may take to type (see Bash Variables).", "bashref.html#517"),
        item("finding", "To make the shell exit, set TMOUT to the number of seconds a command "
             "may take to ty- pe (see Section 5.2 [Bash Variables], page 78).",
             "bashref.pdf:p102#3"),
        item("finding", "To make the shell exit at once, the command exit is typed.",
             "bash.html#30"),
    ])]
    answer = answer_section(_report(rows, q, {"bash.html#30": 8.0}))
    assert answer.count("set TMOUT") == 1 and "exit is typed" in answer, answer


def test_the_copy_kept_is_from_the_document_the_answer_cites() -> None:
    # W3, W9: a finding repeated an Answer's sentence from another copy, which a source
    # more cited; of a sentence that only sections show, the copy from the Answer's document
    # is cited, not a new source's
    q = "What is process substitution?"
    rows = [row("analyst", q, [
        item("finding", "Process substitution allows a process's input or output to be "
             "referred to using a filename.", "bash.html#175"),
        item("finding", "Process substitution is supported on systems that support named "
             "pipes (FIFOs).", "bash.html#175"),
        item("finding", "Process substitution allows a process’s input or output to be "
             "referred to using a filename.", "bashref.pdf:p40#5"),
        item("finding", "Process substitution runs the process list asynchronously, its "
             "input or output a file name.", "bashref.pdf:p40#5"),
        item("finding", "Process substitution runs the process list asynch- ronously, its "
             "input or output a ﬁle name.", "bash.html#176"),
    ])]
    md = _report(rows, q)
    bullets = _bullets(md)
    assert len(bullets) == 3, md
    assert [ref for _n, ref in sources(md)] == ["bash.html"], md


def test_a_caveat_in_two_copies_is_listed_once_from_the_document_cited_first() -> None:
    # W3: "... if they are to be matched literally." and the PDF's "... if the yare to be ..."
    q = "How does the globstar shell option change pattern matching?"
    rows = [row("analyst", q, [
        item("finding", "When the globstar shell option is enabled, two adjacent *s used as a "
             "single pattern match all files and zero or more directories.", "bashref.pdf:p42#3"),
        item("finding", "When the globstar shell option is enabled, pattern matching of ** "
             "descends into every subdirectory.", "bash.pdf:p28#1"),
    ]), row("critic", q, [
        item("caveat", "The special pattern characters must not be used unquoted if they are "
             "to be matched literally.", "bash.pdf:p28#1"),
        item("caveat", "The special pattern characters must not be used unquoted if the yare "
             "to be matched literally.", "bashref.pdf:p42#3"),
    ])]
    md = _report(rows, q)
    assert [ref for _n, ref in sources(md)] == ["bashref.pdf:p42", "bash.pdf:p28"], md
    caveats = md.split("\n## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert caveats.count("special pattern characters") == 1, caveats
    assert caveats.rstrip().endswith("[1]"), caveats  # the copy of the Answer's document


def test_a_top_passage_in_two_copies_is_listed_once() -> None:
    q = "What is disallowed in the restricted shell?"
    lead = ("A restricted shell behaves identically to bash with the exception that the "
            "following are disallowed or not performed.")
    rows = [row("analyst", q, [
        item("finding", "A restricted shell is used to set up an environment more controlled "
             "than the standard shell.", "bashref.html#559"),
    ]), row("docs_search", q, [
        item("passage", f"6.10 The Restricted Shell\n\n{lead}", "RBASH#0", score=3.0),
        item("passage", "6.10 The Restricted Shell\n\n" + lead.replace("identically",
                                                                   "identi- cally"),
             "bashref.html#560", score=2.9),
    ])]
    md = _report(rows, q)
    assert md.count("behaves identi") == 1, md
    assert [ref for _n, ref in sources(md)] == ["bashref.html"], md  # the cited copy


@pytest.mark.parametrize("one, other", [
    ("The exit status of the last command.", "The return status of the last command."),
    ("The limit is 1.5 seconds.", "The limit is 15 seconds."),
    ("It returns -1 on error.", "It returns 1 on error."),
    ("Ranges 1-2 are kept.", "Ranges 12 are kept."),
])
def test_other_words_are_another_sentence(one: str, other: str) -> None:
    assert wording(one) != wording(other)


def test_a_model_is_given_each_sentence_once() -> None:
    rows = [row("analyst", Q, [
        item("finding", f"{TMOUT} (see Bash Variables).", "bashref.html#517"),
        item("finding", f"{TMOUT} (see Section 5.2 [Bash Variables], page 78).",
             "bashref.pdf:p102#3"),
    ])]
    claims = numbered_claims(data(rows, topic=Q, sub_questions=[Q]))
    assert [c["ref"] for c in claims] == ["bashref.html#517"], claims


def test_a_models_sentence_said_twice_from_two_copies_is_one_sentence_citing_both() -> None:
    # a model given both copies wrote the sentence once per copy, as the offline Answer did
    claims = [{"n": "1", "ref": "bashref.html#517"}, {"n": "2", "ref": "bashref.pdf:p102#3"}]
    parsed = ReportSummary(sentences=[
        {"sentence": f"{TMOUT} (see Bash Variables).", "refs": ["1"]},
        {"sentence": f"{TMOUT} (see Section 5.2 [Bash Variables], page 78).", "refs": ["2"]}])
    sentences, dropped = _cited_sentences(parsed, claims)
    assert sentences == [(f"{TMOUT} (see Bash Variables).",
                          ["bashref.html#517", "bashref.pdf:p102#3"])] and dropped == 0


def test_sentences_that_differ_by_a_sign_a_flag_or_an_operator_are_two() -> None:
    # Trial 48, F5: wording() dropped flag dashes, signs, operators and exponent signs and folded
    # every compatibility character: bash(1)'s "--posix" and "posix" lines were one sentence
    from app.research.text import wording

    for one, other in [("Use set -e here.", "Use set +e here."), ("Enable --posix mode.",
                       "Enable posix mode."), ("Pass -L to it.", "Pass -l to it."),
                       ("It reads n - 1 lines.", "It reads n + 1 lines."),
                       ("True if a != b.", "True if a == b."), ("The step is 1e-3.",
                       "The step is 1e3."), ("It is x² wide.", "It is x2 wide."),
                       ("A ½ share.", "A 12 share.")]:
        assert wording(one) != wording(other), (one, other)
    assert wording("−−restricted The shell becomes restricted.") == wording(
        "--restricted: the shell becomes restricted.")
