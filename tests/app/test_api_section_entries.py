"""An entry of a docstring's API section (Returns:, Raises:, Args:, Attributes:, a field's list
item) is about its function's result, errors or parameters, not what a topic is; and an
admonition heads its indented body only. The README's own run, "checkpointer pending writes"
over the package docs, led its Answer with get_tuple's Returns: entry, had one Finding, a
Raises: entry ("NotImplementedError: Implement this method in your custom checkpoint saver."),
and listed a field's description as a Caveat (L1-F1, L1-F2, L1-F3)."""

from __future__ import annotations

from app.llm.offline.sentences import heading_of
from app.research.api_entries import api_section, off_question
from app.research.caveats import caution_claims
from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, item, row

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


def test_a_returns_entry_is_no_answer_to_what_a_thing_is() -> None:
    md = _report(TOPIC, Q)
    answer, caveats = answer_section(md), md.split("## Caveats\n", 1)[1].split("\n## ", 1)[0]
    assert "The requested checkpoint tuple" not in answer, answer
    assert "on-path deltas" not in answer, answer  # a field's description: no more
    assert "The requested checkpoint" not in caveats and "on-path" not in caveats, caveats


def test_a_raises_entry_is_no_finding_of_a_what_question() -> None:
    md = _report(TOPIC, Q)
    assert "NotImplementedError" not in md.split("## Caveats", 1)[0], md


def test_what_a_function_returns_is_still_answered_by_its_returns_entry() -> None:
    question = "What does get_tuple return?"
    summary = "Fetch a checkpoint tuple using the given configuration."
    rows = [row("docs_search", question, [_claim("passage", GET_TUPLE, GET_TUPLE)]),
            row("analyst", question, [_claim("finding", summary, GET_TUPLE),
                                      _claim("finding", RETURNED, GET_TUPLE)])]
    md = render_markdown(data(rows, topic=question, sub_questions=[question]))
    assert "- The requested checkpoint tuple, or `None` if not found." in md, md
    assert off_question("What is get_tuple?", ["get_tuple"], GET_TUPLE, REFS[GET_TUPLE][:-2],
                        RAISED)  # an abstract method's Raises: entry is never what it is


def test_a_parameters_line_cut_from_its_heading_is_no_finding_of_another_thing() -> None:
    # Pregel.invoke's second passage: its "Args:" heading is in the first
    passage = ("output_keys: The output keys to retrieve from the graph run.\ninterrupt_before: "
               "The nodes to interrupt the graph run before.\ndurability: The durability mode "
               "for the graph execution, defaults to `\"async\"`.")
    symbol, question = "langgraph.pregel.main.Pregel.invoke", "What are durability modes?"
    lines = passage.splitlines()
    assert off_question(question, ["durability", "modes"], passage, symbol, lines[1])
    assert not off_question(question, ["durability", "modes"], passage, symbol, lines[2])
    assert not off_question(question, ["durability", "modes"], passage, "", lines[1])  # a page


def test_the_sections_of_each_docstring_style() -> None:
    numpy = "Fetch.\n\nReturns\n-------\ntuple\n    The requested tuple, or None."
    assert api_section(numpy, "The requested tuple, or None.") == "returns"
    assert api_section("", ":raises ValueError: when the config is empty.") == "raises"
    assert api_section("", ":param config: the configuration to read.") == "parameters"
    assert api_section("", "Return type: Response") == "returns"  # Sphinx's HTML
    assert api_section("", "Returns a QuerySet that follows foreign keys.") == ""
    assert api_section(GET_TUPLE, "Fetch a checkpoint tuple using the given configuration.") == ""


def test_an_entry_naming_the_thing_asked_or_of_the_symbol_asked_stays() -> None:
    doc = "Retry policy.\n\nAttributes:\n    max_attempts: The most attempts before giving up."
    entry = "max_attempts: The most attempts before giving up."
    assert not off_question("What is max_attempts?", ["max_attempts"], doc, "t.RetryPolicy",
                            entry)
    assert not off_question("What is RetryPolicy?", ["retrypolicy"], doc, "t.RetryPolicy", entry)
    assert not off_question("Send", ["send"], "Send.\n\nArgs:\n    node: The target node.",
                            "langgraph.types.Send.__init__", "node: The target node.")
    assert off_question("What is a backoff?", ["backoff"], doc, "t.RetryPolicy", entry)
    assert not off_question("How do I retry a node?", ["retry", "node"], doc, "t.RetryPolicy",
                            entry)  # only "what" questions and bare topics are judged so


def test_the_answer_leads_with_what_the_topic_is() -> None:
    # no sentence says "Pending writes are ...": the one saying when writes are pending leads
    answer = answer_section(_report(TOPIC, Q)).strip().splitlines()
    assert answer[0].startswith("- Writes stored at the target checkpoint itself are pending"), (
        answer)
