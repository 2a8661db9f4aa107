"""An entry of a docstring's API section (Returns:, Raises:, Args:, Attributes:, a field's list
item) is about its function's result, errors or parameters, not what a topic is; and an
admonition heads its indented body only. The README's own run, "checkpointer pending writes"
over the package docs, led its Answer with get_tuple's Returns: entry, had one Finding, a
Raises: entry ("NotImplementedError: Implement this method in your custom checkpoint saver."),
and listed a field's description as a Caveat (L1-F1, L1-F2, L1-F3)."""

from __future__ import annotations

from app.llm.offline.sentences import heading_of
from app.research.caveats import caution_claims
from app.research.report import render_markdown
from tests.app.report_rows import data, item, row

TOPIC, Q = "checkpointer pending writes", "What are checkpointer pending writes?"
BASE = "langgraph.checkpoint.base."
GET_TUPLE = ("Fetch a checkpoint tuple using the given configuration.\n\nArgs:\n    config: "
             "Configuration specifying which checkpoint to retrieve.\n\nReturns:\n    The "
             "requested checkpoint tuple, or `None` if not found. Its\n        `pending_writes` "
             "must be in `writes_sort_key` order.\n\nRaises:\n    NotImplementedError: "
             "Implement this method in your custom checkpoint saver.")
HISTORY = ("Per-channel result entry from `BaseCheckpointSaver.get_delta_channel_history`.\n\n"
           "!!! warning \"Beta\"\n\n    Part of the `DeltaChannel` support surface; in beta. "
           "Field names and\n    semantics may change.\n\nStorage-level view of what one "
           "channel contributed across the ancestor\nchain of a target checkpoint:\n\n* "
           "`writes` — on-path deltas oldest→newest as `PendingWrite` tuples.\n  Always "
           "present; possibly empty. Already filtered to one channel.\n  Writes stored at the "
           "target checkpoint itself are pending for the\n  next super-step and are excluded.")
DELTA = ("The default implementation walks `get_tuple` + `parent_config`\nonce for all "
         "channels.\n\n`PendingWrite` carries no `task_path`, so this default replays each\n"
         "checkpoint's writes in `get_tuple`'s `pending_writes` order, which\n`get_tuple` must "
         "return in `writes_sort_key` order.\n\nArgs:\n    config: Configuration identifying "
         "the target checkpoint.")
RETURNED = ("The requested checkpoint tuple, or `None` if not found. Its\n        "
            "`pending_writes` must be in `writes_sort_key` order.")
RAISED = "NotImplementedError: Implement this method in your custom checkpoint saver."
FIELD = "`writes` — on-path deltas oldest→newest as `PendingWrite` tuples."
PENDING = ("Writes stored at the target checkpoint itself are pending for the\n  next super-step "
           "and are excluded.")
ORDER = ("`PendingWrite` carries no `task_path`, so this default replays each\ncheckpoint's "
         "writes in `get_tuple`'s `pending_writes` order, which\n`get_tuple` must return in "
         "`writes_sort_key` order.")
REFS = {GET_TUPLE: f"{BASE}BaseCheckpointSaver.get_tuple#0",
        HISTORY: f"{BASE}DeltaChannelHistory#0",
        DELTA: f"{BASE}BaseCheckpointSaver.get_delta_channel_history#2"}


def _claim(kind: str, text: str, passage: str) -> dict:
    ref = REFS[passage]
    doc = ref.split("#")[0]
    return item(kind, text, ref, title=doc, source=f"langgraph-checkpoint 4.3.2 docstring: {doc}")


def _rows(question: str) -> list[dict]:
    """The rows of the README's run as its workers returned them (2026-12-07)."""
    passages = [_claim("passage", text, text) for text in (DELTA, GET_TUPLE, HISTORY)]
    findings = [_claim("finding", PENDING, HISTORY), _claim("finding", RETURNED, GET_TUPLE),
                _claim("finding", ORDER, DELTA), _claim("finding", RAISED, GET_TUPLE),
                _claim("finding", FIELD, HISTORY)]
    caveats = [_claim("caveat", text, passage) for text, passage in (
        (PENDING, HISTORY), (RETURNED, GET_TUPLE), (ORDER, DELTA), (FIELD, HISTORY))]
    return [row("docs_search", question, passages), row("analyst", question, findings),
            row("critic", question, caveats)]


def _report(topic: str, question: str) -> str:
    return render_markdown(data(_rows(question), topic=topic, sub_questions=[question]))


def test_an_admonition_heads_its_indented_body_only() -> None:
    assert heading_of(HISTORY, "Field names and\n    semantics may change.") == "warning Beta"
    assert heading_of(HISTORY, FIELD) == ""
    assert heading_of(GET_TUPLE, RAISED) == "Raises"
    assert not any("onpathdeltas" in claim for claim in caution_claims(_rows(Q)))


def test_a_fields_description_is_no_caveat() -> None:
    rows = [r for r in _rows(Q) if r["worker"] != "analyst"]  # the critic's alone
    md = render_markdown(data(rows, topic=TOPIC, sub_questions=[Q]))
    caveats = md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "on-path deltas" not in caveats, caveats
