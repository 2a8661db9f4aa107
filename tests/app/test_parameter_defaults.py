"""A parameter's default is its own entry's (trial 110, F3; trial 111, F2): Sphinx writes a
parameter list as ``name (type) – description``, and "What is the default request_timeout of
HTTPRequest?" was answered by ``ca_certs``'s "or None to use defaults"; "What is the default
baselevel of the toc extension?" took "extension" for a word of what it asks about, and a
sentence on ``markdown.extensions...`` answered it."""

from __future__ import annotations

from pathlib import Path

from tests.app.report_rows import first_answer

PARAMS = ("request_timeout", "Timeout for entire request in seconds, default 20 seconds (0 "
          "means no timeout)"), ("ca_certs", "filename of CA certificates in PEM format, or "
                                 "None to use defaults"), ("max_redirects", "Limit for "
                                                            "follow_redirects, default 5")
HTTPCLIENT = ("<html><head><title>tornado.httpclient</title></head><body>"
              '<dl class="py class"><dt class="sig sig-object py" id="HTTPRequest">'
              "<em>class</em> <span>tornado.httpclient.HTTPRequest</span>(<em>url: str</em>, "
              "<em>request_timeout: float = None</em>, <em>ca_certs: str = None</em>)</dt><dd>"
              "<p>HTTP client request object.</p><dl class=\"field-list simple\"><dt>Parameters"
              "</dt><dd><ul class=\"simple\">"
              + "".join(f"<li><p><strong>{n}</strong> (<em>float</em>) – {d}</p></li>"
                        for n, d in PARAMS)
              + "</ul></dd></dl></dd></dl></body></html>")
TOC = """# Table of Contents

Usage: add toc to the extensions. An alternate version of the default callable supporting
Unicode strings is also provided as markdown.extensions.headerid.slugify_unicode.

## Options

* **baselevel**: Base level for headers. Defaults to `1`.

    The baselevel setting allows the header levels to be automatically adjusted to fit
    within the hierarchy of your HTML templates.

* **toc_depth**: Define the range of section levels to include in the table of contents.
"""


def test_a_sphinx_parameters_default_is_its_own_line(tmp_path: Path) -> None:
    report, first = first_answer(tmp_path, {"httpclient.html": HTTPCLIENT},
                                 "What is the default request_timeout of HTTPRequest?")
    assert "request_timeout (float) – Timeout for entire request" in first, report
    assert "ca_certs" not in report.split("## Sources")[0].split("## Caveats")[0], report


def test_the_kind_of_a_thing_named_is_no_word_of_the_subject(tmp_path: Path) -> None:
    report, first = first_answer(tmp_path, {"toc.md": TOC},
                                 "What is the default baselevel of the toc extension?")
    assert "Defaults to `1`" in first or "Defaults to 1" in first, report
