"""A comparison's report draws on each thing it compares (trial 10, findings 1 and 6): each side
keeps its own document, the Answer names each side, and a section asking what one side is shows
what names or defines it, or is folded into the Notes when its answer is above, never leftover
side facts and never a placeholder section."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import answer_section, data, row

DIFFER, WHAT_A, WHAT_B = "How do Alpha and Beta differ?", "What is Alpha?", "What is Beta?"


def _doc(ref: str, text: str, kind: str = "passage", **extra) -> dict:
    doc = ref.split("#")[0]
    return {"kind": kind, "text": text, "ref": ref, "title": doc, "source": f"docstring: {doc}",
            **extra}


def _section(md: str, question: str) -> str:
    return md.split(f". {question}\n", 1)[1].split("\n## ", 1)[0]


def test_each_side_of_a_comparison_keeps_its_own_document() -> None:
    # "StateGraph vs MessageGraph": MessageGraph's docstring names both words, so the report
    # cited it alone, and "What is StateGraph?" said "No sourced answer was found in the
    # corpus" with StateGraph's own docstring among the rows.
    beta = "x.graph.Beta"
    alpha = "x.graph.Alpha"
    rows = [
        row("docs_search", DIFFER, [_doc(f"{beta}#0", "Beta is an Alpha of messages.", score=9.0)]),
        row("analyst", DIFFER, [_doc(f"{beta}#0", "Beta is an Alpha whose state is a list of "
                                     "messages.", kind="finding")]),
        row("docs_search", WHAT_B, [_doc(f"{beta}#0", "Beta is an Alpha of messages.",
                                         score=9.0)]),
        row("analyst", WHAT_B, [_doc(f"{beta}#0", "Beta keeps a list of messages and an Alpha "
                                     "beside it.", kind="finding")]),
        row("docs_search", WHAT_A, [
            _doc(f"{alpha}#0", "A graph whose nodes share one state object.", score=5.0),
            _doc(f"{alpha}#2", "```python\ngraph = Alpha(State)\n```", score=4.0)]),
    ]
    md = render_markdown(data(rows, topic="Alpha vs Beta", sub_questions=[DIFFER, WHAT_A,
                                                                          WHAT_B]))
    assert "No sourced answer" not in md
    assert f"`{alpha}`" in md.split("## Sources", 1)[1], md
    assert "A graph whose nodes share one state object." in md


def test_a_what_is_section_whose_answer_is_above_is_folded() -> None:
    # "Send vs reducers": Send's definition went to the Answer, and "What is Send?" showed
    # sentences about its timeout parameter.
    send = "x.types.Send"
    rows = [
        row("docs_search", DIFFER, [_doc(f"{send}#0", "A message or packet to send to a "
                                         "specific node in the graph.", score=9.0)]),
        row("analyst", DIFFER, [_doc(f"{send}#0", "The Alpha class is used in conditional "
                                     "edges, unlike a Beta reducer.", kind="finding")]),
        row("docs_search", WHAT_A, [_doc(f"{send}#0", "A message or packet to send to a "
                                         "specific node in the graph.", score=9.0)]),
        row("analyst", WHAT_A, [
            _doc(f"{send}#2", "A number or `timedelta` is treated as a hard `run_timeout`.",
                 kind="finding"),
            _doc(f"{send}#0", "The Alpha class is used in conditional edges, unlike a Beta "
                              "reducer.", kind="finding")]),
    ]
    md = render_markdown(data(rows, topic="Alpha vs Beta", sub_questions=[DIFFER, WHAT_A]))
    assert "run_timeout" not in md, md
    assert f". {WHAT_A}\n" not in md, md  # no section that only says its answer is above
    assert f'would repeat the report: "{WHAT_A}"' in md, md


def test_a_comparisons_answer_names_each_side() -> None:
    # "Send vs reducers" was answered by two sentences on Send.
    rows = [row("analyst", DIFFER, [
        _doc("a.md#0", "The Alpha class is used in conditional edges to send a state.",
             kind="finding"),
        _doc("a.md#1", "An Alpha may carry any state the node accepts.", kind="finding"),
        _doc("b.md#0", "Beta folds every write into the channel's value.", kind="finding")])]
    answer = answer_section(render_markdown(data(rows, topic="Alpha vs Beta",
                                                 sub_questions=[DIFFER])))
    assert "Alpha class" in answer and "Beta folds" in answer, answer


def test_a_facet_left_without_its_documents_is_not_said_to_have_no_answer() -> None:
    # Not a comparison: the report cites the strongest document alone (it names every word of
    # the topic), and a facet whose rows held only other documents is folded into the Notes,
    # never "No sourced answer was found in the corpus" (it had one; the report cites better).
    topic, facet = "relay ledger", "What is a ledger?"
    rows = [
        row("docs_search", topic, [_doc("relay.md#0", "The relay ledger lists packets.",
                                        score=9.0)]),
        row("analyst", topic, [_doc("relay.md#0", "The relay ledger lists every packet.",
                                    kind="finding")]),
        row("docs_search", facet, [_doc("books.md#0", "A ledger is a book of accounts.",
                                        score=2.0)]),
    ]
    md = render_markdown(data(rows, topic=topic, sub_questions=[topic, facet]))
    notes = md.split("## Notes", 1)[1].split("\n## ", 1)[0]  # names it left out (trial 123)
    assert "No sourced answer" not in md and "books.md" not in md.replace(notes, ""), md
    assert f'"{facet}"' in notes
    # named with the reason it is not shown, never as repeating the report (trial 121, F8)
    assert f'are not cited (see above): "{facet}"' in notes, notes
    assert "would repeat the report" not in notes, notes
