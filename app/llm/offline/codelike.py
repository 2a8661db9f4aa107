"""Whether a sentence the offline model found is code or a field listing rather than prose:
such a line is never quoted as a finding (:mod:`app.llm.offline.sentences`)."""

from __future__ import annotations

import re

from app.llm.offline.blocks import FIELD_ENTRY
from workers.sources.entries import (
    SECTION_LABELS,
    SIGNATURE,
    TYPE_FIRST,
    entry_led,
    lower_described,
    signature_name,
    unfielded,
    without_arguments,
)

__all__ = ["bare_signature", "looks_like_code"]

_TERMINAL = re.compile(r"[.!?][\"')\]]*$")
_PROSE_LABELS = SECTION_LABELS | frozenset(  # "SOLUTION: Delete the lock file." (119, F12)
    {"warning", "note", "important", "caution", "tip", "hint", "danger", "attention", "deprecated"}
)
_CODE_HINTS = re.compile(
    r"```|;\s*$|[{}]|^\s*(?:>>>|\$ |import |from \S+ import|def |class |return )"
)
_CODE_OPERATORS = re.compile(r"=>|==|!=|\s=\s")
"""Code only in a short line ("x = 5", "if a == b"): a prose sentence may quote a call inline
("remove all objects in the workspace with rm(list = ls()).": trial 49 lost that answer)."""
_TITLED_FIELD = re.compile(r"^\s*(?!(?:The|An?) )((?:[A-Z][a-z]+ ){1,2}[A-Z][a-z]+):\s")
"""A field labelled by two or three title-cased words (Docutils' directive entries: "Directive
Type: "sectnum" or "section-numbering" (synonyms).", "Configuration Setting: sectnum_xform"):
the entry's record, not what it does (it was quoted for "What does the sectnum directive
do?" before the directive's own "... automatically numbers sections", trial 90, F1)."""
_PROSE_WORDS = 8
_WORD = re.compile(r"[^\W\d_]{2,}")


def looks_like_code(sentence: str) -> bool:
    """Code, or a field/parameter listing (``name: ...``) rather than a prose sentence; a field
    whose text is a sentence of prose is a definition list's entry, and prose.

    Example:
        >>> looks_like_code("x = 5"), looks_like_code("timeout (float): seconds.")
        (True, True)
        >>> looks_like_code('Directive Type: "sectnum" or "section-numbering" (synonyms).')
        True
        >>> looks_like_code("noclasses: If set to true, the tags will not use CSS classes but "
        ...                 "inline styles.")
        False
        >>> looks_like_code("kite.fly(line, height=3, reel_type='auto', tail=None)")
        True
    """
    sentence = unfielded(sentence)  # "Parameters: url (str) – ...": its first entry's line
    if _CODE_HINTS.search(sentence) or bare_signature(sentence):
        return True
    if (_CODE_OPERATORS.search(sentence) and len(_WORD.findall(sentence)) < _PROSE_WORDS
            and not (sentence[:1].isupper() and sentence.rstrip().endswith("."))):
        return True  # a short line, unless written as a sentence ("Set limit = 500 here.")
    if (m := FIELD_ENTRY.match(sentence) or _TITLED_FIELD.match(sentence)) and (
            m.group(1).lower() not in _PROSE_LABELS and not (
            entry_led(sentence) and _described(sentence[m.end():]))):
        return True
    visible = [c for c in _unquoted(sentence) if not c.isspace()]
    letters = sum(c.isalpha() for c in visible)
    return not visible or letters / len(visible) < 0.7


_QUOTED_VALUE = re.compile(r"‘[^‘’\n]{1,40}’|“[^“”\n]{1,40}”|`[^`\n]{1,40}`|\"[^\"\n]{1,40}\"")
"""A short value quoted in a sentence (zsh's "The default is ‘%m%# ’.", Markdown's
``Defaults to `%m%# `.``)."""


def _unquoted(sentence: str) -> str:
    """``sentence`` less the short values it quotes, when it is written as a sentence (a
    capital first, a full stop last): a value is what the sentence says, not code its words
    are, and a prompt string's symbols made the PS1 entry's "The default is ‘%m%# ’." code
    (trial 115, F1). A line that is only a quoted value keeps it (it is code).

    Example:
        >>> _unquoted("The default is ‘%m%# ’."), _unquoted("‘%m%# ’")
        ('The default is .', '‘%m%# ’')
    """
    if not (sentence[:1].isupper() and _TERMINAL.search(sentence)):
        return sentence
    return _QUOTED_VALUE.sub("", sentence)


def _described(rest: str) -> bool:
    """Whether a field's text (after ``name:``) is a sentence of prose: with a label that names
    a thing of the software (:func:`~workers.sources.entries.entry_led`; "Windows: Run the
    installer ..." labels prose, trial 56), a definition list's entry, its term and its
    description on one line (Pygments' "noclasses: If set to true,
    token <span> tags ... will not use CSS classes, but inline styles.", the option's only
    definition, was no candidate, and its next sentence answered, trial 90, F2)."""
    rest = TYPE_FIRST.sub("", rest.strip())  # "size: (string) The preferred size ..." (Aspell)
    return lower_described(rest) or rest[:1].isupper() and len(
        _WORD.findall(rest)) >= _PROSE_WORDS and bool(_TERMINAL.search(rest))


_SIGNATURE_TAIL = re.compile(r"\s*(?:(?:→|->|:)\s*[^\s.!?]+(?:\s[^\s.!?]+){0,2})?"
                             r"\s*(?:\[source\])?\s*[¶#]?\s*")
"""What may follow a signature's brackets: a return annotation, Sphinx's ``[source]`` link, a
permalink mark."""


def bare_signature(sentence: str) -> bool:
    """Whether ``sentence`` is a call's signature and nothing more (:data:`~workers.sources.
    entries.SIGNATURE`, its arguments' brackets closed, then at most a return annotation or a
    ``[source]`` link): an entry's label, never a sentence. Werkzeug's
    ``werkzeug.serving.run_simple(hostname, port, ..., reloader_type='auto', ...)`` names every
    parameter, so the Top passage asked of ``reloader_type`` showed it as its excerpt (trial 126,
    F3).

    Example:
        >>> bare_signature("class jinja2.Template(source, trim_blocks=False) [source]")
        True
        >>> bare_signature("get_data(cache=True) → bytes"), bare_signature("open(path) opens it.")
        (True, False)
    """
    line = " ".join(sentence.split())
    found = SIGNATURE.match(line)
    if found is None or not signature_name(line):
        return False
    rest = without_arguments(line)
    return rest != line and _SIGNATURE_TAIL.fullmatch(rest[found.end() - 1:]) is not None
