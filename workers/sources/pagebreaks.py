"""A sentence a PDF's page break cut in two, made whole on the page where it starts.

A PDF is indexed a page at a time (``report.pdf:p48``), so a sentence running over a page
break was two fragments, and the second opened its page as if it were a sentence: "default
setting, font("OT1","cmr","m","n"), corresponds to 12pt Computer Modern Roman; this may be
changed with defaultpen(pen)." led an Answer of Asymptote's manual once the page's running
title no longer stood before it (trial 95). The fragment is moved to the end of the page
before, where its sentence begins.

This module imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

__all__ = ["MAX_CARRIED", "stitched"]

MAX_CARRIED = 400
"""The longest fragment moved (characters): a page that opens with more than this before its
first sentence ends is left as it is."""

_GOES_ON = re.compile(r"[^\W\d_][\w)\]'\u2019\"\u201d-]*,?$|,$")
"""A page's last line that stops mid-sentence: a word (or a comma, or a hyphen a word was
broken at), not a sentence's end, a colon before a listing or code's ``;`` or ``}``."""
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|cf|vs|viz|approx|resp|fig|eq|no|vol)\.$",
                           re.IGNORECASE)
"""A full stop that ends an abbreviation, not a sentence (a letter's does not: "Label L." ends
one in Asymptote's manual)."""
_FIRST_END = re.compile(r"[.!?][\"')\]\u2019\u201d]*(?=\s|$)|\n[ \t]*\n")
"""Where the fragment ends: its sentence's end, or a blank line (then nothing is moved)."""


def stitched(pages: Sequence[str], starts: Mapping[int, Sequence[str]] | None = None
             ) -> list[str]:
    """``pages`` (a file's page texts, in order) with each page's opening fragment moved to
    the end of the page before, joined by a line break (a word a hyphen broke at the page's
    end is then made whole as one broken at a line's end is): when the page before stops
    mid-sentence (:data:`_GOES_ON`) and this one opens with a lower-case letter, and the
    fragment ends its sentence within :data:`MAX_CARRIED` characters (an abbreviation's full
    stop, "e.g.", ends none: trial 100, F3). A page whose first line is the title of an outline
    entry that starts on it (``starts``: page index -> titles) keeps its opening: the title in
    lower case (``printf``) was moved to the page before (trial 100, F4).

    Example:
        >>> stitched(["The default font is the LaTeX\\n", "default setting, 12pt.\\nNext one."])
        ['The default font is the LaTeX\\ndefault setting, 12pt.', 'Next one.']
        >>> stitched(["A list:", "one item.\\nNext."])  # a colon: what follows is its own
        ['A list:', 'one item.\\nNext.']
        >>> stitched(["Cargo such as", "grain, e.g. wheat. Next."])
        ['Cargo such as\\ngrain, e.g. wheat.', 'Next.']
    """
    out = list(pages)
    for i in range(1, len(out)):
        before, lead = out[i - 1].rstrip(), out[i].lstrip()
        last = before.rsplit("\n", 1)[-1].strip()
        if not last or not lead[:1].islower() or not _GOES_ON.search(last):
            continue
        titles = {" ".join(t.split()).casefold() for t in (starts or {}).get(i, ())}
        if " ".join(lead.split("\n", 1)[0].split()).casefold() in titles:
            continue
        end = next((m for m in _FIRST_END.finditer(lead, 0, MAX_CARRIED + 1)
                    if not _ABBREVIATION.search(lead, 0, m.start() + 1)), None)
        if end is None or end.end() > MAX_CARRIED or not end.group(0).strip():
            continue
        out[i - 1] = f"{before}\n{lead[:end.end()]}"
        out[i] = lead[end.end():].lstrip()
    return out
