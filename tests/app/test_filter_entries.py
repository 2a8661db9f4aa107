""""What does the truncate filter do?" over Jinja's manual opened its Answer with "If the second
parameter is true the filter will cut the text at length." (trial 73, F4): the entry's first
sentence, "Return a truncated copy of the string.", was under a Sphinx signature whose name is
qualified with a hyphen (``jinja-filters.truncate(s: str, ..., end: str = '...')``), read
as no signature, and too long and quoted for a heading; and "filter" was no word for a kind, so
"truncate" was a word like any other."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import AS_OF, run_cli
from workers.sources.entries import signature_name
from workers.sources.query import search_query

_SIG = ('<dt class="sig sig-object py" id="quill-filters.{name}"><span class="sig-prename">'
        'quill-filters.</span><span class="sig-name">{name}</span>(<em>s: str</em>, <em>length: '
        "int = 255</em>, <em>killwords: bool = False</em>, <em>end: str = '...'</em>, <em>leeway:"
        ' Optional[int] = None</em>) \u2192 str<a class="headerlink" href="#quill-filters.{name}"'
        ">\u00b6</a></dt>")
PAGE = ("<html><head><title>Template Designer Documentation</title></head><body>"
        "<h1>Builtin Filters</h1><dl class='py function'>"
        + _SIG.format(name="shorten")
        + "<dd><p>Return a shortened copy of the string. The length is specified with the first "
        "parameter which defaults to 255. If the second parameter is true the filter will cut "
        "the text at length. Otherwise it will discard the last word. If the text was in fact "
        "shortened it will append an ellipsis sign. If you want a different ellipsis sign you "
        "can specify it using the third parameter. Strings that only exceed the length by the "
        "tolerance margin given in the fourth parameter will not be shortened.</p>"
        "<pre>{{ 'foo bar'|shorten(5) }}</pre>"
        "<p>The default leeway is 5 and can be reconfigured globally.</p></dd></dl>"
        "<dl class='py function'>" + _SIG.format(name="widen") + "<dd><p>Return a widened copy "
        "of the string, padded to the length given.</p></dd></dl></body></html>")
POLICIES = ("<html><head><title>API</title></head><body><h1>Policies</h1><p>Policies can be "
            "configured on the environment which can slightly influence how a filter and other "
            "template constructs behave, such as the shorten filter's leeway.</p></body></html>")


def test_a_qualified_name_with_a_hyphen_is_a_signature() -> None:
    assert signature_name("quill-filters.shorten(s: str, end: str = '...') \u2192 str") == "shorten"
    assert signature_name("git-gc(1)") == ""


def test_filter_is_a_kind_the_question_names() -> None:
    query = search_query("What does the shorten filter do?")
    assert query is not None and query.terms == ("shorten",) and query.context == ("filter",)


def test_the_answer_opens_with_the_entrys_first_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "html"
    folder.mkdir()
    (folder / "templates.html").write_text(PAGE, encoding="utf-8")
    (folder / "api.html").write_text(POLICIES, encoding="utf-8")
    proc = run_cli("research", "What does the shorten filter do?", "--as-of", AS_OF, "--corpus",
                   folder, "--data-dir", tmp_path / "data", "--json")
    assert proc.returncode == 0, proc.stderr
    report = Path(json.loads(proc.stdout)["report_path"]).read_text("utf-8")
    answer = report.split("## Answer\n", 1)[1].split("\n## ", 1)[0]
    first = answer.strip().splitlines()[0]  # the entry's definition, under its name
    assert first.startswith("- `shorten`: Return a shortened copy of the string."), report
