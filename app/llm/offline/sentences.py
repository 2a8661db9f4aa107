"""Sentences of retrieved passages: split verbatim, filtered to prose, ranked by retrieval order.

Every candidate is a verbatim substring of its passage and carries that passage's ``ref``: the
offline model quotes, it never paraphrases.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.llm.offline.blocks import blocks
from app.llm.offline.code_quotes import introduces_code, prose_of, with_code
from app.llm.offline.codelike import looks_like_code
from app.llm.offline.entry_lines import entry_at, name_line, paragraph_at
from app.llm.offline.going_on import going_on, leans
from app.llm.offline.headings import (
    asks,
    asks_as_heading,
    heading_at,
    heading_line,
    heading_of,
    passage_headings,
    section_title,
)
from app.llm.offline.lists import lead_in, with_list
from app.llm.offline.markup import code_lines, starts_in_fence
from app.llm.offline.openings import opened_headings, opening_at
from app.llm.offline.symbol_words import name_words
from app.llm.offline.words import stems
from workers.sources import Passage
from workers.sources.entries import entry_led
from workers.sources.names import symbol_key
from workers.sources.operators import writes_symbol
from workers.sources.sentence_ends import HEDGE, PLAIN_WORD, continues_code, sentence_ends

__all__ = ["Sentence", "candidate_sentences", "code_lines", "heading_of", "is_heading",
           "prose_sentences", "split_sentences", "starts_in_fence",
           "starts_mid_sentence", "summary_line"]

# Sentence filters: too short is a fragment or heading, too long is a run-on or a table row.
_MIN_WORDS, _MAX_WORDS = 5, 60
_MIN_CHARS, _MAX_CHARS = 25, 400


@dataclass(frozen=True)
class Sentence:
    """One candidate claim: its text, the ref it is cited by, and what ranks it.

    ``rank`` is its passage's retrieval rank (0 is the top), ``position`` its place in the
    passage, ``stems`` its own content stems and ``context`` those of its whole passage.
    """

    text: str
    ref: str
    rank: int
    position: int
    stems: frozenset[str]
    context: frozenset[str]
    heading: frozenset[str] = frozenset()
    """The stems of the heading the sentence sits under in its passage (``## Limitations``):
    a field's words match them as they match the sentence's own (:mod:`.relevance`)."""
    entry: frozenset[str] = frozenset()
    """The stems of the entry's name that leads its paragraph (``pop [<stash>]: Remove ...``:
    ``{"pop"}``; :func:`workers.sources.entries.entry_name`): what the sentence is about."""
    leans: bool = False
    """Whether the sentence goes on from what its passage says before it ("This works by ...",
    "As a result, ...", :func:`app.llm.offline.going_on.leans`) and it is quoted without that
    (the two are too long for one finding): it says less than the sentence it goes on from."""
    section: frozenset[str] = frozenset()
    """The stems of its section's title (:func:`~.headings.section_title`): what it is about."""
    opens: frozenset[str] = frozenset()
    """The stems of the heading whose section it opens, when it is of the section's first prose
    paragraph (:func:`~.openings.opened_headings`): what it answers, in words it need not
    repeat."""
    opening: int = 0
    """How many sentences of that opening paragraph come before it."""


_TERMINAL = re.compile(r"[.!?][\"')\]]*$")


_SECTION_NUMBER = re.compile(r"^\s*(?:\d+\.)+\d*\s|^\s*\d+\s+[A-Z]")
_LINE_END = re.compile(r"[.!?:;,][\"')\]]*$")


