"""Names written in quotes: many manuals quote a setting's name ('smartcase', `max_age`,
"timeout") where others write it as code, both in their prose ("the 'ignorecase' option") and
in an entry's label (Vim's help: ``'smartcase' 'scs' boolean (default off) global`` above the
option's description). A plain word in quotes is a name only there: before the word for its
kind, or leading such a label (trial 126, F1: "What does the 'smartcase' option do?" named no
entry, and the label named none, so the option's own "Override the 'ignorecase' option if the
search pattern contains upper case characters." was never taken for its entry's sentence).

Pure: regular expressions over the text.
"""

from __future__ import annotations

import re

__all__ = ["QUOTED_KIND", "quoted_label"]

_KIND_WORDS = (r"option|setting|parameter|variable|directive|command|function|method|flag"
               r"|property|attribute|key|field|keyword|macro|builtin|event|hook|filter|module"
               r"|class|pragma|tag|element|argument|register|mapping")
QUOTED_KIND = (r"(?<![\w'\"`])(?P<q>['\"])(?P<kinded>[A-Za-z_][\w.:-]{0,59})(?P=q)"
               rf"(?=\s+(?:{_KIND_WORDS})s?\b)")
"""A word in single or double quotes before the word for its kind: "the 'smartcase' option",
'the "timeout" setting' (a pattern's text, for :data:`app.research.reference._NAME`)."""

_QUOTED = re.compile(r"(['\"`])([A-Za-z_][\w.:-]{0,59})\1")
_LEAD = re.compile(r"(?:(['\"`])[A-Za-z_][\w.:-]{0,59}\1[ \t]*)+")
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}")
_CLAUSE = re.compile(r"\b(?:is|are|was|were|be|can|cannot|must|should|will|would|may|might|"
                     r"does|do|did|has|have|had|not|if|when|then)\b",
                     re.IGNORECASE)
"""Words of a clause: "'smartcase' is not used" is a sentence, not a label."""
_LABEL_WORDS = 10


def quoted_label(paragraph: str) -> list[str]:
    """The names of the entry ``paragraph`` labels when it is a label of quoted names: one line
    opening with one or more names in quotes (the entry's name, then its short forms), the rest
    its attributes (a type, a default in brackets, a scope: at most :data:`_LABEL_WORDS` words
    outside brackets, no clause, no sentence's end); else []. The names as written, in order.

    Example:
        >>> quoted_label("'smartcase' 'scs' boolean (default off) global")
        ['smartcase', 'scs']
        >>> quoted_label("'scrolloff' 'so' number (default 0, set to 5 in defaults.vim) global"
        ...              " or local to window global-local")
        ['scrolloff', 'so']
        >>> quoted_label("'smartcase' is not used"), quoted_label("'smartcase' is not used.")
        ([], [])
    """
    line = paragraph.strip()
    lead = _LEAD.match(line)
    if lead is None or "\n" in line or line.endswith((".", "!", "?", ":", ";", ",")):
        return []
    rest = _BRACKETS.sub(" ", line[lead.end():])
    if len(rest.split()) > _LABEL_WORDS or _CLAUSE.search(rest) or re.search(r"[.!?;:]\s", rest):
        return []
    return [name for _quote, name in _QUOTED.findall(lead.group())]
