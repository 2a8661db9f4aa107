"""A question names an API symbol in its own words (trial 8, finding 2; issue 19): "retry policy"
names ``RetryPolicy``, "base checkpoint saver" ``BaseCheckpointSaver``, "Send" the class ``Send``
and not a method ``send``.

The failing inputs were the README's example topics: "retry policy of a graph node" never cited
``langgraph.types.RetryPolicy`` (fifth in its first search, under ``set_node_defaults``), and
"What is Send?" ranked ``LogStreamCallbackHandler.send`` first.
"""

from __future__ import annotations

from tests.workers.sources.conftest import write
from workers.sources import Corpus
from workers.sources.names import name_keys, named_symbols, symbol_key
from workers.sources.query import mentions, search_query, term_matches


def test_two_words_find_the_symbol_they_spell(pkg):
    cases = {
        "retry policy of a graph node": "langgraph.types.RetryPolicy",
        "state graph": "langgraph.graph.state.StateGraph",
        "base checkpoint saver": "langgraph.checkpoint.base.BaseCheckpointSaver",
        "message graph": "langgraph.graph.message.MessageGraph",
        "in memory saver": "langgraph.checkpoint.memory.InMemorySaver",
    }
    for topic, doc_id in cases.items():
        assert pkg.search(topic, k=3)[0].doc_id == doc_id, topic  # the plan's first search
    topic = "retry policy of a graph node"
    hits = pkg.search("What is retry policy?", k=5, focus=topic)
    assert hits[0].doc_id == "langgraph.types.RetryPolicy", [h.ref for h in hits]


def test_a_capitalised_word_names_the_symbol_spelled_so_not_a_method(pkg):
    hits = pkg.search("What is Send?", k=5, focus="Send and reducers")
    assert [h.doc_id.startswith("langgraph.types.Send") for h in hits[:3]] == [True] * 3
    assert not any(h.doc_id.endswith("LogStreamCallbackHandler.send") for h in hits)
    # members of the named class rank with it ("ShallowPostgresSaver" cites its methods too)
    hits = pkg.search("ShallowPostgresSaver", k=5)
    assert hits[0].doc_id == "langgraph.checkpoint.postgres.shallow.ShallowPostgresSaver"
    assert all("ShallowPostgresSaver" in h.doc_id for h in hits)


def test_the_question_names_the_symbol_that_spells_the_most_of_it(pkg):
    # "in-memory store" is InMemoryStore's name, but InMemoryByteStore has it and "bytes" too
    topic = "In-memory store for bytes"
    hits = pkg.search(topic, k=3, focus=topic)
    assert hits[0].doc_id == "langchain_core.stores.InMemoryByteStore", [h.ref for h in hits]
    assert named_symbols(name_keys(topic), ["memory", "store", "bytes"],
                         ["InMemoryStore", "InMemoryByteStore", "put"]) == {}
    assert named_symbols(name_keys("retry policy"), ["retry", "policy"],
                         ["RetryPolicy", "add_retry_policies"]) == {"RetryPolicy": False}


def test_names_are_runs_of_the_question_own_words_never_template_words():
    keys = [n.key for n in name_keys("What is the mechanism behind retry policy?",
                                     ["retry", "policy"])]
    assert keys == ["retrypolicy"]
    assert [n.key for n in name_keys("the retry policy")] == ["retrypolicy"]
    assert [(n.key, n.spelled) for n in name_keys("Send, add_messages")] == [
        ("send", "Send"), ("addmessages", "")]
    assert symbol_key("langgraph.types.Send.__init__") == "send"
    assert symbol_key("x.load_pending_writes") == "loadpendingwrites" and symbol_key("") == ""
    # a name of several words is searched whole in its own column; one word is in "name" already
    # and joined as a word of the text too, as Postfix's relayhost (trial 114, F7)
    assert search_query("retry policy").fts == ('"retry" OR "policy" OR "retrypolicy" OR '
                                                'namekey : "retrypolicy"')
    assert search_query("What is Send?").fts == '"send"'


def test_a_python_file_in_a_folder_names_its_classes_and_functions(tmp_path):
    """Sibling: a folder corpus's ``.py`` sections are headed by qualified names, indexed as
    plain headings, so "retry policy" never reached a user's own ``RetryPolicy`` class."""
    root = tmp_path / "f"
    write(root, "policies.py", 'class RetryPolicy:\n    """Configuration for retrying nodes."""\n')
    write(root, "defaults.py", 'def set_defaults():\n    """Set the retry policy of a node: the '
                               'retry policy applies to every node; a graph node retries by '
                               'its retry policy."""\n')
    with Corpus.open(tmp_path / "d", folder=root) as corpus:
        hits = corpus.search("retry policy of a graph node", k=2)
        assert hits[0].doc_id == "policies.py", [h.ref for h in hits]


