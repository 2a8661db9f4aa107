"""The report's citations: numbers by *document*, the items a sub-question's rows hold, and the
excerpt a passage bullet shows (issue 19: a report cites one document once, with its passages
grouped under it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import Any

from app.llm.offline.headings import asks
from app.llm.offline.sentences import (
    code_lines,
    is_heading,
    prose_sentences,
    starts_mid_sentence,
)
from app.research.copies import near_copies_out, near_copy
from app.research.lead_ins import lead_in_alone, with_its_code
from app.research.rows import ok_items
from app.research.signposts import is_signpost
from app.research.text import ELLIPSIS, clip, clip_quote, wording
from state import ItemKind
from workers.sources import Passage
from workers.sources.base import code_span, group_by_document
from workers.sources.chunks import PARA_SPLIT
from workers.sources.entries import LABEL
from workers.sources.query import mentions
from workers.sources.sentence_ends import ITEM_MARK, continues_code, goes_on
from workers.sources.stopwords import STOPWORDS

__all__ = ["Citations", "claim_key", "excerpt", "headings_only", "items", "near_copies_out", "once",
           "said", "within"]


class Citations:
    """Numbers sources by *document* in first-cited order (issue 19: one document is cited once,
    its cited passages listed under it): every passage of a document gets the document's number
    (:attr:`workers.sources.Passage.document_key`; a web page's URL)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.passages: dict[str, Passage] = {}  # cited passages by ref, in citation order
        self.headings: dict[str, str] = {}  # each cited passage's section heading, if known

    def cite(self, item: dict[str, Any]) -> int:
        passage = _passage(item)
        self.numbers.setdefault(passage.document_key, len(self.numbers) + 1)
        self.passages.setdefault(passage.ref, passage)
        if heading := " ".join(str(item.get("heading") or "").split()):
            self.headings.setdefault(passage.ref, heading)
        return self.numbers[passage.document_key]

    def lines(self) -> list[str]:
        """The Sources list (:func:`workers.sources.group_by_document`): ``n. <document>``,
        then the refs of its cited passages, each with its section's heading where the index
        knows one (``configuration.html#692`` alone sent a reader
        searching a 2.6 MB page for the sentence)."""
        out: list[str] = []
        for number, (key, group) in enumerate(group_by_document(list(self.passages.values())), 1):
            out.append(f"{number}. {group[0].document_citation()}")
            if len(group) > 1 or group[0].ref != key:
                refs = sorted({p.ref for p in group}, key=_ref_order)
                out.append("   - passages: " + ", ".join(
                    self._ref(r, group[0].title) for r in refs))
        return out

    def _ref(self, ref: str, title: str) -> str:
        """``ref`` as code, then its section heading (as code: ``inter <delay>`` is no HTML
        tag) when known and not the document's title."""
        heading = self.headings.get(ref, "")
        if not heading or heading == title:
            return code_span(ref)
        return f"{code_span(ref)} ({code_span(clip(heading, 70))})"


def _ref_order(ref: str) -> tuple[int, str]:
    seq = (Passage.split_ref(ref) or ("", ""))[1]
    return (int(seq), "") if seq.isdigit() else (1 << 30, seq)


def _passage(item: dict[str, Any]) -> Passage:
    """The passage an item cites (an item without text still names its ref)."""
    passage = Passage.from_dict({**item, "text": item.get("text") or "-"})
    if passage is None:
        ref = str(item.get("ref"))
        passage = Passage(ref, ref, ref, ref, "-")
    return passage


_OPENING_LABEL = re.compile(r"[^\n.!?:;,]{1,100}")
"""A passage's first paragraph that is a heading by its shape alone: one short line with no
mark that ends or joins a sentence ("Appendix A A sample session" was shown as the excerpt
beside its own label: trial 51, N3)."""
_LABEL_WORDS = 10
"""The most words of such a heading line."""


def headings_only(text: str, heading: str = "") -> bool:
    """Whether a passage holds headings alone, nothing a bullet could quote: a "See also" list of
    linked titles (SQLAlchemy's joinedload entry: "Relationship Loading Techniques / Joined
    Eager Loading" was a Top passage, shown as code), a heading whose section lost its body,
    its section's ``heading`` alone (Celery's entries without a description, "relative = False /
    remaining_estimate(last_run_at) / property seconds", were a Top passage, trial 89, F10), or
    a part of it (Celery's ``Panel.data = {'active': <function active>, ...}``, an attribute's
    value longer than a passage, cut into passages of its heading alone, trial 93, R2).

    Example:
        >>> headings_only("Relationship Loading Techniques\\n\\nJoined Eager Loading")
        True
        >>> headings_only("## crop\\n\\nCrop the input video to given dimensions.")
        False
        >>> headings_only("relative = False / seconds", "relative = False / seconds")
        True
        >>> headings_only("'ping': <function ping>", "data = {'ping': <function ping>}")
        True
    """
    body = re.sub(r"^\s*#{1,6}\s.*$", "", text, flags=re.MULTILINE)
    paragraphs = [p for p in PARA_SPLIT.split(body) if p.strip()]
    label = " ".join(heading.split())
    if label and paragraphs and " ".join(paragraphs[0].split()) in label:  # a part of it, too:
        paragraphs = paragraphs[1:]  # Celery's Panel.data = {...}, longer than a passage
    return not any(not is_heading(p) for p in paragraphs)


def excerpt(text: str, limit: int = 220, about: Sequence[str] = ()) -> str:
    """What a passage bullet shows of a passage: the prose sentence
    (:func:`app.llm.offline.sentences.prose_sentences`: no code, no list marker, no doctest,
    no admonition marker) that names the most of ``about`` (words as
    :func:`workers.sources.query.query_terms` gives them; the earliest of equals), else its
    first, or the next one when the first is the tail of a sentence cut at the
    passage's start (:func:`~app.llm.offline.sentences.starts_mid_sentence`; shown after an
    ellipsis when there is no other), heading paragraphs left out (the bullet already shows
    the title); a passage with no prose is shown as one closed code span of its code, never
    with a fence it does not close. Else a bullet showed a docstring's example code cut
    mid-word, the source's own list marker, "``` ```con {'value': 'aaaa'} ```" (the fences
    swallowed the rest of the rendered report), and "seconds (`float`), or a `timedelta`.",
    and a passage found for its third paragraph was shown by its first.

    Example:
        >>> excerpt("```python\\ngraph = build()\\n```\\n\\n- The graph is compiled once.")
        'The graph is compiled once.'
        >>> excerpt("app.invoke(x)\\n```\\n\\n```con\\n{'value': 'aa'}\\n```")
        "`app.invoke(x) {'value': 'aa'}`"
        >>> excerpt("The smtp client has, since version 3.2:\\n\\n- tls_wrappermode\\n\\n"
        ...         "The smtp client delivers mail.", about=["smtp"])
        'The smtp client delivers mail.'
        >>> excerpt("Run it from the shell:\\n\\n```\\n$ pyg test.py\\n```\\n\\nwill print the "
        ...         "file test.py in colour. It finds the colours the terminal supports.",
        ...         about=["test", "colour"])
        'It finds the colours the terminal supports.'
    """
    body = re.sub(r"^\s*#{1,6}\s.*$", "", text, flags=re.MULTILINE)
    paragraphs = [p for p in PARA_SPLIT.split(body) if not is_heading(p)]
    if (len(paragraphs) > 1 and _OPENING_LABEL.fullmatch(paragraphs[0].strip())
            and len(paragraphs[0].split()) <= _LABEL_WORDS
            and not paragraphs[1].lstrip().startswith(("```", "~~~"))):  # no code's lead-in
        paragraphs = paragraphs[1:]  # the passage's heading line, which the label shows
    body = "\n\n".join(paragraphs)
    prose = prose_sentences(body)
    tail = bool(prose) and starts_mid_sentence(body, prose[0])  # a sentence cut at the start
    # a tail chosen for its words would show half a sentence; but a passage may open with a
    # command's name ("iptables loads its rules from ..."): only a function word opens a tail
    cut = tail and prose[0].split()[0].lower() in STOPWORDS
    named = _most_named(_shown_alone(body, prose[1:] if cut else prose), about)
    if named:
        return clip_quote(with_its_code(body, _with_next(body, named, prose), limit), limit)
    if prose:
        if tail:
            return clip(prose[1], limit) if len(prose) > 1 else clip(ELLIPSIS + prose[0], limit)
        first = next((p for p in prose if not asks(p)
                      and not lead_in_alone(body, p)), prose[0])
        return clip_quote(with_its_code(body, first, limit), limit)
    lines = code_lines(body if body.strip() else text)
    start = _most_named_line(lines, about)
    lead = ELLIPSIS if start else ""  # shown from the line asked: what is before, left out
    code = _LIST_MARKER.sub("", " ".join(lines[start:]))
    return lead + code_span(clip(code, max(limit - 4 - len(lead), 1)))


def _shown_alone(body: str, prose: Sequence[str]) -> list[str]:
    """The sentences of ``prose`` (of ``body``) an excerpt may show alone: no question (it
    restates what was asked, "Q3. What happens when the queue is full?"); when another is
    left, no lead-in without its list ("Available in Postfix version 3.2 and later:", trial
    85, F4), no pointer elsewhere (:func:`~app.research.signposts.is_signpost`, trial 123, F2)
    and no rest of a sentence begun by the code above it (trial 90, F4: "will print ...")."""
    answers = [p for p in prose if not asks(p)]
    answers = [p for p in answers if not lead_in_alone(body, p)] or answers
    answers = [p for p in answers if not is_signpost(p)] or answers
    return [p for p in answers if not continues_code(body, body.find(p), p)] or answers


def _most_named_line(lines: Sequence[str], about: Sequence[str]) -> int:
    """The index of the line of ``lines`` naming the most of ``about`` (0 when none does, or
    the first): a listing of options is shown from the option asked (Ant's ``-keep-going,
    -k  execute all targets ...`` was shown as the listing's first lines, ``-l <file> ''
    -logger <classname> ...``, trial 78)."""
    counts = [len(mentions(about, line)) if about else 0 for line in lines]
    return max(range(len(lines)), key=lambda i: (counts[i], -i)) if lines else 0


_LIST_MARKER = re.compile(rf"^{ITEM_MARK}\s+")


def _with_next(body: str, sentence: str, prose: Sequence[str]) -> str:
    """``sentence`` and the one right after it in its paragraph when that one goes on from it
    (:func:`~workers.sources.sentence_ends.goes_on`: "It defaults to C:\\Program Files\\syncd."
    after "install_dir: This setting chooses the folder ..."), as the offline model quotes them.

    Example:
        >>> first = "install_dir: This setting chooses the folder the installer puts it in."
        >>> body = f"{first} It defaults to /opt.\\n\\nMore."
        >>> _with_next(body, first, prose_sentences(body))[len(first):]
        ' It defaults to /opt.'
    """
    at = prose.index(sentence) if sentence in prose else -1
    if at < 0 or at + 1 >= len(prose) or not goes_on(prose[at + 1]):
        return sentence
    start = body.find(sentence)
    end = body.find(prose[at + 1], start + len(sentence))
    between = body[start + len(sentence):end] if start >= 0 and end >= 0 else "\n\n"
    return f"{sentence} {prose[at + 1]}" if not between.strip() and "\n\n" not in between \
        else sentence


def claim_key(item: dict[str, Any]) -> tuple[str, str]:
    return " ".join(str(item.get("text", "")).split()).lower(), item["ref"]


def items(rows: Sequence[dict[str, Any]], task_key: str | None, kind: ItemKind) -> list[dict]:
    out, seen = [], set()
    for _row, item in ok_items(rows, task_key):
        if item.get("kind") != kind or not item.get("ref"):
            continue
        key = claim_key(item)
        if key in seen:
            continue
        seen.add(key)
        out.append(item)
    return out


def _most_named(sentences: Sequence[str], about: Sequence[str]) -> str:
    """The sentence naming the most of ``about`` (:func:`workers.sources.query.mentions`), the
    earliest of equals; ``""`` when none names any."""
    best, most = "", 0
    for sentence in sentences:
        count = len(mentions(about, sentence)) if about else 0
        if count > most:
            best, most = " ".join(sentence.split()), count
    return best


def said(item: dict[str, Any], listed: Collection[tuple[str, str]]) -> bool:
    """Whether ``listed`` (claim keys shown) holds ``item``'s claim (:func:`claim_key`): the
    same words from any document (:func:`app.research.text.wording`: another copy of one
    manual, its spacing, ligatures or cross-reference aside), or the claim whole within a
    longer claim of the same ref: a list item's first sentence is said by the item
    ("`max_age` - Sets a maximum time ... responses." by "... Defaults to `600`."); and a
    longer claim that holds one shown whole says it again (Requests' "If the request exceeds
    this limit, ... This defaults to ... 30." after "This defaults to ... 30.", trial 82, F4).
    A sentence is its copy led by an entry's label (``blank: If True, the field is allowed to
    be blank.`` of a list of a page, shown in the Answer, and the same sentence of the entry's
    own page were both shown, trial 124, M3-F2); two labels say two entries.

    Example:
        >>> shown = {("this defaults to the redirect limit, 30.", "api.html#33")}
        >>> said({"text": "If it exceeds it, it raises. This defaults to the redirect limit, "
        ...       "30.", "ref": "api.html#33"}, shown)
        True
        >>> shown = {("blank: if true, the field is allowed to be blank.", "models.html#6")}
        >>> said({"text": "If True, the field is allowed to be blank.", "ref": "f.html#4"}, shown)
        True
    """
    text, ref = claim_key(item)
    if (text, ref) in listed:
        return True
    words = wording(text)
    return any((r == ref and (text in t or (len(t) > 20 and t in text)))
               or _same_words(text, words, t) or near_copy(text, t) for t, r in listed)


def _same_words(text: str, words: str, other: str) -> bool:
    """Whether ``text`` (its :func:`wording`, ``words``) and ``other`` say the same words, the
    label of an entry one of them is led by aside (:func:`_unlabelled`)."""
    said_so = wording(other)
    return bool(words and said_so) and (said_so == words
                            or wording(_unlabelled(text)) == said_so
                            or wording(_unlabelled(other)) == words)


def _unlabelled(text: str) -> str:
    """``text`` (lower-cased or not) without the entry's label of at most three words it is led
    by (:data:`~workers.sources.entries.LABEL`), "" when it has none."""
    found = LABEL.match(text)
    return text[found.end():] if found and len(found.group("label").split()) <= 3 else ""


def within(words: str, shown: Collection[str]) -> bool:
    """Whether a claim's ``words`` (:func:`app.research.text.wording`) are among ``shown``,
    alone or inside a longer claim: journald.conf's "This means that ... after a vacuuming
    operation is complete." was a Top passage and, with the sentence before it, a Caveat
    (trial 87, FA7).

    Example:
        >>> within("this means more space", {"only archived files go. this means more space"})
        True
    """
    return words in shown or any(words in claim for claim in shown if len(claim) > len(words))


def once(found: Sequence[dict[str, Any]], listed: Collection[tuple[str, str]] = (),
         cited: Collection[str] = (),
         text: Callable[[dict[str, Any]], str] = lambda item: str(item.get("text", ""))
         ) -> list[dict[str, Any]]:
    """``found`` with each sentence once and none that ``listed`` shows (:func:`said`), in
    the order of each sentence's first copy; of copies in several documents (an HTML and a
    PDF of one manual, its man page, a README repeating a section) the one kept is from the
    document cited first (``cited``, in citation order: the Answer's documents, then those of
    the sections above), else the first copy. A copy is not cited: a document whose every
    sentence the report shows from another copy is no source of the report (trial 45: one
    sentence of Bash's manual was shown 2 to 4 times, from its HTML, PDF, man page and RBASH,
    and 5 sources cited one content).

    Args:
        found: items (``{"text", "ref", ...}``) in the order they would be shown.
        listed: the claim keys (:func:`claim_key`) shown above.
        cited: document keys (:attr:`workers.sources.Passage.document_key`) cited already, in
            the order they were (the report's :attr:`Citations.numbers`).
        text: what of an item is shown (a passage bullet shows its excerpt).

    Example:
        >>> a = {"text": "It exits (see Bash Variables).", "ref": "bashref.html#5"}
        >>> b = {"text": "It ex its (see Section 5.2 [Bash Variables], page 78).",
        ...      "ref": "bashref.pdf:p102#3"}
        >>> pdf = {"bashref.pdf:p102"}  # a document cited above: its copy is kept
        >>> [i["ref"] for i in once([a, b])], [i["ref"] for i in once([a, b], cited=pdf)]
        (['bashref.html#5'], ['bashref.pdf:p102#3'])
    """
    shown_as = [{**item, "text": text(item)} for item in found]
    docs_of = [_passage(item).document_key for item in shown_as]
    copies: dict[str, list[int]] = {}
    for index, item in enumerate(shown_as):
        copies.setdefault(wording(item["text"]), []).append(index)
    shown, out = set(listed), []
    rank = {doc: n for n, doc in enumerate(cited)}
    for index, item in enumerate(shown_as):
        if said(item, shown):
            continue
        kept = min((i for i in copies[wording(item["text"])] if docs_of[i] in rank),
                   key=lambda i: rank[docs_of[i]], default=index)
        shown.add(claim_key(shown_as[kept]))
        out.append(found[kept])
    return out
