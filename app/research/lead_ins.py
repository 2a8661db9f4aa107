"""A sentence that introduces code ("... can be found by", "... as input:") and the code it
introduces: shown together in an excerpt, by whole statements, or the sentence is no excerpt
alone (:func:`app.research.citations.excerpt`).
"""

from __future__ import annotations

from app.llm.offline.code_quotes import FENCED_AFTER
from app.research.text import ELLIPSIS
from workers.sources.base import code_span

__all__ = ["lead_in_alone", "with_its_code"]


def lead_in_alone(body: str, sentence: str) -> bool:
    """Whether ``sentence`` ends with a colon and no code of ``body`` is shown with it
    (:func:`with_its_code`): what it introduces is not in the excerpt."""
    return sentence.rstrip().endswith(":") and with_its_code(body, sentence) == sentence


def with_its_code(body: str, sentence: str, limit: int | None = None) -> str:
    """``sentence`` and, when it ends with no mark and a fenced block follows it in ``body``,
    that code: "... can be found by" said nothing without its ``R CMD config`` lines (trial
    51, N2). A line of code is a code span; code of several lines is the fenced block itself,
    its lines kept (:func:`app.research.text.bullet` shows it under its bullet: "When using
    Application Factories: `from flask import Flask, render_template def page_not_found(e):
    return ...`" could be neither read nor copied, trial 121, F6). Within ``limit`` characters
    (None: all of it), a line is shown by whole statements, an ellipsis after the span for the
    rest; none fits, the sentence alone.

    Example:
        >>> with_its_code("It is found by\\n\\n```\\nR CMD config\\n```", "It is found by")
        'It is found by `R CMD config`'
        >>> with_its_code("Try:\\n\\n```\\n>>> a = 1\\n>>> b = 2\\n```", "Try:", 30)
        'Try:\\n\\n```\\n>>> a = 1\\n>>> b = 2\\n```'
        >>> shell = "Run:\\n\\n```\\n$ pyperf timeit --rigorous -s 'import x'\\n```"
        >>> with_its_code(shell, "Run:", 30)
        'Run:'
    """
    end = body.find(sentence)
    if end < 0 or sentence.rstrip()[-1:] in tuple(".!?;"):
        return sentence
    block = FENCED_AFTER.match(body, end + len(sentence))
    if block is None:
        return sentence
    if sum(bool(line.strip()) for line in block["code"].splitlines()) > 1:
        return f"{sentence}\n\n{block.group(0).strip()}"  # its lines kept: trial 121, F6
    statements: list[str] = []
    for line in (" ".join(line.split()) for line in block["code"].splitlines()):
        if line and statements and (line.startswith("...") or statements[-1].endswith("\\")
                                    or not line.startswith(">>>")
                                    and statements[-1].startswith(">>>")):
            statements[-1] += f" {line}"  # a doctest's continuation or output, a shell's "\\"
        elif line:
            statements.append(line)
    room = None if limit is None else limit - len(sentence) - 5  # " `", "`", " …"
    shown = statements
    if room is not None and len(" ".join(statements)) > room + 2:
        shown = []
        while len(shown) < len(statements) and len(" ".join(
                [*shown, statements[len(shown)]])) <= room:
            shown.append(statements[len(shown)])
    if not shown:
        return sentence
    more = f" {ELLIPSIS}" if len(shown) < len(statements) else ""
    return f"{sentence} {code_span(' '.join(shown))}{more}"
