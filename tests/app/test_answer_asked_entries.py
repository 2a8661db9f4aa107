"""The Answer to "What does the X option (of the Y directive) do?" quotes X's own entry: its
sentence names the question though it names none of its other words, and Y's definition is
no answer (trial 125, F2)."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row


def _answer(q: str, passages: list[dict], findings: list[dict]) -> str:
    rows = [row("docs_search", q, passages), row("analyst", q, findings)]
    return answer_section(render_markdown(data(rows, topic=q, sub_questions=[q])))


def test_the_entry_asked_answers_before_a_sentence_naming_more_of_the_question() -> None:
    # bash's "globstar: If set, the pattern ** ..." named "globstar", not "shell option": no
    # candidate; the Pathname Expansion sentence naming all three led
    q = "What does the globstar shell option do?"
    own = ("globstar: If set, the pattern ** used in a pathname expansion context will match "
           "all files and zero or more directories and subdirectories.")
    other = ("When the globstar shell option is enabled, and * is used in a pathname expansion "
             "context, two adjacent *s used as a single pattern will match all files.")
    answer = _answer(q, [
        item("passage", f"{own}\n\nglobskipdots: If set, pathname expansion will never match "
             "the filenames . and ..", "bash.html#482", heading="SHELL BUILTIN COMMANDS"),
        item("passage", other, "bash.html#184", heading="Pathname Expansion"),
    ], [item("finding", other, "bash.html#184"), item("finding", own, "bash.html#482")])
    assert answer.strip().startswith("- globstar: If set, the pattern **"), answer


def test_the_definition_of_what_owns_the_entry_asked_is_no_answer() -> None:
    # Sphinx: the template function's "`toctree`: A callable yielding the global TOC tree ..."
    # led "What does the maxdepth option of the toctree directive do?"
    q = "What does the maxdepth option of the toctree directive do?"
    answer = _answer(q, [
        item("passage", "toctree\n\nA callable yielding the global TOC tree containing the "
             "current page.\n\nmaxdepth: The maximum depth of the tree.", "templating.html#63",
             heading="toctree"),
        item("passage", "The maxdepth option of the toctree directive gives the depth of "
             "the tree.", "quickstart.html#4"),
    ], [item("finding", "The maxdepth option of the toctree directive gives the depth of the "
             "tree.", "quickstart.html#4")])
    assert "A callable yielding" not in answer, answer
    assert "gives the depth of the tree" in answer, answer
