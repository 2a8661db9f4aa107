"""A reference entry laid out by hand in a long ``<pre>`` (a term, perhaps its attribute lines,
then its description indented under it) is read as its term and its description, prose,
however its term line and its quotes of names look (trial 126, F1: Vim's
``q{0-9a-zA-Z"}  Record typed characters into register ...`` and its 'smartcase' option,
whose description quotes ``"/", "?", "n", "N"``, were fenced code blocks, never a finding;
its 'scrolloff' option's first sentence began "global or local to window global-local
Minimal number of screen lines ...")."""

from __future__ import annotations

from app.llm.offline.sentences import prose_sentences
from workers.sources.htmlpage import html_page

_TABLE = "".join(f"\t'knot{i}'\t+ off\t\tno CTRL-_ hitch {i}\n" for i in range(30))
"""A table of short cells: code, as before (and enough lines to judge the page by blocks)."""
_LISTING = "\t:set kn=5\n\t:setlocal knotcount<\n"


def _page(*entries: str) -> str:
    body = "\n".join(entries)
    return (f"<html><head><title>Rope manual: knots</title></head><body><pre>\n{_TABLE}\n"
            f"{body}\n{_LISTING}\n{_TABLE}</pre></body></html>")


def test_an_entry_whose_term_line_is_punctuation_is_its_term_and_prose() -> None:
    option = ("\t\t\t*'<b>knotcase</b>'* *'kc'*\n"
              "'knotcase' 'kc'\tboolean\t(default off)\n"
              "\t\t\tglobal\n"
              "\tOverride the 'knotstyle' option when the rope is wet.  Only used when\n"
              "\t'knotstyle' is on, for the commands \"/\", \"?\", \"n\", \"N\",\n"
              "\t\":g\" and \":s\".  Not used for \"*\", \"#\", \"gd\", tag search, etc.\n"
              "\t\"*\" and \"#\" can use it when you tie the knot again by hand.\n")
    command = ("k{0-9a-zA-Z\"}\t\tTie the rope into knot register {a-zA-Z\"}\n"
               "\t\t\t(uppercase to append).  The 'k' command is disabled\n"
               "\t\t\twhile a knot is being untied.\n")
    text = html_page(_page(option, command)).text
    sentences = prose_sentences(text)
    assert "Override the 'knotstyle' option when the rope is wet." in sentences, text
    assert "'knotcase' 'kc' boolean (default off) global\n\nOverride the" in text, text
    assert ("k{0-9a-zA-Z\"}\n\nTie the rope into knot register {a-zA-Z\"} (uppercase to append)."
            in text), text
    assert "The 'k' command is disabled while a knot is being untied." in sentences, sentences
    assert "*'kc'*" not in text  # the help tags: jump targets, left out
    assert "```\n\t:set kn=5\n\t:setlocal knotcount<\n```" in text, text  # a listing: code
    assert not any("hitch 3" in s for s in sentences)  # a table: code, as before


def test_an_entrys_attribute_line_heads_it_and_is_no_part_of_its_first_sentence() -> None:
    option = ("'knotoff' 'ko'\tnumber\t(default 0)\n"
              "\t\t\tglobal or local to window\n"
              "\tMinimal number of turns to keep above and below the knot.  This will make\n"
              "\tsome slack visible around where you are tying.\n")
    text = html_page(_page(option)).text
    assert "'knotoff' 'ko' number (default 0) global or local to window\n\nMinimal" in text, text
    assert "Minimal number of turns to keep above and below the knot." in prose_sentences(text)


def test_code_indented_under_a_line_is_no_entry() -> None:
    code = "int knot(int turns)\n\tif (turns < 0)\n\t\treturn -1;\n\treturn turns * 2;\n"
    text = html_page(_page(code)).text
    assert "```\nint knot(int turns)\n\tif (turns < 0)" in text, text
