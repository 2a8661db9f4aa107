"""Passages: a document's text cut into pieces of at most :data:`MAX_PASSAGE_CHARS`, at
paragraph ends, then where a sentence ends (:mod:`workers.sources.sentence_ends`, the offline
model's own rule), then at whitespace; and a window of a document's passages around one.

Standard library, :mod:`workers.sources.fences` and :mod:`workers.sources.sentence_ends` only.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Iterator

from workers.sources.fences import fence_parts, split_fences
from workers.sources.sentence_ends import GOES_ON, HEDGE, announces, leads_on, sentence_ends

__all__ = ["MAX_PASSAGE_CHARS", "PARA_SPLIT", "chunk_text", "passage_window"]

MAX_PASSAGE_CHARS = 800
"""Upper bound on a passage's length; passages are cut on paragraph/sentence/word boundaries."""

PARA_SPLIT = re.compile(r"\n[ \t]*\n+")


def _hard_split(text: str, limit: int) -> Iterator[str]:
    """Cut a text with no usable sentence boundary at whitespace (or at ``limit`` if none),
    walking it by offset: a slice of the rest per cut was O(n²) on a long run of CJK text or
    one unbroken token (16 M characters: 17.7 s; trial 59, F10)."""
    start, size = 0, len(text)
    while size - start > limit:
        cut = text.rfind(" ", start, start + limit + 1) - start
        if cut <= limit // 4:
            cut = text.rfind("\n", start, start + limit + 1) - start
        if cut <= limit // 4:
            cut = limit
        head = text[start:start + cut].rstrip()
        start += cut
        while start < size and text[start].isspace():
            start += 1
        if head:
            yield head
    if start < size:
        yield text[start:]


def _pack(pieces: Iterable[str], limit: int, sep: str) -> list[str]:
    """Greedily pack pieces (each at most ``limit`` long) into chunks of at most ``limit``; a
    fenced block that starts a chunk takes the lead-in that introduces it along
    (:func:`_lead_in`)."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0  # len(sep.join(current)), kept as pieces join (joined each time: O(n²) in them)
    for piece in pieces:
        if not current:
            current, size = [piece], len(piece)
        elif size + len(sep) + len(piece) <= limit:
            current.append(piece)
            size += len(sep) + len(piece)
        else:
            held, lead = _lead_in(current, piece, limit, sep)
            if held:
                chunks.append(sep.join(held))
            current = [*lead, piece]
            size = len(sep.join(current))
    if current:
        chunks.append(sep.join(current))
    return chunks


_FENCED_PIECE = re.compile(r"\s*(?:```|~~~)")
_COLON = re.compile(r":[\"')\]]*\s*$")
"""A lead-in ending in a colon goes with code only: moved with the paragraphs or list after it,
SQLite's windowfunctions.html lost the words that ranked its passages (sqlite-36)."""
_QUESTION_LINE = re.compile(r"[^\n]{1,80}\?")
"""A paragraph of one short line asking a question: a box's title ("Where should this code
live?", Django's) or a FAQ's question, heading the paragraphs after it."""


def _lead_in(current: list[str], piece: str, limit: int, sep: str) -> tuple[list[str], list[str]]:
    """``current`` (a chunk's pieces, ``piece`` too long to join them) as what stays and the
    lead-in that goes with ``piece`` into the next chunk: the sentence ending ``current``, when
    it promises what follows (:func:`~workers.sources.sentence_ends.leads_on`: it ends in a
    colon or "as follows.", or opens with a hedge) and fits with ``piece`` (and is not all that
    ``current`` holds, nor code, nor a sentence going on from the one before,
    :data:`GOES_ON`); the rest of its paragraph stays. A question on a line of its own
    (:data:`_QUESTION_LINE`) ending ``current``, or heading the paragraph that goes, goes too:
    it heads what answers it. pytest's "You can influence output capturing
    mechanisms from the command line:" ended one passage and its ``pytest -s  # disable all
    capturing`` opened the next, so neither answered "How do I disable output capturing?"
    (trial 123, X1); Django's "Strictly speaking, signal handling and registration code can
    live anywhere you like, ..." ended one and "In practice, signal handlers are usually
    defined in a signals submodule ..." opened the next, so "Where should signal handling code
    live?" was answered with the hedge alone (trial 124, FB1). A paragraph that neither ends
    announcing (:func:`~workers.sources.sentence_ends.announces`: the end of its last sentence)
    nor holds a hedge anywhere is not cut into sentences: none of its sentences can lead on.

    Example:
        >>> _lead_in(["Aa aa.", "Run it:"], "```\\nrun\\n```", 30, "\\n\\n")
        (['Aa aa.'], ['Run it:'])
        >>> _lead_in(["Aa aa. Bb bb. Run it:"], "```\\nrun\\n```", 30, "\\n\\n")
        (['Aa aa. Bb bb.'], ['Run it:'])
        >>> _lead_in(["Aa aa.", "Bb bb."], "```\\nrun\\n```", 30, "\\n\\n")
        (['Aa aa.', 'Bb bb.'], [])
        >>> _lead_in(["Aa.", "Where?", "In theory, aa."], "In practice, bb.", 40, "\\n\\n")
        (['Aa.'], ['Where?', 'In theory, aa.'])
        >>> _lead_in(["Aa.", "Where?"], "In theory, aa.", 40, "\\n\\n")
        (['Aa.'], ['Where?'])
    """
    last = current[-1]
    if _FENCED_PIECE.match(last):
        return current, []
    if (_QUESTION_LINE.fullmatch(last.strip()) and len(current) > 1
            and len(last) + len(sep) + len(piece) <= limit):
        return current[:-1], [last]  # a question heads what answers it
    if not _may_lead_on(last):
        return current, []  # no sentence of it leads on: it is not cut into sentences
    parts = _sentences(last)  # sentence, whitespace, sentence, ...
    tail, held = parts[-1], current[:-1]
    if len(parts) > 1:  # the rest of its paragraph stays
        held = [*held, "".join(parts[:-2])]
    if (not held or GOES_ON.match(tail) or not leads_on(tail)
            or _COLON.search(tail) and not _FENCED_PIECE.match(piece)  # a list's lead-in stays
            or len(tail) + len(sep) + len(piece) > limit):
        return current, []
    lead = [tail]
    if (len(parts) == 1 and len(held) > 1 and _QUESTION_LINE.fullmatch(held[-1].strip())
            and len(sep.join([held[-1], tail, piece])) <= limit):
        lead = [held.pop(), tail]
    return held, lead


