"""A name among a call signature's arguments is no name of the signature's entry (trial 117,
F2): Jinja's ``class jinja2.Template(source, ..., trim_blocks=False, ...)`` lists
``trim_blocks`` among its parameters, and "What does the trim_blocks option do?" was answered
"`trim_blocks`: A compiled template that can be rendered." while the option's own entry,
"trim_blocks: If this is set to True the first newline after a block is removed", lay in
``class jinja2.Environment([options])``'s parameter list. The entry is labelled, judged and
ranked by the name outside the brackets."""

from __future__ import annotations

import json
from pathlib import Path

from app.research.neighbours import about_neighbour, entry_names
from app.research.own import _place_name
from tests.app.report_rows import answer_section
from tests.conftest import AS_OF, run_cli

_NEST = ("class heronry.Nest(source, perch_start='{%', perch_end='%}', perch_blocks=False, "
         "lstrip_perches=False, keep_feathers=False, autoescape=False)")


def test_a_signatures_arguments_are_not_its_entrys_names() -> None:
    assert entry_names(_NEST) == {"heronry.nest"}
    assert entry_names("perch_blocks (bool) –") == {"perch_blocks"}


def test_a_signatures_sentence_is_not_shown_under_an_argument() -> None:
    assert _place_name(_NEST, "A compiled nest that can be rendered.", {"perch_blocks"}) == ""


def test_a_signatures_sentence_is_a_neighbours_for_an_argument_asked() -> None:
    passage = f"{_NEST}\n\nA compiled nest that can be rendered."
    assert about_neighbour("A compiled nest that can be rendered.", passage, {"perch_blocks"},
                           _NEST)


def _param(name: str, what: str) -> str:
    return f"<dt><cite>{name}</cite></dt><dd><p>{what}</p></dd>"


_ARGS = ", ".join(f'<em class="sig-param">{a}</em>' for a in _NEST.split("(", 1)[1][:-1]
                  .split(", "))
PAGE = (
    "<html><head><title>API — Heronry 3.1 documentation</title></head><body><h1>API</h1>"
    '<dl class="py class"><dt class="sig sig-object py" id="heronry.Roost"><em>class </em>'
    "heronry.Roost([options])</dt><dd><p>The core component of Heronry is the Roost.</p>"
    "<p>Here are the possible initialization parameters:</p><dl>"
    + _param("perch_start", "The string marking the beginning of a perch. Defaults to '{%'.")
    + _param("perch_end", "The string marking the end of a perch. Defaults to '%}'.")
    + _param("perch_blocks", "If this is set to True the first newline after a perch is "
             "removed. Defaults to False.")
    + _param("lstrip_perches", "If this is set to True leading spaces are stripped from the "
             "start of a line to a perch. Defaults to False.")
    + _param("keep_feathers", "Keep a single trailing feather when rendering. Defaults to False.")
    + _param("autoescape", "If set to True the XML/HTML autoescaping feature is enabled.")
    + "</dl></dd></dl>"
    '<dl class="py class"><dt class="sig sig-object py" id="heronry.Nest"><em>class </em>'
    f"heronry.Nest({_ARGS})</dt><dd><p>A compiled nest that can be rendered.</p>"
    "<p>Use the methods on Roost to create or load nests. The roost is used to configure how "
    "nests are compiled and behave.</p></dd></dl></body></html>")


def test_the_options_entry_answers_not_a_signature_listing_it(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "api.html").write_text(PAGE, encoding="utf-8")
    proc = run_cli("research", "What does the perch_blocks option do?", "--as-of", AS_OF,
                   "--corpus", folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    answer = answer_section(report).strip()
    assert "first newline after a perch is removed" in answer.splitlines()[0], report
    assert "compiled nest" not in answer, report
