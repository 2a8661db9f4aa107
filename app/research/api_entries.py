"""Entries of a docstring's API sections: what a function returns (``Returns:``, ``Yields:``),
raises (``Raises:``) or takes (``Args:``), or what a field holds (``Attributes:``). Such an entry
is about its function's result, errors or parameters: it answers "What does get_tuple return?",
never "What are checkpointer pending writes?" unless it names that as its own subject. The
README's own run led its Answer with get_tuple's "The requested checkpoint tuple, or `None` if
not found." and its one Finding was "NotImplementedError: Implement this method in your custom
checkpoint saver." (L1-F1, L1-F2). Pure: reads the rows it is given.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from app.llm.offline.headings import heading_of
from app.research.own import passages_by_ref
from app.research.relevance import needed
from app.research.subject_words import subject_terms
from app.research.topics import topic_kind
from workers.sources.query import mentions

if TYPE_CHECKING:
    from app.research.report import ReportInput

__all__ = ["api_section", "entries_out", "entry_head", "off_question"]

_SECTIONS: dict[str, str] = {
    **dict.fromkeys(("returns", "return", "return type", "return value", "returns value",
                     "yields", "yield", "rtype", "ytype"), "returns"),
    **dict.fromkeys(("raises", "raise", "exceptions", "exception", "except", "throws",
                     "warns"), "raises"),
    **dict.fromkeys(("args", "arguments", "argument", "arg", "parameters", "parameter",
                     "params", "param", "keyword args", "keyword arguments", "other parameters",
                     "key", "keyword", "type", "receives"), "parameters"),
    **dict.fromkeys(("attributes", "attribute", "fields", "ivar", "cvar", "var"), "attributes"),
}
"""The labels of a docstring's API sections (Google's and NumPy's headings, reST's and
Sphinx's field names), each with the kind of thing its entries tell."""

_FIELD_NAMES = frozenset(("arg", "param", "key", "keyword", "type", "var", "ivar", "cvar",
                          "rtype", "ytype", "except", "raise"))
"""Field names of reST's alone (``:type config:``): a label "Type:" or "Key:" opening a line
of prose or a reference table's row is no API section's."""

_LABEL = re.compile(r"^\s*(:?)([A-Za-z][\w .*]{0,40}?)\s*:(?:\s|$)")
"""A label opening a sentence: reST's field (``:returns:``, ``:raises ValueError:``,
``:param config:``) or Sphinx's rendered one ("Returns: the tuple", "Return type: None")."""


def _label_kind(text: str) -> str:
    """The kind of API section the label opening ``text`` names (:data:`_LABEL`): reST's by its
    first word (``:param config:``), another by all of it ("Return type:", not "Returns a
    list of names: ..."); "" when none.

    Example:
        >>> _label_kind(":raises ValueError: if empty."), _label_kind("Return type: None")
        ('raises', 'returns')
        >>> _label_kind("Keyword Arguments: timeout (float) – seconds.")
        'parameters'
        >>> _label_kind("Returns the names: a, b."), _label_kind("Type: Boolean.")
        ('', '')
    """
    label = _LABEL.match(text)
    if label is None:
        return ""
    words = label.group(2).lower().split()
    if label.group(1):
        return _SECTIONS.get(words[0], "")
    return "" if words == words[:1] and words[0] in _FIELD_NAMES else _SECTIONS.get(
        " ".join(words), "")


_ASKS: dict[str, re.Pattern[str]] = {
    "returns": re.compile(r"\b(?:return\w*|yield\w*|results?|outputs?|gives?)\b", re.I),
    "raises": re.compile(r"\b(?:rais\w*|throw\w*|exceptions?|errors?|fail\w*|warn\w*)\b", re.I),
    "parameters": re.compile(r"\b(?:param\w*|arg\w*|accept\w*|takes?|pass\w*|options?)\b",
                             re.I),
    "attributes": re.compile(r"\b(?:attributes?|fields?|propert\w+|members?|holds?)\b", re.I),
}
"""The words of a question asking what an API section tells."""

_HEAD = re.compile(r"^\W*([\w.*]+(?:\s*\([^()\n]{0,60}\))?)`?\s*(?::|\s[\u2014\u2013-])\s")
"""An entry's name before its description: ``config: ...``, ``name (int): ...``, ``writes —
...``, Sphinx's ``timeout (float) – ...``."""


_FIELD_ITEM = re.compile(r"[ \t]*[*+-][ \t]+((?=(`?)[A-Za-z_][\w.]*\2[ \t]+[\u2014\u2013][ \t]))")
"""A list item led by a field's name and a dash (``* `writes` — on-path deltas ...``, a
docstring's list of a result's fields): the field's description, as an Attributes: entry is
(DeltaChannelHistory's, L1-F3); group 1 ends where its text starts."""


_ENTRY_LINE = re.compile(r"\**(?:[a-z_][\w.\[\]]*|(?P<error>[A-Z]\w*(?:Error|Exception|Warning)))"
                         r"(?:\s*\([^()\n]{0,60}\))?:\s")
"""A docstring's line led by a parameter's name (``interrupt_before: The nodes to ...``) or an
exception's (``NotImplementedError: ...``): an Args: or Raises: entry, also in a passage cut
after its section's heading (Pregel.invoke's second passage; "interrupt_before: The nodes to
interrupt the graph run before." was a Finding of "durability modes")."""


