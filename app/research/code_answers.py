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
from typing import TYPE_CHECKING, Any

from app.llm.offline.code_quotes import introduces_code
from app.research.topic_words import needed
from workers.sources.query import mentions

if TYPE_CHECKING:
    from app.research.answer_rank import AnswerRank

__all__ = ["beside_code", "shows_how"]


def shows_how(kind: str, quote: str, text: str, heading: str, subject: Sequence[str]) -> bool:
    """Whether ``quote`` (its lead-in sentence ``text``, under ``heading``) answers a "how"
    question (``kind``, :func:`app.research.topics.topic_kind`) with code: it is a sentence
    ending in a colon and the code it introduces (:func:`introduces_code`), and the sentence or
    its heading names the question's ``subject`` (:func:`app.research.subject_words.subject_terms`;
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


def beside_code(kind: str, ranked: list[tuple[AnswerRank, Any]]
                ) -> list[tuple[AnswerRank, Any]]:
    """``ranked`` (:func:`app.research.answer_rank.ranked`'s ranks and findings) with a
    sentence saying what to do (not :attr:`~app.research.answer_rank.AnswerRank.no_advice`)
    ranked as the code is (``unfit`` 0, as about the topic as the code: not ``off_topic``),
    when a quote shows how (:func:`shows_how`): the code comes before prose that only mentions
    the thing, not before "To export a table as CSV, simply set the mode to csv" (sqlite's
    cli.html, whose "The equivalent line on a Mac would be:" and its one line had led "How do I
    export a table to CSV in the command-line shell?").

    Example:
        >>> from app.research.answer_rank import AnswerRank
        >>> ranked = [(AnswerRank(unfit=2, off_topic=True, position=0), "To do it, run x."),
        ...           (AnswerRank(unfit=0, position=1), "Like this: x"),
        ...           (AnswerRank(unfit=1, no_advice=True, position=2), "X is fun.")]
        >>> [(r.unfit, r.off_topic) for r, _ in beside_code("how", ranked)]
        [(0, False), (0, False), (1, False)]
    """
    if kind != "how" or not any(rank.unfit == 0 for rank, _ in ranked):
        return ranked
    # raised, as about the thing as the code is: then in the search's order
    return [(rank if rank.no_advice else rank._replace(unfit=0, off_topic=False), finding)
            for rank, finding in ranked]