def is_heading(block: str) -> bool:
    """Whether a paragraph is a heading, not prose: one line that ends without punctuation
    and is numbered ("3.3. Partial Sorting Using An Index (a.k.a. Block Sorting)") or title-
    cased ("Configuring The Busy Handler"). An HTML page's section starts with its heading as
    a paragraph of its own; its full stops ("a.k.a.") must not cut it into "sentences" that
    state nothing (found on SQLite's manual).

    Example:
        >>> is_heading("3.3. Partial Sorting Using An Index (a.k.a. Block Sorting)")
        True
        >>> is_heading("The busy handler sleeps and retries until the timeout expires.")
        False
    """
    line = block.strip()
    if not line or "\n" in line:
        return False
    if _SECTION_NUMBER.match(line) and (line.endswith("?") or not _LINE_END.search(line)):
        return True  # a FAQ's numbered question too ("7.10 How do I convert ...?")
    if _LINE_END.search(line):
        return False
    words = [w for w in re.findall(r"[A-Za-z][\w'-]*", line) if len(w) > 3]
    capital = sum(w[0].isupper() for w in words)
    return len(words) >= 2 and 3 * capital >= 2 * len(words)


_DEFAULT_MARK = re.compile(r"\W*(?:(?:this\s+is\s+)?the\s+)?default\W*", re.IGNORECASE)
"""A sentence that only marks the one before as the default: a list of values writes
``"xhtml": Outputs XHTML style tags. Default.`` (Python-Markdown's output_format, whose default
was lost with the one-word sentence, trial 111, F2)."""


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``; each is a verbatim substring of it. Headings (:func:`is_heading`)
    give none; a sentence that only says "Default." goes with the one before
    (:data:`_DEFAULT_MARK`).

    Example:
        >>> split_sentences('"xhtml": Outputs XHTML tags. Default.\\n\\n"html5": Outputs HTML.')
        ['"xhtml": Outputs XHTML tags. Default.', '"html5": Outputs HTML.']
    """
    sentences: list[str] = []
    for block in blocks(text):
        if is_heading(block):
            continue
        cuts = [0, *sentence_ends(block), len(block)]
        ends = [end for at, end in enumerate(cuts[1:-1], start=1)  # "Default." is no sentence
                if not _DEFAULT_MARK.fullmatch(block[end:cuts[at + 1]])]  # of its own
        for start, end in zip([0, *ends], [*ends, len(block)], strict=True):
            sentences.append(block[start:end].strip())
    return [s for s in sentences if s and s in text]


def starts_mid_sentence(text: str, sentence: str) -> bool:
    """Whether ``sentence`` opens ``text`` and is the tail of a sentence cut at the passage's
    start: it begins with a plain lower-case word (not an identifier such as ``add_node``) or
    with closing punctuation.

    Example:
        >>> tail = "seconds (`float`), or a `timedelta`."
        >>> starts_mid_sentence(tail, tail)
        True
        >>> starts_mid_sentence("add_node adds a node.", "add_node adds a node.")
        False
        >>> starts_mid_sentence("```\\nCC = gcc\\n```\\n\\nthe compiler set.", "the compiler set.")
        True
    """
    head = _LEADING_CODE.sub("", text).lstrip()  # code before it: the sentence ran through it
    if not head.startswith(sentence[:40]) or entry_led(head):  # "pop [<stash>]: Remove ..."
        return False
    return bool(PLAIN_WORD.match(sentence)) or sentence[:1] in ",;:)]}"


_LEADING_CODE = re.compile(r"^(?:\s*(```|~~~)[^\n]*\n.*?\n[ \t]*\1[^\n]*(?:\n|$))+", re.DOTALL)
"""Fenced code blocks opening a passage (a passage cut at code a sentence runs through: "the
compiler and other settings having been set ..." after a Makefile, trial 51)."""


_FILE_NAME = re.compile(r"(?<![\w/])[\w/.-]+\.(?:html?|pdf|md|txt|rst)(?:#[\w-]*)?(?!\w)")
"""A page's file name (``uri.html#coreqp``): a line that names one without ending a sentence is
an index entry or a link list ("URI query parameters - uri.html#coreqp"), not prose."""


_SUMMARY_MIN_WORDS = 3
"""A symbol's summary line may be this short ("Configuration for retrying nodes.") ..."""
_SUMMARY_MIN_CHARS = 12
"""... and this many characters: ImageMagick's ``-resize geometry`` says "Resize an image."."""


def _symbol_stems(title: str) -> frozenset[str]:
    """The stems a docstring's sentences count as their own by their place: its symbol's name
    words (``Retry Policy``) and its name as one word (``basecheckpointsaver``), since a
    question spells a name as written ("What is BaseCheckpointSaver?") and its one stem matched
    none of the name's words (so the summary line "Base class for creating a graph
    checkpointer." lost to a sentence about thread ids)."""
    words = name_words(title)
    return stems(words) | stems(symbol_key(title)) if words else frozenset()


def _is_summary(passage: Passage, position: int) -> bool:
    """Whether the sentence at ``position`` of ``passage`` is its symbol's summary line: the
    first sentence of a docstring's first passage."""
    split = Passage.split_ref(passage.ref)
    return position == 0 and split is not None and split[1] == "0" and bool(
        name_words(passage.title))


def _is_first(passage: Passage) -> bool:
    """Whether ``passage`` is its document's first (``...#0``, or a ref with no sequence)."""
    split = Passage.split_ref(passage.ref)
    return split is None or split[1] == "0"


# a question (a FAQ's heading) states nothing, though one that quotes a question at its end
# does; nor does a sentence ending on a word pointing back ("Git doesn't provide a way to do
# this."): what it says is in the sentence before
# a question, also numbered as a FAQ's heading is ("7.10 How do I convert factors to numeric?":
# trial 49 found R's FAQ headings quoted as Answer lines) or marked "Q:"
_ASKS = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s+|q\d*[.:]\s*)?"
                   r"(?:what|how|why|when|where|which|who|whom|whose|can|could|do|does|"
                   r"did|is|are|was|were|should|would|will|shall|may|might|must|has|have|"
                   r"had)\b.*\?[\"')\]]*$", re.IGNORECASE | re.DOTALL)
