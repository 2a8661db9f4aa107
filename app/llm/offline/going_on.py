"""Sentences that go on from what their passage said before them: where a quote of one starts
(with the sentence it goes on from), and whether one quoted without it leans on it.

A sentence opening with a word pointing back or a connective ("This command ...", "As a
result, ...", "Failure to do so ...", :func:`~workers.sources.sentence_ends.goes_on`), an
item of a list whose lead-in is not quoted, or a sentence announcing what the next ones say
("Finish mode has two functions.") says less alone than it seems to: the offline model quotes
it with the sentence before when both fit one finding, ranks it lower when not, and the
Answer puts it after the sentences that stand alone (trial 112, F2; trial 110, F6).

Pure text rules; no I/O.
"""

from __future__ import annotations

import re

from workers.sources.entries import entry_led
from workers.sources.sentence_ends import NOTE_THAT, POINTS_ABOVE, goes_on

__all__ = ["POINTER_SUBJECT", "going_on", "leans", "leans_in"]

MAX_CHARS, MAX_WORDS = 400, 60
"""The longest quote one finding may be (as :mod:`app.llm.offline.sentences` filters)."""

POINTER_SUBJECT = re.compile(r"(?:This|These|That|Those|It|Its|Such)\b")
"""A subject pointing back ("This command automatically checks ..."): unlike a connective
("As a result, ...", "Otherwise, ..."), what the sentence says is its own, only its subject is
the sentence before's."""

_ANNOUNCES = re.compile(r"\b(?:two|three|four|five|six|several|a\s+few|a\s+number\s+of)\s+"
                        r"(?:[a-z-]+\s+)?[a-z-]+s[\"')\]]*[.:]$")
"""A sentence ending by counting what the next ones say ("Finish mode has two functions.":
the first was in the sentence after it, which the Answer left out, trial 112, F2)."""
_ITEM_CHARS, _ITEMS = 300, 8
"""The longest paragraph read as an item of a list, and the most items read back over."""


def going_on(text: str, before: int | None, offset: int, sentence: str) -> int:
    """Where the quote of ``sentence`` (at ``offset`` of ``text``) starts: at the sentence
    before it (at ``before``) when it goes on from that one (:func:`goes_on`: "This should
    be properly capitalized and can contain whitespace.", a finding of Click's manual that said
    nothing of what "This" is, trial 74, F8; "Failure to do so is the most likely cause of
    403 errors ...", trial 110, F6) and both are of one paragraph and fit one finding; else at
    its own offset.

    Example:
        >>> text = "Some tests ran twice. As a result, the run was slow."
        >>> going_on(text, 0, 22, "As a result, the run was slow.")
        0
    """
    if before is None or not goes_on(sentence):
        return offset
    joined = text[before:offset + len(sentence)]
    if (joined.count("\n\n") > int(_after_prose(text, offset, sentence))
            or len(joined) > MAX_CHARS or len(joined.split()) > MAX_WORDS):
        return offset
    return before


def _after_prose(text: str, offset: int, sentence: str) -> bool:
    """Whether ``sentence``, at ``offset`` of ``text``, says nothing without the paragraph
    before it (:data:`_EXPLAINS_BACK`) and opens a paragraph right after one that ends a
    sentence: "That's because this view is grossly inefficient and probably insecure." below
    "Warning: This view will only work if DEBUG is True." was a caveat alone (trial 124,
    M3-F3); not below a heading ("Heading" above "This option sets the size.") nor code. A
    sentence saying its own thing of what "this" is ("This is not suitable for production
    use!") stays in its paragraph.

    Example:
        >>> _after_prose("Use it in tests.\\n\\nThat's because it is slow.", 18,
        ...              "That's because it is slow.")
        True
        >>> _after_prose("Heading\\n\\nThat's because it is slow.", 9, "That's because it is slow.")
        False
    """
    if not _EXPLAINS_BACK.match(sentence):
        return False
    start = _paragraph_start(text, offset)
    before = text[:start].rstrip()
    last = before.rsplit("\n\n", 1)[-1].strip()
    return (start == offset and bool(last) and _SENTENCE_END.search(last) is not None
            and "\n" not in last and not last.startswith(("```", "~~~")))


_POINTS_AHEAD = re.compile(
    r"(?:(?:The|These)\s+following|(?:The\s+)?(?:examples?|code|table|list)\s+below)\b[^:]*"
    r"[.!]$", re.IGNORECASE)