def test_a_camelcase_word_in_a_text_mentions_its_words():
    """Sibling: a sentence that says ``RetryPolicy`` did not count as mentioning "retry policy"
    for the report's and the relevance judge's check that a text names the topic
    (``mentions``); ``load_pending_writes`` already mentioned "pending writes". The search's own
    coverage boost (``term_matches``) keeps CamelCase words whole: "PostScript" is no "script"."""
    assert mentions(["retry", "policy"], "Pass a `RetryPolicy` to add_node.") == {
        "retry", "policy"}
    assert mentions(["state", "latex"], "STATE, LaTeX, Zürich") == {"state", "latex"}
    assert mentions(["la"], "LaTeX") == set()  # parts of under three letters are no words
    assert term_matches(["script"], "PostScript output") == (set(), 0)


def test_a_named_symbols_summary_passage_comes_first_of_its_document(pkg):
    # "What is StateGraph?" found StateGraph's example code and its context_schema note (two
    # passages a document, at most) and never its first: "A graph whose nodes communicate by
    # reading and writing to a shared state." (trial 10, finding 2).
    hits = pkg.search("What is StateGraph?", k=5, focus="StateGraph")
    own = [h.ref for h in hits if h.doc_id == "langgraph.graph.state.StateGraph"]
    assert own[:1] == ["langgraph.graph.state.StateGraph#0"], [h.ref for h in hits]


def test_a_term_led_by_a_function_word_finds_the_section_it_heads(tmp_path):
    # Trial 45, W5: "What is a here string?" searched "string" alone ("here" is a stopword),
    # and entries on strings (emacs-mode-string, string comparisons) outranked "Here Strings"
    folder = tmp_path / "manual"
    folder.mkdir()
    strings = "\n\n".join(
        f"## The {name} string\n\nThe {name} string is a string the shell prints; the string "
        f"may hold escapes, and the string is expanded." for name in
        ("prompt", "mode", "format", "history", "emacs", "vi"))
    write(folder, "strings.md", f"# Strings\n\n{strings}\n")
    write(folder, "redirection.md", "# Redirection\n\n## Here Strings\n\nA variant of here "
          "documents: the word is expanded and supplied to the command on its standard input.\n")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("What is a here string?", k=1)
    assert hit.doc_id == "redirection.md", hit.ref


def test_the_passage_opening_a_named_functions_entry_comes_first_of_its_page(tmp_path):
    # Trial 60: "What does prefetch_related() do?" found two later passages of its entry on
    # Django's reference page and never the first, "Returns a QuerySet that will automatically
    # retrieve ...": a Sphinx entry's heading is its signature, and its index row has no name
    code = "\n".join(f"row_{i} = load_row({i}, colony='north', depth={i % 7})" for i in range(40))
    dense = "".join(f"<p>gather_chicks with gather_chicks: chain gather_chicks('a') then "
                    f"gather_chicks('b'); gather_chicks again {i}.</p>" for i in range(6))
    page = ("<html><head><title>NestSet reference</title></head><body><h1>NestSet reference</h1>"
            "<h4>gather_chicks()</h4><dl class='py method'><dt id='nestset.gather_chicks'>"
            "gather_chicks(*fields)</dt><dd></dd></dl><p>Returns a NestSet that will fetch, in "
            f"one batch per link, the chick rows of each nest.</p><pre>{code}</pre>{dense}"
            "</body></html>")
    folder = tmp_path / "docs"
    folder.mkdir()
    write(folder, "nestsets.html", page)
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does gather_chicks() do?", k=3)
    assert hits[0].ref == "nestsets.html#0", [h.ref for h in hits]
    assert "Returns a NestSet that will fetch" in hits[0].text


def test_an_options_entry_with_its_values_and_default_is_the_option_named(tmp_path):
    # Trial 61, F5: "What does --leak-check=full do?" was answered from a page on a debugger's
    # monitor command ("leak_check full reachable any"); the option's own entry,
    # "--leak-check=<no|summary|yes|full> [default: summary]: When enabled, ...", was no entry
    # (its label holds a colon in brackets) and its name was never the question's "leak check"
    options = "".join(
        f"<dt>--{name}=&lt;no|summary|yes|full&gt; [default: summary]</dt><dd><p>{what} "
        "The heron census counts nests each spring.</p></dd>" for name, what in (
            ("leak-check", "When enabled, search for heron leaks when the census finishes."),
            ("leak-resolution", "When doing leak checking, how alike two leak traces must be."),
            ("show-reachable", "When enabled, show the reachable heron blocks too.")))
    monitor = ("<p>An example of a monitor command is leak_check full reachable any: a leak "
               "check, full, of each leak; the leak check is full and checks every leak.</p>")
    folder = tmp_path / "docs"
    folder.mkdir()
    write(folder, "options.html", f"<html><body><h1>Census options</h1><dl>{options}</dl>"
          "</body></html>")
    write(folder, "monitor.html", f"<html><body><h1>Monitor commands</h1>{monitor}</body></html>")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does --leak-check=full do?", k=2)
    assert hits[0].doc_id == "options.html", [h.ref for h in hits]
    assert "--leak-check=<no|summary|yes|full> [default: summary]: When enabled" in hits[0].text