_POINTS_BACK = re.compile(r"\b(?:this|that|these|those|so)[\"')\]]*[.!]?[\"')\]]*$",
                          re.IGNORECASE)


def _acceptable(sentence: str, *, need_terminal: bool, summary: bool = False,
                symbols: Sequence[str] = ()) -> bool:
    """Whether ``sentence`` can be a finding: prose of a fragment's length or more, a whole
    sentence when ``need_terminal``, no code, no question, not pointing back (see above). A
    sentence writing one of the ``symbols`` a question asks may be as short as a summary's, and
    one led by it as a label is judged code or not by its text after the label: Exim's "=>:
    normal message delivery." was code by its "=>" (trial 117, F6)."""
    asked = any(writes_symbol(sentence, symbol) for symbol in symbols)
    summary = summary or asked
    words = sentence.split()
    least = _SUMMARY_MIN_WORDS if summary else _MIN_WORDS
    chars = _SUMMARY_MIN_CHARS if summary else _MIN_CHARS
    if not (least <= len(words) <= _MAX_WORDS and chars <= len(sentence) <= _MAX_CHARS):
        return False
    if summary and len(words) < _MIN_WORDS and not _TERMINAL.search(sentence):
        return False
    # an entry's line is whole without a full stop ("--previous: keep previous msgids of
    # translated messages", GNU's man pages as groff writes them in HTML, trial 98, F1; a
    # Sphinx parameter's "request_timeout (float) – Timeout ..., default 20 seconds")
    terminal = _TERMINAL.search(sentence) is not None or (
        "\n" not in sentence and entry_led(sentence))  # Sphinx's "timeout (float) – ..."
    if (need_terminal and not terminal) or (not terminal and _FILE_NAME.search(sentence)):
        return False
    return not (_ASKS.search(sentence) or _POINTS_BACK.search(sentence)
                or looks_like_code(_SYMBOL_LABEL.sub("", sentence) if asked else sentence))


_SYMBOL_LABEL = re.compile(r"^\s*[^\w\s]{1,4}:\s+")
"""A symbol labelling the line it leads ("=>: normal message delivery.")."""


