"""The heading a sentence sits under in a passage: a markdown ``##`` or underlined heading, a
short title line alone, an admonition (``!!! warning``, ``.. note::``) or a docstring's section
label (``Note:``, ``Args:``). The caveat picker reads a sentence under a "Warning" or
"Limitations" heading as a caution. A letter's salutation or sign-off is no title line
(:func:`workers.sources.textsections.letter_line`). Standard library and that.
"""

from __future__ import annotations

import re

from workers.sources.textsections import letter_line

__all__ = ["asks", "asks_as_heading", "heading_at", "heading_line", "heading_of",
           "passage_headings", "section_title"]


_HEADING_LINE = re.compile(
    r"^ {0,3}#{1,6}[ \t]+(?P<atx>[^\n]+?)[ \t#]*$"  # markdown: ## Limitations
    r"|^(?P<setext>[^\n]*\w[^\n]*)\n {0,3}(?:=+|-+|~+|\^+)[ \t]*$"  # Limitations\n======
    r"|(?:\A|\n\n)(?P<short>[A-Z][^\n.!?:;,]{0,60})(?=\n\n|\Z)"  # a short title line alone
    r"|^[ \t]*(?:!!!|\?\?\?\+?)[ \t]*(?P<adm>[\w-]+(?:[ \t]+\"[^\"\n]*\")?)[ \t]*$"  # !!! warning
    r"|^[ \t]*\.\.[ \t]+(?P<rst>[\w-]+)::"  # .. warning::
    r"|^[ \t]*(?P<label>(?i:note|notes|warning|warnings|caution|important|danger|attention)):"
    r"[ \t]*$"  # a docstring's "Note:" section
    r"|^[ \t]*(?P<section>[A-Z][A-Za-z ]{0,30}):[ \t]*$",  # "Args:", "Returns:"
    re.MULTILINE,
)


def passage_headings(text: str) -> list[tuple[int, str]]:
    """``(end offset, title)`` of the headings of a passage, in order. A label whose body is
    indented under it (an admonition, ``!!! warning``, ``.. note::``, a docstring's ``Note:``
    or ``Returns:``) heads its body only: where the text comes back to the label's indent, the
    heading before it holds again (:func:`_body_end`).

    Example:
        >>> text = 'Relays.\\n\\n!!! warning "Beta"\\n\\n    May change.\\n\\nStations.'
        >>> [title for _end, title in passage_headings(text)]
        ['warning Beta', '']
        >>> heading_of(text, "May change."), heading_of(text, "Stations.")
        ('warning Beta', '')
    """
    out: list[tuple[int, str]] = []
    for match in _HEADING_LINE.finditer(text):
        if match.group("label"):  # a docstring's "Note:" is an admonition: a caution's place
            title = "Warning"
        else:
            title = (match.group("atx") or match.group("setext") or match.group("short")
                     or match.group("adm") or match.group("rst") or match.group("section")
                     or "").replace('"', "").strip()
            if len(title.split()) > 8 or (match.group("short") and letter_line(title)):
                continue
        before = heading_at(out, match.start())
        out.append((match.end(), title))
        if any(match.group(g) for g in ("label", "adm", "rst", "section")):
            if (end := _body_end(text, match.start(), match.end())) is not None:
                out.append((end, before))
        out.sort(key=lambda heading: heading[0])  # a label in a body: its end comes first
    return out


_LINE_INDENT = re.compile(r"^([ \t]*)\S", re.MULTILINE)
"""A line that is not blank, its indent first."""


def _body_end(text: str, start: int, end: int) -> int | None:
    """Where the indented body of the label at ``start:end`` of ``text`` ends: the start of the
    first line after it that is indented no deeper than the label's line; None when its body is
    not indented (text at its own indent under "Note:" is its body, as it always was) or runs to
    the text's end. DeltaChannelHistory's field list, after its ``!!! warning "Beta"`` block,
    sat under "warning Beta", and its "`writes` — on-path deltas oldest→newest as
    `PendingWrite` tuples." was a Caveat of the README's own run (L1-F3).

    Example:
        >>> _body_end("!!! note\\n    Body.\\n\\nAfter.", 0, 8)
        20
        >>> _body_end("Note:\\nBody.\\n\\nAfter.", 0, 5) is None
        True
    """
    line = text[text.rfind("\n", 0, start) + 1:]
    indent = len(line) - len(line.lstrip(" \t"))
    eol = text.find("\n", end) if "\n" in text[end:] else len(text)
    lines = list(_LINE_INDENT.finditer(text, eol + 1))
    if not text[end:eol].strip() and (not lines or len(lines[0].group(1)) <= indent):
        return None  # nothing on its line (".. note:: text" has) and no indented line below
    return next((m.start() for m in lines if len(m.group(1)) <= indent), None)


