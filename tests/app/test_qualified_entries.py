"""A qualified name asked (``attrs.evolve``) is answered by its own entry, not an alias's or a
method's of the same last name (attrs' API page: "attr.evolve(): Same as attrs.evolve." and
``Attribute.evolve(**changes)`` tied with ``attrs.evolve(inst, **changes)``, FTS5's order put
them first, the per-document cap cut the entry asked, and the Answer was the circular "Same as
attrs.evolve.", trial 84, F3)."""

from __future__ import annotations

from pathlib import Path

from tests.app.report_rows import first_answer


def _entry(prename: str, name: str, args: str, text: str) -> str:
    return (f'<dl class="py function"><dt class="sig sig-object py" id="{prename}{name}">'
            f'<span class="sig-prename descclassname">{prename}</span><span class="sig-name '
            f'descname">{name}</span>({args})</dt><dd><p>{text}</p></dd></dl>\n')


API = ("<html><head><title>API Reference — quill documentation</title></head><body>"
       "<h1>API Reference</h1><h2>Core</h2>"
       + _entry("", "evolve", "**changes", "Copy self and apply changes. This works similarly "
                "to quill.evolve() but that function does not respect the aliases.")
       + _entry("quills.", "evolve", "inst, **changes", "Create a new instance, based on inst "
                "with changes applied.")
       + "<h2>Deprecated APIs</h2>"
       + _entry("quill.", "evolve", "", "Same as quills.evolve.")
       + "</body></html>")


def test_the_qualified_names_own_entry_answers(tmp_path: Path) -> None:
    intro = ("<html><head><title>Overview</title></head><body><h1>Overview</h1><p>Quills "
             "write classes for you; evolve copies an instance.</p></body></html>")
    report, first = first_answer(tmp_path, {"api.html": API, "intro.html": intro},
                                 "What does quills.evolve do?")
    assert "Create a new instance, based on inst with changes applied." in first, report


CONFIGURATION = """Configuration options
=====================

Server options
--------------

server.bind
  IP address, hostname or absolute path to the unix-domain socket the server listens on

  Default: bind to all interfaces

server.max-keep-alive-requests
  maximum number of request within a keep-alive session before the server
  terminates the connection

  Default: 128

server.max-keep-alive-idle
  maximum number of seconds until a idling keep-alive connection is dropped

  Default: 30

server.max-read-idle
  maximum number of seconds until a waiting, non keep-alive read times out
  and closes the connection

  Default: 60
"""
TUNING = """Tuning timeouts
===============

To free up connections more quickly, tune down the idle timeouts for how long the server
waits, or how long it waits for the next keep-alive request.

* server.max-keep-alive-idle = 5
* server.max-keep-alive-requests = 100

Generally, server.max-keep-alive-requests should not be set to 0 since setting up a new
connection takes more resources than keeping an open idle fd, and a max keep-alive idle of a
few seconds is enough.
"""


def test_a_plain_text_definition_lists_entry_answers(tmp_path: Path) -> None:
    # trial 84: lighttpd's configuration.txt writes each setting as a term line and an indented
    # description without a full stop; "What does server.max-keep-alive-idle do?" was answered
    # from the tuning page, which names every word of it
    report, first = first_answer(tmp_path, {"configuration.txt": CONFIGURATION,
                                            "performance.txt": TUNING},
                                 "What does server.max-keep-alive-idle do?")
    assert "maximum number of seconds until a idling keep-alive connection is dropped" in first, (
        report)


def _member(owner: str, name: str, args: str, text: str) -> str:
    # Sphinx's method entry: its class only in the id, no prefix shown
    return (f'<dl class="py method"><dt class="sig sig-object py" id="quill.http.{owner}.{name}">'
            f'<span class="sig-name descname"><span class="pre">{name}</span></span>({args})'
            f'</dt><dd><p>{text}</p></dd></dl>\n')


def test_a_class_members_entry_is_named_with_its_class(tmp_path: Path) -> None:
    # trial 89, F4: Scrapy's Request.replace and Response.replace read as one "replace", and
    # "What does Request.replace do?" was answered with "Returns a Response object ..."
    page = ("<html><head><title>Requests and Responses</title></head><body>"
            "<h1>Requests and Responses</h1>"
            '<dl class="py class"><dt id="quill.http.Response"><span class="sig-prename '
            'descclassname">quill.http.</span><span class="sig-name descname">Response</span>'
            "(url)</dt><dd><p>A Response object is an HTTP response.</p>"
            + _member("Response", "replace", "[url, status]", "Returns a Response object with "
                      "the same members, except those given new values.")
            + "</dd></dl>"
            '<dl class="py class"><dt id="quill.http.Request"><span class="sig-prename '
            'descclassname">quill.http.</span><span class="sig-name descname">Request</span>'
            "(url)</dt><dd><p>A Request object is an HTTP request.</p>"
            + _member("Request", "replace", "[url, method]", "Return a Request object with the "
                      "same members, except those given new values.")
            + "</dd></dl></body></html>")
    from workers.sources.htmlpage import html_page

    headings = [h for h, _text in html_page(page).sections]
    assert "Request.replace([url, method])" in headings, headings
    assert "quill.http.Request(url)" in headings, headings  # a prefix shown: left as it is
    report, first = first_answer(tmp_path, {"api.html": page}, "What does Request.replace do?")
    assert "Return a Request object" in first, report


def test_a_member_whose_class_is_shown_in_a_link_is_not_named_twice() -> None:
    # trial 123, F6: SQLAlchemy's theme writes the class in a link, no descclassname, and the
    # entry was "method sqlalchemy.orm.SessionEvents.SessionEvents.after_commit(session)"
    from workers.sources.htmlpage import html_page

    page = ("<html><head><title>ORM Events</title></head><body><h1>ORM Events</h1>"
            '<dl class="py method"><dt class="sig sig-object py" '
            'id="sqlalchemy.orm.SessionEvents.after_commit"><em class="property"><span '
            'class="pre">method</span> </em><a class="reference internal" '
            'href="#sqlalchemy.orm.SessionEvents"><code class="docutils literal"><span '
            'class="pre">sqlalchemy.orm.SessionEvents.</span></code></a><span class="sig-name '
            'descname"><span class="pre">after_commit</span></span>(session)</dt>'
            "<dd><p>Execute after a commit has occurred.</p></dd></dl></body></html>")
    headings = [h for h, _text in html_page(page).sections]
    assert "method sqlalchemy.orm.SessionEvents.after_commit(session)" in headings, headings