def prose_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that are prose (:func:`split_sentences`, list markers left
    out, neither code nor a field listing nor a fragment of fewer than
    :data:`_SUMMARY_MIN_WORDS` words; of any length), in reading order.

    Example:
        >>> prose_sentences("- **Single**: Use a unique ID for each run.\\n\\n```py\\nx = 1\\n```")
        ['**Single**: Use a unique ID for each run.']
    """
    return [s for s in split_sentences(text)
            if len(s.split()) >= _SUMMARY_MIN_WORDS and not looks_like_code(s)]


def summary_line(passage: Passage) -> str | None:
    """The summary line of the symbol ``passage`` documents: the first sentence of a docstring's
    first passage (``...#0``), when it is prose; None for any other passage (a page's, a
    docstring's later one) or one that opens with code. What a documented symbol *is*:
    "Base class for creating a graph checkpointer." for ``BaseCheckpointSaver``.

    Example:
        >>> text = "Moves packets between moon stations.\\n\\nMore."
        >>> summary_line(Passage("x.Relay#0", "x.Relay", "x.Relay", "src", text))
        'Moves packets between moon stations.'
        >>> summary_line(Passage("x.Relay#1", "x.Relay", "x.Relay", "src", "Moves.")) is None
        True
    """
    return first_summary(passage.text) if _is_summary(passage, 0) else None


def first_summary(text: str) -> str | None:
    """The first sentence of ``text`` when the text opens with it and it is prose that can say
    what a thing is (as :func:`summary_line` takes a docstring's); else None.

    Example:
        >>> first_summary("Returns a QuerySet that follows foreign keys.\\n\\nMore.")
        'Returns a QuerySet that follows foreign keys.'
        >>> first_summary("```\\nx = 1\\n```") is None
        True
    """
    sentences = split_sentences(text)
    if not sentences or not text.lstrip().startswith(sentences[0]):
        return None  # a list, code or a heading came first
    first = sentences[0]
    return first if _acceptable(first, need_terminal=False, summary=True) else None


def _joined(text: str, last: tuple[int, int], start: int, end: int,
            need_terminal: bool) -> int | None:
    """Where the quote of a sentence going on from the one before (at ``start``) starts, the
    sentence ending at ``end`` of ``text``: when the one before is part of the last quote
    (``last``, its start and end), at that quote's start, one quote of the three, never two
    overlapping (trial 79, F5), else at ``start``; None when that quote is no finding, as when
    it opens with a question ("What is X? It doesn't seem to be documented.", trial 125, F10)."""
    at = last[0] if last[0] < start < last[1] else start
    if asks((split_sentences(text[at:end]) or [""])[0]):
        return None
    return at if _acceptable(prose_of(text[at:end]), need_terminal=need_terminal) else None


def _sentence(text: str, passage: Passage, rank: int, position: int, offset: int,
              entry: frozenset[str], context: frozenset[str], heading: str,
              leaning: bool, opens: tuple[frozenset[str], int] = (frozenset(), 0)) -> Sentence:
    """The :class:`Sentence` ``text`` of ``passage`` at ``offset``, under ``heading``: its own
    stems are its list lead-in's, with its symbol's in a docstring's summary ("Configuration for
    retrying nodes." names RetryPolicy) and its entry's in an entry's first sentence."""
    own = stems(lead_in(text))
    if _is_summary(passage, position):
        own |= _symbol_stems(passage.title)
    if entry and paragraph_at(passage.text, offset).startswith(text):
        own |= entry
    return Sentence(text, passage.ref, rank, position, own, context, stems(heading), entry,
                    leaning, stems(section_title(heading or passage.heading, passage.text)), *opens)


def _no_quote(passage: Passage, position: int, offset: int, sentence: str) -> bool:
    """Whether ``sentence`` (at ``offset`` of ``passage``, its ``position``-th) is no quote of
    its own: the tail of the passage before's sentence, code going on, a question (a FAQ's
    heading its section, :func:`~app.llm.offline.headings.asks`: trial 125, F10), or a hedge
    ending its passage, what holds in practice in the next ("Strictly speaking, ... can live
    anywhere you like, ...", :data:`~workers.sources.sentence_ends.HEDGE`)."""
    return (position == 0 and not _is_first(passage)
            and starts_mid_sentence(passage.text, sentence)
            or continues_code(passage.text, offset, sentence) or asks(sentence)
            or HEDGE.match(sentence) is not None
            and not passage.text[offset + len(sentence):].strip()
            or asks_as_heading(sentence, passage.heading or heading_line(passage.text)))


def _openings(passage: Passage) -> list[tuple[int, int, frozenset[str]]]:
    """The paragraphs of ``passage`` that open a section (:func:`~.openings.opened_headings`),
    its heading the passage's own, else its first line when a heading (a search result names
    no heading of its own)."""
    first = heading_line(passage.text)
    return opened_headings(passage.text, passage.heading or (first if is_heading(first) else ""))


def candidate_sentences(ranked: Sequence[tuple[int, Passage]],
                        symbols: Sequence[str] = (), how: bool = False) -> list[Sentence]:
    """Candidate sentences of ``(rank, passage)`` pairs, de-duplicated, in rank then reading
    order. Whole sentences are preferred; when no passage has one, any prose line is taken. A
    sentence introducing a list is quoted with it (:func:`app.llm.offline.lists.with_list`), one
    running through a short code block with its code (:mod:`app.llm.offline.code_quotes`), and,
    asked how to do a thing (``how``), one ending in a colon with the code it introduces, a
    whole sentence so (pytest's "... in your pytest.ini file like this:" was never a finding,
    trial 123, P4). One writing a symbol the question asks (``symbols``) may be short: "<=:
    message arrival."."""
    found: list[Sentence] = []
    for need_terminal in (True, False):  # prefer whole sentences; fall back to any prose line
        seen: set[str] = set()
        for rank, passage in sorted(ranked, key=lambda pair: pair[0]):
            # a docstring's passages are about its symbol: its name's words count as theirs
            context = stems(passage.text) | _symbol_stems(passage.title)
            headings, offset, before = passage_headings(passage.text), 0, None
            openings = _openings(passage)
            last = (-1, -1)  # where the passage's last quote starts and ends
            for position, sentence in enumerate(split_sentences(passage.text)):
                offset = max(passage.text.find(sentence, offset), offset)
                start, before = going_on(passage.text, before, offset, sentence), offset
                leaning = start == offset and leans(passage.text, offset, sentence,
                                                    _is_first(passage))
                if start < offset:  # "This should be capitalized." with the sentence it is of
                    end = offset + len(sentence)
                    start = _joined(passage.text, last, start, end, need_terminal)
                    leaning = start is None  # an entry's sentence, alone: it leans
                    if start is not None:
                        sentence, offset = passage.text[start:end], start
                        if found and found[-1].ref == passage.ref and sentence.startswith(
                                found[-1].text):
                            found.pop()  # quoted whole now, not also alone
                    elif not entry_at(passage.text, offset):
                        continue  # of a sentence no finding quotes: alone, it says nothing
                key = " ".join(sentence.lower().split())
                if _no_quote(passage, position, offset, sentence):
                    continue
                # a lead-in ("the following are disallowed:") is quoted with its list
                sentence = with_list(passage.text, offset, sentence, _MAX_CHARS, _MAX_WORDS)
                # ... and one running through a short code block, with its code
                sentence = with_code(passage.text, offset, sentence, _MAX_CHARS, _MAX_WORDS,
                                     how)
                named = name_line(passage.text, offset, sentence)  # (trial 121, F1)
                entry = stems(named or entry_at(passage.text, offset))
                whole = bool(named) or introduces_code(sentence)  # "... like this:" and code
                if key in seen or not _acceptable(prose_of(sentence),
                                                  need_terminal=need_terminal and not whole,
                                                  summary=_is_summary(passage, position)
                                                  or bool(entry), symbols=symbols):
                    continue
                seen.add(key)
                found.append(_sentence(sentence, passage, rank, position, offset, entry,
                                       context, heading_at(headings, offset), leaning,
                                       opening_at(openings, passage.text, offset)))
                last = (offset, offset + len(sentence))
        if found:
            break
    return found