"""A sentence saying what the text after it shows, without a colon quoting it ("The following
examples illustrate the difference between plain lookups and select_related() lookups.", a
finding of Django's docs alone, trial 124, M3-F3): alone it says nothing."""
_EXPLAINS_BACK = re.compile(
    r"(?:That|This|Which)(?:['’]s|\s+is|\s+was)\s+(?:because|why)\b"
    r"|(?:(?:Even\s+)?Though|Although|While|Whilst)\s+(?:this|these|that|those|it|such)\b"
    rf"|{NOTE_THAT}")
"""A sentence that is a reason for, a concession on or a remark on what the sentence before
said ("That's because ...", "This is why ...", "Though this is convenient, ...", "Note that
this ...", :data:`~workers.sources.sentence_ends.NOTE_THAT`, trial 124, FB2): alone it says
nothing."""
_SENTENCE_END = re.compile(r"(?:[a-z0-9)\]\"'’”]|[A-Za-z][A-Z])[.!?][\"'’”)]*$")
"""A paragraph's last sentence ending as prose does: a word, then a full stop; a word in
capitals too ("... through the public API.": the "Note that this ..." paragraph after it was
quoted alone), not an initial ("J.")."""


def _paragraph_start(text: str, offset: int) -> int:
    """Where the paragraph of ``text`` holding ``offset`` starts."""
    at = text.rfind("\n\n", 0, offset)
    return 0 if at < 0 else at + 2


def _after_lead_in(text: str, offset: int) -> bool:
    """Whether the paragraph at ``offset`` is an item of a list whose lead-in counts what its
    items are (:data:`_ANNOUNCES`, ending in a colon) a paragraph above it, with only items
    between: "The application calling functions such as dlopen ..." under "the term is used to
    refer to two different concepts:" (trial 112, F2). An item under a lead-in that counts
    nothing ("A few things to consider:", Varnish's) says its own thing, as does an entry
    ("--with-mpm=MPM: Choose ...")."""
    start = _paragraph_start(text, offset)
    if entry_led(text[start:].lstrip()):
        return False
    paragraphs = text[:start].rstrip().split("\n\n")
    for paragraph in reversed(paragraphs[-_ITEMS - 1:]):
        paragraph = paragraph.strip()
        if paragraph.endswith(":"):
            return _ANNOUNCES.search(" ".join(paragraph.split())) is not None
        if len(paragraph) > _ITEM_CHARS or not paragraph:
            return False
    return False


def leans(text: str, offset: int, sentence: str, first: bool = True) -> bool:
    """Whether ``sentence`` (at ``offset`` of ``text``, a passage; ``first``: its document's
    first) quoted alone leans on what its passage says before it: it goes on from a sentence
    of its paragraph before it (:func:`goes_on`), or from the passage before (it opens a
    passage that is not its document's first: Apache's "This still will not guarantee that the
    server will restart correctly."), or from what its document said earlier
    (:data:`~workers.sources.sentence_ends.POINTS_ABOVE`: "As stated above, ..."), or is an
    item of a list whose lead-in is above it (:func:`_after_lead_in`); or it says what the text
    after it shows (:data:`_POINTS_AHEAD`), or explains the paragraph before it
    (:func:`_after_prose`).

    Example:
        >>> leans("Tests ran. Failure to do so is bad.", 11, "Failure to do so is bad.")
        True
        >>> leans("Heading\\n\\nThis option sets the size.", 9, "This option sets the size.")
        False
        >>> leans("Lookups.\\n\\nThe following examples show it.", 10,
        ...       "The following examples show it.")
        True
    """
    if POINTS_ABOVE.match(sentence) or _after_lead_in(text, offset) or _POINTS_AHEAD.match(
            " ".join(sentence.split())):
        return True
    if not goes_on(sentence):
        return False
    said_before = text[_paragraph_start(text, offset):offset].strip()
    return (bool(said_before) or (not first and not text[:offset].strip())
            or _after_prose(text, offset, sentence))


def leans_in(text: str, quote: str, first: bool = True) -> bool:
    """Whether ``quote``, a finding's text, leans on what its passage ``text`` says before it
    (:func:`leans`, read where ``text`` has it; ``first``: the passage is its document's
    first), or says less than it announces ("Finish mode has two functions.",
    :data:`_ANNOUNCES`); a quote not found in ``text`` leans when it opens by going on
    (:func:`goes_on`).

    Example:
        >>> text = "Finish mode has two functions. One is to help administrators."
        >>> leans_in(text, "Finish mode has two functions."), leans_in(text, text)
        (True, False)
    """
    words = " ".join(quote.split())
    if _ANNOUNCES.search(words):
        return True
    offset = text.find(quote)
    if offset < 0:
        return goes_on(words) or POINTS_ABOVE.match(words) is not None
    return leans(text, offset, quote, first)
