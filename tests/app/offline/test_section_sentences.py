"""A sentence under a heading in the question's own words is about what it asks (trial 117,
F5): "What does the save command do in an Exim filter file?" quoted a system filter's "(via the
save or pipe commands)" and a filter test's "The result of running this command ...", and never
"12. The save command"'s "This command specifies that a copy of the message is to be appended
to the given file", which repeats fewer of the question's words."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import asked_stems
from workers.sources import Passage

SAVE = ("12. The save command\n\n```\n     save <file name>\ne.g. save $home/mail/bookfolder\n```"
        "\n\nThis command specifies that a copy of the message is to be appended to the given "
        "file (that is, the file is to be used as a mail folder). The delivery that save sets "
        "up is significant unless the command is preceded by “unseen” (see section 3.8).")
SYSTEM = ("1. Specifying a system filter\n\nThe name of the file that contains the system filter "
          "must be specified by setting system_filter.\n\nIf a system filter generates any "
          "deliveries directly to files or pipes (via the save or pipe commands), transports to "
          "handle these deliveries must be specified by setting system_filter_file_transport and "
          "system_filter_pipe_transport, respectively.")
TESTING = ("The result of running this command, provided no errors are detected in the filter "
           "file, is a list of the actions that Exim would try to take if presented with the "
           "message for real.")
QUESTION = "What does the save command do in an Exim filter file?"


def _passage(ref: str, text: str) -> Passage:
    doc = ref.split("#")[0]
    return Passage(ref, doc, doc, doc, text)


def test_the_section_headed_in_the_questions_words_is_quoted_first() -> None:
    ranked = [(0, _passage("filter_ch-exim_filter_files.html#29", SAVE)),
              (1, _passage("ch-systemwide_message_filtering.html#3", SYSTEM)),
              (2, _passage("filter_ch-forwarding_and_filtering_in_exim.html#9", TESTING))]
    chosen = select(candidate_sentences(ranked), asked_stems(QUESTION), frozenset(), (1, 3),
                    set())
    assert chosen[0].text.startswith("This command specifies that a copy of the message is to "
                                      "be appended"), [c.text for c in chosen]


def test_a_heading_of_one_word_of_the_question_is_not_enough() -> None:
    # "12. Commands" names a kind of thing, not the one asked
    sentences = candidate_sentences([(0, _passage("f.html#3", SAVE.replace(
        "12. The save command", "12. Commands")))])
    assert all(len(s.section) == 1 for s in sentences), [s.section for s in sentences]
