"""The offline model's sense of words: stems of content words, shared stopwords.

The stopwords are the sources' own list (:data:`workers.sources.stopwords.STOPWORDS`, the one the
search uses), minus "not", which the offline model has always counted as a content word when it
ranks sentences ("what must not be done"): kept so that its answers, and the eval's committed
numbers, did not change when it started sharing the list. The stems are deliberately crude
(strip one common suffix, keep 6 characters): deterministic and fast.
"""

from __future__ import annotations

import re

from workers.sources.names import letter_options
from workers.sources.operators import asked_symbols
from workers.sources.stopwords import STOPWORDS as SEARCH_STOPWORDS

__all__ = ["META_WORDS", "STOPWORDS", "VALUE", "asked_stems", "stem", "stems"]

STOPWORDS: frozenset[str] = SEARCH_STOPWORDS - {"not"}
"""Words that carry no content when sentences are ranked."""

# Words of response-schema descriptions that describe the answer's form, not its content, and
# verbs too generic to tell one kind of sentence from another.
META_WORDS = frozenset(
    """answer answers question questions sub claim claims sentence sentences passage passages
    ref refs reference references source sourced sources citation citations cite tool tools
    retrieved taken exactly gave given gives fact facts item items list field fields string
    response one two three four five six seven eight nine ten key state stating states stated
    use used uses using usage work works working come comes came thing things done""".split()  # noqa: SIM905
)
_SUFFIXES = (
    "ations",
    "ation",
    "ments",
    "ment",
    "ings",
    "ing",
    "edly",
    "ed",
    "ies",
    "es",
    "ly",
    "s",
)
_WORD = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    """A crude, deterministic stem: strip one common suffix, then a final silent "e", keep at
    most 6 characters. The "e" goes so that a word and its inflections share a stem
    ("resume", "resumes", "resumed", "resuming": ``resum``): without it a question saying
    "resume" missed every sentence saying "resumes", and a sentence about something else that
    happened to say "resume" answered it.

    Example:
        >>> {stem(w) for w in ("resume", "resumes", "resumed", "resuming")}
        {'resum'}
        >>> stem("nodes") == stem("node"), stem("use")
        (True, 'use')
    """
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) >= 4 and word.endswith("e"):
        word = word[:-1]
    return word[:6]


def stems(text: str, drop: frozenset[str] = STOPWORDS) -> frozenset[str]:
    """The stems of the content words of ``text`` (words in ``drop`` and one-letter words left
    out, digits kept), and its options of one letter as written, case and dash: ssh's ``-L``
    is not rsync's "'-l' option to ssh", which answered "What does the -L option of ssh do?"
    for want of any stem of "-L" (trial 76).

    Example:
        >>> sorted(stems("The -L option of ssh, or -l"))
        ['-L', '-l', 'option', 'ssh']
    """
    return frozenset(
        stem(w)
        for w in _WORD.findall(text.lower())
        if w not in drop and (len(w) > 1 or w.isdigit())
    ) | letter_options(text)



def asked_stems(question: str) -> frozenset[str]:
    """The :func:`stems` of ``question`` and the symbols it writes alone (``<=``, ``@@``:
    :func:`workers.sources.operators.asked_symbols`), which no stem keeps: what it asks about
    ("What do the log line flags <= and => mean?", trial 117, F6).

    A name written with its value asks about the name: "null=True" is ``null``, and "null is
    purely database-related, whereas blank is validation-related." lost to sentences saying
    "True" for "What's the difference between null=True and blank=True?" (trial 124, M3-F2).

    Example:
        >>> sorted(asked_stems("What do the flags <= and => mean?"))
        ['<=', '=>', 'flag', 'mean']
        >>> sorted(asked_stems("How do null=True and --depth=1 differ?"))
        ['depth', 'differ', 'null']
    """
    return stems(VALUE.sub("", question)) | frozenset(asked_symbols(question))


VALUE = re.compile(r"(?<=[A-Za-z0-9_])=[^\s,;:?!()]+")
"""The value a name is written with (``null=True``, ``--depth=1``): not what is asked about."""
