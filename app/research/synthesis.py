"""The report's model-written summary: a few sentences, each citing the claims it rests on.

:func:`make_summarizer` builds the ``Models.summarize`` callable (``app/graph/resources.py``) when
the report model is a real one (``RESEARCH_REPORT_MODEL``, else ``RESEARCH_MODEL``). The ``report``
node calls it with the :class:`~app.research.report.ReportInput` it built from the results
database, so the model sees the *persisted* rows only, never graph state:

1. the findings and caveats of the rows (or, when there are none, the top passages) are numbered
   and listed with their refs: ``[3] (ref: langgraph.types#2) caveat: ...``;
2. the model answers with structured output, a :class:`ReportSummary` (a list of
   ``{sentence, refs}``), asked for by function calling (:func:`app.llm.models.structured_output`);
3. each ref must be one of the listed ones (a claim number such as ``3`` or ``[3]`` is mapped to
   its ref); a sentence left with no known ref is dropped, never shown unsourced. (The report's
   :func:`~app.research.report.render_markdown` checks the refs against the rows again.)

Failure policy: a bad key or an unknown model (:func:`workers.errors.is_fatal`) stops the run, as
it does for the planner and the workers. A transient error (429, 5xx, timeout, a malformed
answer) is retried with the run's attempts and backoff (:func:`workers.retry.backoff_delay`, the
nodes' formula); a rate limit (429) first gets the model's own rate-limit patience, as in every
role (:func:`workers.pacing.patiently`, ``RESEARCH_RATE_LIMIT_PATIENCE``; the wait a
``Retry-After`` asks for is honoured: see :mod:`app.llm.provider`). Anything else, or an answer that
does not fit the schema, costs the report its summary, not the report: a note says why, naming a
provider-side cause (output cut at the length limit) when there is one.

The retries are here, not the ``report`` node's ``RetryPolicy``: that policy retries the
database I/O (``retry_on=is_transient_storage_error``, a fixed count), and a model error that
outlived the run's attempts must still leave the report written with a note, which a policy
that re-runs the node cannot do; re-running the node would also read the rows again and lose the
failed attempts' tokens, which :func:`workers.usage.count_tokens` counts here.

The result is a :class:`Synthesis`, a list of ``(sentence, [ref, ...])`` (what
``ReportInput.summary`` holds) that also carries the tokens the call cost and its notes, which
the ``report`` node adds to the ``tokens`` and ``notes`` channels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from app.llm.models import other_answers, parse_structured, structured_output
from app.research.definitions import definitions
from app.research.entry_rows import default_entries
from app.research.reference import written_names
from app.research.relevance import name_terms, needed
from app.research.report import ReportInput
from app.research.rows import ok_items
from app.research.subject_words import subject_terms
from app.research.text import clip, wording
from app.research.topics import topic_kind
from app.settings.config import default_of
from state import ITEM_KINDS
from workers.errors import (
    FatalModelError,
    describe_fatal,
    is_fatal,
    is_transient,
    one_line,
)
from workers.pacing import patiently
from workers.retry import backoff_delay
from workers.usage import count_tokens, untrusted_note
from workers.waits import pause

__all__ = [
    "MAX_CLAIMS",
    "SYSTEM_PROMPT",
    "ReportSummary",
    "SummarySentence",
    "Synthesis",
    "make_summarizer",
    "numbered_claims",
    "summary_prompt",
]

MAX_CLAIMS = 60
"""At most this many claims are shown to the model (findings first, then caveats)."""

SYSTEM_PROMPT = (
    "You write the summary at the top of a research report. You are given the research topic "
    "and a numbered list of claims, each with the ref of the source passage it comes from. "
    "Write two to five sentences that answer the topic, using only what the claims state: no "
    "outside knowledge, no speculation. The first sentence answers the topic itself directly "
    "(for a 'what is' topic, what it is). Use a claim only for the subject the claim itself "
    "names: never give a neighbouring setting's or function's value as the answer. Give every "
    "sentence the refs of the claims it rests on, "
    "copied exactly as listed (e.g. 'package.module#0'). A sentence no claim supports must not "
    "be written."
)


class SummarySentence(BaseModel):
    """One sentence of the summary and its sources."""

    sentence: str = Field(description="One sentence stating only what the cited claims say.")
    refs: list[str] = Field(
        description="The refs of the claims this sentence rests on, copied exactly from the "
        "list (at least one)."
    )


class ReportSummary(BaseModel):
    """The report's summary: a few sourced sentences that answer the research topic."""

    sentences: list[SummarySentence] = Field(
        description="Two to five sentences that together answer the topic, each with its refs."
    )


