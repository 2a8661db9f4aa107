"""An API reference entry answers "What does f() do?" with its first sentence, as a docstring's
summary line answers for a symbol (trial 60, A3): Django's reference writes each method as a
heading, then its signature as a ``<dt>``, then "Returns a QuerySet that will ..."; the
Answer opened with "Chaining select_related calls works in a similar way ..." of a later
passage, and for ``prefetch_related`` the entry's first passage was not even retrieved (two
later passages of the entry ranked above it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.app.report_rows import answer_section
from tests.conftest import AS_OF, run_cli


def _first_answer(tmp_path: Path, files: dict[str, str], question: str) -> tuple[str, str]:
    """The first line of the Answer the CLI's report gives ``question`` over a folder of
    ``files`` (name: text), and the whole report."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    proc = run_cli("research", question, "--as-of", AS_OF, "--corpus", folder,
                   "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    return answer_section(report).strip().splitlines()[0], report


_USAGE = ("<p>You can chain {name} calls: {name}('a', 'b') is the same as {name}('a')."
          "{name}('b'). Calling {name} on a {name} result keeps the earlier {name} fields, "
          "and {name} with no arguments follows every non-null link, so {name} can fetch more "
          "than you need. {name} is cheap when links are few; {name} is slow on deep chains.</p>"
          "<pre>nests = Nest.objects.{name}('colony').get(id=5)\n"
          "colony = nests.colony  # {name} prefetched it</pre>")


def _entry(name: str, what: str) -> str:
    return (f'<section id="{name}"><h4>{name}()<a class="headerlink" href="#{name}">¶</a></h4>'
            f'<dl class="py method"><dt class="sig sig-object py" id="nestset.{name}">'
            f'<span class="sig-name descname">{name}</span>(*<em>fields</em>)</dt><dd></dd></dl>'
            f"<p>{what}</p>" + "".join(_USAGE.format(name=name) for _ in range(4)) + "</section>")


PAGE = ("<html><head><title>NestSet API reference — Heronry 3.2 documentation</title></head>"
        "<body><h1>NestSet API reference</h1>"
        + _entry("fetch_nests", "Returns a NestSet that will follow colony links, selecting "
                 "the linked colony rows when it runs its query.")
        + _entry("gather_chicks", "Returns a NestSet that will fetch, in one batch per link, the "
                 "chick rows of each nest it holds.")
        + "</body></html>")


def test_an_entrys_first_passage_says_what_its_function_is() -> None:
    from app.research.definitions import entry_definition

    text = ("fetch_nests()\n\nfetch_nests(*fields)\n\nReturns a NestSet that will follow colony "
            "links.\n\nYou can chain fetch_nests calls.")
    assert entry_definition(text) == (["fetch_nests"], "Returns a NestSet that will follow colony "
                                                       "links.")
    assert entry_definition("Chaining fetch_nests calls works.\n\nMore.") is None
    assert entry_definition("git-gc(1)\n\nCleanup unnecessary files.") is None


@pytest.mark.parametrize(("name", "opening"), [
    ("fetch_nests", "Returns a NestSet that will follow colony links"),
    ("gather_chicks", "Returns a NestSet that will fetch, in one batch per link"),
])
def test_what_a_function_does_is_answered_by_its_entry(tmp_path: Path, name: str,
                                                       opening: str) -> None:
    first, report = _first_answer(tmp_path, {"nestsets.html": PAGE}, f"What does {name}() do?")
    assert first.startswith(f"- `{name}`: {opening}"), report


