"""The heading a sentence sits under in a passage: a markdown ``##`` or underlined heading, a
short title line alone, an admonition (``!!! warning``, ``.. note::``) or a docstring's section
label (``Note:``, ``Args:``). The caveat picker reads a sentence under a "Warning" or
"Limitations" heading as a caution. A letter's salutation or sign-off is no title line
(:func:`workers.sources.textsections.letter_line`). Standard library and that.
"""

from __future__ import annotations

import re

from workers.sources.textsections import letter_line

__all__ = ["asks_as_heading", "heading_at", "heading_line", "heading_of", "passage_headings",
           "section_title"]


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
    """``(end offset, title)`` of the headings of a passage, in order."""
    out = []
    for match in _HEADING_LINE.finditer(text):
        if match.group("label"):  # a docstring's "Note:" is an admonition: a caution's place
            out.append((match.end(), "Warning"))
            continue
        title = (match.group("atx") or match.group("setext") or match.group("short")
                 or match.group("adm") or match.group("rst") or match.group("section")
                 or "").replace('"', "")
        if len(title.split()) <= 8 and not (match.group("short") and letter_line(title)):
            out.append((match.end(), title.strip()))
    return out


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
