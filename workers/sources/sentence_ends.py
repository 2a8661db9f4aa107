"""Where a sentence of prose ends: a ``.``, ``!`` or ``?`` (and its closing quotes or brackets)
before a capital letter or a digit, unless the dot belongs to an abbreviation; or after a
lower-case word before a lower-case one, as manuals start a sentence with an option's name
("... choose save. transparent instructs the driver ...": else two options' facts were one
sentence), unless the word before is short, joined, or an abbreviation
(:data:`_LOWER_ABBREVIATIONS`).

Pure text rules, one owner for where a sentence ends: the passage chunker
(:func:`workers.sources.chunks.chunk_text`, when a paragraph is too long for one passage) and the
offline model's :func:`app.llm.offline.sentences.split_sentences` cut at the same places, so a
passage never begins mid-sentence where the model would read on ('Neither "fixup!" nor
"amend!" commits ...'); no I/O.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from workers.sources.stopwords import STOPWORDS

__all__ = ["GOES_ON", "HEDGE", "ITEM_MARK", "NOTE_THAT", "PLAIN_WORD", "POINTS_ABOVE",
           "REFERS_BACK", "announces", "continues_code", "goes_on", "leads_on", "sentence_ends",
           "wrapped_number"]

ITEM_MARK = r"(?:[-*+•◦▪‣·]|\d{1,3}[.)])"
"""A list item's bullet or number, as written at a line's start before a space (``- ``,
``* ``, a PDF's ``• ``, ``1. ``, ``2) ``): one pattern for every reader of lists (the passage
chunker and the offline model's sentences here, its quoted lists, the report's citations and
a plain text file's sections)."""

NOTE_THAT = (r"(?:Please\s+)?(?:Note|Notice|Remember)\s+that\s+(?:this|these|that|those|its|such|"
             r"it(?!(?:['’]s|\s+is|\s+was)\s+(?:(?:also|perfectly|not)\s+)?(?:possible|"
             r"impossible|safe|important|necessary|recommended|advisable|best|better|"
             r"easy|hard|difficult|common|likely|worth|required)\b))\b")
"""A remark opening on a word pointing back ("Note that this only works given two things:",
"Note that these paths should use Unix-style forward slashes", Django's): it says its thing of
what the sentence before said, as "Though this ..." does (trial 124, FB2). Not an "it" standing
for the clause after it ("Note that it is possible to compare ...")."""

REFERS_BACK = re.compile(
    r"(?:(?:But|And|So|Yet),?\s+(?:this|these|that|those|it|its|such)|"
    r"This|These|That|Those|It|Its|Such|"
    # a connective: what it says follows from, or stands instead of, the sentence before
    r"As\s+a\s+(?:result|consequence)|Consequently|Therefore|Thus|Hence|Accordingly|"
    r"Otherwise|Instead(?!\s+of)|If\s+(?:so|not)|"
    # the act the sentence before named ("Failure to do so is ...", "To do so, ...")
    r"(?:\w+\s+){0,3}?(?i:do|doing|done)\s+so|"
    # an opening phrase pointing back ("In this case,", "To invoke this functionality,")
    r"(?:In|For|With|By|After|Because\s+of|Despite|To\s+[a-z]+)\s+(?:this|these|those|such|"
    r"that)|"
    # one of the things the sentence before counted ("Finish mode has two functions. One is
    # to help ...")
    r"(?:One|The\s+(?:first|second|third|other))\s+(?:is|are|of\s+(?:them|these|those))|"
    r"The\s+(?:former|latter)|"
    # a concession on what the sentence before said ("Though this is convenient, ..."), or a
    # default with no subject of its own ("Default is False.": the entry's, said before)
    r"(?:(?:Even\s+)?Though|Although|While|Whilst)\s+(?:this|these|that|those|it|such)|"
    # a remark on it ("Note that this is different than ...", "Note that these paths should
    # use ..."), not on a clause after an "it" ("Note that it is possible to compare ...")
    rf"{NOTE_THAT}|"
    r"Defaults?\s+(?:value\s+)?(?:is|are|to)(?=\s+\S))\b")
"""A sentence whose subject is the sentence before it ("This enables ...", "It returns ...",
"This should be capitalized.", "But this is an opposite of what crawler should do", Scrapy's,
an Answer's first bullet, trial 89, F6), or that follows from it by a connective ("As a
result, configure can then run much faster ...", "Otherwise, this directive selects ...",
"Failure to do so is the most likely cause of 403 errors ...", "One is to help system
administrators ..."; each an Answer's bullet without the sentence it goes on from, trial 112,
F2; trial 110, F6; "Though this is convenient, in some setups it's faster to store session
data elsewhere ..." and "Default is False.", trial 124, M3-F3): a quote of it takes that one
too (the offline model's sentences,
:func:`goes_on`), and a passage is not cut between them (:data:`GOES_ON`)."""

_INSTEAD = re.compile(r"\binstead[\"')\]]*(?:\s*\([^()]*\))?[.!]?[\"')\]]*$")
"""A sentence ending on "instead" (its reference aside): it says what to do in place of what
the sentence before said ("If you want binary compatibility, use the -version-info flag
instead (see Library interface versions).", Libtool's, trial 112, F2)."""


def goes_on(sentence: str) -> bool:
    """Whether ``sentence`` goes on from the sentence before it: it opens by pointing back or
    with a connective (:data:`REFERS_BACK`), or ends on "instead" (:data:`_INSTEAD`).

    Example:
        >>> goes_on("As a result, configure runs faster."), goes_on("Use -B instead.")
        (True, True)
        >>> goes_on("Failure to do so causes 403 errors."), goes_on("Use -B instead of -A.")
        (True, False)
        >>> goes_on("One is to help administrators."), goes_on("One option is -B.")
        (True, False)
        >>> goes_on("Though this is convenient, it is slow."), goes_on("Default is False.")
        (True, True)
        >>> goes_on("Though slow, it works."), goes_on("Default settings are kept.")
        (False, False)
        >>> goes_on("Note that this is different."), goes_on("Note that it is possible to go.")
        (True, False)
    """
    return REFERS_BACK.match(sentence) is not None or _INSTEAD.search(sentence) is not None


POINTS_ABOVE = re.compile(
    r"(?:As|Like)\s+(?:\w+\s+)?(?:stated|mentioned|noted|described|shown|explained|discussed|"
    r"said|seen|outlined)\s+(?:above|earlier|before|previously)\b", re.IGNORECASE)
"""A sentence resting on what its document said earlier ("As stated above, any file can be
loaded as a template", Jinja's, the first bullet of an Answer that never showed what was
stated, trial 85, F8): quoted alone, it says less than it seems to."""

HEDGE = re.compile(r"(?:Strictly|Technically|Theoretically)\s+speaking\b|(?:In\s+(?:theory|"
                   r"principle)|Theoretically)\s*,")
"""A sentence opening with a hedge ("Strictly speaking, signal handling and registration code
can live anywhere you like, ...", Django's topics/signals.html): what holds in practice is in
the sentence after it ("In practice, signal handlers are usually defined in a signals submodule
..."), which the Answer never showed (trial 124, FB1)."""
_ANNOUNCES = re.compile(r"(?::|\b(?:as|like)\s+(?:the\s+)?follow(?:s|ing)\.|\bthe\s+following\.)"
                        r"[\"')\]]*\s*$")
"""A sentence ending by announcing what follows it: a colon, "as follows.", "as the
following." (the Debian Reference's "... explicitly list all those packages at the top of it
as the following.", its snippet after it, trial 124, FB1)."""


def announces(sentence: str) -> bool:
    """Whether ``sentence`` ends by announcing what follows it (:data:`_ANNOUNCES`).

    Example:
        >>> announces("List them as the following."), announces("Set it as follows.")
        (True, True)
        >>> announces("Run it:"), announces("The following options are kept.")
        (True, False)
    """
    return _ANNOUNCES.search(sentence) is not None


def leads_on(sentence: str) -> bool:
    """Whether ``sentence`` promises what the text after it says: it ends by announcing it
    (:data:`_ANNOUNCES`) or opens with a hedge (:data:`HEDGE`). Alone, or ending a passage, it
    says less than it promises: the passage chunker does not end a passage with it when it fits
    with what follows, and the offline model quotes a hedge with the sentence after it.

    Example:
        >>> leads_on("List them at the top of it as the following."), leads_on("Run it:")
        (True, True)
        >>> leads_on("Strictly speaking, it can live anywhere."), leads_on("It lives here.")
        (True, False)
        >>> leads_on("The following options are kept."), leads_on("Technically, it is a copy.")
        (False, False)
    """
    return HEDGE.match(sentence) is not None or announces(sentence)


GOES_ON = re.compile(
    r"(?:This|These|That|Those|It|Its|Such|Thus|Hence|Otherwise|Equivalently|However|Instead)\b")
"""A sentence going on from the one before it (:data:`REFERS_BACK`, or a connective such as
"However"): :func:`workers.sources.chunks.chunk_text` does not cut a passage between them."""

PLAIN_WORD = re.compile(r"[a-z]+\b(?![_.(`])")
"""A plain lower-case word, not an identifier (``add_node``, ``os.path``, ``f(``): a sentence
that opens with one is the rest of a sentence begun before it."""


def continues_code(text: str, offset: int, sentence: str) -> bool:
    """Whether ``sentence``, found at ``offset`` in ``text``, comes right after a code block
    that a sentence runs into (the prose before it ends with no mark that ends one), and opens
    with a :data:`PLAIN_WORD`: the rest of a sentence whose subject was the code ("For example
    ```FallbackResource /not-404.php``` will cause requests ...", "If you simply write:
    ```DELETE FROM products;``` then all rows ... will be deleted!"), no sentence alone. A
    table row after code that follows a whole sentence ("limit — default: 100") is one.

    Example:
        >>> text = "For example\\n\\n```\\nFallbackResource /x.php\\n```\\n\\nwill cause requests."
        >>> continues_code(text, text.index("will"), "will cause requests.")
        True
        >>> text = "Add it.\\n\\n```\\nadd(limit=100)\\n```\\n\\nlimit — default: 100."
        >>> continues_code(text, text.index("limit —"), "limit — default: 100.")
        False
    """
    before = text[:offset].rstrip()
    if not before.endswith(("```", "~~~")) or not PLAIN_WORD.match(sentence):
        return False
    lead = before[:max(before.rfind(before[-3:], 0, len(before) - 3), 0)].rstrip()
    return bool(lead) and (lead[-1].isalnum() or lead[-1] in ",`:")


_SENTENCE_END = re.compile(
    # the mark first, so the engine skips to it (each test after looks back past it):
    r"[.!?]"
    # not after an abbreviation that never ends a sentence: "(e.g. [2] or [1])" was cut in two
    r"(?<!\b[eE]\.g.)(?<!\b[iI]\.e.)(?<!\b[cC]f.)(?<!\bvs.)(?<!\bapprox.)(?<!\b[fF]ig.)"
    # nor an elision standing as a word: "remove the host ... 127.0.0.1 ... line", "ON
    # CONFLICT DO UPDATE ... WHERE clause" (a sentence's trailing "..." follows its last word)
    # ... before a capital, a digit or an option's name ("defaults to 90 days. --expire=all
    # prunes ...": trial 53 quoted the two as one sentence)
    r"(?<!\s\.\..)[\"')\]]*(?=\s+[\"'(\[`*_]?(?:[A-Z0-9]|--?[A-Za-z]))"
)
_LOWER_END = re.compile(
    # not a quoted word, nor a mark a quote closes: Git's 'Neither "fixup!" nor "amend!"
    # commits change authorship' was cut after "fixup!", and the Answer quoted "commits change
    # authorship ..." (trial 53); 'asks "overwrite existing files?" only when' (trial 56)
    r"(?<![\w.\-/\"'`\u2018\u201c])[a-z]{4,}(?P<end>[.!?][)\]]*)"
    r"(?=\s+[a-z][\w-]*\s)")
_ITEM_START = re.compile(rf"\n(?=[ \t]*{ITEM_MARK}[ \t])")
"""A line break before a list item: a PDF's "• A pen with a specific ..." after "...
miterlimit(pen p=currentpen)." began no sentence (no capital follows the full stop), and the
passage chunker packed the two items as one sentence. The break, not the blanks before it, is
matched: a pattern starting with ``[ \t]*`` was tried at each blank of a run, O(k²) in its
length (a file of fixed-width records, 6 MB: 48 s; trial 59, F1)."""
_NUMBER_MARK = re.compile(r"[ \t]*\d{1,3}[.)][ \t]")
_LINE_ENDS = frozenset(".:;!?)]\"'\u201d")


def wrapped_number(previous: str, line: str) -> bool:
    """Whether ``line`` opens with a number a hard-wrapped sentence carried over, no numbered
    item: ``previous`` (the line before) ends with no mark that ends a sentence or a lead-in,
    and is no numbered item itself ("... the timeout defaults to\\n30. After that ..." was cut
    there, and the quote lost its value; trial 59, F5).

    Example:
        >>> wrapped_number("The timeout defaults to", "30. After that the call fails.")
        True
        >>> wrapped_number("Steps:", "1. Open it"), wrapped_number("1. Open it", "2. Close it")
        (False, False)
    """
    tail = previous.rstrip()
    return (bool(_NUMBER_MARK.match(line)) and bool(tail) and tail[-1] not in _LINE_ENDS
            and not _NUMBER_MARK.match(previous))


def _item_starts(block: str) -> Iterator[int]:
    """The offsets just past the last character of each line before a list item
    (:data:`_ITEM_START`; a wrapped line's number is none: :func:`wrapped_number`)."""
    for match in _ITEM_START.finditer(block):
        end = match.start()
        while end > 0 and block[end - 1] in " \t":  # each blank run is walked once
            end -= 1
        line_start = block.rfind("\n", 0, end) + 1
        after = block[match.end():match.end() + 64]  # the item's mark, after some blanks
        if end > 0 and not wrapped_number(block[line_start:end], after):
            yield end
_LOWER_ABBREVIATIONS = frozenset(
    "etc approx resp incl excl misc secs refs figs chap para ibid repr prev orig cont abbr "
    "appr repl vols".split())
"""Lower-case words of four letters or more written with a dot inside a sentence ("lists,
sets, etc. are kept"); a shorter word ("aka.", "est.", "deg.") or one joined to another
("schema-name.", a syntax diagram's) never ends a sentence before a lower-case one."""
_NUMBERED = frozenset({"p", "pp", "No", "Nos", "Sec", "Secs", "sec", "Ch", "Chap", "Eq", "Eqs",
                       "eq", "Vol", "vol", "Ref", "Refs", "Fig", "Figs", "fig", "Para"})
"""Abbreviations that stand before a number ("see (p. 113)", "Sec. 4.2", "No. 5"), as they are
written: their dot ends no sentence when a digit follows. Not the words they spell in lower
case ("The answer is no. 5 retries ...") nor in another case ("Indent with Tab. 4 spaces")."""
_LAST_WORD = re.compile(r"(\w+)$")
_NEAR = 64
"""How far around a dot :func:`_abbreviated` reads (an abbreviation is a short word)."""
_INITIALS = re.compile(r"\s*[A-Z]\.")
_AFTER_INITIAL = re.compile(r"\b[A-Z]\.\s+$")
_GIVEN_NAME = re.compile(r"(?<![\w.])([A-Z][a-z]{2,})\s+$")
_SURNAME = re.compile(r"\s+([A-Z][a-z]+)\b(?![.-]?\w)")
_OPENERS = frozenset("see note use run set refer read check click press select type".split())
"""Verbs a manual's sentence opens with, in the imperative ("Appendix A. See also ...")."""
_NO_SURNAMES = STOPWORDS | _OPENERS


def _abbreviated(block: str, dot: int, end: int) -> bool:
    """Whether the sentence end :data:`_SENTENCE_END` found at ``block[dot:end]`` is the dot of
    an abbreviation: a word of :data:`_NUMBERED` before a number, or one capital letter next to
    another one (initials: "J. R. R. Tolkien"): else a PDF manual's "(see set samples
    (p. 113))" ended the Answer's sentences mid-way. One capital letter alone ends a sentence:
    "use Plan B. Then ...", "a type T. It must ...", "vitamin D. The ..." are far more common
    in documentation than an initial before a surname ("from P. L'Ecuyer"), which is cut,
    unless a given name and a surname stand either side of it (:func:`_middle_initial`).
    """
    if block[dot] != ".":
        return False
    # each look stays near the dot: a paragraph of megabytes has as many dots (O(n) each was
    # O(n²) in all, when the passage chunker began to cut at these ends)
    word = _LAST_WORD.search(block, max(dot - _NEAR, 0), dot)
    if word is None:
        return False
    token = word.group(1)
    if len(token) == 1 and token.isupper() and token.isalpha():
        return (_INITIALS.match(block, end) is not None
                or _AFTER_INITIAL.search(block, max(word.start() - _NEAR, 0), word.start())
                is not None or _middle_initial(block, word.start(), end))
    rest = block[end:end + _NEAR].lstrip()
    return token in _NUMBERED and rest[:1].isdigit()


def _middle_initial(block: str, start: int, end: int) -> bool:
    """Whether the initial at ``block[start:end]`` ("M.") stands between a given name and a
    surname: capitalised words, neither a function word nor the surname an imperative
    (:data:`_OPENERS`): "by Richard M. Stallman. Not to worry" (the Debian Reference: the
    sentence was cut at "Richard M.", trial 124, F9). "use Plan B. Then ..." and "in Appendix
    A. See also ..." still end at the initial.

    Example:
        >>> _middle_initial("by Richard M. Stallman. Not", 11, 13)
        True
        >>> _middle_initial("use Plan B. Then go", 9, 11), _middle_initial("the A. The", 4, 6)
        (False, False)
    """
    given = _GIVEN_NAME.search(block, max(start - _NEAR, 0), start)
    surname = _SURNAME.match(block, end)
    return bool(given and surname and given.group(1).lower() not in STOPWORDS
                and surname.group(1).lower() not in _NO_SURNAMES)


def sentence_ends(block: str) -> Iterator[int]:
    """The offsets in ``block`` just past each sentence's end (its last mark and closing
    quotes or brackets, or a line's last character before a list item), in order; the block's
    own end is not one.

    Example:
        >>> text = "See smooth (p. 113) and kdensity. By J. R. Tolkien. Done"
        >>> [text[:end][-9:] for end in sentence_ends(text)]
        ['kdensity.', ' Tolkien.']
        >>> text = "Choose save. transparent makes the background clear, etc. and so on"
        >>> [text[:end] for end in sentence_ends(text)]
        ['Choose save.']
        >>> text = "Join styles:\\n\u2022 miterjoin.\\n\u2022 roundjoin (default)"
        >>> [text[:end].split("\\n")[-1] for end in sentence_ends(text)]
        ['Join styles:', '\u2022 miterjoin.']
        >>> text = "Set it. (By default it is off. Turning it on logs.) Done."
        >>> [text[:end] for end in sentence_ends(text)][-1]
        'Set it. (By default it is off. Turning it on logs.)'
    """
    ends = {m.end() for m in _SENTENCE_END.finditer(block)
            if not _abbreviated(block, m.start(), m.end())}
    ends.update(_item_starts(block))
    for match in _LOWER_END.finditer(block):
        word = block[match.start():match.start("end")]
        if match.group("end")[0] != "." or word not in _LOWER_ABBREVIATIONS:
            ends.add(match.end())
    inside = _parenthesised(block)
    opens = [open_ for open_, _close in inside]
    for offset in sorted(ends):
        at = bisect.bisect_left(opens, offset) - 1  # the last aside opened before it
        if at < 0 or offset > inside[at][1]:
            yield offset


_BRACKET = re.compile(r"[()\[\]]")
_PARENTHESIS_CHARS = 400


def _closes_no_aside(block: str, index: int) -> bool:
    """Whether the ")" at ``index`` is a smiley's mouth (":)", ";-)"), which closes no aside."""
    before = block[max(index - 2, 0):index]
    return before[-1:] in (":", ";", "=") or before in (":-", ";-")


def _parenthesised(block: str) -> list[tuple[int, int]]:
    """The outermost spans ``(open, close)``, in order, of ``block``'s asides: balanced
    parentheses of at most :data:`_PARENTHESIS_CHARS`. A sentence ending inside one ends no
    sentence of the block, so an aside of two sentences is quoted whole ("(Default behavior
    would display the error page of the proxied server. Turning this on shows the SSI Error
    message.)" was two Answer lines, the second first, each with one bracket; trial 57, F2).
    What only looks like one is none (trial 59, F4): a half-open range ("(0, 1]", "[0, 1)":
    a "(" closed by "]" or a ")" closing "["), a "(" before a blank ("Press ( to go back"),
    a smiley's ")"; an item's ")" ("b) the second") closes none when no "(" is open.

    Example:
        >>> _parenthesised("a (b. C) d (e"), _parenthesised("((a) b) (c)")
        ([(2, 7)], [(0, 6), (8, 10)])
        >>> _parenthesised("in (0, 1]. In [0, 1). Press ( now. Item b) ok :) (x)")
        [(49, 51)]
    """
    spans: list[tuple[int, int]] = []
    opened: list[tuple[str, int]] = []
    for mark in _BRACKET.finditer(block):
        index, char = mark.start(), mark.group()
        if char in "([":
            if char == "[" or block[index + 1:index + 2].strip():
                opened.append((char, index))
            continue
        if char == ")" and _closes_no_aside(block, index):
            continue
        if not opened:
            continue
        kind, start = opened.pop()
        if kind == "(" and char == ")" and index - start <= _PARENTHESIS_CHARS:
            while spans and spans[-1][0] > start:  # asides inside this one
                spans.pop()
            spans.append((start, index))
    return spans