class Synthesis(list):
    """``[(sentence, [ref, ...])]`` plus what producing it cost.

    Attributes:
        tokens: tokens the model call(s) cost, every attempt included (usage reported by the
            provider).
        unmetered: model responses that reported no usage.
        notes: run notes (summary skipped and why, unsourced sentences dropped).
    """

    def __init__(self, items: Sequence[tuple[str, list[str]]] = (), *, tokens: int = 0,
                 notes: Sequence[str] = (), unmetered: int = 0) -> None:
        super().__init__(items)
        self.tokens = tokens
        self.unmetered = unmetered
        self.notes = list(notes)


def numbered_claims(data: ReportInput, limit: int = MAX_CLAIMS) -> list[dict[str, str]]:
    """The claims the model may use: each ``{"n", "ref", "kind", "text", "question"}``.

    Findings and caveats of the rows whose status is ``ok``, each claim once, findings
    first (of the same words in several documents, :func:`app.research.text.wording`, the
    first: the model was given each copy of a manual's sentence as another claim); when there
    are none, the passages (their first 300 characters) instead. For a
    "what is" topic (or a comparison), the summary lines of the symbols it names come first
    (:func:`app.research.definitions.definitions`), as the offline Answer leads with them: the
    model gets the definition even when no worker quoted it; for a
    default, the ``Default:`` row of the entry it names
    (:func:`app.research.entry_rows.default_entries`), which no worker quotes.
    """
    # Unknown kinds are skipped here; the report's Notes say they exist (app.research.report).
    by_kind: dict[str, list[dict[str, str]]] = {kind: [] for kind in ITEM_KINDS}
    seen: set[tuple[bool, str]] = set()
    defined: list[tuple[dict[str, Any], Any]] = []
    pairs = [(q, data.rows_of(q)) for q in data.sub_questions]
    first = {"task_key": data.sub_questions[0] if data.sub_questions else ""}
    if topic_kind(data.asked) in ("what", "topic", "compare"):
        defined = [(first, d) for d in definitions(pairs, data.asked)]
    elif topic_kind(data.asked) == "default":  # the entry's own Default: row
        subject = subject_terms(data.asked, data.rows)
        defined = [(first, d) for d in default_entries(pairs, subject, name_terms(data.asked),
                                                       needed(subject),
                                                       written_names(data.asked))]
    for row, item in [*defined, *ok_items(data.rows)]:
        kind, ref = item.get("kind"), item.get("ref")
        if kind not in by_kind or not ref or not str(item.get("text", "")).strip():
            continue
        text = clip(item["text"], 300 if kind == "passage" else 500)
        # a copy from another document is the same claim; a passage is given only when
        # there is no finding: its text is no finding's
        key = (kind == "passage", wording(text) or text)
        if key in seen:
            continue
        seen.add(key)
        by_kind[kind].append(
            {"ref": ref, "kind": kind, "text": text, "question": row.get("task_key", "")}
        )
    chosen = by_kind["finding"] + by_kind["caveat"] or by_kind["passage"]
    return [{"n": str(i), **c} for i, c in enumerate(chosen[:limit], 1)]


def summary_prompt(data: ReportInput, claims: Sequence[dict[str, str]]) -> str:
    """The user message: the topic (the questions of a plan that replaced the planner's at
    review: :attr:`ReportInput.asked`), the sub-questions, the numbered claims with their
    refs."""
    lines = [f"Research topic: {clip(data.asked, 500)}", "", "Sub-questions:"]
    lines += [f"- {clip(q, 300)}" for q in data.sub_questions]
    lines += ["", "Claims (number, source ref, kind, text):"]
    lines += [f"[{c['n']}] (ref: {c['ref']}) {c['kind']}: {c['text']}" for c in claims]
    lines += ["", "Write the summary now; cite refs exactly as listed above."]
    return "\n".join(lines)


_NUMBER = re.compile(r"^\[?\s*(\d+)\s*\]?$")


def _resolve_refs(refs: Sequence[Any], claims: Sequence[dict[str, str]]) -> list[str]:
    """Map the model's refs onto the listed ones; unknown ones are dropped."""
    known = {c["ref"] for c in claims}
    by_number = {c["n"]: c["ref"] for c in claims}
    out: list[str] = []
    for raw in refs or []:
        ref = str(raw).strip().strip("`'\"").strip()
        if ref.startswith("ref:"):
            ref = ref[4:].strip()
        if ref not in known and (m := _NUMBER.match(ref)):
            ref = by_number.get(m.group(1), ref)
        if ref in known and ref not in out:
            out.append(ref)
    return out


