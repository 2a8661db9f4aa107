"""Text files that hold data, not prose: columns of numbers a plotting program reads (trial
115, F12: gnuplot's ``examples/random-points``, ``gnu-valley`` and ``GM1_bonds.r3d``, files
without an extension, were read as text, ``random-points`` as 28 passages of numbers, while
the same data named ``.dat`` was passed over as a file of another type). Such a file is
passed over by what it holds, whatever its name. Standard library only.
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


def is_number_data(text: str) -> bool:
    """Whether ``text`` is data: :data:`NUMBER_SHARE` of its words (at least
    :data:`MIN_DATA_WORDS`) are numbers (``-0.2288``, ``1.2e-5``, ``10``).

    Example:
        >>> is_number_data("# Uniform Normal\\n" + "0.14 -0.22 1.0e-3 1.2\\n" * 10)
        True
        >>> is_number_data("Version 2.3.1 was released on 2020-01-08 with 12 fixes. " * 5)
        False
        >>> is_number_data("0 0 10\\n0 1 10")
        False
    """
    words = text.split()
    if len(words) < MIN_DATA_WORDS:
        return False
    numbers = sum(1 for word in words if _NUMBER.fullmatch(word))
    return numbers >= NUMBER_SHARE * len(words)
