"""British and American spellings of one word: a question in one finds documents in the other.

A reader in London asks how to *colour* a shape, *optimise* a query or change a *behaviour*; the
manual says *color*, *optimize*, *behavior* (SQLite's HTML manual: "optimize" in 913 passages,
"optimise" in none). FTS5's ``porter`` stemmer folds inflections ("labelled"/"labeled" both
stem to "label") but not spellings, so the search missed the page and the relevance judge
called the word unknown to the corpus (issue 19). :func:`spellings` gives the word's other
spellings by the regular correspondences (``-our``/``-or``, ``-ise``/``-ize``, ``-yse``/``-yze``,
``-tre``/``-ter``, ``-ogue``/``-og``) and a short list of irregular pairs. A rule may also
make a form no language has ("after" -> "aftre"); such a form matches nothing, so it costs one
index look-up and changes no result.

This module imports only the standard library.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["spellings"]

_PAIRS = (
    ("grey", "gray"), ("programme", "program"), ("artefact", "artifact"),
    ("aluminium", "aluminum"), ("judgement", "judgment"), ("ageing", "aging"),
    ("licence", "license"), ("defence", "defense"), ("offence", "offense"),
    ("pretence", "pretense"), ("mould", "mold"), ("plough", "plow"),
)  # fmt: skip
_IRREGULAR: dict[str, str] = {**dict(_PAIRS), **{us: uk for uk, us in _PAIRS}}
_PLURAL = {uk + "s": us + "s" for uk, us in _PAIRS} | {us + "s": uk + "s" for uk, us in _PAIRS}

# (British ending, American ending), each with its inflections; the ``(?<=...)`` of a rule is the
# least stem it needs, so "hour", "four" and "your" keep their spelling ("h" + "our").
_RULES: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(rf"(?<=\w{{{stem}}})(?:{uk}|{us})(?={tail}$)"), uk, us)
    for uk, us, stem, tail in (
        ("our", "or", 3, r"(?:s|ed|ing|ite|ites|able|ably|ful|less)?"),
        ("is", "iz", 3, r"(?:e|es|ed|ing|er|ers|ation|ations|able)"),
        ("ys", "yz", 2, r"(?:e|es|ed|ing|er|ers)"),
        ("ogue", "og", 4, r"(?:s)?"),
    )
)
_TRE = re.compile(r"(?<=\w[a-z])([tb])(re|res|red|ring|er|ers|ered|ering)$")
_TRE_SWAP = {"re": "er", "res": "ers", "red": "ered", "ring": "ering",
             "er": "re", "ers": "res", "ered": "red", "ering": "ring"}


@lru_cache(maxsize=65536)
def spellings(word: str) -> tuple[str, ...]:
    """The other spellings of ``word`` (lower-case), British <-> American; ``()`` when it has
    none. Deterministic; a form made by a rule need not be a word.

    Args:
        word: one word, lower-case (as :func:`workers.sources.query.query_terms` gives it).

    Example:
        >>> spellings("colour"), spellings("optimized"), spellings("centred")
        (('color',), ('optimised',), ('centered',))
        >>> spellings("hour"), spellings("catalogue"), spellings("grey")
        ((), ('catalog',), ('gray',))
    """
    out: list[str] = []
    if word in _IRREGULAR:
        out.append(_IRREGULAR[word])
    if word in _PLURAL:
        out.append(_PLURAL[word])
    for pattern, uk, us in _RULES:
        match = pattern.search(word)
        if match:
            other = us if match.group() == uk else uk
            out.append(word[: match.start()] + other + word[match.end():])
    match = _TRE.search(word)
    if match:
        out.append(word[: match.start(2)] + _TRE_SWAP[match.group(2)])
    return tuple(dict.fromkeys(o for o in out if o != word))
