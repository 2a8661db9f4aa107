"""The worker node wrapper (``workers.base.make_worker_node``) in a real ``Send`` fan-out: what a
worker returns reaches state, or becomes that task's error envelope saying why.

* an item of an unknown kind makes the envelope an error naming the kind (never a silent drop in
  the report), and the tokens the work spent are still counted;
* an item citing a ref no source knows is dropped, counted and noted, a plain function's or an
  agent's alike (trial 21, finding 14);
* ``WorkerResult.state`` writes reach their keys (folded by the key's reducer); a key the schema
  does not declare (LangGraph would drop it without a word) or one the wrapper owns makes the
  envelope an error naming it.
"""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.language_models import GenericFakeChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

import state.schema
from state import ResearchState, Task, keep_max
from workers.base import RunScope, WorkerDeps, WorkerResult, WorkerSpec, make_worker_node
from workers.sources.base import Passage

AS_OF = "2026-11-30"


class OneDoc:
    """A source whose one passage is ``doc.md#0``: the ref the workers here cite."""

    description = "one document"
    hit = Passage(ref="doc.md#0", doc_id="doc.md", title="doc.md", source="docs/doc.md",
                  text="Send dispatches one task to a node.")

    def search(self, query: str, k: int = 5, *, focus: str | None = None) -> list[Passage]:
        return [self.hit]

    def passage(self, ref: str) -> Passage | None:
        return self.hit if ref == self.hit.ref else None

    def read(self, ref_or_doc_id: str, max_chars: int = 6000) -> None:
        return None


def _no_deps(_runtime: Any) -> tuple[WorkerDeps, RunScope]:
    """The worker node's resolver: no model, and a source that knows the ref cited here."""
    return WorkerDeps(corpus=OneDoc()), RunScope()
QUESTIONS = ("first question", "second question")


def run_worker(result_for=None, schema: type = ResearchState,
               seen: list[dict[str, Any]] | None = None, *, spec: WorkerSpec | None = None,
               resolve=_no_deps) -> dict[str, Any]:
    """Fan ``QUESTIONS`` out to a worker whose ``run(task)`` returns ``result_for(task)`` (or
    to ``spec``, resolved by ``resolve``); ``seen`` collects the envelopes the node announces
    on the ``custom`` stream."""
    spec = spec or WorkerSpec(name="probe", kind="function", description="test",
                              build=lambda _deps: result_for)
    builder = StateGraph(schema)
    builder.add_node("probe", make_worker_node(spec, resolve))
    builder.add_conditional_edges(START, lambda _s: [
        Send("probe", Task(worker="probe", sub_question=q, topic="t", as_of=AS_OF, round=1))
        for q in QUESTIONS
    ], ["probe"])
    builder.add_edge("probe", END)
    values: dict[str, Any] = {}
    for mode, chunk in builder.compile().stream({"topic": "t"},
                                                stream_mode=["values", "custom"]):
        if mode == "values":
            values = chunk
        elif seen is not None and "envelope" in chunk:
            seen.append(chunk["envelope"])
    return values


def passage(text: str, kind: str = "passage", **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "text": text, "ref": "doc.md#0", "title": "doc.md",
            "source": "docs/doc.md", **extra}


def test_an_unknown_item_kind_is_an_error_envelope_naming_it():
    def run(task: Task) -> WorkerResult:
        kind = "summary" if task["sub_question"] == QUESTIONS[0] else "passage"
        return WorkerResult(items=[passage("x", kind=kind)], tokens=7)

    out = run_worker(run)
    by_question = {e["task_key"]: e for e in out["envelopes"]}
    bad, good = by_question[QUESTIONS[0]], by_question[QUESTIONS[1]]
    assert bad["status"] == "error" and bad["structured"] is None
    assert bad["error"] == ("ValueError: item 0 has the unknown kind 'summary'; the kinds are "
                            "finding, caveat, passage")
    assert good["status"] == "ok" and good["structured"]["items"][0]["kind"] == "passage"
    assert out["tokens"] == 14  # the malformed result's tokens were spent all the same


class ScoredState(ResearchState, total=False):
    top_score: Annotated[float | None, keep_max]


def test_state_writes_reach_a_declared_key_through_its_reducer(monkeypatch):
    # the wrapper checks writes against ResearchState: declare the key there, as the recipe does
    monkeypatch.setattr("workers.node_steps._SCHEMA", ScoredState)

    def run(task: Task) -> WorkerResult:
        score = {QUESTIONS[0]: -2.0, QUESTIONS[1]: -7.5}[task["sub_question"]]
        return WorkerResult(items=[passage("x", score=score)], state={"top_score": score})

    out = run_worker(run, ScoredState)
    assert out["top_score"] == -2.0
    assert all(e["status"] == "ok" for e in out["envelopes"])


