"""The action a how-question's first phrase asks about, without the words that ask it: what a
facet puts after "How do you ...?" (:func:`app.research.facets.phrase_facets`).

A topic's subject keeps the words that ask it when its question has no wrapper the subject
strips ("Can I write my views with async def?", "I want to ...", "Show me how to ...",
"writing my views with ..."): its first phrase then began with them, and the facet asked
"How do you Can you write your views?" (trial 121, F3). Pure text functions.
"""

from __future__ import annotations

import re

from app.research.phrasing import _WISH, _instruction, requested

__all__ = ["asked_action"]

_ASKER = re.compile(
    r"^(?:can|could|may|might|must|shall|should|will|would|do|does|did)(?:n?'t)?\s+"
    r"(?:i|you|we|one)\b(?:\s+(?:need|have|want|ought|be\s+able)\s+to\b)?\s*",
    re.IGNORECASE)
"""A question's auxiliary and the person asking ("Can I", "Should we", "Do I need to"): an
inverted question about what one does, not a verb of the action ("do a dry run")."""


def asked_action(phrase: str) -> str | None:
    """The action ``phrase`` asks about, its verb in the base form: the words that ask it
    dropped (:data:`_ASKER`; a wish's "I want to", a request's "show me how to"), a gerund or
    "to" made the plain verb (:func:`app.research.phrasing._instruction`). ``phrase`` itself
    when no such words open it and it holds no other form of the action; None when they do
    and no action follows ("Can I not run my app", "I want both axes equal").

    Example:
        >>> asked_action("Can I sign my commits"), asked_action("I want to run my app")
        ('sign my commits', 'run my app')
        >>> asked_action("Show me how to run my app"), asked_action("writing my views")
        ('run my app', 'write my views')
        >>> asked_action("keep pending writes"), asked_action("Can I not run my app")
        ('keep pending writes', None)
    """
    asker = _ASKER.match(phrase)
    text = phrase[asker.end():] if asker else phrase
    if (rest := requested(text)) and _WISH.match(rest):  # "show me how to X", not "define X"
        text = rest
    verb_next = asker is not None  # "Can I sign ...": the word after the person is the verb
    if wish := _WISH.match(text):  # and the word after a wish's "to" ("I want to run ...")
        verb_next = text[:wish.start("rest")].rstrip().lower().endswith("to")
        text = wish.group("rest")
    action = _instruction(text)
    if action or text == phrase:
        return action or phrase
    first = text.split()[0] if text.split() else ""
    return text if verb_next and re.fullmatch(r"[a-z]+", first) and first != "not" else None
