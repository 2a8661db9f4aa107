"""The forms of an English word (:func:`word_forms`: the bases it may be an inflection of), and
the base of an irregular verb form: a question in the past tense finds the manual's present
("the shell command I *ran*" -> "run").

FTS5's ``porter`` stemmer folds regular inflections ("failed"/"fail") but not irregular ones,
so "How can I find out if the shell command I ran failed?" named "ran" as a word no passage
holds ("a typo, a word of another language ...?") over GNU m4's manual, which says "run" on
every page about shell commands (trial 101, F5). Forms that are also words of their own in
manuals are left out ("found", "left", "bound", "set", "saw", "felt", "lay", "ground").

This module imports only the standard library and :mod:`workers.sources.spelling`, which does
too.
"""

from __future__ import annotations

import re
from functools import lru_cache

from workers.sources.spelling import spellings

__all__ = ["irregular_base", "verb_forms", "word_forms"]

_FORMS = {
    "run": "ran", "write": "wrote written", "build": "built", "begin": "began begun",
    "choose": "chose chosen", "draw": "drew drawn", "drive": "drove driven", "eat": "ate eaten",
    "feed": "fed", "fight": "fought", "fly": "flew flown", "forget": "forgot forgotten",
    "freeze": "froze frozen", "give": "gave given", "go": "went gone", "grow": "grew grown",
    "hide": "hid hidden", "hold": "held", "keep": "kept", "know": "knew known", "lose": "lost",
    "make": "made", "mean": "meant", "meet": "met", "pay": "paid", "say": "said", "sell": "sold",
    "send": "sent", "shake": "shook shaken", "show": "shown", "sleep": "slept",
    "speak": "spoke spoken", "spend": "spent", "stand": "stood", "steal": "stole stolen",
    "stick": "stuck", "strike": "struck", "swear": "swore sworn", "teach": "taught",
    "tell": "told", "think": "thought", "throw": "threw thrown", "take": "took taken",
    "tear": "tore torn", "understand": "understood", "wake": "woke woken", "wear": "wore worn",
    "win": "won", "bring": "brought", "buy": "bought", "catch": "caught", "get": "got gotten",
    "come": "came", "become": "became", "break": "broke broken", "hang": "hung",
    "ride": "rode ridden", "sink": "sank sunk", "slide": "slid", "spin": "spun",
    "sweep": "swept", "swing": "swung", "withdraw": "withdrew withdrawn", "undo": "undid undone",
    "override": "overrode overridden", "rewrite": "rewrote rewritten", "rebuild": "rebuilt",
    "forbid": "forbade forbidden", "arise": "arose arisen", "bend": "bent", "dig": "dug",
    "flee": "fled", "lend": "lent", "seek": "sought", "sing": "sang sung", "ring": "rang rung",
    "sit": "sat", "lead": "led", "do": "did done", "see": "seen", "fall": "fallen",
}  # fmt: skip
_BASES = {form: base for base, forms in _FORMS.items() for form in forms.split()}


def irregular_base(word: str) -> str | None:
    """The base of ``word`` (lower-case) when it is an irregular past form, else None.

    Example:
        >>> irregular_base("ran"), irregular_base("written"), irregular_base("found")
        ('run', 'write', None)
    """
    return _BASES.get(word)


_SUFFIXES = (
    "s", "es", "ies", "er", "ers", "ed", "ing", "ings", "ion", "ions", "ation", "ations",
    "ment", "ments", "ly",
)  # fmt: skip


_E_DROPPED = frozenset({"ing", "ings", "ion", "ions", "ation", "ations"})
"""Suffixes before which a verb drops its final ``e`` (purge: purging, configure:
configuration); not ``-ed``, whose base with an ``e`` is as often no word ("backed": "backe")."""