def _may_lead_on(para: str) -> bool:
    """Whether a sentence of ``para`` may lead on (:func:`~workers.sources.sentence_ends.leads_on`
    of its last): ``para`` ends announcing (``announces``: every such end is a colon or "...
    follows." or "... following." before closing quotes and blanks) or holds a hedge (each
    names "speaking", "theory", "principle" or "Theoretically"). Both patterns are searched
    only when the plain tests pass: searched everywhere, an end-anchored pattern was tried at
    each character of every paragraph, the most of chunking's CPU.

    Example:
        >>> [_may_lead_on(p) for p in ("Aa. Run it:", 'It is "as follows."', "Aa. Bb.")]
        [True, True, False]
    """
    end = para.rstrip().rstrip("\"')]")
    return (end.endswith((":", "follows.", "following.")) and announces(para)
            or any(word in para for word in _HEDGE_WORDS) and HEDGE.search(para) is not None)


_HEDGE_WORDS = ("speaking", "theory", "principle", "Theoretically")
_SPACE = re.compile(r"\s*")


def _sentences(para: str) -> list[str]:
    """``para`` cut where a sentence ends (:func:`workers.sources.sentence_ends.sentence_ends`,
    the offline model's rule), as sentence, whitespace, sentence, ...: the whitespace is kept
    (a docstring's "Args:" entries are lines).

    Example:
        >>> _sentences('Neither "fixup!" nor "amend!" commits change it.\\nSee git-rebase.')
        ['Neither "fixup!" nor "amend!" commits change it.', '\\n', 'See git-rebase.']
    """
    parts: list[str] = []
    start = 0
    for end in sentence_ends(para):
        rest = _SPACE.match(para, end).end()  # not para[end:]: a copy per sentence is O(n²)
        parts += [para[start:end], para[end:rest]]
        start = rest
    return [*parts, para[start:]]


def _pack_sentences(para: str, limit: int) -> list[str]:
    """A paragraph too long for one passage, cut into chunks of whole sentences (a sentence
    too long for one is cut at whitespace), each sentence joined to the next by the whitespace
    written between them: a line break stays a line break. Joined by a space, a docstring's
    "Args:" entries ran into one line ("... to error-handler nodes. cache_policy: Default ..."),
    and the field they document was lost. A sentence that goes on from the one before
    (:data:`GOES_ON`) takes that one into its chunk when both fit: "If the option -nosafe
    is given, Asymptote runs in unsafe mode." ended one passage and "This enables the int
    system(string s) ... calls" opened the next, so neither said what -nosafe enables.

    Example:
        >>> _pack_sentences("Aa aa. If -x is given, it runs. This enables y.", 40)
        ['Aa aa.', 'If -x is given, it runs. This enables y.']
    """
    parts = _sentences(para)  # sentence, whitespace, sentence, ...
    chunks: list[str] = []
    current: list[str] = []  # the chunk's pieces, each but the first led by its separator
    for index in range(0, len(parts), 2):
        sep = parts[index - 1] if index else ""
        for cut, piece in enumerate(_hard_split(parts[index], limit)):
            size = sum(map(len, current))
            if current and size + len(sep) + len(piece) <= limit:
                current.append(f"{sep}{piece}")
            else:
                carried: list[str] = []
                if (len(current) > 1 and not cut
                        and (GOES_ON.match(piece) or leads_on(current[-1].strip()))
                        and len(current[-1].lstrip()) + len(sep) + len(piece) <= limit):
                    carried = [current.pop().lstrip()]
                if current:
                    chunks.append("".join(current))
                current = [*carried, f"{sep}{piece}" if carried else piece]
            sep = " "  # within a sentence cut at whitespace
    if current:
        chunks.append("".join(current))
    return chunks


