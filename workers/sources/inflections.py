"""The base of an irregular English verb form: a question in the past tense finds the manual's
present ("the shell command I *ran*" -> "run").

FTS5's ``porter`` stemmer folds regular inflections ("failed"/"fail") but not irregular ones,
so "How can I find out if the shell command I ran failed?" named "ran" as a word no passage
holds ("a typo, a word of another language ...?") over GNU m4's manual, which says "run" on
every page about shell commands (trial 101, F5). Forms that are also words of their own in
manuals are left out ("found", "left", "bound", "set", "saw", "felt", "lay", "ground").

This module imports only the standard library.
"""

from __future__ import annotations

__all__ = ["irregular_base"]

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
