"""A sentence that runs through a short displayed code block, quoted whole with its code:
"If f is such a factor object, you can use ``as.numeric(as.character(f))`` to get the numbers
back." Split at the fence, its first half is no sentence and its second the tail of one
(:func:`~workers.sources.sentence_ends.continues_code`), so a how-to answer that *is* code was
never quoted (trial 49, on R's FAQ: "How do I convert factors to numeric?").

Pure: the quote is a verbatim slice of its passage, from the sentence's first character to the
end of the sentence it continues into; a report joining its lines shows the code as a code span
(three backticks, then the code, then three backticks, on one line, is one in Markdown).
"""

from __future__ import annotations

import re

from app.llm.offline.markup import FENCE
from app.research.text import BLOCK_LINES
from workers.sources.sentence_ends import PLAIN_WORD, announces, sentence_ends

__all__ = ["FENCED_AFTER", "introduces_code", "prose_of", "with_code"]

_CODE_LINES = 3
"""The most lines of code a sentence runs through (a longer block is a listing of its own)."""
_CODE_CHARS = 100
"""The longest line of such code."""
FENCED_AFTER = re.compile(r"\s*\n[ \t]*(```|~~~)[^\n]*\n(?P<code>.*?)\n[ \t]*\1", re.DOTALL)
"""A fenced block right after a sentence (from its end on): its code in ``code``."""
_ANNOUNCES = re.compile(r"(?:\b(?:the|these)\s+following\b.*|\bas\s+follows|:)\s*$",
                        re.IGNORECASE | re.DOTALL)
"""A sentence announcing the code after it: "The following command sends all syslog messages
to a remote server via TCP port 10514." was a finding without its ``action(...)`` line
(rsyslog's omfwd examples, trial 78, F7); so is one ending in a colon."""
_PARAGRAPH_BREAK = re.compile(r"[ \t]*\n\s*\n")
_ENDS = re.compile(r"[.!?][\"')\]]*$")
_TRAILING_BLOCK = re.compile(r"\s*\n[ \t]*(```|~~~)[^\n]*\n.*?\n?[ \t]*\1[ \t]*$", re.DOTALL)
_FENCED = re.compile(r"[ \t]*(?:```|~~~)[^\n]*\n(.*?)\n?[ \t]*(?:```|~~~)", re.DOTALL)


def with_code(text: str, start: int, sentence: str, most_chars: int, most_words: int,
              how: bool = False) -> str:
    """``sentence`` (found at ``text[start:]``) joined to the code block it runs into and the
    rest of it after the block, when it ends with no mark that ends a sentence (or with the
    block alone, when it announces it), the block has
    at most :data:`_CODE_LINES` short lines and what follows opens with a plain lower-case word
    (:data:`~workers.sources.sentence_ends.PLAIN_WORD`); else ``sentence`` itself, also when
    the whole would pass ``most_chars`` or ``most_words``. Asked how to do a thing (``how``),
    a sentence ending in a colon (or "as follows.", :func:`_introduced`) is quoted with the
    block it introduces of up to :data:`~app.research.text.BLOCK_LINES` short lines, its own
    length judged alone:
    pytest's "You can register custom marks in your pytest.ini file like this:" and its four
    ``markers =`` lines answer "How do I register custom marks?" (trial 123, P4; git's "...
    you can bisect by issuing the command:", trial 121, G4).

    Example:
        >>> text = "If f is one, use\\n\\n```\\nas.numeric(f)\\n```\\n\\nto get it back."
        >>> with_code(text, 0, "If f is one, use", 400, 60)
        'If f is one, use\\n\\n```\\nas.numeric(f)\\n```\\n\\nto get it back.'
        >>> with_code(text, 0, "If f is one, use", 30, 60)
        'If f is one, use'

    A sentence announcing the short block after it (:data:`_ANNOUNCES`) is quoted with it:

        >>> text = "The following line forwards it.\\n\\n```\\naction(type=\\"fwd\\")\\n```"
        >>> with_code(text, 0, "The following line forwards it.", 400, 60)
        'The following line forwards it.\\n\\n```\\naction(type="fwd")\\n```'
    """
    if not sentence or text.find(sentence, start) != start:
        return sentence
    end = start + len(sentence)
    block = FENCED_AFTER.match(text, end)
    lines = block["code"].split("\n") if block else []
    if how and block and _introduced(sentence, lines):  # "... like this:" and its code
        return text[start:block.end()] if len(sentence) <= most_chars else sentence
    if not 1 <= len(lines) <= _CODE_LINES or any(len(line) > _CODE_CHARS for line in lines):
        return sentence
    if _ANNOUNCES.search(sentence):  # "The following command sends ...": with what follows
        quote = text[start:block.end()]  # type: ignore[union-attr]
        return quote if len(quote) <= most_chars else sentence
    if sentence.rstrip()[-1] in ".!?:;":
        return sentence
    gap = _PARAGRAPH_BREAK.match(text, block.end())  # type: ignore[union-attr]
    if gap is None:
        return sentence
    after = gap.end()
    if not PLAIN_WORD.match(text, after) or FENCE.match(text, after):
        return sentence
    paragraph = text[after:].split("\n\n", 1)[0]
    # the rest ends where the sentence does, by the splitter's rule ("e.g." ends none: F10)
    end = next(sentence_ends(paragraph), None)
    if end is None:
        if not _ENDS.search(paragraph.rstrip()):
            return sentence
        end = len(paragraph.rstrip())
    quote = text[start:after + end]
    if len(quote) > most_chars or len(prose_of(quote).split()) > most_words:
        return sentence
    return quote


def _introduced(sentence: str, lines: list[str]) -> bool:
    """Whether ``sentence`` ends by introducing what follows, with a colon or "as follows."
    (:func:`~workers.sources.sentence_ends.announces`: the Debian Reference's "... explicitly
    list all those packages at the top of it as the following." lost its six ``Pin:`` lines,
    trial 124, FB1), and the code ``lines`` after it are few and short enough to be quoted with
    it (:data:`~app.research.text.BLOCK_LINES`, :data:`_CODE_CHARS`)."""
    shown = [line for line in lines if line.strip()]
    return (announces(sentence.rstrip()) and 1 <= len(shown) <= BLOCK_LINES
            and all(len(line) <= _CODE_CHARS for line in shown))


def introduces_code(quote: str) -> bool:
    """Whether ``quote`` is a sentence introducing what follows (a colon, "as follows.") and the
    fenced block it introduces (:func:`with_code`'s quote for a how-to): whole, though its
    prose ends in no full stop.

    Example:
        >>> introduces_code("Run it like this:\\n\\n```\\n$ make -j4\\n```")
        True
        >>> introduces_code("List them as the following.\\n\\n```\\nPin: version *\\n```")
        True
        >>> introduces_code("Run it like this:"), introduces_code("It is built.\\n\\n```\\nx\\n```")
        (False, False)
    """
    if _TRAILING_BLOCK.search(quote) is None:
        return False
    return announces(_TRAILING_BLOCK.sub("", quote).rstrip())


def prose_of(quote: str) -> str:
    """``quote`` with each fenced block it holds put as one word, ``code``, and a block that
    ends it left out (the code a sentence announces): what a rule about prose judges of it (a
    sentence quoted with its code is prose).

    Example:
        >>> prose_of("you can use\\n\\n```\\nas.numeric(f)\\n```\\n\\nto get it back.")
        'you can use\\n\\ncode\\n\\nto get it back.'
    """
    return _FENCED.sub("code", _TRAILING_BLOCK.sub("", quote))
