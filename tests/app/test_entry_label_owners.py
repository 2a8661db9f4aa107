"""A sentence is shown under a name only in that name's own entry (trial 118, F7): rsyslog's
FAQ "What is the difference between the main_queue and a queue with a ruleset tied to an
input?" is a question, no entry, and its "A queue on a ruleset tied to an input replaces the
main queue ..." was shown as "`main_queue`: ..."; imfile's ``PollingInterval`` entry names
"polling" and is the interval's, and its "This setting specifies how often files are to be
polled for new data." was shown as "`polling`: ..." for "polling or inotify?"."""

from __future__ import annotations

from app.research.contrasts import compare_answer
from app.research.definitions import definition_line
from app.research.own import _place_name

FAQ = "What is the difference between the main_queue and a queue with a ruleset tied to an input?"


def test_a_faq_question_labels_no_sentence_under_a_name_it_writes() -> None:
    text = "A queue on a ruleset tied to an input replaces the main queue for that input."
    assert _place_name(FAQ, text, {"main_queue"}) == ""
    assert _place_name(f"{FAQ} ¶", "Use it when inputs differ.", {"main_queue"}) == ""


def test_an_entry_whose_longer_name_holds_a_part_is_not_that_parts() -> None:
    entries = {"This setting specifies how often files are to be polled for new data.":
               "PollingInterval",
               "This specifies if imfile shall run in inotify or polling mode.": "mode"}
    lines = [definition_line(line) for line in compare_answer(
        [{"text": t} for t in entries], [], ["polling", "inotify"],
        lambda f: entries[f["text"]])]
    assert not any(line.startswith("`polling`") for line in lines), lines


def test_a_parts_own_entry_still_labels_its_sentence() -> None:
    entries = {"Sets the length of the queue.": "backlog <n>",
               "Sets the most connections.": "maxconn <n>"}
    lines = [definition_line(line) for line in compare_answer(
        [{"text": t} for t in entries], [], ["backlog", "maxconn"],
        lambda f: entries[f["text"]])]
    assert lines == ["`backlog`: Sets the length of the queue.",
                     "`maxconn`: Sets the most connections."], lines
