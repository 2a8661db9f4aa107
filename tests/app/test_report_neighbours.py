"""A sentence of a neighbouring reference entry never answers for the entry asked (issue 19,
section 3; trial 26, finding 1: asked the default of MaxRequestWorkers, the Answer quoted
ServerLimit's "use this directive only if you need to set MaxRequestWorkers higher than 256
(default)"; asked what ``-x`` of cherry-pick does, it quoted ``-e, --edit: With this option
...``; asked about ``core.autocrlf``, ``core.eol``'s "this value is ignored if core.autocrlf is
set to true")."""

from __future__ import annotations

from app.research.neighbours import about_neighbour, sentence_entry, written_names
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, answer_to, data, item, row

SERVER_LIMIT = ("If both ServerLimit and MaxCrawlWorkers are set too high, the relay may not "
                "start.\n\nWith the prefork engine, use this directive only if you need to set "
                "MaxCrawlWorkers higher than 256 (default).")
NEIGHBOUR = ("With the prefork engine, use this directive only if you need to set "
             "MaxCrawlWorkers higher than 256 (default).")
OWN = "The default value of MaxCrawlWorkers is 256 crawls at once."


def test_a_later_passage_of_a_neighbours_entry_is_known_by_its_section_heading() -> None:
    # the passage is the entry's second: only the index's heading column names the entry
    q = "What is the default value of MaxCrawlWorkers?"
    findings = [item("finding", NEIGHBOUR, "mpm.html#49"),
                item("finding", OWN, "mpm.html#52")]
    passages = [item("passage", SERVER_LIMIT, "mpm.html#49", heading="ServerLimit Directive"),
                item("passage", f"MaxCrawlWorkers Directive\n\n{OWN}", "mpm.html#52",
                     heading="MaxCrawlWorkers Directive")]
    md = render_markdown(data([row("docs_search", q, passages), row("analyst", q, findings)],
                              topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert OWN in answer and "use this directive" not in answer, answer


def test_an_options_neighbour_led_by_its_own_label_is_not_the_answer() -> None:
    q = "What does the -x option of git cherry-pick do?"
    text = ("-e, --edit: With this option, git cherry-pick will let you edit the commit "
            "message prior to committing.\n\n-x: When recording the commit, git cherry-pick "
            "appends a line that says which commit it was cherry-picked from.")
    neighbour, own = text.split("\n\n")
    rows = [row("docs_search", q, [item("passage", text, "git-cherry-pick.html#3")]),
            row("analyst", q, [item("finding", neighbour, "git-cherry-pick.html#3"),
                               item("finding", own, "git-cherry-pick.html#3")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "appends a line" in answer and "--edit" not in answer, answer


def test_the_closest_passage_is_not_a_neighbours_sentence_naming_the_subject() -> None:
    # no finding names core.autocrlf; the passage line quoted core.eol's sentence about it
    q = "What is the default value of core.autocrlf?"
    eol = ("core.eol: Sets the line ending type to use in the working directory. Note that "
           "this value is ignored if core.autocrlf is set to true or input.")
    rows = [row("docs_search", q, [item("passage", eol, "git-config.html#77")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert answer.strip().startswith("- _No sentence retrieved is about"), answer


def test_a_sentence_of_the_entry_asked_or_in_plain_words_is_kept() -> None:
    q = "What does core.autocrlf do?"
    own = ("core.autocrlf: Setting this variable to true converts line endings. This value "
           "also applies to new files.")
    assert about_neighbour("This value also applies to new files.", own, written_names(q)) \
        is False
    # a question in plain words writes no identifier: left to the relevance rules
    assert written_names("How do I delete a branch on the remote server?") == set()
    assert sentence_entry(own, "not in the passage") == ""
    answer = answer_to(q, [item("finding", "This value also applies to new files of "
                                "core.autocrlf.", "git-config.html#76")])
    assert "also applies" in answer, answer


def test_a_flag_is_its_own_case_and_a_modules_entries_are_its_own() -> None:
    # Trial 27: "-X" was taken for "-x" (git clean's two options), and asked about mod_deflate
    # its directives' "this directive" sentences were dropped as neighbours'
    options = ("-x: Don't use the standard ignore rules.\n\n"
               "-X: With this option, remove only ignored files.")
    assert about_neighbour("-X: With this option, remove only ignored files.", options,
                           written_names("What does git clean -x do?"))
    assert not about_neighbour("-X: With this option, remove only ignored files.", options,
                               written_names("What does git clean -X do?"))
    entry = "DeflateBufferSize Directive\n\nThis directive sets the fragment size to compress."
    asked = written_names("How do I set up mod_deflate?")
    assert about_neighbour("This directive sets the fragment size to compress.", entry, asked)
    assert not about_neighbour("This directive sets the fragment size to compress.", entry,
                               asked, title="mod_deflate - Apache HTTP Server Version 2.4")


def test_an_entry_labelled_by_its_keyword_and_arguments_answers_for_itself_only() -> None:
    # trial 29, finding 2: HAProxy's keywords are plain words ("inter <delay>"): asked the
    # default of inter, the Answer and the Findings gave fall's "This value defaults to 3" and
    # rise's "defaults to 2", whose "See also" names inter; inter's own "If left unspecified,
    # the delay defaults to 2000 ms." never said inter, so it was no answer
    q = "What is the default value of the inter server parameter?"
    fall = ('fall <count>\n\nThe "fall" parameter states that a server is dead after <count> '
            'failed checks. This value defaults to 3 if unspecified. See also the "check", '
            '"inter" and "rise" parameters.')
    inter = ('inter <delay> / fastinter <delay>\n\nThe "inter" parameter sets the interval '
             'between two checks. If left unspecified, the delay defaults to 2000 ms.')
    passages = [item("passage", fall, "configuration.html#1326", heading="fall <count>"),
                item("passage", inter, "configuration.html#1336",
                     heading="inter <delay> / fastinter <delay>")]
    findings = [item("finding", "This value defaults to 3 if unspecified.",
                     "configuration.html#1326"),
                item("finding", 'See also the "check", "inter" and "rise" parameters.',
                     "configuration.html#1326"),
                item("finding", "If left unspecified, the delay defaults to 2000 ms.",
                     "configuration.html#1336",  # its section, as the agents now give it
                     heading="inter <delay> / fastinter <delay>")]
    md = render_markdown(data([row("docs_search", q, passages), row("analyst", q, findings)],
                              topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert "defaults to 2000 ms" in answer, answer
    body = md.split("## Caveats")[0]
    assert "defaults to 3" not in body and "See also" not in body, body
    # each cited passage names its entry: "configuration.html#1336" alone sent a reader
    # searching a 2.6 MB page (trial 29, finding 10); as code, "<delay>" is no HTML tag
    sources = md.split("## Sources", 1)[1]
    assert "`configuration.html#1336` (`inter <delay> / fastinter <delay>`)" in sources, sources
    # a question naming no entry keeps every entry's sentences (left to relevance)
    assert not about_neighbour("This value defaults to 3 if unspecified.", fall,
                               set(), "fall <count>")


GC = ("gc.auto: When there are approximately more than this many loose objects, git gc --auto "
      "will pack them. The default value is 6700.\n\n"
      "gc.writeCommitGraph: If true, gc rewrites the commit-graph file. When using git gc "
      "--auto the commit-graph will be updated if housekeeping is required. Default is true.")


def test_a_dotted_keys_default_is_its_own_entrys_not_one_naming_its_words() -> None:
    # Trial 30, Git's manual: asked the default of gc.auto, the Answer led with
    # gc.writeCommitGraph's whole entry ("... git gc --auto ... Default is true.") as its
    # Default row, then "When using git gc --auto the commit-graph will be updated"; gc.auto's
    # own "The default value is 6700." was a section finding below.
    q = "What is the default value of gc.auto?"
    findings = [item("finding", "When using git gc --auto the commit-graph will be updated if "
                     "housekeeping is required.", "git-gc.html#13"),
                item("finding", "The default value is 6700.", "git-gc.html#13")]
    md = render_markdown(data([row("docs_search", q, [item("passage", GC, "git-gc.html#13")]),
                               row("analyst", q, findings)], topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert answer.lstrip().startswith("- gc.auto: ") and "6700" in answer, answer
    assert "Default is true" not in md and "commit-graph will be updated" not in md, md


def test_a_dotted_key_is_not_named_by_a_longer_key_it_begins() -> None:
    # Trial 30: gc.reflogExpireUnreachable's "defaults to 30 days" led the Answer on
    # gc.reflogExpire, before the right 90 days (its term, 66 characters with its alias, is
    # longer than a label is read: only the key written whole tells them apart).
    q = "What is the default of gc.reflogExpire?"
    unreachable = ("gc.reflogExpireUnreachable, gc.<pattern>.reflogExpireUnreachable: git "
                   "reflog expire removes reflog entries older than this time and are not "
                   "reachable from the current tip; defaults to 30 days.")
    own = ("gc.reflogExpire, gc.<pattern>.reflogExpire: git reflog expire removes reflog "
           "entries older than this time; defaults to 90 days.")
    answer = answer_to(q, [item("finding", unreachable, "git-gc.html#20"),
                           item("finding", own, "git-gc.html#20")])
    assert "90 days" in answer and "30 days" not in answer, answer


def test_a_camel_cased_dotted_key_asked_is_named_by_its_entry() -> None:
    # Trial 33 (a rerun of trial 30's Git questions): "What is the default merge.conflictStyle?"
    # had been answered by the --conflict option's "Possible values are "merge" (default) ...";
    # once a dotted key had to be written whole, no sentence answered, and the entry's own row
    # was not taken: "merge.conflictStyle" splits into merge, conflict, style, not the subject's
    # merge, conflictstyle.
    q = "What is the default merge.conflictStyle?"
    entry = ('merge.conflictStyle: Specify the style in which conflicted hunks are written out. '
             'The default is "merge", which shows a conflict marker.')
    passage = item("passage", f"{entry}\n\nmerge.renames: Whether to detect renames.",
                   "git-merge.html#46")
    md = render_markdown(data([row("docs_search", q, [passage]),
                               row("analyst", q, [item("finding", "An alternative style can be "
                                                       "used by setting merge.conflictStyle.",
                                                       "git-merge.html#27")])],
                              topic=q, sub_questions=[q]))
    answer = answer_section(md)
    assert answer.lstrip().startswith("- merge.conflictStyle: ") and 'default is "merge"' in answer


def test_a_one_word_section_holding_the_one_asked_is_a_neighbour() -> None:
    # Trial 33, gnuplot's PDF manual: "What is the default value of set samples?" was answered
    # "By default, sampling is set to 10 isolines per u or v axis." (the Isosamples section's);
    # a PDF's entries are headed by plain words, which no entry label rule read.
    q = "What is the default value of set samples?"
    iso = "By default, sampling is set to 10 isolines per u or v axis."
    own = "By default, sampling is set to 100 points."
    md = render_markdown(data([
        row("docs_search", q, [
            item("passage", f"Isosamples\n\nThe isoline density may be changed. {iso}",
                 "gnuplot.pdf:p157#3", heading="Isosamples", score=9.0),
            item("passage", f"Samples\n\nThe default sampling rate may be changed. {own}",
                 "gnuplot.pdf:p195#6", heading="Samples", score=8.0)]),
        row("analyst", q, [item("finding", iso, "gnuplot.pdf:p157#3"),
                           item("finding", own, "gnuplot.pdf:p195#6")])],
        topic=q, sub_questions=[q]))
    assert own in answer_section(md) and "10 isolines" not in md, md


STASH = ("pop [--index] [-q|--quiet] [<stash>]: Remove a single stashed state from the stash "
         "list and apply it on top of the current working tree state.\n\n"
         "apply [--index] [-q|--quiet] [<stash>]: Like pop, but do not remove the state from "
         "the stash list. Unlike pop, <stash> may be any commit that looks like a commit "
         "created by stash push or stash create.")


def test_a_subcommand_asked_in_plain_words_keeps_its_neighbours_entries_out() -> None:
    # Trial 53 (Git's docs): asked what git stash pop does, the Answer quoted apply's entry
    # ("Like pop, but ...", "Unlike pop, <stash> may be any commit ..."): "pop" is no
    # identifier, so no entry was known to be asked; the paragraphs' labels name them
    q = "What does git stash pop do?"
    rows = [row("docs_search", q, [item("passage", STASH, "git-stash.html#8",
                                        heading="COMMANDS")]),
            row("analyst", q, [item("finding", "Unlike pop, <stash> may be any commit that "
                                    "looks like a commit created by stash push or stash "
                                    "create.", "git-stash.html#8"),
                               item("finding", STASH.split("\n\n")[0], "git-stash.html#8")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "Remove a single stashed state" in answer and "Unlike pop" not in answer, answer


def test_a_capitalised_word_labelling_prose_is_no_entry_asked() -> None:
    # Trial 56, F1: "Windows: Run the installer ..." made the question's "on Windows" name an
    # entry, and install_dir's "It defaults to C:\\Program Files\\syncd." was dropped as a
    # neighbour's; the Answer quoted the platform line
    q = "Which folder does syncd get installed in on Windows?"
    platforms = ("Linux: Install the syncd package with your package manager.\n\n"
                 "Windows: Run the installer from the download page.")
    settings = ("install_dir: This setting chooses the folder the installer puts syncd in on "
                "Windows. It defaults to C:\\Program Files\\syncd.")
    rows = [row("docs_search", q, [item("passage", platforms, "install.html#1",
                                        heading="Platforms"),
                                   item("passage", settings, "install.html#2",
                                        heading="Installer settings")]),
            row("analyst", q, [item("finding", "It defaults to C:\\Program Files\\syncd.",
                                    "install.html#2")])]
    answer = answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))
    assert "Program Files" in answer, answer


def test_every_sentence_of_an_option_entry_is_its_own() -> None:
    # Trial 69, F3: asked "What does the -itsoffset option do?", a Finding was -itsscale's
    # second sentence, "scale should be a floating point number." (FFmpeg's option entries:
    # "-itsscale scale (input,per-stream): Rescale input timestamps. ...")
    passage = ("-itsoffset offset (input): Set the input time offset.\n\nThe offset is added to "
               "the timestamps of the input files.\n\n-itsscale scale (input,per-stream): "
               "Rescale input timestamps. scale should be a floating point number.")
    asked = written_names("What does the -itsoffset option do?")
    assert about_neighbour("scale should be a floating point number.", passage, asked)
    assert not about_neighbour("The offset is added to the timestamps of the input files.",
                               passage, asked)
    assert not about_neighbour("Set the input time offset.", passage, asked)


def test_the_tail_of_the_entry_before_the_one_asked_is_a_neighbours() -> None:
    # Trial 69, F3: a passage opening mid-entry gave -itsoffset the end of -isync's entry, "A
    # sync reference may not itself be synced to any other input.", as a Finding
    passage = ("Acceptable values are those that refer to a valid input index. A sync reference "
               "may not itself be synced to any other input.\n\nDefault value is -1.\n\n"
               "-itsoffset offset (input): Set the input time offset.\n\nThe offset is added "
               "to the timestamps of the input files.")
    asked = written_names("What does the -itsoffset option do?")
    assert about_neighbour("A sync reference may not itself be synced to any other input.",
                           passage, asked)
    assert about_neighbour("Default value is -1.", passage, asked)
    assert not about_neighbour("The offset is added to the timestamps of the input files.",
                               passage, asked)
    # under a heading, or with no label after it, a sentence is the section's, as before
    headed = "## Main options\n\n" + passage
    assert not about_neighbour("Default value is -1.", headed, asked)
    assert not about_neighbour("Default value is -1.", "Default value is -1.", asked)
