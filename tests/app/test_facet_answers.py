"""A sub-question is left out of the report as repeating it only when the report shows an
answer to it (trial 121, F8): "What is git rebase?" and "What are gunicorn workers?" were named
in the Notes as "would repeat the report" beside sentences that only name the thing. A facet
asking what a thing is is folded only when a shown claim defines it; else its section says that
nothing retrieved answers it. A facet whose documents the report does not cite is named with
that reason."""

from __future__ import annotations

from app.research.report import render_markdown
from tests.app.report_rows import data, row

TOPIC, FACET = "Can I run my app with gunicorn workers?", "What are gunicorn workers?"
NAMES_IT = ("Gunicorn is a pure Python WSGI server with simple configuration and multiple "
            "worker implementations for performance tuning.")


def _doc(ref: str, text: str, kind: str = "passage", **extra) -> dict:
    doc = ref.split("#")[0]
    return {"kind": kind, "text": text, "ref": ref, "title": doc, "source": f"docstring: {doc}",
            **extra}


def _report(facet_text: str, topic_text: str = NAMES_IT) -> str:
    rows = [
        row("docs_search", TOPIC, [_doc("gunicorn.md#0", topic_text, score=9.0)]),
        row("analyst", TOPIC, [_doc("gunicorn.md#0", topic_text, kind="finding")]),
        row("docs_search", FACET, [_doc("gunicorn.md#0", facet_text, score=9.0)]),
        row("analyst", FACET, [_doc("gunicorn.md#0", facet_text, kind="finding")]),
    ]
    return render_markdown(data(rows, topic=TOPIC, sub_questions=[TOPIC, FACET]))


def _notes(md: str) -> str:
    return md.split("## Notes", 1)[1].split("\n## ", 1)[0] if "## Notes" in md else ""


def test_a_facet_beside_a_sentence_that_only_names_its_thing_is_shown_unanswered() -> None:
    md = _report(NAMES_IT)
    assert f'"{FACET}"' not in _notes(md), md  # not "would repeat the report"
    section = md.split(f". {FACET}\n", 1)[1].split("\n## ", 1)[0]
    assert "No sentence retrieved for this question answers it" in section, md


def test_a_facet_whose_definition_the_report_shows_is_folded_as_before() -> None:
    defined = "Gunicorn workers are the processes that serve the requests of a Gunicorn server."
    md = _report(defined, topic_text=defined)
    assert f". {FACET}\n" not in md, md
    assert f'would repeat the report: "{FACET}"' in _notes(md), md


def test_a_facet_whose_found_passage_is_quoted_in_another_section_is_not_said_answered() -> None:
    # git-doc's "git merge vs git rebase": "What is git rebase?" found the passage section 1
    # quotes ("Prefer to use git svn rebase or git rebase, rather than git pull or git merge")
    topic, facet = "git merge vs git rebase", "What is git rebase?"
    quoted = _doc("git-svn.md#54", "Prefer to use git svn rebase or git rebase, rather than "
                  "git pull or git merge to keep history linear.", score=9.0)
    rows = [row("docs_search", "How do git merge and git rebase differ?", [quoted]),
            row("docs_search", facet, [quoted])]
    md = render_markdown(data(rows, topic=topic, sub_questions=[
        "How do git merge and git rebase differ?", facet]))
    assert f'"{facet}"' not in _notes(md), md
    assert f". {facet}\n" in md, md
    # two facets neither of which the report answers: each says so, none "would repeat" it
    rows.append(row("docs_search", "What is git merge?", [quoted]))
    md = render_markdown(data(rows, topic=topic, sub_questions=[
        "How do git merge and git rebase differ?", "What is git merge?", facet]))
    assert "would repeat the report" not in _notes(md), md
    assert f". {facet}\n" in md and ". What is git merge?\n" in md, md
