"""A how-to's answer that is code: a sentence introducing it with a colon ("... like this:",
"... by issuing the command:") and the block it introduces, quoted together by the offline
model (:func:`app.llm.offline.code_quotes.with_code`). Asked how to do the thing the sentence
or its heading names, it is the answer, before a prose sentence that only mentions the thing:
pytest's "Multiple custom markers can be registered, by defining each one in its own line, as
shown in above example." led "How do I register custom marks?" while "You can register custom
marks in your pytest.ini file like this:" and its ``markers =`` lines were not shown (trial
123, P4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.llm.offline.code_quotes import introduces_code
from app.research.topic_words import needed
from workers.sources.query import mentions

__all__ = ["beside_code", "shows_how"]


def shows_how(kind: str, quote: str, text: str, heading: str, subject: Sequence[str]) -> bool:
    """Whether ``quote`` (its lead-in sentence ``text``, under ``heading``) answers a "how"
    question (``kind``, :func:`app.research.topics.topic_kind`) with code: it is a sentence
    ending in a colon and the code it introduces (:func:`introduces_code`), and the sentence or
    its heading names the question's ``subject`` (:func:`app.research.own.subject_terms`;
    :func:`~app.research.topic_words.needed` of its words, each judged alone).

    Example:
        >>> quote = "Register them like this:\\n\\n```\\nmarkers = slow\\n```"
        >>> shows_how("how", quote, "Register them like this:", "Registering marks",
        ...           ["register", "custom", "marks"])
        True
        >>> shows_how("how", quote, "Register them like this:", "Plugins",
        ...           ["register", "custom", "marks"])
        False
        >>> shows_how("what", quote, "Register them like this:", "Registering marks",
        ...           ["register", "custom", "marks"])
        False
    """
    if kind != "how" or not subject or not introduces_code(quote):
        return False
    least = needed(subject)
    return len(mentions(subject, text)) >= least or len(mentions(subject, heading)) >= least


def beside_code(kind: str, ranked: list[tuple[tuple[Any, ...], Any]]
                ) -> list[tuple[tuple[Any, ...], Any]]:
    """``ranked`` (:func:`app.research.answer._ranked`'s keys and findings: the fourth of a
    "how" question's key is 0 for a quote that :func:`shows_how`, 1 for a sentence that fits
    the kind, 2 for another, the fifth whether it says no way to do it) with a sentence saying
    what to do ranked as the code is, when a quote shows how: the code comes before prose that
    only mentions the thing, not before "To export a table as CSV, simply set the mode to csv"
    (sqlite's cli.html, whose "The equivalent line on a Mac would be:" and its one line had led
    "How do I export a table to CSV in the command-line shell?").

    Example:
        >>> ranked = [((0, 1, False, 2, False, True, 0), "To do it, run x."),
        ...           ((0, 1, False, 0, False, False, 1), "Like this: x"),
        ...           ((0, 1, False, 1, True, False, 2), "X is fun.")]
        >>> [key for key, _ in beside_code("how", ranked)][0]
        (0, 1, False, 0, False, False, 0)
    """
    if kind != "how" or not any(key[3] == 0 for key, _ in ranked):
        return ranked
    # raised, as about the thing as the code is (its next to last): then in the search's order
    return [((*key[:3], 0, *key[4:-2], False, key[-1]) if not key[4] else key, finding)
            for key, finding in ranked]
