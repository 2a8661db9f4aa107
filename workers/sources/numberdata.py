"""Text files that hold data, not prose: columns of numbers a plotting program reads (trial
115, F12: gnuplot's ``examples/random-points``, ``gnu-valley`` and ``GM1_bonds.r3d``, files
without an extension, were read as text, ``random-points`` as 28 passages of numbers, while
the same data named ``.dat`` was passed over as a file of another type). Such a file is
passed over by what it holds, whatever its name. Standard library only.

A table a person reads is no data: its title or its header row of words stands above its rows
("AWG copper wire table", "AWG  diameter_mm  area_mm2 ...", or "quill   Python" over the
Python versions of each release), and such a file was skipped as numbers and its question,
"What is the diameter of 14 AWG wire?", answered from nothing (trial 119, F10). A plot's data
says what its columns are in a comment, if at all (``# Uniform  Normal``, gnuplot's).
"""

from __future__ import annotations

import re

__all__ = ["MIN_DATA_WORDS", "NUMBER_DATA", "NUMBER_SHARE", "is_number_data"]

NUMBER_SHARE = 0.8
"""A text is data when at least this share of its words are numbers; a table in prose, a
changelog's versions and dates (``2.3.1``, ``2020-01-08``: no numbers here) stay far under."""

MIN_DATA_WORDS = 20
"""... and it has this many words at least: a short note of figures ("1 2 3") is left be."""

NUMBER_DATA = "numbers (data, not prose)"
"""The note on a file passed over so (after its path and "skipped, ")."""

_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?,?")

MIN_HEAD_WORDS = 2
"""A title or header row above the numbers holds this many words (with a letter) at least."""

_COMMENT = re.compile(r"\s*(?:#|%|;|!|//)")
"""A comment line of a data file (gnuplot's ``#``, Octave's ``%``): what a program skips."""

_LETTER = re.compile(r"[^\W\d_]")


def _worded_head(lines: list[str]) -> bool:
    """Whether the ``lines`` above the first row of numbers, comments aside, hold a title or a
    header row of words (:data:`MIN_HEAD_WORDS`): a table a person reads, not data.

    Example:
        >>> _worded_head(["quill   Python", "1.0     3.6  3.7"])
        True
        >>> _worded_head(["# Uniform  Normal", "0.14 -0.22"])
        False
    """
    words = 0
    for line in lines:
        parts = line.split()
        if parts and sum(1 for w in parts if _NUMBER.fullmatch(w)) >= NUMBER_SHARE * len(parts):
            break  # the first row of numbers
        if parts and not _COMMENT.match(line):
            words += sum(1 for w in parts if _LETTER.search(w))
    return words >= MIN_HEAD_WORDS


def is_number_data(text: str) -> bool:
    """Whether ``text`` is data: :data:`NUMBER_SHARE` of its words (at least
    :data:`MIN_DATA_WORDS`) are numbers (``-0.2288``, ``1.2e-5``, ``10``), and no title or
    header row of words stands above them (:func:`_worded_head`).

    Example:
        >>> is_number_data("# Uniform Normal\\n" + "0.14 -0.22 1.0e-3 1.2\\n" * 10)
        True
        >>> is_number_data("Version 2.3.1 was released on 2020-01-08 with 12 fixes. " * 5)
        False
        >>> is_number_data("0 0 10\\n0 1 10")
        False
        >>> is_number_data("AWG copper wire table\\n" + "14   1.628  2.08  8.286  15\\n" * 8)
        False
    """
    words = text.split()
    if len(words) < MIN_DATA_WORDS:
        return False
    numbers = sum(1 for word in words if _NUMBER.fullmatch(word))
    return numbers >= NUMBER_SHARE * len(words) and not _worded_head(text.splitlines())