def test_an_undeclared_owned_or_single_writer_state_key_is_an_error_envelope_naming_it():
    # trial 16, finding 5: a key declared without a reducer (report_path) passed this check;
    # the task was announced ok, then the node's guard made it an error under the same count
    assert "undeclared_key" not in state.schema.ResearchState.__optional_keys__
    announced: list[dict] = []

    def run(task: Task) -> WorkerResult:
        key = "undeclared_key" if task["sub_question"] == QUESTIONS[0] else "envelopes"
        return WorkerResult(items=[], state={key: 1.0})

    errors = {e["task_key"]: e["error"] for e in run_worker(run)["envelopes"]}
    assert errors == {
        QUESTIONS[0]: "ValueError: WorkerResult.state writes undeclared_key, which ResearchState "
                      "(state/schema.py) does not declare",
        QUESTIONS[1]: "ValueError: WorkerResult.state writes envelopes: the node wrapper writes "
                      "those; return items and tokens instead",
    }
    out = run_worker(lambda task: WorkerResult(items=[], state={"report_path": "x.md"}),
                     seen=announced)
    assert {e["error"] for e in out["envelopes"]} == {
        "ValueError: WorkerResult.state writes report_path, which ResearchState declares "
        "without a reducer: the workers of a map step write in parallel; declare it "
        "Annotated[T, reducer] (docs/extending.md)"}
    assert [e["status"] for e in announced] == ["error", "error"]  # never "ok" first
    assert "report_path" not in out


def test_a_transient_failure_is_announced_retried_and_its_tokens_kept():
    # The RetryPolicy path the app's graph takes: attempt 1 calls a model that reports no usage
    # and times out; the node says so on the "custom" stream and raises; attempt 2 returns. The
    # run's hooks see both attempts and the one finished envelope, and the unmetered response of
    # the failed attempt still reaches the state.
    from langchain_core.language_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from workers.retry import self_paced_retry

    attempts: list[tuple[str, int]] = []
    done: list[tuple[str, str, int]] = []
    scope = RunScope(on_attempt=lambda task, n: attempts.append((task["sub_question"], n)),
                     on_done=lambda task, e: done.append((task["sub_question"], e["status"],
                                                          e["attempts"])))
    failed: set[str] = set()

    def run(task: Task) -> WorkerResult:
        if task["sub_question"] not in failed:
            failed.add(task["sub_question"])
            GenericFakeChatModel(messages=iter([AIMessage("no usage")])).invoke("hello")
            raise TimeoutError("the provider took too long")
        return WorkerResult(items=[passage("x")], tokens=3)

    spec = WorkerSpec(name="probe", kind="function", description="test", build=lambda _d: run)
    deps = WorkerDeps(corpus=OneDoc(), max_attempts=2)
    builder = StateGraph(ResearchState)
    builder.add_node("probe", make_worker_node(spec, lambda _rt: (deps, scope)),
                     retry_policy=self_paced_retry(deps.max_attempts))
    builder.add_conditional_edges(START, lambda _s: [
        Send("probe", Task(worker="probe", sub_question=q, topic="t", as_of=AS_OF, round=1))
        for q in QUESTIONS
    ], ["probe"])
    builder.add_edge("probe", END)
    events, out = [], None
    for mode, chunk in builder.compile().stream({"topic": "t"}, stream_mode=["custom", "values"]):
        if mode == "custom":
            events.append(chunk)
        else:
            out = chunk
    retries = sorted((e["retry"]["task_key"], e["retry"]["attempt"], e["retry"]["max_attempts"],
                      e["retry"]["error"]) for e in events if "retry" in e)
    assert retries == [(q, 1, 2, "TimeoutError: the provider took too long") for q in QUESTIONS]
    assert sorted(attempts) == [(q, n) for q in QUESTIONS for n in (1, 2)]
    assert sorted(done) == [(q, "ok", 2) for q in QUESTIONS]
    finished = sorted(e["envelope"]["task_key"] for e in events if "envelope" in e)
    assert finished == sorted(QUESTIONS)
    assert [e["status"] for e in out["envelopes"]] == ["ok", "ok"]
    assert out["unmetered_calls"] == 2 and out["tokens"] == 6