def _sphinx_method(owner: str, name: str, params: str, *paragraphs: str) -> str:
    """A Sphinx (4.x) method entry as SQLAlchemy 1.4's HTML writes it: its kind, then its
    qualified name, then its parameters."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f'<dl class="py method"><dt class="sig sig-object py" id="{owner}.{name}">'
            '<em class="property"><span class="pre">method</span> </em>'
            f'<code class="docutils literal notranslate"><span class="pre">{owner}.</span></code>'
            f'<span class="sig-name descname"><span class="pre">{name}</span></span>'
            f'<span class="sig-paren">(</span>{params}<span class="sig-paren">)</span>'
            f'<a class="headerlink" href="#{owner}.{name}">¶</a></dt><dd>{body}</dd></dl>')


def test_a_dotted_names_member_is_the_entry_named_not_a_longer_one(tmp_path):
    # Trial 69, F4: "What does Session.expunge do?" was answered by expunge_all's entry ("This
    # is equivalent to calling expunge(obj) on all objects"), which says "expunge" twice: the
    # question's member name was no name, and Sphinx's "method x.y(...)" heading no signature
    owner = "sqlalchemy.orm.Session"
    entries = [_sphinx_method(owner, "expire_all", "", "Expires all persistent instances "
                              "within this Session.", "When any attributes on a persistent "
                              "instance is next accessed, a query will be issued."),
               _sphinx_method(owner, "expunge", "instance", "Remove the instance from this "
                              "Session.", "This will free all internal references to the "
                              "instance. Cascading will be applied by the expunge rule."),
               _sphinx_method(owner, "expunge_all", "", "Remove all object instances from this "
                              "Session.", "This is equivalent to calling expunge(obj) on all "
                              "objects in this Session; expunge is called once per object.")]
    page = ("<html><head><title>Session API</title></head><body><h1>Session API</h1>"
            f"{''.join(entries)}</body></html>")
    folder = tmp_path / "docs"
    folder.mkdir()
    write(folder, "session_api.html", page)
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does Session.expunge do?", k=3)
    assert "Remove the instance from this Session." in hits[0].text, [h.text for h in hits]
    assert [(n.key, n.spelled) for n in name_keys("What does Session.expunge do?")] == [
        ("session", "Session"), ("expunge", "")]


def test_a_numbered_section_headed_by_the_name_asked_is_its_entry(tmp_path):
    # Trial 69, F1 (after the filters page was indexed again): "What does the crop filter do?"
    # ranked the introduction's example, "... through the crop filter and the vflip filter",
    # above FFmpeg's Texinfo entry "11.44 crop", and then the entry's parameter list above
    # its opening "Crop the input video to given dimensions."
    intro = ("<h2>2 Filtering Introduction</h2><p>This filtergraph splits the input stream in "
             "two streams, then sends one stream through the crop filter and the vflip filter, "
             "before merging it back; the crop filter and the vflip filter are both video "
             "filters.</p>")
    params = "".join(f"<dt>param_{i}</dt><dd><p>The crop parameter number {i} of the filter: "
                     f"an expression evaluated once per frame, {i} by default.</p></dd>"
                     for i in range(40))
    crop = (f"<h3>11.44 crop</h3><p>Crop the input video to given dimensions.</p><p>It accepts "
            f"the following parameters:</p><dl>{params}</dl>")
    other = ("<h3>11.45 cropdetect</h3><p>Auto-detect the crop size. It calculates the "
             "necessary cropping parameters and prints them.</p>")
    folder = tmp_path / "manual"
    folder.mkdir()
    write(folder, "ffmpeg-filters.html", "<html><head><title>FFmpeg Filters Documentation"
          f"</title></head><body>{intro}{crop}{other}</body></html>")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does the crop filter do?", k=3)
    assert hits[0].text.startswith("11.44 crop"), [h.text[:60] for h in hits]
    assert "Crop the input video to given dimensions." in hits[0].text


def test_a_functions_entry_under_no_heading_is_the_function_named(tmp_path):
    # Trial 71, V3: "What does the getline() function do?" was answered from the user manual's
    # scripts that call getline() in a function; Vim's entry, a signature alone on its line
    # under the page's title, never says "function", and "getline()" was no name
    listing = "".join(f"\tlet line{i} = getline({i})\n\tcall setline({i}, line{i})\n"
                      for i in range(1))
    said = " ".join(f"When the buffer holds no such item {n}, zero is returned as it is."
                    for n in range(8))
    entries = "".join(f"getnum{i}({{expr}})\n\t\tReturn the number {i} of {{expr}} as a "
                      f"Number.  {said}\n\n" for i in range(12))
    builtin = (f"{entries}getline({{lnum}} [, {{end}}])\n\t\tWithout {{end}} the result is a "
               "String, which is line {lnum} from the current buffer.  Example:\n\t\t\t"
               "getline(1)\n\t\tWhen {lnum} is a String that doesn't start with a digit, "
               "line() is called to translate the String into a Number.  To get the line "
               "under the cursor:\n\t\t\tgetline(\".\")\n\n" + entries)
    folder = tmp_path / "vim"
    folder.mkdir()
    write(folder, "builtin.html", "<html><head><title>Vim documentation: builtin</title></head>"
          f"<body><pre>{builtin}</pre></body></html>")
    write(folder, "usr_41.html", "<html><head><title>Vim documentation: usr_41</title></head>"
          "<body><p>This example sorts lines with a specific compare function.</p><pre>"
          f"function! Fix()\n{listing}endfunction</pre><p>The function is called once for "
          "every line in the range, with the cursor in that line.</p></body></html>")
    write(folder, "fold.html", "<html><head><title>Vim documentation: fold</title></head>"
          "<body><p>The indent() function can be used in 'foldexpr' to get the indent of a "
          "line; a function such as getline() gives its text.</p></body></html>")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does the getline() function do?", k=3)
    assert hits[0].doc_id == "builtin.html" and "getline({lnum}" in hits[0].text, [
        h.text[:70] for h in hits]


def test_an_option_entry_is_the_option_named_not_a_longer_one(tmp_path):
    # Trial 72: "What does the -resize option do?" ranked "-adaptive-resize geometry" above
    # ImageMagick's own "-resize geometry" entry
    def option(name: str, *paragraphs: str) -> str:
        return f"<h3>{name} geometry</h3>" + "".join(f"<p>{p}</p>" for p in paragraphs)

    page = ("<html><head><title>Command-line Options</title></head><body>"
            + option("-adaptive-resize", "Resize the image using data-dependent triangulation, "
                     "an adaptive resize that keeps edges sharp when you resize an image.")
            + option("-resize", "Resize an image.", "See Image Geometry for complete details "
                     "about the geometry argument; offsets are ignored.")
            + "</body></html>")
    folder = tmp_path / "im"
    folder.mkdir()
    write(folder, "command-line-options.html", page)
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        hits = corpus.search("What does the -resize option do?", k=3)
    assert hits[0].text.startswith("-resize geometry"), [h.text[:40] for h in hits]


def test_a_word_in_quotes_is_a_name_and_its_kind_is_context():
    # Trial 71, V1: "What does the 'scrolloff' option do?" ranked motion.html's "Cursor is
    # adjusted for 'scrolloff' option ..." above Vim's entry, which never says "option"
    query = search_query("What does the 'scrolloff' option do?")
    assert [n.key for n in query.names] == ["scrolloff"]
    assert query.terms == ("scrolloff",) and query.context == ("option",)
    assert [n.key for n in name_keys("What does `retry` do?")] == ["retry"]
    assert name_keys("Is it the plan's own words?") == ()  # an apostrophe quotes nothing


def test_a_lead_that_spells_a_function_word_with_the_next_word_leads_no_name():
    # "no body sent" was searched as the name nobodysent ("nobody sent"): the sibling of "no
    # body" searched as nobody (trial 119, F3); a lead written apart from its name still leads
    keys = [n.key for n in name_keys("Why is the response's no body sent?")]
    assert "nobodysent" not in keys and "bodysent" in keys, keys
    assert "anyonefield" not in [n.key for n in name_keys("Is any one field required?")]
    for phrase, key in (("in memory saver", "inmemorysaver"), ("any http url", "anyhttpurl"),
                        ("no init field", "noinitfield")):
        assert key in [n.key for n in name_keys(f"What is the {phrase}?")], phrase
    query = search_query("Why is the response's no body sent?")
    assert query is not None and "nobodysent" not in query.fts, query.fts
