"""A page titled by what is asked shows its lead (trial 15, finding 7): "git worktree" found
git-worktree(1)'s synopsis and an example, which repeat the name most, and the report answered
from git-config(1); the description that says what the command is was never read."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus

MAN_PAGE = """<html><head><title>frob-vault(1)</title></head><body>
<h2>NAME</h2><p>frob-vault - Manage vaults</p>
<h2>SYNOPSIS</h2><pre>frob vault add &lt;path&gt; frob vault list frob vault lock &lt;vault&gt;
frob vault move &lt;vault&gt; frob vault prune frob vault remove &lt;vault&gt;</pre>
<h2>DESCRIPTION</h2><p>Manage several sealed stores attached to the same archive. Each one is
created empty and keeps its own ledger of the shards written to it.</p>
<h2>EXAMPLES</h2><pre>$ frob vault list vault /a vault /b vault /c locked vault /d</pre>
</body></html>"""

OTHER = """<html><head><title>frob-config(1)</title></head><body>
<p>The option --vault reads the vault settings only, as frob vault list shows them.</p>
</body></html>"""


def test_a_page_titled_by_the_question_gives_its_description(tmp_path: Path) -> None:
    root = tmp_path / "man"
    root.mkdir()
    (root / "frob-vault.html").write_text(MAN_PAGE, encoding="utf-8")
    (root / "frob-config.html").write_text(OTHER, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("frob vault", k=4)
        mine = [p for p in found if p.doc_id == "frob-vault.html"]
        assert any("sealed stores attached" in p.text for p in mine), [p.ref for p in found]
        assert any(p.doc_id == "frob-config.html" for p in found)  # no other page displaced
        assert [p.score for p in found] == sorted((p.score for p in found), reverse=True)



GENERATED = """<html><head><title>5.3. Frobbed Columns</title></head><body>
<h2>5.3. Frobbed Columns</h2><p>A frobbed column is a special column that is always computed
from other columns. Thus, it is for columns what a view is for tables.</p>
<pre>CREATE TABLE people (height_in numeric GENERATED ALWAYS AS (height_cm / 2.54) STORED);</pre>
<p>Several restrictions apply to the definition of frobbed columns and tables involving
frobbed columns:</p>
""" + "".join(f"<p>A frobbed column cannot be part of key {n}, as a frobbed column is computed "
              f"by its expression number {n} and no frobbed column is stored twice.</p>"
              for n in range(40)) + "</body></html>"


def test_a_page_titled_by_the_question_gives_the_sentence_that_says_what_it_is(
        tmp_path: Path) -> None:
    # PostgreSQL's "Generated Columns": its restrictions repeat "generated column" most, and
    # took the page's two places; "What is a generated column?" never read its definition
    root = tmp_path / "docs"
    root.mkdir()
    (root / "gen.html").write_text(GENERATED, encoding="utf-8")
    (root / "other.html").write_text(OTHER, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What is a frobbed column?", k=4)
        assert any("always computed from other columns" in p.text for p in found), [
            (p.ref, p.text[:60]) for p in found]
        assert [p.score for p in found] == sorted((p.score for p in found), reverse=True)


def test_a_table_of_contents_is_no_lead_and_a_listing_ranks_below_prose() -> None:
    # SQLite's fts5.html, once its <pre> listings were kept as code (trial 30, kind 6): "What
    # is FTS5?" found its table of contents (read as prose: a "sentence" ran from one title's
    # words to the next title's number, so the page's lead was never looked for) and its
    # fts5_api listing (identifiers repeating the word): the page's two places, and never
    # "FTS5 is an SQLite virtual table module ...".
    from workers.sources.leads import is_lead
    from workers.sources.ranking import CODE_FACTOR, code_factor

    toc = "\n\n".join(f"5.1.{i}. The {w}() function" for i, w in
                       enumerate(("bm25", "highlight", "snippet", "merge"), start=1))
    assert not is_lead(toc)
    assert is_lead("1. Overview of FTS5\n\nFTS5 is an SQLite virtual table module that "
                   "provides full-text search.")
    listing = "```\ntypedef struct fts5_api fts5_api;\nstruct fts5_api { int iVersion; };\n```"
    assert code_factor(listing) == CODE_FACTOR < 1.0
    assert code_factor(f"The fts5_api object is returned by fts5().\n\n{listing}") == 1.0


PROFILER = """<html><head><title>9. Frobnif: a heap profiler</title></head><body>
<h1>9. Frobnif: a heap profiler</h1>
<p>To use this tool, you must specify --tool=frobnif on the Valgrind command line.</p>
<h2>9.1. Overview</h2>
<p>Frobnif is a heap profiler. It measures how much heap memory your program uses. This includes
both the useful space, and the extra bytes allocated for book-keeping and alignment purposes.
It can also measure the size of your program's stack(s), although it does not do so by
default. Heap profiling can help you reduce the amount of memory your program uses.</p>
<h2>9.2. Using the tool</h2>
<p>First off, as for the other tools, you should compile with debugging info (the -g option).
It should not matter much what optimisation level you compile your program with, as this is
unlikely to affect the heap memory usage. Then run the program under the profiler.</p>
<h2>9.4. Frobnif Command-line Options</h2>
<p>Frobnif-specific command-line options are:</p>
<h2>9.5. Frobnif Monitor Commands</h2>
<p>The Frobnif tool provides monitor commands handled by the gdbserver.</p>
</body></html>"""


def test_the_lead_is_the_sentence_that_says_what_the_asked_thing_is(tmp_path: Path) -> None:
    # Valgrind's ms-manual.html (trial 107, R1): "What is Massif?" found the page's first
    # passage ("To use this tool, you must specify --tool=massif", prose naming the word, so
    # the lead looked no further) and its options' heading, and never "Massif is a heap
    # profiler."
    root = tmp_path / "docs"
    root.mkdir()
    (root / "ms.html").write_text(PROFILER, encoding="utf-8")
    (root / "other.html").write_text(OTHER.replace("vault", "frobnif"), encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What is Frobnif?", k=4, focus="What is Frobnif?")
        assert any("Frobnif is a heap profiler" in p.text for p in found), [
            (p.ref, p.text[:60]) for p in found]
        assert [p.score for p in found] == sorted((p.score for p in found), reverse=True)


def test_defines_reads_a_sentence_whose_subject_is_the_asked_thing() -> None:
    from workers.sources.leads import defines
    from workers.sources.query import search_query

    query = search_query("What is a frobbed column?")
    assert defines(query, "5.3. Frobbed Columns\n\nA frobbed column is a special column.")
    assert defines(query, "Note this. Frobbed columns are the columns computed on write.")
    assert not defines(query, "A column is frobbed when it is computed.")
    assert not defines(query, "The frobbed column of a view is the one shown first.")
    assert not defines(query, "To use a frobbed column, you must name it.")


CONTEXT = """<html><head><title>The Frob Context</title></head><body>
<h1>The Frob Context</h1>
<p>The frob context keeps track of the frob-level data during a request, CLI command, or other
activity. Rather than passing the frob around, the proxies are accessed instead.</p>
<h2>Purpose of the Context</h2>
<p>The frob object has attributes, such as config, that are useful to access within views and
commands. Importing the instance is prone to circular import issues.</p>
<h2>Lifetime of the Context</h2>
<p>The frob context is created and destroyed as necessary. When a frob begins handling a
request, it pushes a frob context. When the request ends it pops the frob context. Typically,
a frob context will have the same lifetime as a request.</p>
<h2>Storing Data</h2>
<p>The frob context is a good place to store common data during a request or CLI command. The
frob context provides the g object for this purpose, with the lifetime of a frob context.</p>
</body></html>"""


def test_a_good_place_to_store_data_is_no_definition_of_the_page(tmp_path: Path) -> None:
    # Flask's appcontext.html (trial 121, F2): "What is the application context?" found its
    # "Storing Data" section ("... is a good place to store common data ...", read as the
    # page's definition) and never its opening, "The application context keeps track of ..."
    from workers.sources.leads import defines
    from workers.sources.query import search_query

    assert not defines(search_query("What is the frob context?"),
                       "The frob context is a good place to store common data.")
    root = tmp_path / "docs"
    root.mkdir()
    (root / "context.html").write_text(CONTEXT, encoding="utf-8")
    (root / "other.html").write_text(OTHER, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What is the frob context?", k=5)
        assert any("keeps track of the frob-level data" in p.text for p in found), [
            (p.ref, p.text[:60]) for p in found]
