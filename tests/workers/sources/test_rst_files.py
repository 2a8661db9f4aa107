"""A reStructuredText file is read as its reader sees it (trial 62, F1, F3 and F6): pip's manual
ships as .rst, and its pages were titled by file name, had no headings, and reports quoted
``:ref:`Requirements Files```, ``from `PyPI`_,``, ``.. _`open an issue`: https://...`` and a
literal block's lines as a sentence."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus
from workers.sources.rsttext import rst_text

PAGE = """.. _user-guide:

==========
User Guide
==========

.. contents::
   :local:

Constraints Files
=================

Constraints files are requirements files that only control which version of a
requirement is installed, not whether it is installed. See :ref:`Requirements
Files <requirements-files>` and `PyPI`_, or :py:func:`~pip.main.install`.

.. note::

   Constraints files are not a substitute for ``pip
   install --require-hashes``.

Use them like so::

    python -m pip install -c constraints.txt

.. code-block:: shell

   py -m pip install -c constraints.txt

.. toctree::
   :maxdepth: 2

   reference/requirements

.. _PyPI: https://pypi.org/
.. |release| replace:: 23.0

.. a comment that no reader sees
   on two lines

Installing From Wheels
======================

A wheel is a built package, installed as it is.
"""


def test_roles_links_targets_and_directives_read_as_their_words() -> None:
    text = rst_text(PAGE)
    for markup in (":ref:", ":py:func:", "`_", ".. _", "|release|", "toctree", "maxdepth",
                   "comment", "contents::", "``pip"):
        assert markup not in text, (markup, text)
    assert "See Requirements Files and PyPI, or install." in " ".join(text.split())
    assert "Note: \n" in text or "Note:\n" in text
    assert "`pip install --require-hashes`" in " ".join(text.split())
    assert "Use them like so:\n\n```\npython -m pip install -c constraints.txt\n```" in text
    assert "```shell\npy -m pip install -c constraints.txt\n```" in text


def test_a_rst_page_is_titled_and_cut_at_its_titles(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "user_guide.rst").write_text(PAGE, encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        [hit] = corpus.search("What is a wheel?", k=1)
        [constraints] = corpus.search("constraints files control which version", k=1)
    assert hit.title == "User Guide" and hit.heading == "Installing From Wheels", hit
    assert constraints.heading == "Constraints Files"
    assert constraints.text.startswith("Constraints Files\n\nConstraints files are requirements")


def test_version_notes_keep_their_version_and_what_they_say() -> None:
    text = rst_text(".. versionadded:: 3.2\n\n   Constraints files.\n\n.. versionchanged:: 2.5 "
                    "The *spam* parameter.\n\n.. deprecated::\n")
    assert text.split("\n\n") == ["New in version 3.2.", "   Constraints files.",
                                  "Changed in version 2.5. The *spam* parameter.",
                                  "Deprecated since version.\n"], text


def test_a_signature_is_kept_and_an_unknown_directives_argument_is_not() -> None:
    # Trial 62: pip's own directives (.. pip-command-usage:: download) left "download" as a
    # line of the page; an object's signature is the entry's own text
    text = rst_text(".. pip-command-usage:: download\n\n.. py:function:: walk(top, "
                    "topdown=True)\n\n   Walk a tree.\n\n.. option:: --no-deps\n\n   Don't "
                    "install dependencies.\n")
    assert text.strip("\n").split("\n\n") == [
        "walk(top, topdown=True)", "   Walk a tree.", "--no-deps",
        "   Don't install dependencies."], text


def test_a_python_files_docstrings_are_read_without_their_rest_markup(tmp_path: Path) -> None:
    # Trial 125, F11 (S8): a docstring's reST is reST wherever it is written; Sphinx's
    # example_google.py was quoted with "`Google Python Style Guide`_"
    root = tmp_path / "docs"
    root.mkdir()
    (root / "example_google.py").write_text(
        '"""Herons, as specified by the `Google Python Style Guide`_.\n\n'
        '.. _Google Python Style Guide:\n   https://google.github.io/styleguide/\n"""\n\n\n'
        'def count(nests):\n    """Count the ``nests`` with :func:`~heron.tally`."""\n')
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        text = corpus.read("example_google.py").text
    assert "Herons, as specified by the Google Python Style Guide." in text, text
    assert "Count the `nests` with tally." in text, text
