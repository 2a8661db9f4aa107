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
