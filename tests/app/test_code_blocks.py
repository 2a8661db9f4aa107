"""Code a report quotes reads as its source writes it: a block of several lines is a fenced
block under its bullet, its lines and indentation kept, and a line of code is a code span of
single backticks. Flask's "When using Application Factories:" was a Top passage as "`from flask
import Flask, render_template def page_not_found(e): return render_template('404.html'), 404
def create_app(config_filename): app = Flask(__name__)` …", neither readable nor copyable, and
git's "Finally, run ``` $ git bisect reset ``` to return you ..." showed its fences (trial 121,
F6 and F11)."""

from __future__ import annotations

from markdown_it import MarkdownIt

from app.research.report import render_markdown
from app.research.text import bullet
from tests.app.report_rows import data, item, row

ERRORS = ("When using Application Factories:\n\n```\nfrom flask import Flask, render_template\n\n"
          "def page_not_found(e):\n  return render_template('404.html'), 404\n\n"
          "def create_app(config_filename):\n    app = Flask(__name__)\n"
          "    app.register_error_handler(404, page_not_found)\n    return app\n```\n\n"
          "An example template might be this:")
Q = "How do I register a custom error page for page_not_found?"


def _report(kind: str, text: str, ref: str, q: str = Q) -> str:
    found = item(kind, text, ref, title="Handling Application Errors", score=4.0,
                 heading="Custom Error Pages")
    return render_markdown(data([row("docs_search" if kind == "passage" else "analyst", q,
                                     [found])], topic=q, sub_questions=[q]))


def test_a_top_passages_code_of_several_lines_keeps_its_lines() -> None:
    md = _report("passage", ERRORS, "errorhandling.html#17")
    assert "  def page_not_found(e):\n    return render_template('404.html'), 404\n" in md, md
    html = MarkdownIt("commonmark").render(md)
    assert ("<pre><code>from flask import Flask, render_template\n\ndef page_not_found(e):\n"
            "  return render_template('404.html'), 404\n") in html, html
    assert "render_template def page_not_found" not in md, md


def test_a_findings_code_of_several_lines_keeps_its_lines_and_its_citation() -> None:
    text = "To let it run, call\n\n```\napp = create_app()\napp.run()\n```\n\nin the script."
    md = _report("finding", text, "errorhandling.html#3", "How do I let create_app run?")
    assert "- To let it run, call [1]\n\n  ```\n  app = create_app()\n  app.run()\n  ```\n\n" \
           "  in the script.\n" in md, md
    html = MarkdownIt("commonmark").render(md)
    assert "<pre><code>app = create_app()\napp.run()\n</code></pre>" in html, html


def test_a_line_of_code_is_a_code_span_of_single_backticks() -> None:
    text = "Finally, run\n\n```\n$ git bisect reset\n```\n\nto return you to the branch."
    assert bullet(text, "[2]", 400) == (
        "- Finally, run `$ git bisect reset` to return you to the branch. [2]")
    long = "Run:\n\n```\n" + "\n".join(f"step {n}" for n in range(20)) + "\n```"
    shown = bullet(long, "[1]", 400)
    assert shown.count("\n  step ") == 12 and "\n  …\n  ```" in shown, shown
