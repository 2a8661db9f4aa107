"""What opens the Answer when the question's kind asks for a thing its sentences name but not
the topic (trial 118, F2: "The only difference is ..." was only under Findings), and when a
sentence points back to one the Answer does not show (trial 117, F9; trial 118, F2)."""

from __future__ import annotations

from pathlib import Path

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, first_answer, item, row


def _answer(q: str, findings: list[dict], passages: list[dict] | None = None) -> str:
    """The ``## Answer`` of a report on ``q`` whose analyst found ``findings``."""
    rows = [*([row("docs_search", q, passages)] if passages else []),
            row("analyst", q, findings)]
    return answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))


def _first(answer: str) -> str:
    return answer.strip().splitlines()[0]


def test_a_sentence_whose_subject_is_the_difference_answers_a_difference_question() -> None:
    # Trial 118, R2: rsyslog's FAQ answer "The only difference is the higher default size of
    # the main queue." was only under Findings; a sentence naming the queue led
    q = "What is the difference between the main_queue and a queue with a ruleset tied to an input?"
    ref = "faq/difference_queues.html#0"
    answer = _answer(q, [
        item("finding", "A queue on a ruleset tied to an input replaces the main queue for "
                        "that input.", ref),
        item("finding", "The only difference is the higher default size of the main queue.",
             ref)])
    assert "The only difference is the higher default size" in _first(answer), answer


def test_a_sentence_whose_subject_is_the_solution_answers_a_how_to() -> None:
    # Trial 118, B10: the problem statement led, its solution ("The solution to this is to add
    # 2147483647 ...") was never shown
    q = "How do I fix a zone serial number set too far in the future?"
    ref = "chapter9.html#7"
    answer = _answer(q, [
        item("finding", "Zone serial numbers are often set by mistake to a date in the future "
                        "by setting them to the date.", ref),
        item("finding", "The solution to this is to add 2147483647 to the zone serial number, "
                        "reload the zone, then reset it to the desired number.", ref)])
    assert "The solution to this is" in _first(answer), answer


def test_a_sentence_whose_subject_is_a_pronoun_pointing_back_opens_no_answer() -> None:
    # Trial 117, J4: "As of Jinja 2.4 this can also be a callable ..." opened the Answer;
    # trial 118, R10: "If RSYSLOG_DEBUGLOG is not set, this means no messages will be displayed
    # at all."
    q = "Is autoescaping turned on by default in jinja?"
    ref = "api.html#12"
    pointing = ("As of Jinja 2.4 this can also be a callable that is passed the template name "
                "and has to return True or False depending on autoescape should be enabled by "
                "default.")
    answer = _answer(q, [
        item("finding", pointing, ref),
        item("finding", "autoescape: If set to True the XML/HTML autoescaping feature is "
                        "enabled by default.", ref)])
    assert "this can also be a callable" not in _first(answer), answer
    assert "autoescaping feature is enabled by default" in _first(answer), answer


def test_a_pointing_sentence_quoted_with_the_one_it_points_to_may_lead() -> None:
    # the quote starts with the sentence naming what "this" is: its subject is that one's
    q = "Is autoescaping turned on by default in jinja?"
    ref = "api.html#12"
    whole = ("autoescape: If set to True the XML/HTML autoescaping feature is enabled by "
             "default. As of Jinja 2.4 this can also be a callable.")
    answer = _answer(q, [item("finding", "Jinja has an autoescaping feature.", ref),
                         item("finding", whole, ref)])
    assert "autoescaping feature is enabled by default. As of" in _first(answer), answer


LOCKED = ("# Error: database is locked\n\nSYMPTOM: Every `quill sync` run stops at once with "
          "\"error: database is locked\".\n\nCAUSE: A earlier run was killed and left its lock "
          "file, `~/.quill/state.lock`, behind.\n\nSOLUTION: Delete the lock file, then run the "
          "sync again. It is safe to delete it when no other quill process is running.\n\n"
          "WORKAROUND: Run with `--no-lock` to skip the lock check for one run.\n")
SLOW = ("# Sync is slow\n\nSYMPTOM: A sync of a large folder takes hours.\n\nCAUSE: Checksums are "
        "computed for every file on every run.\n\nSOLUTION: Set `fast_compare = yes` so files "
        "whose size and time did not change are skipped.\n")


def test_a_problem_layouts_solution_answers_how_to_fix_it(tmp_path) -> None:
    # "How do I fix the database is locked error?" was answered by the SYMPTOM alone: its
    # capitals were read as an entry's label, and the SOLUTION named no word of the question
    # (trial 119, F12)
    from workers.sources.entries import entry_name

    assert entry_name("SYMPTOM: A sync of a large folder takes hours.") == ""
    assert entry_name("solution: Delete the lock file, then run the sync again.") == ""
    report, first = first_answer(tmp_path, {"locked-database.md": LOCKED, "slow-sync.md": SLOW},
                                 "How do I fix the database is locked error?")
    assert first.startswith("- SOLUTION: Delete the lock file"), report
    assert "fast_compare" not in answer_section(report), report


def test_a_pronoun_with_its_verb_contracted_points_back_too() -> None:
    # Trial 127, F1: python-pexpect-doc's FAQ "That’s done by a shell not the command you are
    # spawning." opened the Answer to "Why don't shell pipe and redirect work when I spawn a
    # command?"; the sentence saying what "That" is came after it
    q = "Why don't shell pipe and redirect work when I spawn a command?"
    ref = "html/FAQ.html#0"
    answer = _answer(q, [
        item("finding", "That’s done by a shell not the command you are spawning.", ref),
        item("finding", "Remember that Pexpect does NOT interpret shell meta characters such as "
                        "redirect, pipe, or wild cards.", ref)])
    assert "does NOT interpret shell meta characters" in _first(answer), answer
    assert "That’s done by a shell" not in _first(answer), answer


def test_a_definition_lists_lower_case_description_answers_what_its_term_does(
        tmp_path: Path) -> None:
    # trial 127, F3: "What does the requisite control flag do?" over Linux-PAM's guide opened
    # with the entry's second sentence; its definition was never a finding
    page = ("<html><head><title>Configuration file syntax</title></head><body>"
            "<h2>Configuration file syntax</h2><p>The control field indicates the behavior of "
            "the framework should the module fail to succeed in its task.</p><dl>"
            "<dt>required</dt><dd><p>failure of such a module will ultimately lead to the "
            "framework returning failure but only after the remaining modules have been "
            "invoked.</p></dd><dt>requisite</dt><dd><p>like required, however, in the case "
            "that such a module returns a failure, control is directly returned to the "
            "application. The return value is that associated with the first required or "
            "requisite module to fail.</p></dd></dl></body></html>")
    _report, first = first_answer(tmp_path, {"config.html": page},
                                  "What does the requisite control flag do?")
    assert "control is directly returned to the application" in first, first