def heading_at(headings: list[tuple[int, str]], offset: int) -> str:
    """The title of the last heading that ends before ``offset``; "" when none does."""
    found = ""
    for end, title in headings:
        if end > offset:
            break
        found = title
    return found


def heading_of(text: str, sentence: str) -> str:
    """The heading ``sentence`` sits under in the passage ``text`` (a markdown ``##`` or
    underlined heading, or a short title line alone), "" when none or when it is not in it.

    Example:
        >>> heading_of("# Egrets\\n\\nThey nest.\\n\\n## Limitations\\n\\nCounts miss nests.",
        ...            "Counts miss nests.")
        'Limitations'
        >>> heading_of("Herons nest.\\n\\nBest regards\\n\\n    Ann Heron", "Ann Heron")
        ''
    """
    offset = text.find(sentence)
    return heading_at(passage_headings(text), offset) if offset >= 0 else ""


_ASKS = re.compile(
    r"^\W*(?i:what|why|how|when|where|which|who|whose|is|are|do|does|did|can|could|should|"
    r"would|will|has|have)\b.*[\w)\]\"'\u2019`]\?[\"'\u2019)\]]*\s*$"
    r"|^\W*(?i:are|is|do|does|did|have|has|can|could|would|should|will|want|ever)\s+"
    r"(?i:you|we|i|it|there)\b", re.DOTALL)
"""A question: a sentence opening with an interrogative or a verb and ending in a question
mark (not a wildcard "?" apart; a statement quoting a question, "The notes ask: What is it?",
states), or opening with a verb before its subject, as one put to the reader does whatever
ends it ("Are you tired of writing docstrings that look like this:", trial 125, F10)."""


def asks(sentence: str) -> bool:
    """Whether ``sentence`` is a question (:data:`_ASKS`): it asks, it answers nothing, so it
    is no finding and no passage's excerpt (README.Debian's "What is /etc/bash.bashrc? It
    doesn't seem to be documented." was one, trial 125, F10).

    Example:
        >>> asks("What is /etc/bash.bashrc?"), asks("Are you tired of docstrings like this:")
        (True, True)
        >>> asks("?: Matches any single character."), asks("The notes ask: What is it?")
        (False, False)
    """
    return _ASKS.search(sentence.strip()) is not None

def asks_as_heading(sentence: str, heading: str) -> bool:
    """Whether ``sentence`` is its section's ``heading`` and a question: no finding, as a FAQ's
    heading asks whether or not it opens with an interrogative (Scrapy's "Simplest way to dump
    all my scraped items into a JSON/CSV/XML file?" was one, trial 89, F7).

    Example:
        >>> asks_as_heading("Simplest way to dump my items?", "Simplest way to dump my items?")
        True
        >>> asks_as_heading("It ends: what is it?", "Relays")
        False
    """
    return sentence.rstrip().endswith("?") and " ".join(sentence.split()) == " ".join(
        heading.split())


def heading_line(text: str) -> str:
    """A passage's first paragraph when it is one line and more text follows it: the heading an
    HTML section's passage opens with (the search tools hand the model no heading of its own:
    Scrapy's FAQ question stayed a finding, trial 93); ``""`` otherwise.

    Example:
        >>> heading_line("Simplest way to dump items?\\n\\nTo dump into JSON: run it.")
        'Simplest way to dump items?'
        >>> heading_line("One paragraph only."), heading_line("Two\\nlines\\n\\nMore.")
        ('', '')
    """
    first, _, rest = text.strip().partition("\n\n")
    return first.strip() if rest.strip() and "\n" not in first.strip() else ""


_NUMBER = re.compile(r"^\s*(?:\d+\.)*\d+\.?\s+")


def section_title(heading: str, text: str) -> str:
    """The title of the section a sentence of a passage's ``text`` sits under, its number aside:
    ``heading`` (its heading in the passage, else the passage's own), else the heading line the
    text opens with (:func:`heading_line`; an HTML section's, trial 117, F5).

    Example:
        >>> section_title("", "12. The save command\\n\\nThis command saves a copy.")
        'The save command'
    """
    return _NUMBER.sub("", heading or heading_line(text))
