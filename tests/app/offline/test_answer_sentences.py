"""Which sentences the offline model answers with (issue 19, section 3): a sentence that says
what was asked, in any inflection, and never a heading's fragment."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences, split_sentences
from app.llm.offline.words import stems
from workers.sources import Passage


def _passage(ref: str, text: str) -> Passage:
    doc = ref.split("#")[0]
    return Passage(ref, doc, doc, doc, text)


def test_an_inflection_of_the_questions_word_counts_as_saying_it() -> None:
    # "How do I resume a graph after a crash?" opened with the ToolNode sentence, which says
    # "resume", over the callback's, which says "resumes": the two had different stems.
    ranked = [
        (0, _passage("on_resume#0", "Run when graph execution resumes from a persisted "
                                    "checkpoint.")),
        (1, _passage("is_invalid_resume#0", "`ToolNode` uses this to tell it apart from invalid "
                     "tool arguments when a tool calls `interrupt()` or runs a graph that does, "
                     "so the resume fails and the interrupt can be answered again.")),
    ]
    question = stems("How do I resume a graph after a crash?")
    [best] = select(candidate_sentences(ranked), question, frozenset(), (1, 1), set())
    assert best.ref == "on_resume#0", best.text


def test_a_section_heading_gives_no_sentence() -> None:
    # SQLite's query planner page: the heading's "a.k.a." cut it into a "sentence".
    text = ("3.3. Partial Sorting Using An Index (a.k.a. Block Sorting)\n\n"
            "Sometimes only part of an ORDER BY clause can be satisfied using indexes. "
            "When this occurs, SQLite does many small sorts, one sort for each distinct value.")
    found = [s.text for s in candidate_sentences([(0, _passage("queryplanner.html#45", text))])]
    assert found == ["Sometimes only part of an ORDER BY clause can be satisfied using indexes.",
                     "When this occurs, SQLite does many small sorts, one sort for each distinct "
                     "value."]


def test_an_index_entry_naming_a_page_is_no_sentence() -> None:
    # SQLite's keyword index: when no passage had a whole sentence, its entries were findings.
    text = ("URI query parameters - uri.html#coreqp\n\n"
            "using SQLite for websites - whentouse.html#website\n\n"
            "Opening a database by URI filename lets query parameters set its options")
    found = [s.text for s in candidate_sentences([(0, _passage("keyword_index.html#3", text))])]
    assert found == ["Opening a database by URI filename lets query parameters set its options"]


def test_a_sentence_is_not_cut_after_an_abbreviation():
    # Found by a new-user trial: a report quoted "If False, use binary units (e.g. [2]".
    text = ("If False, use binary units (e.g. [2] or [1]) for sizes. Pass a saver, i.e. "
            "SqliteSaver, to resume. He said no. Then it ran.")
    assert split_sentences(text) == [
        "If False, use binary units (e.g. [2] or [1]) for sizes.",
        "Pass a saver, i.e. SqliteSaver, to resume.", "He said no.", "Then it ran."]


def test_a_quoted_word_ending_in_a_mark_does_not_end_the_sentence():
    # Trial 53 (Git's docs): the sentence was cut after "fixup!", and the Answer quoted
    # 'commits change authorship of <commit> ...', the opposite of what the page says.
    for q, p in (('"', '"'), ("'", "'"), ("\u201c", "\u201d"), ("`", "`")):
        text = (f"Neither {q}fixup!{p} nor {q}amend!{p} commits change authorship of <commit> "
                f"when applied by git rebase --autosquash. A {q}squash.{p} line is kept.")
        assert split_sentences(text) == [
            f"Neither {q}fixup!{p} nor {q}amend!{p} commits change authorship of <commit> when "
            "applied by git rebase --autosquash.", f"A {q}squash.{p} line is kept."], q
    # an option's name opening a sentence still ends the one before it
    assert split_sentences("Choose save. transparent makes the background clear.") == [
        "Choose save.", "transparent makes the background clear."]
    # trial 56, F2: a quoted question inside a sentence does not end it
    for q, p in (('"', '"'), ("\u201c", "\u201d")):
        text = f"It asks {q}overwrite existing files?{p} only when the target exists."
        assert split_sentences(text) == [text], q


def test_an_options_name_after_a_full_stop_starts_a_sentence() -> None:
    # Trial 53 (Git's docs): "... defaults to 90 days. --expire=all prunes entries ..." was
    # one sentence, and the Caveats quoted the default with the option's "never"
    text = ("If this option is not specified, the expiration time defaults to 90 days. "
            "--expire=all prunes entries regardless of their age; -n does nothing.")
    assert split_sentences(text) == [
        "If this option is not specified, the expiration time defaults to 90 days.",
        "--expire=all prunes entries regardless of their age; -n does nothing."]
    assert split_sentences("Pass a flag, e.g. -x or -y. Then stop.") == [
        "Pass a flag, e.g. -x or -y.", "Then stop."]


def test_a_passage_opening_with_an_entry_asked_quotes_its_definition_first() -> None:
    # Trial 53 (Git's docs): a passage opening with "pop [--index] ...: Remove ..." was taken
    # for the tail of the passage before's sentence (it opens with a lower-case word): it was
    # never quoted, and "Like pop, but ..." of the apply entry answered instead. A one-word
    # entry ("clear: Remove all the stash entries.") stays a field listing: a docstring's
    # arguments are written alike, and quoted they answered for each other (trial 56, F3)
    from app.llm.offline.relevance import score

    text = ("pop [--index] [-q|--quiet] [<stash>]: Remove a single stashed state from the "
            "stash list and apply it on top of the current working tree state, i.e., do the "
            "inverse operation of git stash push.\n\nclear: Remove all the stash entries.\n\n"
            "apply [--index] [-q|--quiet] [<stash>]: Like pop, but do not remove the state.")
    passage = Passage(ref="git-stash.html#8", doc_id="git-stash.html", title="git-stash(1)",
                      source="git-stash.html", text=text)
    found = candidate_sentences([(0, passage)])
    assert [s.text[:5] for s in found] == ["pop [", "apply"]
    assert [set(s.entry) for s in found] == [{"pop"}, {"app"}]
    question = frozenset(stems("What does git stash pop do?"))
    best = max(found, key=lambda s: score(s, question, frozenset()))
    assert best.text.startswith("pop [--index]"), best.text
    # a docstring's argument listing is still no finding
    assert split_sentences("thread_id: the thread to resume.") == [
        "thread_id: the thread to resume."]
    for line in ("thread_id: the id.", "input_schema: The schema of the graph's input."):
        doc = Passage(ref="x#1", doc_id="x", title="x.f", source="x", text=line)
        assert candidate_sentences([(0, doc)]) == [], line  # trial 56, F3


def test_a_docstrings_summary_line_is_about_its_symbol() -> None:
    # "retry policy of a graph node": RetryPolicy's docstring opens "Configuration for retrying
    # nodes." (4 words, under the 5 a sentence needs, and without "policy"), so the offline
    # model quoted add_retry_policies's "Adds retry policies to the node." and never RetryPolicy
    # (trial 8, finding 2). A summary line is about the symbol it documents.
    ranked = [
        (0, Passage("langgraph.types.RetryPolicy#0", "langgraph.types.RetryPolicy",
                    "langgraph.types.RetryPolicy", "docstring",
                    "Configuration for retrying nodes.\n\nAdded in version 0.2.24.")),
        (1, Passage("x.NodeBuilder.add_retry_policies#0", "x.NodeBuilder.add_retry_policies",
                    "x.NodeBuilder.add_retry_policies", "docstring",
                    "Adds retry policies to the node.")),
    ]
    found = candidate_sentences(ranked)
    assert [s.text for s in found][:1] == ["Configuration for retrying nodes."]
    [best] = select(found, stems("What is retry policy?"), frozenset(), (1, 1), set())
    assert best.ref == "langgraph.types.RetryPolicy#0", best.text
    # a page's or file's short first line is still no sentence: only a symbol has a summary
    page = [(0, _passage("guide.md#0", "Configuration for retrying nodes.\n\nMore text here."))]
    assert [s.text for s in candidate_sentences(page)] == []


def test_a_summary_line_is_about_its_symbol_named_as_one_word() -> None:
    # "What is BaseCheckpointSaver?": the question's one word stems to "basech", the name's
    # words to "base", "checkp", "saver", so nothing matched and the top passage's list items
    # about thread ids were quoted over "Base class for creating a graph checkpointer."
    # (trial 10, finding 11).
    title = "langgraph.checkpoint.base.BaseCheckpointSaver"
    ranked = [
        (0, Passage(f"{title}#1", title, title, "docstring",
                    "- **Single-shot workflows**: Use a unique ID (e.g., uuid4) for each run "
                    "when executions are independent.")),
        (1, Passage(f"{title}#0", title, title, "docstring",
                    "Base class for creating a graph checkpointer.\n\nMore about it here.")),
    ]
    [best] = select(candidate_sentences(ranked), stems("What is BaseCheckpointSaver?"),
                    frozenset(), (1, 1), set())
    assert best.text == "Base class for creating a graph checkpointer."


def test_a_question_or_a_sentence_that_points_back_is_no_finding() -> None:
    # trial 15, finding 2: asked how to delete untracked files, a git FAQ's "Git doesn't provide
    # a way to do this." (an answer to the FAQ question before it) opened the report, followed
    # by the FAQ's next heading, "How do I ignore changes to a tracked file?"
    text = ("Git doesn't provide a way to do this. The reason is that if Git needs to overwrite "
            "this file, such as during a checkout, it doesn't know whether the changes to the "
            "file are precious.\n\nHow do I ignore changes to a tracked file in the index?")
    found = [s.text for s in candidate_sentences([(0, _passage("gitfaq.html#17", text))])]
    assert found == ["The reason is that if Git needs to overwrite this file, such as during a "
                     "checkout, it doesn't know whether the changes to the file are precious."]
    # a statement that ends on a question it quotes still states (an MCP tool's answer)
    quoting = "The field notes say that a zorblax relay forwards signals for: What is it?"
    found = [s.text for s in candidate_sentences([(0, _passage("mcp:notes#0", quoting))])]
    assert found == [quoting]


def test_a_sentence_introducing_a_list_is_quoted_with_its_list() -> None:
    # Trial 45, W7: "What is disallowed in the restricted shell?" was answered by what a
    # restricted shell is: the lead-in ending in a colon was no finding, its items none either
    lead = ("A restricted shell behaves identically to bash with the exception that the "
            "following are disallowed or not performed:")
    html = (f"6.10 The Restricted Shell\n\nA restricted shell is used to set up an environment "
            f"more controlled than the standard shell. {lead}\n\nChanging directories with the "
            "cd builtin.\n\nSpecifying command names containing slashes.\n\nUsing the exec "
            "builtin to replace the shell with another command.")
    pdf = lead + ("\n• Changing directories with the cd builtin.\n• Specifying command names "
                  "containing slashes.")  # a PDF's list: one item a line
    question = stems("What is disallowed in the restricted shell?")
    for text in (html, pdf):
        found = candidate_sentences([(0, _passage("bashref#559", text))])
        [best] = select(found, question, frozenset(), (1, 1), set())
        assert best.text.startswith(lead) and "Specifying command names" in best.text, found
        assert best.text in text  # still a verbatim quote


def test_a_list_quote_leads_the_answer_by_its_lead_in_words_not_its_items() -> None:
    # Its items name what a question asks about in passing: "How do I get the number of seconds
    # since 1970 for a date stored as text?" was answered by SQLite's list of the ways a date
    # can be stored ("As an INTEGER number of seconds since 1970 ...") over unixepoch()
    from app.research.report import render_markdown
    from tests.app.report_rows import answer_section, data, item, row

    q = "How do I get the number of seconds since 1970 for a date stored as text?"
    ways = item("finding", "Instead, dates and times can be stored in any of these ways:\n\nAs "
                "a TEXT string in the ISO-8601 format.\n\nAs an INTEGER number of seconds "
                "since 1970 (also known as \"unix time\").", "quirks.html#12")
    epoch = item("finding", "The unixepoch() function returns a unix timestamp - the number "
                 "of seconds since 1970-01-01 00:00:00 UTC.", "lang_datefunc.html#3")
    md = render_markdown(data([row("analyst", q, [ways, epoch])], topic=q, sub_questions=[q]))
    assert answer_section(md).startswith("\n- The unixepoch() function returns"), md


def test_a_markdown_or_info_list_is_quoted_with_its_lead_in() -> None:
    # Trial 48, F8: only paragraph items (an HTML list as indexed) and a PDF's bullets were
    # quoted; Markdown's "- " items and Info's "   * " items, wrapped, were never shown
    lead = "A restricted shell refuses the following:"
    question = stems("What does a restricted shell refuse?")
    for text in (f"{lead}\n- Changing directories with `cd`.\n- Setting the values of PATH.",
                 f"{lead}\n\n- Changing directories with `cd`.\n\n- Setting the values of PATH.",
                 f"{lead}\n   * Changing directories with the 'cd'\n     builtin.\n"
                 "   * Setting or unsetting the values of 'SHELL', 'PATH'."):
        found = candidate_sentences([(0, _passage("rbash#0", text))])
        [best] = select(found, question, frozenset(), (1, 1), set())
        assert best.text.startswith(lead) and "values of" in best.text, (text, found)


def test_a_list_whose_items_end_in_semicolons_is_quoted_to_its_last_item() -> None:
    # Trial 55 (Debian's handbook): "The /etc/shadow file contains the following fields:" was
    # quoted alone: its items ("login;") were taken for code by their semicolons; and the list
    # ends at the item that ends as a sentence, not at the next short paragraph
    text = ("The /etc/shadow file contains the following fields:\n\nlogin;\n\nencrypted "
            "password;\n\nseveral fields managing password expiration.\n\nOne can expire "
            "passwords using this file.\n\nSECURITY /etc/shadow file security")
    passage = Passage(ref="users.html#5", doc_id="users.html", title="Users", source="users.html",
                      text=text)
    found = candidate_sentences([(0, passage)])
    assert found[0].text == ("The /etc/shadow file contains the following fields:\n\nlogin;\n\n"
                             "encrypted password;\n\nseveral fields managing password "
                             "expiration."), found[0].text


def test_a_capitalised_word_labelling_prose_gives_its_sentence_no_entry() -> None:
    # Trial 56, F1, its sibling in the offline model: the report no longer took "Windows:" for
    # an entry asked, but the model still counted "Windows: Run the installer ..." twice for a
    # question saying "on Windows"; one rule (entries.entry_name) now serves all three
    text = ("Windows: Run the installer from the download page. It asks for the folder to "
            "install syncd in.\n\ninstall_dir: This setting chooses the folder the installer "
            "puts syncd in. It defaults to the program folder.")
    passage = Passage(ref="install.html#1", doc_id="install.html", title="Installing syncd",
                      source="install.html", text=text)
    entries = {s.text[:12]: set(s.entry) for s in candidate_sentences([(0, passage)])}
    # "Windows:" labels no entry: "It asks for ..." has none, and, its subject in a line no
    # finding quotes (a field listing), it is no finding alone (trial 74, F8); install_dir's
    # line is a sentence of its entry (trial 90, F2), quoted with "It defaults ..."
    assert "It asks for " not in entries, entries
    assert entries["install_dir:"] == {"instal", "dir"}, entries  # the entry keeps its name


def test_an_aside_of_two_sentences_is_one_quote_with_both_its_brackets() -> None:
    # Trial 57, F2: Apache's ProxyErrorOverride aside was two Answer lines, the second first,
    # "Turning this on shows the SSI Error message.)" and "(Default behavior would ...".
    text = ("This directive is useful for reverse-proxy setups. (Default behavior would display "
            "the error page of the proxied server. Turning this on shows the SSI Error message.) "
            "It has no effect otherwise.")
    assert split_sentences(text) == [
        "This directive is useful for reverse-proxy setups.",
        "(Default behavior would display the error page of the proxied server. Turning this on "
        "shows the SSI Error message.)",
        "It has no effect otherwise."]


def test_what_only_looks_like_an_aside_or_an_item_cuts_as_before() -> None:
    # Trial 59, F4 and F5: a half-open range, a "(" before a blank and a smiley were taken for
    # asides, merging sentences; a hard-wrapped line's number was an item, cutting one.
    assert split_sentences("The alpha is in (0, 1]. The beta is in [0, 1). The gamma is free.") \
        == ["The alpha is in (0, 1].", "The beta is in [0, 1).", "The gamma is free."]
    assert len(split_sentences("Press ( to go back one step. Press ) to go on.")) == 2
    assert split_sentences("It failed :( Restart it. Then wait :) Done.") == [
        "It failed :( Restart it.", "Then wait :) Done."]
    assert split_sentences("The timeout defaults to\n30. After that the call fails.")[0] \
        == "The timeout defaults to\n30."


def test_a_sentence_whose_subject_is_the_one_before_is_quoted_with_it() -> None:
    # Click's manual: "This should be properly capitalized and can contain whitespace." was a
    # finding of get_app_dir's that said nothing of what "This" is (trial 74, F8)
    text = ("The relay writes its spool under the folder named by spool_dir. This should be an "
            "absolute path and can contain whitespace.\n\nHowever, a relative spool_dir is read "
            "from the working folder.")
    texts = [s.text for s in candidate_sentences([(0, _passage("relay#0", text))])]
    assert texts[0] == ("The relay writes its spool under the folder named by spool_dir. This "
                        "should be an absolute path and can contain whitespace.")
    assert not any(t.startswith("This should") for t in texts)
    # a connective's sentence says its own subject; one across a paragraph break stays alone
    assert texts[-1].startswith("However, a relative spool_dir"), texts


def test_three_sentences_going_on_from_the_one_before_are_never_two_overlapping_quotes() -> None:
    # HAProxy's http-check disable-on-404: "When this option is set, ... This provides a very
    # convenient method ... It is also important ..." was quoted as the first two and as the
    # last two, and the middle sentence was in two Findings bullets (trial 79, F5)
    first = ("When this option is set, a relay which returns an error code will be excluded "
             "from further balancing, but will still receive the sessions it already had.")
    second = ("This provides a very convenient method for administrators to perform a graceful "
              "shutdown of their relays.")
    third = ("It is also important to note that a relay which is detected as failed while it "
             "was in this mode will not raise an alert, just a notice.")
    text = f"{first} {second} {third}"
    texts = [s.text for s in candidate_sentences([(0, _passage("relay#0", text))])]
    assert sum(second in t for t in texts) == 1, texts
    assert texts[0] == f"{first} {second}", texts


def test_a_sentence_resting_on_what_was_stated_above_counts_less() -> None:
    # Trial 85, F8: Jinja's "As stated above, any file can be loaded as a template, regardless
    # of file extension." opened the Answer to "How do I load my template files from a folder
    # on disk?" over the loader's own sentence, and no report showed what was stated above
    ranked = [(0, _passage("api.html#40", "As stated above, any template file can be loaded "
                                          "from a folder, regardless of file extension.")),
              (1, _passage("api.html#41", "A loader loads template files from a folder on "
                                          "the file system."))]
    question = stems("How do I load my template files from a folder?")
    sentences = candidate_sentences(ranked)
    assert [s.leans for s in sentences] == [True, False]
    [best] = select(sentences, question, frozenset(), (1, 1), set())
    assert best.ref == "api.html#41", best.text


def test_a_question_that_heads_its_section_is_no_finding() -> None:
    # trial 89, F7: Scrapy's FAQ heading "Simplest way to dump all my scraped items into a
    # JSON/CSV/XML file?" opens with no interrogative, and was a finding of its own
    heading = "Simplest way to dump all my zorblax relay signals into a JSON file?"
    text = (f"{heading}\n\nTo dump the zorblax relay signals into a JSON file, run the relay "
            "with its dump switch set.")
    passage = Passage("faq.html#23", "faq.html", "FAQ", "faq.html", text, heading=heading)
    found = [s.text for s in candidate_sentences([(0, passage)])]
    # as the search tool hands it to the model: no heading of its own (trial 93)
    assert [s.text for s in candidate_sentences([(0, _passage("faq.html#23", text))])] == found
    assert found == ["To dump the zorblax relay signals into a JSON file, run the relay with its "
                     "dump switch set."], found


def test_a_sentence_opening_with_a_conjunction_and_this_goes_on_from_the_one_before() -> None:
    # trial 89, F6: Scrapy's "But this is an opposite of what crawler should do - in case of
    # errors it makes more sense to slow down" led the Answer to "How can I make my crawler slow
    # down automatically when a website gets slow?" over the AutoThrottle extension's definition
    text = ("Errors come back faster than pages, so a crawler sends requests faster when the "
            "server fails. But this is an opposite of what a crawler should do: it should slow "
            "down.")
    found = candidate_sentences([(0, _passage("throttle.html#3", text))])
    assert [s.text for s in found] == [text], found


def test_a_terms_description_on_its_line_is_a_sentence_of_its_entry() -> None:
    # trial 90, F2: Pygments' "noclasses: If set to true, ..." (a <dt> and its <dd> on one line)
    # read as a field listing; the option's next sentence, "This is not recommended ...", was
    # its Answer
    text = ("noclasses: If set to true, token <span> tags (as well as line number elements) will "
            "not use CSS classes, but inline styles. This is not recommended for larger pieces "
            "of code since it increases output size by quite a bit (default: False).")
    found = candidate_sentences([(0, _passage("formatters.html#13", text))])
    assert found[0].text.startswith("noclasses: If set to true, token <span> tags"), found
    assert found[0].entry == {"noclas"}, found  # its stem


def test_a_field_labelled_by_title_cased_words_is_the_entrys_record_not_a_finding() -> None:
    # trial 90, F1: Docutils' directive entries open with a table of fields; "Directive Type:
    # "sectnum" or "section-numbering" (synonyms)." was the finding quoted for "What does the
    # sectnum directive do?", not the directive's own sentence
    text = ('Automatic Section Numbering\n\nDirective Type: "sectnum" or "section-numbering" '
            '(synonyms).\n\nConfiguration Setting: sectnum_xform.\n\nThe "sectnum" directive '
            "automatically numbers sections and subsections in a document.")
    found = [s.text for s in candidate_sentences([(0, _passage("directives.html#73", text))])]
    assert found == ['The "sectnum" directive automatically numbers sections and subsections in '
                     "a document."], found


def test_a_terms_description_in_lower_case_is_a_sentence_of_its_entry() -> None:
    # trial 127, F3: Linux-PAM's control flags (DocBook <dt>/<dd>, the description in lower case)
    # opened a passage; read as the tail of a cut sentence and a field listing, never quoted
    text = ("requisite: like required, however, in the case that such a module returns a "
            "failure, control is directly returned to the application. The return value is "
            "that of the first required or requisite module to fail.\n\nclear: the rest.")
    found = [s.text for s in candidate_sentences([(0, _passage("config.html#6", text))])]
    assert found[0].startswith("requisite: like required, however,"), found
    assert "clear: the rest." not in found, found  # a field's short value
    # a table's code is no term: HAProxy's session states ("- : normal session completion, ...")
    # led "keep a client on the same server" once read as entries (trial 127, F3)
    from workers.sources.entries import entry_led
    assert not entry_led("- : normal session completion, both the client and the server "
                         "closed with nothing left in the buffers.")
