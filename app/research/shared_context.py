"""What the things a comparison lists share: a side written as only what sets it apart ("--system"
of "git config --global and --system", "annotated" of "annotated and lightweight tags") is given
the rest of its neighbour, so each side is searched and asked about whole (trial 53, A6).

Pure text rules for :func:`app.research.topics.comparison`; no I/O.
"""

from __future__ import annotations

import re

from app.research.phrasing import _plural, is_verb

__all__ = ["shared_context"]

_OPTION = re.compile(r"^--?[A-Za-z]")
"""A command-line option: "--system", "-x"."""
_MODIFIER = re.compile(r"^[a-z][a-z-]*$")
_ADJECTIVE = re.compile(
    r"^(?:[a-z-]{2,}(?:ed|al|ic|ive|ous|ful|less|able|ible|ing)|(?:non|un|in|multi|single|"
    r"semi|cross)-[a-z-]+|(?:light|heavy)weight|soft|hard|shallow|deep|short|long|fast|slow|"
    r"strong|weak|strict|loose|sync|async|raw|plain|full|partial|bare|open|closed)$")
"""A word that reads as a modifier, not a name: "annotated", "non-blocking", "lightweight"."""


def shared_context(parts: list[str]) -> list[str]:
    """The things compared, each whole: a side that is only what sets it apart from the first
    or the last side is given what they share, conservatively, in two kinds:

    - an option after a command's option shares the command: "git config --global and
      --system" compares "git config --global" and "git config --system" (asked alone,
      "What is --system?" was answered from cron's text: trial 53, A6);
    - a modifier alone shares the head noun of the last side when both are modifiers,
      one at least by its form ("annotated", "lightweight", "non-blocking"): "annotated and
      lightweight tags" compares "annotated tags" and "lightweight tags" ("What is
      annotated?" was answered from git-annotate).

    Names, nouns and verbs are left as they are ("Send and Command", "merge and rebase",
    "checkpointers and memory stores", "cron and systemd timers": nothing tells a name from
    a modifier there).

    Example:
        >>> shared_context(["git config --global", "--system"])
        ['git config --global', 'git config --system']
        >>> shared_context(["annotated", "lightweight tags"])
        ['annotated tags', 'lightweight tags']
        >>> shared_context(["cron", "systemd timers"])
        ['cron', 'systemd timers']
    """
    if headed := _the_shared_head(parts):
        return headed
    first, last = parts[0].split(), parts[-1].split()
    command = next((i for i, word in enumerate(first) if _OPTION.match(word)), 0)
    modifier = last[0] if len(last) >= 2 and _lone_modifier(last[0]) else ""
    whole = []
    for i, part in enumerate(parts):
        if command and i and _OPTION.match(part):
            part = " ".join([*first[:command], part])  # "--system": "git config --system"
        elif (modifier and i < len(parts) - 1 and _lone_modifier(part)
              and (_ADJECTIVE.match(part) or _ADJECTIVE.match(modifier))):
            part = " ".join([part, *last[1:]])  # "annotated": "annotated tags"
        whole.append(part)
    return whole


def _lone_modifier(word: str) -> bool:
    """Whether ``word`` may modify a noun: one lower-case word, not a plural noun
    ("checkpointers" is a thing, not a kind of stores)."""
    return bool(_MODIFIER.match(word)) and not _plural(word)


def _the_shared_head(parts: list[str]) -> list[str]:
    """The things "the X and Y Zs" compares, each "the X Z", or [] for other sides: a side
    that is "the" and one word or option, before a last side of words ending in a plural
    noun, shares that noun, as "the" spans the list. "the deny and drop ACL verbs" compares
    "the deny ACL verb" and "the drop ACL verb": its sides were asked "What is the deny?" and
    "What are drop ACL verbs?" (trial 117, F7); "the -v and -q flags" likewise. One word
    at least is an option, a verb or a modifier by its form, as in :func:`shared_context`:
    "the checkpointer and memory stores" are two things.

    Example:
        >>> _the_shared_head(["the deny", "drop ACL verbs"])
        ['the deny ACL verb', 'the drop ACL verb']
        >>> _the_shared_head(["the checkpointer", "memory stores"]), _the_shared_head(["a", "b"])
        ([], [])
    """
    last = parts[-1].split()
    if len(last) < 2 or not _plural(last[-1]) or last[0].lower() == "the":
        return []
    sides = []
    for part in parts[:-1]:
        words = part.split()
        if len(words) != 2 or words[0].lower() != "the" or not (
                _OPTION.match(words[1]) or _lone_modifier(words[1])):
            return []
        sides.append(words[1])
    if not any(_OPTION.match(w) or _ADJECTIVE.match(w) or is_verb(w) for w in [*sides, last[0]]):
        return []  # nouns: "the checkpointer and memory stores" are two things
    head = [*last[1:-1], _singular(last[-1])]
    return [" ".join(["the", side, *head]) for side in [*sides, last[0]]]


def _singular(noun: str) -> str:
    """A regular plural ``noun`` made singular: "verbs" "verb", "policies" "policy",
    "classes" "class"."""
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if re.search(r"(?:ss|x|ch|sh)es$", noun):
        return noun[:-2]
    return noun[:-1]