def test_an_extra_key_named_items_is_an_error_envelope():
    # found reading the worker contract (docs17): {"items": [...], **extra} let extra's
    # "items" replace the items check_items had checked, without a word
    def run(task: Task) -> WorkerResult:
        return WorkerResult(items=[passage("x")], extra={"items": [{"kind": "bogus"}]})

    [error] = {e["error"] for e in run_worker(run)["envelopes"]}
    assert error.startswith("ValueError: WorkerResult.extra has a key 'items'")


def test_an_item_citing_an_unknown_ref_is_dropped_counted_and_noted():
    def run(task: Task) -> WorkerResult:
        return WorkerResult(items=[passage("kept"), {**passage("gone"), "ref": "nowhere#0"}],
                            state={"notes": ["the worker's own note"]})

    out = run_worker(run)
    assert [e["status"] for e in out["envelopes"]] == ["ok", "ok"]
    for envelope in out["envelopes"]:
        assert [i["text"] for i in envelope["structured"]["items"]] == ["kept"]
        assert envelope["structured"]["dropped_unsourced"] == 1
    assert out["notes"] == 2 * [
        "the worker's own note",
        "probe: 1 item(s) dropped, their ref names no passage the sources know: 'nowhere#0' "
        "(a ref is a passage's, '<doc_id>#<n>')"]
    # nothing dropped: no count, no note
    out = run_worker(lambda task: WorkerResult(items=[passage("kept")]))
    assert all("dropped_unsourced" not in e["structured"] for e in out["envelopes"])
    assert not out.get("notes")


def test_items_citing_the_workers_own_source_are_checked_there():
    # docs/extending.md "Add a source": a worker searching a source it opened itself cites refs
    # the run's corpus does not know; it hands the source over with its result
    class Faq:
        def passage(self, ref: str) -> Passage | None:
            return OneDoc.hit if ref == "faq:send#0" else None

    faq = {**passage("an answer"), "ref": "faq:send#0"}
    out = run_worker(lambda task: WorkerResult(items=[faq], source=Faq()))
    assert [[i["ref"] for i in e["structured"]["items"]] for e in out["envelopes"]] == (
        [["faq:send#0"]] * 2)
    assert not out.get("notes")
    out = run_worker(lambda task: WorkerResult(items=[faq]))  # not handed over: unknown
    assert all(e["structured"]["items"] == [] for e in out["envelopes"])
    assert len(out["notes"]) == 2