def _cmake_page(name: str, what: str) -> str:
    """A page whose heading is the command's name alone, as CMake's reference writes each."""
    usage = (f"<p>Any leading -D on an item will be removed. Empty items are ignored.</p>"
             f"<pre>{name}(foo PUBLIC FOO)\n{name}(foo PUBLIC -DFOO)  # -D removed\n"
             f"{name}(foo PUBLIC -D FOO)</pre>")
    return (f"<html><head><title>{name} — Heronry 3.25 Documentation</title></head><body>"
            f'<section id="{name}"><h1>{name}<a class="headerlink" href="#{name}">¶</a></h1>'
            f"<p>New in version 3.5.</p><p>{what}</p><pre>{name}(&lt;target&gt; [items...])</pre>"
            f"<p>The named target must have been created by a command.</p>"
            + "".join(f"<p>The {name} keywords are required ({n}); they populate the census "
                      f"property of the target in the order called.</p>" for n in range(12))
            + usage * 3 + "</section></body></html>")


def test_what_a_command_does_is_answered_by_the_page_its_name_heads(tmp_path: Path) -> None:
    # trial 63: CMake heads each page by the name alone ("target_compile_definitions"); its
    # summary "Add compile definitions to a target." was passed over for "Any leading -D on an
    # item will be removed." of the page's third passage; a version note came between
    name = "heron_compile_counts"
    page = _cmake_page(name, "Add census counts to a target.")
    first, report = _first_answer(tmp_path, {f"{name}.html": page}, f"What does {name} do?")
    assert first.startswith(f"- `{name}`: Add census counts to a target."), report


def test_an_entry_inside_a_passage_of_short_entries_answers_for_its_name(tmp_path: Path) -> None:
    # trial 63, F2: curl's DYNBUF.md writes its functions as "## `Curl_dyn_add`", a synopsis,
    # one line; several share a passage, and "What does Curl_dyn_add do?" was answered by the
    # passage's first entry, "`Curl_dyn_free`: Free the associated memory and clean up."
    entries = [("nest_free", "Free the memory a nest list holds and clean up."),
               ("nest_addn", "Append a given number of heron nests to the end of the list."),
               ("nest_add", "Append one counted heron nest to the end of the list."),
               ("nest_addf", "Append a nest described by a format string to the list.")]
    body = "".join(f"## `{name}`\n\n```c\nint {name}(struct nests *s, const char *x);\n```\n\n"
                   f"{line}\n\n" for name, line in entries)
    text = f"# nests\n\nThe module for dynamic nest lists of a heron census.\n\n{body}"
    first, report = _first_answer(tmp_path, {"NESTS.md": text}, "What does nest_add do?")
    assert first.startswith("- `nest_add`: Append one counted heron nest"), report


def test_a_texinfo_definition_answers_for_its_plain_named_function(tmp_path: Path) -> None:
    # trial 68, F1: Octave heads each function with its forms, "fzero (fun, x0) / [x, fval] =
    # fzero (...)", and names it in plain lower case; "What does the fzero function do?" was
    # answered by another entry's "See also: fzero, fminbnd, fminunc, fminsearch."
    dt = ('<dt id="index-{0}"><span class="category">: </span><span><em></em> <strong>{0}'
          '</strong> <em>({1})</em><a href="#index-{0}" class="copiable-anchor"> &para;</a>'
          '</span></dt>')
    entry = ('<dl class="def">' + dt.format("nestzero", "fun, x0") + dt.format(
        "nestzero", "fun, x0, options") + "<dd><p>Find a zero of a heron census function.</p>"
        "<p>fun is a function handle; the census counts nests around x0 with it.</p>"
        "</dd></dl>")
    other = ('<dl class="def">' + dt.format("nestmin", "fun, a, b") + "<dd><p>Find the "
             "smallest census count between a and b.</p><p><strong>See also:</strong> nestzero, "
             "nestmin, nestmax, nestsearch.</p></dd></dl>")
    page = "<html><head><title>{0}</title></head><body><h2>{0}</h2>{1}</body></html>"
    first, report = _first_answer(tmp_path, {"solvers.html": page.format("Solvers", entry),
                                             "minimizers.html": page.format("Minimizers", other)},
                                  "What does the nestzero function do?")
    assert first.startswith("- `nestzero`: Find a zero of a heron census function."), report