def api_section(passage: str, sentence: str, docstring: bool = False) -> str:
    """The kind of API section ``sentence`` is an entry of in ``passage`` (``"returns"``,
    ``"raises"``, ``"parameters"``, ``"attributes"``): the docstring section it sits under
    ("Returns:", NumPy's underlined "Returns"), the field label it opens with (``:returns:``,
    Sphinx's "Raises: ..."), or a field's list item it opens (:data:`_FIELD_ITEM`); "" for
    any other sentence. Of a ``docstring``'s passage, a line led by a parameter's or an
    exception's name (:data:`_ENTRY_LINE`) is one under no heading too.

    Example:
        >>> doc = "Fetch a tuple.\\n\\nReturns:\\n    The tuple, or None.\\n\\nMore prose."
        >>> api_section(doc, "The tuple, or None."), api_section(doc, "Fetch a tuple.")
        ('returns', '')
        >>> api_section("", ":raises ValueError: when empty."), api_section("", "Note: it runs.")
        ('raises', '')
        >>> api_section("Fields:\\n\\n* `writes` — on-path deltas.", "`writes` — on-path deltas.")
        'attributes'
        >>> api_section("More.\\nretries: How often.", "retries: How often.", docstring=True)
        'parameters'
    """
    if kind := _label_kind(sentence):
        return kind
    if not passage:
        return ""
    at = passage.find(sentence)
    item = _FIELD_ITEM.match(passage, passage.rfind("\n", 0, at) + 1) if at >= 0 else None
    if item and item.end(1) == at:  # "* `writes` — on-path deltas ..."
        return "attributes"
    kind = _SECTIONS.get(heading_of(passage, sentence).strip().lower(), "")
    if kind or not docstring or at < 0 or passage[passage.rfind("\n", 0, at) + 1:at].strip():
        return kind
    entry = _ENTRY_LINE.match(sentence)
    return "" if entry is None else "raises" if entry.group("error") else "parameters"


def entry_head(text: str) -> str:
    """What an entry is about: its name before its description (``NotImplementedError`` of
    "NotImplementedError: Implement this method ..."), else its first sentence (the returned
    thing: "The requested checkpoint tuple, or `None` if not found.").

    Example:
        >>> entry_head("NotImplementedError: Implement this method in your saver.")
        'NotImplementedError'
        >>> entry_head("`writes` — on-path deltas oldest→newest as `PendingWrite` tuples.")
        'writes'
        >>> entry_head("The requested checkpoint tuple, or `None` if not found. Its writes ...")
        'The requested checkpoint tuple, or `None` if not found.'
    """
    text = _LABEL.sub("", text, count=1) if _label_kind(text) else text
    if head := _HEAD.match(text):
        return head.group(1)
    first = re.match(r".*?[.!?](?=\s|$)", text, re.DOTALL)
    return first.group(0) if first else text


_DUNDER = re.compile(r"\.__\w+__$")
"""A protocol method's name (``Send.__init__``): its parameters are its class's."""


def off_question(question: str, subject: Sequence[str], passage: str, symbol: str,
                 text: str) -> bool:
    """Whether ``text``, a claim of ``passage`` (of the docstring of ``symbol``, a qualified
    name; "" for any other document), is an API section's entry (:func:`api_section`) that is
    no finding for ``question``: a "what is"
    question or a bare topic that asks not what the section tells (:data:`_ASKS`: "What does
    get_tuple return?" asks a Returns: entry), nor names the symbol the docstring documents
    ("What is RetryPolicy?": its Attributes: are its own; not for a Raises: entry, an abstract
    method's "NotImplementedError: Implement this method ..." says what it is not), and the
    entry's own subject (:func:`entry_head`) names too little of the question's ``subject``.

    Example:
        >>> doc = "Fetch a tuple.\\n\\nReturns:\\n    The requested tuple, or None."
        >>> off_question("What are pending writes?", ["pending", "writes"], doc,
        ...              "base.Saver.get_tuple", "The requested tuple, or None.")
        True
        >>> off_question("What does get_tuple return?", ["get_tuple", "return"], doc,
        ...              "base.Saver.get_tuple", "The requested tuple, or None.")
        False
    """
    if topic_kind(question) not in ("what", "topic"):
        return False
    kind = api_section(passage, text, docstring=bool(symbol))
    symbol = _DUNDER.sub("", symbol).rsplit(".", 1)[-1]
    if not kind or _ASKS[kind].search(question):
        return False
    if symbol and kind != "raises" and mentions([symbol], question):
        return False  # what it returns or holds is part of what it is; what it raises is not
    return len(mentions(subject, entry_head(text))) < needed(subject)


def entries_out(data: ReportInput) -> ReportInput:
    """``data`` with the findings and caveats that are no finding for their own sub-question
    (:func:`off_question`) taken out of its rows (the rows themselves are not changed); ``data``
    itself when none is."""
    passages = passages_by_ref(data)
    subjects: dict[str, list[str]] = {}
    rows, changed = [], False
    for row in data.rows:
        structured = row.get("structured")
        question = str(row.get("task_key") or "")
        if row.get("status") != "ok" or not isinstance(structured, dict):
            rows.append(row)
            continue
        if question not in subjects:
            subjects[question] = subject_terms(question, data.rows_of(question))
        kept = [item for item in structured.get("items") or []
                if not _off(item, question, subjects[question], passages)]
        changed = changed or len(kept) != len(structured.get("items") or [])
        rows.append({**row, "structured": {**structured, "items": kept}})
    return dataclasses.replace(data, rows=rows) if changed else data


def _off(item: Any, question: str, subject: Sequence[str],
         passages: Mapping[str, tuple[str, str, str]]) -> bool:
    """Whether ``item`` is a finding or caveat :func:`off_question` takes out."""
    if not isinstance(item, dict) or item.get("kind") not in ("finding", "caveat"):
        return False
    passage, _heading, title = passages.get(str(item.get("ref")), ("", "", ""))
    docstring = " docstring: " in str(item.get("source") or "")  # the package docs' symbols
    return off_question(question, subject, passage,
                        str(item.get("title") or title) if docstring else "",
                        str(item.get("text") or ""))