@lru_cache(maxsize=65536)
def word_forms(word: str) -> frozenset[str]:
    """``word`` and the bases it may be an inflection of: one common suffix off (the base kept
    at 4 letters or more), a doubled final consonant undone, ``-ies`` back to ``-y``, a final
    ``e`` given back before ``-ing`` or ``-ion`` ("purging" inflects "purge": trial 59, F6, a
    word the cited passage said was named as missing). Two words
    share a form when one inflects the other ("writes"/"write", "checkpointer"/"checkpoints",
    "cancelled"/"cancellation"/"cancel"), or spells it the other side of the Atlantic
    ("coloured"/"color": the word's :func:`~workers.sources.spelling.spellings` count too).
    Memoised: the ranking looks up every word of every candidate, and a report weighs each
    row's words against the topic (half a million calls for 1,200 tasks; issue 21, item 13).
    An ``-e`` verb's ``-ed`` and ``-es`` are :func:`verb_forms`'.

    Example:
        >>> sorted(word_forms("cancelled")), sorted(word_forms("colours"))
        (['cancel', 'cancell', 'cancelled'], ['color', 'colors', 'colour', 'colours'])
        >>> sorted(word_forms("purging"))
        ['purg', 'purge', 'purging']
    """
    word = word.lower()
    forms: set[str] = set()
    if base := irregular_base(word):  # "ran" inflects "run" (trial 101, F5)
        forms.add(base)
    for spelled in (word, *spellings(word)):
        forms.add(spelled)
        for suffix in _SUFFIXES:
            if spelled.endswith(suffix) and len(spelled) - len(suffix) >= 4:
                base = spelled[: -len(suffix)]
                forms.add(base)
                if suffix == "ies":
                    forms.add(base + "y")
                if suffix in _E_DROPPED and base[-1] not in "aeiouy":  # purging: purge
                    forms.add(base + "e")
                if len(base) >= 5 and base[-1] == base[-2] and base[-1] not in "aeiousy":
                    forms.add(base[:-1])
    return frozenset(forms)


_E_VERB_SUFFIXES = ("ed", "es", "ing")
_TAKES_E = re.compile(r"(?:[aeiouy][^aeiouwxy]|[bcdfgkptz]l|[^aeious][cgsvz])$")
"""A base that dropped a verb's final ``e`` before ``-ed``, ``-es`` or ``-ing``
(``_E_VERB_SUFFIXES``), of two letters or more: a vowel and one consonant ("clos" of "closed",
"us" of "used" and "using", "creat" of "created"; a short vowel's consonant is doubled
otherwise: "planned"), an ``-le`` verb's ("disabl", "enabl", "handl") or a c, g, s, v or z
after a consonant ("forc", "chang", "pars", "resolv"); not another cluster ("backed": "back",
"listed": "list")."""


@lru_cache(maxsize=65536)
def verb_forms(word: str) -> frozenset[str]:
    """:func:`word_forms` and the ``-e`` verb ``word`` may be a form of (:data:`_TAKES_E`):
    "disabled" of "disable", "used", "uses" and "using" of "use", which :func:`word_forms`
    leaves apart, so a caveat on "disabled" features named no question asking to "disable"
    one (L2-F3). Only where a sentence is matched to a question's subject
    (:mod:`app.research.caveat_subjects`): given to the search and the relevance judge, the
    forms cost the eval three questions ("tuning" became "tune", and "How do I tune a guitar
    to drop D?" was no longer off topic over SQLite's manual; "computed" became "compute",
    and the page on window functions left "How do I compute a running total ...?").

    Example:
        >>> sorted(verb_forms("disabled")), sorted(verb_forms("closed"))
        (['disabl', 'disable', 'disabled'], ['clos', 'close', 'closed'])
        >>> [sorted(verb_forms(w)) for w in ("used", "uses", "using")]
        [['use', 'used'], ['use', 'uses'], ['use', 'using']]
        >>> "enable" in verb_forms("enabled"), sorted(verb_forms("backed"))
        (True, ['back', 'backed'])
    """
    lowered = word.lower()
    extra = {lowered[: -len(suffix)] + "e" for suffix in _E_VERB_SUFFIXES
             if lowered.endswith(suffix) and len(lowered) - len(suffix) >= 2
             and _TAKES_E.search(lowered[: -len(suffix)])}
    return word_forms(word) | extra
