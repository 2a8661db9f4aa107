"""Things compared written with a value or an argument (``null=True``, ``--opt=val``,
``fetch(url)``) are compared by their names: the sentence contrasting the names answers, and
a sentence is shown once however its entry's label leads it (trial 124, M3-F2: Django's
"What's the difference between null=True and blank=True on a model field?")."""

from __future__ import annotations

from app.llm.offline.relevance import select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import asked_stems
from app.research.report import render_markdown
from app.research.topics import comparison
from tests.app.offline.test_answer_sentences import _passage
from tests.app.report_rows import answer_section, data, item, row

Q = "What's the difference between null=True and blank=True on a model field?"
_BLANK = ("blank\n\nField.blank\n\nIf True, the field is allowed to be blank. Default is False."
          "\n\nNote that this is different than null. null is purely database-related, whereas "
          "blank is validation-related. If a field has blank=True, form validation will allow "
          "entry of an empty value. If a field has blank=False, the field will be required.")
_OPTIONS = ("Field options\n\nThere's also a set of common arguments available to all field "
            "types.\n\nnull: If True, Django will store empty values as NULL in the database. "
            "Default is False.\n\nblank: If True, the field is allowed to be blank. Default is "
            "False.")
_WHEREAS = "null is purely database-related, whereas blank is validation-related."


def test_a_part_written_with_its_value_is_compared_by_its_name() -> None:
    found = comparison(Q)
    assert found is not None and found.parts == ["null", "blank"]
    assert found.question == "How do null=True and blank=True differ on a model field?"
    assert comparison("--depth=1 vs --shallow-since").parts == ["--depth", "--shallow-since"]
    assert comparison("fetch(url) vs get(url)").parts == ["fetch()", "get()"]
    assert comparison("fetch(url) vs fetch()").parts == ["fetch(url)", "fetch()"]  # one name


def test_the_offline_analyst_quotes_the_contrast_of_the_names() -> None:
    # the question's "True" counted for every sentence saying it, and the contrast was not
    # among the findings (D7b, asked "null and blank", had it)
    ranked = [(0, _passage("topics/db/models.html#6", _OPTIONS)),
              (1, _passage("ref/models/fields.html#4", _BLANK))]
    question = "How do null=True and blank=True differ on a model field?"
    chosen = select(candidate_sentences(ranked), asked_stems(question), frozenset(), (1, 3),
                    set())
    assert _WHEREAS in [s.text for s in chosen], [s.text for s in chosen]


def test_the_contrast_leads_and_a_labelled_copy_is_shown_once() -> None:
    findings = [item("finding", "blank: If True, the field is allowed to be blank.",
                     "topics/db/models.html#6"),
                item("finding", "null: If True, Django will store empty values as NULL in the "
                     "database.", "topics/db/models.html#6"),
                item("finding", "If True, the field is allowed to be blank.",
                     "ref/models/fields.html#4"),
                item("finding", _WHEREAS, "ref/models/fields.html#4")]
    passages = [item("passage", _OPTIONS, "topics/db/models.html#6", heading="Field options"),
                item("passage", _BLANK, "ref/models/fields.html#4", heading="Field.blank")]
    asked = "How do null=True and blank=True differ on a model field?"
    md = render_markdown(data([row("docs_search", asked, passages),
                               row("analyst", asked, findings)], topic=Q,
                              sub_questions=[asked]))
    assert answer_section(md).startswith(f"\n- {_WHEREAS}"), md
    assert md.count("the field is allowed to be blank.") == 1, md
