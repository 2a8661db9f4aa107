"""Search finds what a question names or asks in the documents' own words (trial 115, F2): an
entry in capitals inside a definition list's passage, above the pages that use its name."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus


def _entry(name: str, arguments: str, text: str) -> str:
    return (f'<dt><span><tt>{name}</tt>{arguments}</span></dt>\n<dd><p>{text}</p>\n'
            '<p>If this is made local, it is not implicitly set to 0.</p></dd>\n')


PARAMETERS = (
    "<html><head><title>15 Parameters (zsh)</title></head><body>"
    "<h2>15.6 Parameters Used By The Shell</h2><dl>"
    + _entry("reply", "", "As REPLY, but for array values rather than strings.")
    + _entry("RPROMPT", " &lt;S&gt;", "This prompt is displayed on the right-hand side of the "
             "screen when the primary prompt is being displayed on the left. It is expanded in "
             "the same way as PS1.")
    + _entry("RPROMPT2", " &lt;S&gt;", "This prompt is displayed on the right-hand side of "
             "the screen when the secondary prompt is being displayed on the left.")
    + _entry("SAVEHIST", "", "The maximum number of history events to save in the history "
             "file.")
    + "</dl></body></html>")
BUILTINS = (
    "<html><head><title>17 Shell Builtin Commands (zsh)</title></head><body>"
    "<h2>fc -p [ -a ] [ filename [ histsize [ savehist ] ] ]</h2>"
    "<p>If no arguments are specified, $HISTFILE is unset, and $HISTSIZE &amp; $SAVEHIST are "
    "set to their default values. If a second argument is specified, $HISTSIZE &amp; "
    "$SAVEHIST are instead set to the single specified numeric value. Finally, if a third "
    "argument is specified, $SAVEHIST is set to a separate value from $HISTSIZE.</p>"
    "</body></html>")


def test_an_entry_in_capitals_inside_a_passage_ranks_above_its_uses(tmp_path: Path) -> None:
    # trial 115, F2a: "What is SAVEHIST?" answered from fc -p's "$HISTSIZE & $SAVEHIST are
    # instead set ..."; the SAVEHIST entry, the fourth of a passage opening with reply's, was
    # no entry (a name in capitals), and a page saying the name four times outranked it
    root = tmp_path / "zsh"
    write(root, "Parameters.html", PARAMETERS)
    write(root, "Shell-Builtin-Commands.html", BUILTINS)
    with Corpus.open(tmp_path / "d", folder=root) as c:
        found = c.search("What is SAVEHIST?", k=3)
        assert found[0].doc_id == "Parameters.html", [p.ref for p in found]
        assert "SAVEHIST: The maximum number of history events" in found[0].text


def _node(title: str, text: str) -> str:
    return (f"<html><head><title>{title}</title></head><body><h3>{title}</h3><p>{text}</p>"
            "</body></html>")


def test_a_page_titled_in_the_questions_own_words_ranks_first(tmp_path: Path) -> None:
    # trial 115, F2b: "What are the known limitations of gnuplot?" searched "limitations" and
    # "gnuplot" ("known", a word of how people ask, dropped) and answered from "Undefined: If an
    # integer arithmetic expression overflows the limiting range ..."; the page titled "Known
    # limitations", which never says "gnuplot", ranked below it
    root = tmp_path / "gnuplot"
    write(root, "node646.html", _node("Known limitations", "It is not possible to use inline "
          "data (e.g. plot '-' ...) inside the curly brackets of a do or while loop."))
    for name, title in (("node369.html", "Undefined"), ("node368.html", "NaN")):
        write(root, name, _node(title, "If an integer arithmetic expression overflows the "
              "limiting range in gnuplot, gnuplot evaluates it in floating point; gnuplot's "
              "limitations of integers apply."))
    write(root, "node645.html", _node("Bugs", "Please e-mail bug reports to the gnuplot-bugs "
          "mailing list; gnuplot has limitations."))
    with Corpus.open(tmp_path / "d", folder=root) as c:
        found = c.search("What are the known limitations of gnuplot?", k=3)
        assert found[0].doc_id == "node646.html", [p.ref for p in found]


def test_a_heading_asking_the_question_ranks_first(tmp_path: Path) -> None:
    # trial 115, F2c: "What is zsh good at?" searched "zsh" alone, which every page says, and
    # answered with a list of modules; the FAQ's "1.3: What is it good at?" was no candidate
    root = tmp_path / "zsh"
    faq = ("<html><head><title>Z-Shell Frequently-Asked Questions</title></head><body>"
           "<h3>1.2: What is it?</h3><p>Zsh is a UNIX command interpreter (shell).</p>"
           "<h3>1.3: What is it good at?</h3><p>Here are some things that zsh is particularly "
           "good at: command line editing and globbing.</p></body></html>")
    write(root, "FAQ01.html", faq)
    for n in range(6):
        write(root, f"Zsh-Modules-{n}.html", _node(f"22.{n} The zsh/mod{n} Module", f"The zsh/"
              f"mod{n} module of zsh makes zsh builtins available in zsh; zsh loads it."))
    with Corpus.open(tmp_path / "d", folder=root) as c:
        found = c.search("What is zsh good at?", k=3)
        assert found[0].heading == "1.3: What is it good at?", [p.heading for p in found]


def test_a_generic_heading_of_another_page_does_not_rank_first(tmp_path: Path) -> None:
    # trial 119, F6: "What are the known issues with IPv6?" ranked the Windows page's "Known
    # issues" first, its rare "known" in a heading, and answered "quill on Windows / Known
    # issues: Install it with `pip install quill` ..." in place of the IPv6 section
    root = tmp_path / "quill"
    write(root, "windows.md", "# quill on Windows\n\nquill runs on Windows 10 and later. "
          "Install it with `pip install quill` from a PowerShell prompt.\n\n## Known issues\n\n"
          "Paths longer than 260 characters are skipped unless long paths are enabled in the "
          "registry. Symbolic links need Developer Mode.\n")
    write(root, "networking.md", "# Networking\n\nquill connects to the remote host over SSH "
          "on port 22.\n\n## IPv6\n\nquill supports IPv6 since version 1.4. Link-local IPv6 "
          "addresses with a zone index are not supported yet.\n")
    write(root, "proxy.md", "# Proxies\n\nSet `proxy = host:port` to reach the remote host "
          "through an HTTP proxy.\n")
    with Corpus.open(tmp_path / "d", folder=root) as c:
        found = c.search("What are the known issues with IPv6?", k=3)
        assert found[0].doc_id == "networking.md", [(p.ref, p.heading) for p in found]


def test_a_task_names_an_acronym_as_its_subject_not_as_an_entry(tmp_path: Path) -> None:
    # trial 119, F8: "How do I enable SSL on the quill server?" ranked the glossary's "SSL: The
    # older name of TLS, ..." as the entry asked (an entry in capitals, spelled as the question
    # spells it), and the answer never quoted "To turn on SSL, set `tls_cert = ...`"
    from app.llm.offline.relevance import entry_stems
    from workers.sources.entry_match import holds_spelled_entry
    from workers.sources.query import search_query

    root = tmp_path / "quill"
    write(root, "glossary.md", "# Glossary\n\nSFTP: The SSH file transfer protocol.\n\nSSL: "
          "The older name of TLS, the protocol that encrypts connections to a quill server."
          "\n\nTLS: See SSL.\n\nWebDAV: A protocol for editing files on a web server.\n")
    write(root, "server.md", "# Running a quill server\n\nStart the server with `quill "
          "serve`.\n\nTo turn on SSL, set `tls_cert = /etc/quill/cert.pem` and `tls_key = "
          "/etc/quill/key.pem` in quill.conf and restart the server. Enabling SSL needs a "
          "certificate for the server's host name.\n")
    for n in range(4):
        write(root, f"page{n}.md", f"# Page {n}\n\nquill syncs folder {n} over SSH.\n")
    question = "How do I enable SSL on the quill server?"
    query = search_query(question)
    assert query is not None and query.entry_words == (), query.entry_words
    assert not holds_spelled_entry("SSL: The older name of TLS.", query)
    assert entry_stems(question) == frozenset()
    with Corpus.open(tmp_path / "d", folder=root) as c:
        found = c.search(question, k=3)
        assert found[0].doc_id == "server.md", [(p.ref, p.score) for p in found]
    query = search_query("What is SSL?")  # a question asking the entry itself
    assert query is not None and holds_spelled_entry("SSL: The older name of TLS.", query)


def test_only_the_words_of_how_a_question_asks_are_looked_up_among_the_headings() -> None:
    # a kind the question names ("the RETURNING clause") is no word of how it asks: looked up
    # among the headings, "clause" ranked SQLite's syntax diagram "returning-clause:" x3 above
    # lang_returning.html (the eval's sqlite-37); nor is a task's verb ("make it wait")
    from workers.sources.query import search_query

    for question in ("What does the RETURNING clause do?", "How do I make it wait and retry?"):
        query = search_query(question)
        assert query is not None and "{heading terms}" not in query.fts, query.fts
    assert search_query("What is zsh good at?").said == ("zsh", "good")