_LABEL = re.compile(r"[^\n]{1,80}(?<![.!?;,])|(?:[-+][^\n]{1,79}(?<![.!?;,])\n){1,5}"
                    r"[-+][^\n]{1,79}(?<![.!?;,])")
"""A paragraph of one short line that ends no sentence (a heading, an entry's label, a row such
as "Default: 50M"), or of up to six such lines that are an option's forms (ssh's ``-L
[bind_address:]port:host:hostport`` and its three others). It goes into the passage of the
paragraph after it."""
_OPTION = re.compile(r"[ \t]*[-+]{1,2}[A-Za-z]")
"""A paragraph opening with an option (``-C``, ``--all``): an entry's label."""
_MAX_HELD = 4
"""More short lines in a row than this are a list (an index, a cross-reference), not labels."""


def chunk_text(text: str, max_chars: int = MAX_PASSAGE_CHARS) -> list[str]:
    """Split ``text`` into passages of at most ``max_chars`` characters.

    Paragraphs (separated by blank lines) are packed together while they fit; a paragraph that is
    too long is split into sentences, and a sentence that is too long is cut at whitespace. A
    fenced code block (:func:`workers.sources.fences.split_fences`) is one paragraph, blank
    lines and all; one too long for a passage is cut at line ends into parts fenced again
    (:func:`workers.sources.fences.fence_parts`): no passage starts or ends inside a fence.
    Up to four short label paragraphs (:data:`_LABEL`) are part of the paragraph they head:
    Exim's option entries ("message_size_limit", "Use: main", "Default: 50M") ended one
    passage and their descriptions opened the next, so no passage held both (trial 73, F1).
    Deterministic; returns ``[]`` for blank text.
    """
    pieces: list[str] = []
    for fenced, segment in split_fences(text.replace("\r\n", "\n").replace("\r", "\n")):
        if fenced:  # a fenced code block is one piece, or fenced parts of it (too long)
            pieces.extend(fence_parts(segment.strip("\n").rstrip(), max_chars, _hard_split))
            continue
        held: list[str] | None = []  # labels waiting for the paragraph they head (None: a list)
        for para in PARA_SPLIT.split(segment):
            para = para.strip("\n").rstrip()
            if not para.strip():
                continue
            if _LABEL.fullmatch(para.strip()):
                if held and _OPTION.match(para) and not all(_OPTION.match(h) for h in held):
                    pieces.append("\n\n".join(held))  # an entry of short lines: ls's "-C",
                    held = []  # "list entries by columns"; the next option starts its own
                if held is not None and len(held) < _MAX_HELD:
                    held.append(para)
                    continue
                pieces.extend(held or ())  # a run of short lines is a list: each its own
                held = None
            else:
                para, held = "\n\n".join([*(held or ()), para]), []
            if len(para) <= max_chars:
                pieces.append(para)
                continue
            pieces.extend(_pack_sentences(para.strip(), max_chars))
        if held:  # the last entry's lines, one piece
            pieces.append("\n\n".join(held))
    # dedent only what is indented (textwrap.dedent is most of the cost on flat HTML text)
    return [(textwrap.dedent(chunk) if "\n " in chunk or "\n\t" in chunk else chunk).strip()
            for chunk in _pack(pieces, max_chars, "\n\n")]


def passage_window(texts: list[str], focus: int, max_chars: int) -> str:
    """Join a document's passages (``texts``, in order) by blank lines, keeping at most
    ``max_chars`` characters of whole passages around passage ``focus`` (its index): forwards
    first, then backwards; each cut is marked ``[…]``.

    Example:
        >>> passage_window(["a" * 5, "b" * 5, "c" * 5], 1, 12)
        '[…]\\n\\nbbbbb\\n\\nccccc'
    """
    full = "\n\n".join(texts)
    if len(full) <= max_chars:
        return full
    focus = min(max(focus, 0), len(texts) - 1)
    lo = hi = focus
    size = len(texts[focus])
    while hi + 1 < len(texts) and size + 2 + len(texts[hi + 1]) <= max_chars:
        hi += 1
        size += 2 + len(texts[hi])
    while lo > 0 and size + 2 + len(texts[lo - 1]) <= max_chars:
        lo -= 1
        size += 2 + len(texts[lo])
    body = "\n\n".join(texts[lo : hi + 1])[: max(max_chars, 1)]
    return ("[…]\n\n" if lo > 0 else "") + body + ("\n\n[…]" if hi + 1 < len(texts) else "")
