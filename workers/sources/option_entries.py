"""An option's entry as a man page or a command's reference writes it: the option a heading
names (``-quality value``) and a paragraph of an option's forms alone labelling the paragraphs
after it (``-k --keep``). Pure: regular expressions over one heading or paragraph.
"""

from __future__ import annotations

import re

__all__ = ["option_heading", "option_label"]

_OPTION_HEADING = re.compile(r"([-+]{1,2}[A-Za-z][\w-]*)(?:[ =](?!:)[^\s.;!?]{1,40}){0,2}")


def option_heading(heading: str) -> str:
    """The option ``heading`` names, dashes kept, with its arguments or not (ImageMagick's
    ``-quality value``, above "JPEG/MIFF/PNG compression level."), else "".

    Example:
        >>> option_heading("-quality value"), option_heading("+repage"), option_heading("- a b")
        ('-quality', '+repage', '')
        >>> option_heading("-L [bind_address:]port:host:hostport")  # ssh's
        '-L'
    """
    found = _OPTION_HEADING.fullmatch(heading.strip())
    return found.group(1) if found else ""


def option_label(paragraph: str) -> str:
    """The option a paragraph of an option's forms alone labels (a man page's ``-k --keep``;
    ssh's ``-L``, four forms a line each, above "Specifies that connections to the given TCP
    port ..."), its first form as written; else "". The paragraphs after it, up to the next
    label, are that option's entry: the report (:mod:`app.research.neighbours`) and the
    offline model read them so (trial 76).

    Example:
        >>> option_label("-L [bind_address:]port:host:hostport\\n-L local_socket:remote_socket")
        '-L [bind_address:]port:host:hostport'
        >>> option_label("-k --keep"), option_label("-k means keep.")
        ('-k --keep', '')
    """
    lines = paragraph.strip().split("\n")
    if len(lines) <= 6 and all(line.strip() and len(line) <= 80 and line[-1] not in ".!?:;,"
                               and option_heading(line.split()[0]) for line in lines):
        return lines[0].strip()
    return ""
