"""A reference entry's line is a sentence of its entry however its manual writes it: its value's
type first (Texinfo's "size: (string) The preferred size ..."), or an option's description in
lower case without a full stop (GNU's man pages as groff writes them in HTML)."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import stems
from workers.sources import Passage


def _passage(ref: str, text: str) -> Passage:
    doc = ref.split("#")[0]
    return Passage(ref, doc, doc, doc, text)


def test_an_entrys_line_that_gives_its_type_first_is_quoted_with_the_sentence_after() -> None:
    # Trial 97, R4: Aspell's "size: (string) The preferred size of the word list. This consists
    # of ..." read as a field listing (its description opens with its type), and "This consists
    # of a two char digit code ..." was quoted alone, the Answer to "What is the size option?"
    text = ("size: (string) The preferred size of the word list. This consists of a two char "
            "digit code describing the size of the list, with typical values of: 10=tiny, "
            "50=med, 90=insane.\n\nvariety: (list) Any extra information to distinguish two "
            "word lists.")
    found = [s.text for s in candidate_sentences([(0, _passage("The-Options.html#2", text))])]
    assert found[0].startswith("size: (string) The preferred size of the word list. This "
                               "consists of"), found
    assert not any(f.startswith("This consists") for f in found), found


def test_an_options_entry_line_in_lower_case_without_a_full_stop_is_a_sentence() -> None:
    # Trial 98, F1: GNU's man pages (gettext's, as groff writes them in HTML) describe an option
    # in lower case and end no line with a full stop ("--previous: keep previous msgids of
    # translated messages"): no such entry was ever a finding, and "What does the --previous
    # option of msgmerge do?" was answered from a Makefile's comment
    text = ("The backup suffix is ~, unless set with --suffix.\n\nOperation modifiers:\n-m, "
            "--multi-domain: apply ref.pot to each of the domains in def.po\n\n--previous: keep "
            "previous msgids of translated messages\n\n"
            "Input file syntax:\n-P, --properties-input: input files are in Java .properties "
            "syntax")
    found = [s.text for s in candidate_sentences([(0, _passage("msgmerge.1.html#5", text))])]
    assert "--previous: keep previous msgids of translated messages" in found, found
    # a lower-case line under a label that is no option is still no sentence
    plain = "Notes:\n\nclear: the rest of it goes here in lower case"
    assert not candidate_sentences([(0, _passage("notes.html#0", plain))]), plain


def test_a_short_sentence_of_an_entry_stating_its_value_is_quoted() -> None:
    # Trial 115, F1: the PS1 entry's "The default is ‘%m%# ’." was too short for a finding and
    # its quoted prompt string read as code; "What is the default value of PS1?" was answered
    # by PS2's and PS4's defaults, READNULLCMD's "Defaults to more." was never quoted either
    text = ("PS1 <S>: The primary prompt string, printed before a command is read. The default "
            "is ‘%m%# ’.\n\nPS2 <S>: The secondary prompt, printed when the shell needs more "
            "information. The default is ‘%_> ’, which displays any shell constructs.\n\n"
            "READNULLCMD <S>: The command name to assume if a single input redirection is "
            "specified with no command. Defaults to more.")
    sentences = candidate_sentences([(0, _passage("Parameters.html#81", text))])
    found = [s.text for s in sentences]
    assert "The default is ‘%m%# ’." in found, found
    # a default with no subject of its own is quoted with its entry's sentence (trial 124)
    assert ("READNULLCMD <S>: The command name to assume if a single input redirection is "
            "specified with no command. Defaults to more.") in found, found
    [best] = select(sentences, stems("What is the default value of PS1?"), frozenset(), (1, 1),
                    set())
    assert best.text == "The default is ‘%m%# ’.", best.text
    # out of an entry, a sentence that short is still a fragment; a quoted value alone is code
    plain = "Read the prompt section first.\n\nDefaults to more.\n\n‘%m%# ’."
    assert [s.text for s in candidate_sentences([(0, _passage("notes.html#0", plain))])] == [
        "Read the prompt section first."]
