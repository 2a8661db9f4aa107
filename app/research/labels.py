"""What a passage bullet is labelled by in a report: its entry's label
(:func:`app.research.reference.entry_label`), or, on a page of a file titled by its own name
(a PDF has no title of its own), the heading of the section the passage is cut from.
"""

from __future__ import annotations

from typing import Any

from app.research.reference import entry_label

__all__ = ["shown_label"]


def shown_label(item: dict[str, Any]) -> str:
    """The label a passage bullet (``item``: a passage with ``ref``, ``title``, ``heading`` and
    ``text``) is shown under: :func:`~app.research.reference.entry_label`, but where that is the
    document's title and the title is only its file's name, the section's heading when there is
    one: "bashref.pdf: In an interactive shell, the value is interpreted as ..." named the
    file, not the section, "Bash Variables" (trial 97, R2).

    Example:
        >>> shown_label({"ref": "docs/bashref.pdf:p96#0", "title": "bashref.pdf",
        ...              "heading": "Bash Variables", "text": "In an interactive shell, ..."})
        'Bash Variables'
        >>> shown_label({"ref": "faq.html#2", "title": "SQLite FAQ", "heading": "Locking",
        ...              "text": "Two processes can read at once."})
        'SQLite FAQ'
    """
    label = entry_label(item)
    title = str(item.get("title") or "")
    heading = " ".join(str(item.get("heading") or "").split())
    document = str(item.get("ref") or "").split("#", 1)[0].rsplit(":p", 1)[0]
    if heading and label == title and title == document.rsplit("/", 1)[-1]:
        return heading
    return label