class AnsweringModel(GenericFakeChatModel):
    """A chat model that answers at once with its one structured answer (a tool call)."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> AnsweringModel:
        return self


class SearchingModel(AnsweringModel):
    """A chat model that searches first (``search_corpus``), then answers with ``claims``
    (a ``Findings`` call), in each conversation."""

    claims: list[dict[str, str]] = []

    def _generate(self, messages: list[Any], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> Any:
        from langchain_core.messages import AIMessage, ToolMessage
        from langchain_core.outputs import ChatGeneration, ChatResult

        if any(isinstance(m, ToolMessage) for m in messages):
            call = {"name": "Findings", "args": {"findings": self.claims}, "id": "answer"}
        else:
            call = {"name": "search_corpus", "args": {"query": "send"}, "id": "search"}
        return ChatResult(generations=[ChatGeneration(message=AIMessage("", tool_calls=[call]))])


def _run_probe(model: Any, corpus: Any = None) -> dict[str, Any]:
    """Run an agent worker ``probe`` (``Findings``) on ``model`` over ``corpus`` (default:
    :class:`OneDoc`)."""
    from workers.agent import build_agent_runner
    from workers.schemas import Findings

    deps = WorkerDeps(corpus=corpus or OneDoc(), model=model)
    spec = WorkerSpec(name="probe", kind="agent", description="test", build=lambda d: (
        build_agent_runner(d, name="probe", system_prompt="Answer.", schema=Findings,
                           items_field="findings", kind="finding")))
    return run_worker(spec=spec, resolve=lambda _rt: (deps, RunScope()))


def test_an_agents_claim_citing_an_unknown_ref_goes_through_the_same_check():
    # the agent path dropped such a claim itself, counted it, and said nothing in the run


    claims = [{"claim": "Send dispatches one task to a node.", "ref": "doc.md#0"},
              {"claim": "An invented claim.", "ref": "invented#3"}]
    out = _run_probe(SearchingModel(messages=iter([]), claims=claims))
    for envelope in out["envelopes"]:
        assert envelope["status"] == "ok", envelope["error"]
        assert [i["ref"] for i in envelope["structured"]["items"]] == ["doc.md#0"]
        assert envelope["structured"]["dropped_unsourced"] == 1
    assert all("'invented#3'" in note for note in out["notes"]) and len(out["notes"]) == 2


def test_an_agents_claim_citing_a_passage_it_never_retrieved_is_dropped_and_said():
    # trial 23, finding 13: a model cited a real passage that no search of its task returned
    # (remembered, or guessed), and the claim led the report's Answer
    from langchain_core.messages import AIMessage


    claims = [{"claim": "Send dispatches one task to a node.", "ref": "doc.md#0"}]
    answers = iter([AIMessage("", id=f"a{n}", tool_calls=[  # no search: answers at once
        {"name": "Findings", "args": {"findings": claims}, "id": f"call-{n}"}])
        for n in range(len(QUESTIONS))])
    out = _run_probe(AnsweringModel(messages=answers))
    for envelope in out["envelopes"]:
        assert envelope["status"] == "ok", envelope["error"]
        assert envelope["structured"]["items"] == []
        assert envelope["structured"]["dropped_unretrieved"] == 1
    assert len(out["notes"]) == 2 and all(
        "ref names a passage no tool of its task returned: 'doc.md#0'" in n for n in out["notes"])


class CaseBlindDoc(OneDoc):
    """:class:`OneDoc` whose ref is found however its letters are cased, as a web source finds
    a page by its URL written another way."""

    def passage(self, ref: str) -> Passage | None:
        return self.hit if ref.lower() == self.hit.ref else None


def test_a_claim_citing_a_retrieved_passage_spelled_another_way_is_kept():
    # trial 24, finding 8: a claim citing the page its own search_web returned, its URL written
    # another way, was dropped as never retrieved: refs are compared as the source spells them
    claims = [{"claim": "Send dispatches one task to a node.", "ref": "DOC.md#0"}]
    out = _run_probe(SearchingModel(messages=iter([]), claims=claims), CaseBlindDoc())
    for envelope in out["envelopes"]:
        assert envelope["status"] == "ok", envelope["error"]
        assert [i["ref"] for i in envelope["structured"]["items"]] == ["doc.md#0"]
    assert out.get("notes") in (None, [])


def test_a_run_is_built_once_per_deps_and_let_go_with_them():
    # Review 47, lower rank: run_builder kept every deps object it was given, with its built run
    # (an agent's compiled graph), so a long-lived server whose app dropped its deps on each MCP
    # restart grew one entry per worker per restart. The run now lives on the deps.
    import gc
    import weakref

    from workers.node_steps import run_builder

    builds = []

    def build(deps: WorkerDeps):
        builds.append(deps)
        return lambda task: WorkerResult(items=[])

    run_for = run_builder(WorkerSpec(name="probe", kind="function", description="test",
                                     build=build))
    other_for = run_builder(WorkerSpec(name="other", kind="function", description="test",
                                       build=build))
    deps = WorkerDeps(corpus=OneDoc())
    assert run_for(deps) is run_for(deps)  # built once per deps object
    assert other_for(deps) is not run_for(deps)  # each node its own, on shared deps
    assert len(builds) == 2
    assert run_for(WorkerDeps(corpus=OneDoc())) is not run_for(deps)  # equal deps: another
    dropped = weakref.ref(deps)
    del deps
    builds.clear()
    gc.collect()
    assert dropped() is None, "the node's run cache still holds the deps the app dropped"


def test_a_runs_envelopes_share_their_equal_strings():
    # At 12,000 tasks a run's envelopes stay in state, payload and all, until persist, and they
    # cite the same passages again and again: a 300-task offline run's rows held 1,521
    # characters of strings each, 160 of them new to the run, each envelope a copy of its own
    # (every search reads its rows anew; Envelope.to_state copies every string). The node now
    # hands each envelope to its run's table (RunScope.strings): equal strings, one object.
    scope = RunScope()

    def run(task: Task) -> WorkerResult:  # each task builds its own copy of the same text
        text = "".join(["Send dispatches ", "one task ", "to a node."])
        return WorkerResult(items=[passage(text), passage(text[:4] + " " + task["topic"])])

    out = run_worker(run, resolve=lambda _rt: (WorkerDeps(corpus=OneDoc()), scope))
    first, second = ([item["text"] for item in e["structured"]["items"]]
                     for e in out["envelopes"])
    assert first == second == ["Send dispatches one task to a node.", "Send t"]
    assert first[0] is second[0] and first[1] is second[1]
    assert out["envelopes"][0]["structured"]["items"][0]["title"] is (
        out["envelopes"][1]["structured"]["items"][0]["title"])
    # the table is the run's: another run's scope starts empty, so nothing outlives its run
    assert len(scope.strings) > 0 and len(RunScope().strings) == 0
