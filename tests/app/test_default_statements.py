"""A question asking a default is answered by the sentence or the row that states the default
of the thing asked, not by one that only says something of a default (trial 124, M3-F1:
Django's docs; ``app.llm.offline.kind_sentences``, ``app.research.default_asks``)."""

from __future__ import annotations

from app.llm.offline.relevance import leads, select
from app.llm.offline.sentences import candidate_sentences
from app.llm.offline.words import asked_stems, stems
from app.research.report import render_markdown
from tests.app.offline.test_answer_sentences import _passage
from tests.app.report_rows import answer_section, data, item, row

_PASSWORDS = (
    "How Django stores passwords\n\nDjango provides a flexible password storage system and "
    "uses PBKDF2 by default.\n\nThe password attribute of a User object is a string in this "
    "format:\n\n```\n<algorithm>$<iterations>$<salt>$<hash>\n```\n\nThose are the components "
    "used for storing a User's password, separated by the dollar-sign character.")


def test_the_offline_analyst_quotes_the_sentence_stating_the_default_asked() -> None:
    # D11: "How are user passwords hashed by default?" was answered by testing/overview.html's
    # "The default password hasher is rather slow by design."; passwords.html's "uses PBKDF2 by
    # default" lost to the format sentence of its passage and was never a finding
    ranked = [
        (0, _passage("topics/testing/overview.html#23", "Password hashing\n\nThe default "
                     "password hasher is rather slow by design. If you're authenticating many "
                     "users in your tests, you may want to use a faster hashing algorithm.")),
        (1, _passage("topics/auth/passwords.html#1", _PASSWORDS)),
    ]
    question = "How are user passwords hashed by default?"
    chosen = select(candidate_sentences(ranked), asked_stems(question), frozenset(), (1, 3),
                    set())
    assert chosen[0].text == ("Django provides a flexible password storage system and uses "
                              "PBKDF2 by default."), [s.text for s in chosen]
    # a question not asking a default: the sentence counts as before
    other = select(candidate_sentences(ranked), asked_stems("How are user passwords stored?"),
                   frozenset(), (1, 1), set())
    assert "PBKDF2" not in other[0].text, other[0].text


def test_which_thing_is_used_when_none_is_configured_is_its_default_row() -> None:
    # D10: "Which cache does Django use if I don't configure one?" was asked as a what-question,
    # the CACHES entry's "Default:" (its value a code block below it) went unread, and the
    # Answer led with "Though this is convenient, ..." on sessions
    from app.research.reference import default_rows
    from app.research.subject_words import subject_terms
    from app.research.topics import topic_kind

    q = "Which cache does Django use if I don't configure one?"
    assert topic_kind(q) == "default" and subject_terms(q) == ["cache"]
    assert topic_kind("What happens if I use a cache?") == "what"
    entry = ("CACHES\n\nDefault:\n\n```\n{\n    'default': {\n        'BACKEND': "
             "'django.core.cache.backends.locmem.LocMemCache',\n    }\n}\n```\n\nA dictionary "
             "containing the settings for all caches to be used with Django.\n\nThe CACHES "
             "setting must configure a default cache; any number of additional caches may also "
             "be specified.")
    assert default_rows(entry) == [("CACHES", "Default: `{ 'default': { 'BACKEND': "
                                    "'django.core.cache.backends.locmem.LocMemCache', } }`")]
    sessions = ("Configuring the session engine\n\nBy default, Django stores sessions in your "
                "database. Though this is convenient, in some setups it's faster to store "
                "session data elsewhere, so Django can be configured to store session data on "
                "your filesystem or in your cache.")
    passages = [item("passage", sessions, "topics/http/sessions.html#2", score=9.0,
                     heading="Configuring the session engine"),
                item("passage", entry, "ref/settings.html#8", score=8.0, heading="CACHES")]
    findings = [item("finding", "Though this is convenient, in some setups it's faster to store "
                     "session data elsewhere, so Django can be configured to store session data "
                     "on your filesystem or in your cache.", "topics/http/sessions.html#2")]
    md = render_markdown(data([row("docs_search", q, passages), row("analyst", q, findings)],
                              topic=q, sub_questions=[q]))
    assert answer_section(md).startswith(
        "\n- `CACHES`: Default: `{ 'default': { 'BACKEND': "
        "'django.core.cache.backends.locmem.LocMemCache', } }`"), md


def test_a_sentence_stating_the_default_leads_over_the_document_quoted_most() -> None:
    # D13 "Where does Django store sessions by default?": settings.html, quoted most, led with
    # a sentence naming "Django's default" of the CSRF token once sessions.html's two sentences
    # were one quote ("By default, Django stores sessions ... Though this is convenient, ...")
    q = "Where does Django store sessions by default?"
    settings = ["Storing the CSRF token in a cookie (the site's default) is safe, but storing it "
                "in the session is common practice in other web frameworks.",
                "Whether to store the CSRF token in the user's session instead of in a cookie.",
                "Controls where the site stores session data."]
    stated = ("By default, Django stores sessions in your database (using the model "
              "django.contrib.sessions.models.Session).")
    findings = [*(item("finding", text, f"ref/settings.html#{27 + n}")
                  for n, text in enumerate(settings)),
                item("finding", stated, "topics/http/sessions.html#2")]
    passages = [item("passage", f"Configuring the session engine\n\n{stated} Though this is "
                     "convenient, it is slower.", "topics/http/sessions.html#2", score=5.0,
                     heading="Configuring the session engine"),
                *(item("passage", f"CSRF_USE_SESSIONS\n\n{text}", f"ref/settings.html#{27 + n}",
                       score=9.0 - n, heading="CSRF_USE_SESSIONS")
                  for n, text in enumerate(settings))]
    md = render_markdown(data([row("docs_search", q, passages), row("analyst", q, findings)],
                              topic=q, sub_questions=[q]))
    assert answer_section(md).startswith(f"\n- {stated}"), md


def test_another_things_default_does_not_lead_a_question_that_names_a_default() -> None:
    # asymptote-doc's asy-51: "default argument" named a thing, and the label's default was
    # counted twice as if its value were asked, then cited as a finding
    q = stems("When is the value of a default argument determined?")
    assert leads("The relative location of the label defaults to 1.", q) == 1.0
    assert leads("By default, an argument's value is determined when it is called.", q) > 1.0


def test_a_default_set_off_by_commas_is_a_default_stated() -> None:
    # "The default X, value, ..." names its value between commas: no default was read
    from app.llm.offline.kind_sentences import says_default
    assert says_default("The default spool size, 4096 bytes, fits most relays.")
    assert says_default("The default codec, `UTF-8`, is used when no charset is given.")
    assert says_default("The default, None, means the relay picks one.")
    assert not says_default("The default, however, may change between releases.")
    assert not says_default("The default spool, which most relays use, is small.")
