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

from app.llm.offline.code_quotes import introduces_code
from app.research.topic_words import needed
from workers.sources.query import mentions

__all__ = ["shows_how"]


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