def _cited_sentences(
    parsed: ReportSummary, claims: Sequence[dict[str, str]]
) -> tuple[list[tuple[str, list[str]]], int]:
    """The answer's sentences (whitespace collapsed) with their refs mapped onto the listed
    claims (:func:`_resolve_refs`), each sentence once (a model may say one twice: the
    Answer once repeated a bullet word for word; the refs of both are kept), and
    how many non-empty sentences were dropped for citing no known ref."""
    items: dict[str, tuple[str, list[str]]] = {}  # by the sentence, case aside
    dropped = 0
    for s in parsed.sentences:
        sentence = " ".join(s.sentence.split())
        refs = _resolve_refs(s.refs, claims)
        if sentence and refs:
            key = wording(sentence)  # case, spaces, stops, a cross-reference
            kept = items.setdefault(key, (sentence, []))[1]
            kept += [r for r in refs if r not in kept]
        elif sentence:
            dropped += 1
    return list(items.values()), dropped


def _call_with_retries(model: BaseChatModel, runnable: Any, messages: list[Any],
                       max_attempts: int, retry_interval: float,
                       sleep: Callable[[float], None]) -> tuple[Any, str | None]:
    """The model's answer, retrying transient errors: ``(answer, None)`` or ``(None, why not)``.

    Args:
        model: the report model (its rate-limit patience, :func:`workers.pacing.patiently`).
        runnable: ``model`` with structured output, invoked on ``messages``.
        max_attempts: attempts in all; retry_interval: seconds before the first retry
            (:func:`workers.retry.backoff_delay`); sleep: the wait between attempts.

    Raises:
        FatalModelError: the provider rejected the key or does not know the model.
    """
    attempt = 0
    while True:
        attempt += 1
        try:
            return patiently(model, lambda: runnable.invoke(messages), "the report model"), None
        except Exception as exc:
            if is_fatal(exc):
                raise FatalModelError(f"report model: {describe_fatal(exc)}") from exc
            if is_transient(exc) and attempt < max_attempts:
                sleep(backoff_delay(attempt + 1, retry_interval))
                continue
            return None, one_line(exc)


def make_summarizer(
    model: BaseChatModel,
    *,
    max_attempts: int | None = None,
    retry_interval: float | None = None,
    sleep: Callable[[float], None] = pause,
) -> Callable[[ReportInput], Synthesis]:
    """Build ``summarize(data) -> Synthesis`` for ``app.graph.resources.Models.summarize``.

    Args:
        model: the report model (a real chat model; the offline one needs no summarizer).
        max_attempts: attempts at the model call when it fails transiently (None: the
            setting's declared default, ``RESEARCH_MAX_ATTEMPTS``).
        retry_interval: seconds before the first retry, doubled each time, at most 8x or 1 s:
            the nodes' formula (:func:`workers.retry.backoff_delay`), without their jitter
            (None: the declared default of ``RESEARCH_RETRY_INTERVAL``).
        sleep: the wait between attempts, ended by a stop of the run
            (:func:`workers.waits.pause`; tests pass a no-op or a recorder).

    Raises (from ``summarize``):
        FatalModelError: the provider rejected the key or does not know the model.
    """
    if max_attempts is None:
        max_attempts = default_of("max_attempts")
    if retry_interval is None:
        retry_interval = default_of("retry_interval")
    runnable = structured_output(model, ReportSummary)

    def summarize(data: ReportInput) -> Synthesis:
        claims = numbered_claims(data)
        if not claims:
            return Synthesis(notes=["no model summary: the run found no sourced claims"])
        with count_tokens() as served:  # every attempt's tokens, failed ones included
            messages = [SystemMessage(SYSTEM_PROMPT), HumanMessage(summary_prompt(data, claims))]
            out, failure = _call_with_retries(model, runnable, messages, max_attempts,
                                              retry_interval, sleep)
        spent = {"tokens": served.tokens, "unmetered": served.unmetered}
        said = [untrusted_note("the report model")] if served.untrusted else []
        if failure is not None:
            return Synthesis(notes=[f"no model summary: {failure}", *said], **spent)
        parsed, reason = parse_structured(out, ReportSummary, "the report model")
        if parsed is None:
            return Synthesis(notes=[f"no model summary: unusable answer ({reason})", *said],
                             **spent)
        items, dropped = _cited_sentences(parsed, claims)
        notes = [f"model summary: {dropped} sentence(s) without a known source were dropped"]
        notes = notes if dropped else []
        if others := other_answers(out, ReportSummary):
            notes.append(f"model summary: the report model sent {others + 1} different "
                         "summaries in one message: the first was used")
        return Synthesis(items, notes=[*notes, *said], **spent)

    return summarize
