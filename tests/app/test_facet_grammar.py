"""A facet is a grammatical question about a noun phrase the topic has (trial 113, new users
on Varnish, HAProxy and Python-Markdown): never a verb phrase cut from its complement, never
"What is <number>?" or "What is <a clause with a verb>?"; "is" or "are" agrees with the
phrase, and the topic's article is kept."""

from __future__ import annotations

from app.research.facets import phrase_facets
from app.research.plan import offline_plan
from app.research.topics import main_question


def test_a_verb_phrase_cut_from_its_complement_is_no_facet() -> None:
    # "How do you make Varnish listen?", "What is port 80?" of the topic below; "How do you
    # send your traffic?" of "how do i send my traffic from http to https"
    topic = "How do I make Varnish listen on port 80?"
    assert offline_plan(topic) == [topic]
    assert not any("send your traffic" in q
                   for q in phrase_facets("how", "send my traffic from http to https servers"))
    assert not any(q.startswith("How do you copy")
                   for q in phrase_facets("how", "copy all checkpoints from one thread into "
                                                 "another thread"))


def test_a_whole_verb_phrase_is_still_a_facet() -> None:
    assert offline_plan("How do I keep pending writes across a process crash?")[1:] == [
        "How do you keep pending writes?", "What is a process crash?"]


def test_a_clause_with_an_infinitive_is_not_asked_what_it_is() -> None:
    # "What is Varnish to terminate HTTPS?"
    assert phrase_facets("what", "the hitch TLS proxy with Varnish to terminate HTTPS") == [
        "What is the hitch TLS proxy?"]


def test_a_keyword_phrase_ending_in_an_abbreviation_is_one_thing() -> None:
    # HAProxy: "What are redirect scheme https?"
    assert main_question("redirect scheme https") == "What is redirect scheme https?"
    assert main_question("checkpointer pending writes") == "What are checkpointer pending writes?"


def test_the_topics_article_is_kept_in_its_first_phrase() -> None:
    # Python-Markdown: "What is default baselevel?"
    topic = "What is the default baselevel of the toc extension?"
    assert offline_plan(topic)[1:] == ["What is the default baselevel?",
                                       "What is the toc extension?"]
    assert offline_plan("retry policy of a graph node")[1] == "What is retry policy?"


class _Manual:
    """A corpus whose search returns the passages given for each question."""

    def __init__(self, found: dict[str, list[tuple[str, str]]]) -> None:
        self.found = found

    def search(self, query: str, k: int = 5, *, focus: str | None = None) -> list:
        from workers.sources.base import Passage

        return [Passage(ref, "libtool.html", "Libtool", "libtool.html", text)
                for ref, text in self.found.get(query, [])][:k]


def test_a_facet_whose_search_finds_nothing_on_it_beyond_the_first_is_not_planned() -> None:
    # Libtool: "## 2. What are uninstalled programs?" held only "When executing in debug
    # mode, diagnostic information will be printed to stderr..."
    topic = "What are wrapper scripts for uninstalled programs?"
    first = ("#35", "Libtool uses wrapper scripts for uninstalled programs linked against "
                    "uninstalled shared libraries.")
    manual = _Manual({
        topic: [first],
        "What are wrapper scripts?": [first, ("#37", "A wrapper script sets the library "
                                                     "path, then runs the real program.")],
        "What are uninstalled programs?": [first, ("#36", "When executing in debug mode, "
                                                          "diagnostic information will be "
                                                          "printed to stderr.")],
    })
    assert offline_plan(topic, (), 5, manual) == [topic, "What are wrapper scripts?"]
    assert offline_plan(topic)[1:] == ["What are wrapper scripts?",
                                       "What are uninstalled programs?"]  # no corpus: asked


def test_a_how_does_x_work_clause_is_asked_about_its_subject() -> None:
    # trial 114, F12: Click's "How do counting options work for verbosity flags?" planned
    # "How do you counting options work?"
    assert offline_plan("How do counting options work for verbosity flags?")[1:] == [
        "What are counting options?", "What are verbosity flags?"]


def test_a_facet_that_drops_the_questions_own_object_words_is_no_facet() -> None:
    # trial 115, F2: zsh's "How do I make zsh keep more commands in my history file?" planned
    # "How do you make zsh keep more commands?", which searched the ``command`` builtin
    assert offline_plan("How do I make zsh keep more commands in my history file?") == [
        "How do I make zsh keep more commands in my history file?"]
    assert not any(q.startswith("How do you store")
                   for q in phrase_facets("how", "store data in a sqlite file"))


def test_a_what_does_x_do_clause_is_not_cut_across_its_verb() -> None:
    # trial 117, F7: Jinja's "What does ignore missing do in an include tag?" planned "How do
    # I ignore missing do?"; its subject, "ignore missing", is no thing to ask "How do I" about
    assert offline_plan("What does ignore missing do in an include tag?") == [
        "What does ignore missing do in an include tag?", "What is an include tag?"]


def test_a_comma_inside_a_token_lists_no_things_to_compare() -> None:
    # trial 117, F7: Exim's "What does F,2h,15m mean in an exim retry rule?" planned "How do
    # 2h and 15m mean differ in an exim retry rule?", "What is 2h?", "What is 15m mean?"
    topic = "What does F,2h,15m mean in an exim retry rule?"
    assert offline_plan(topic) == [topic]
    assert offline_plan("What is the difference between merge, rebase and cherry-pick?")[1:] == [
        "What is merge?", "What is rebase?", "What is cherry-pick?"]


def test_the_sides_of_the_x_and_y_things_share_their_noun() -> None:
    # trial 117, F7: Exim's "What is the difference between the deny and drop ACL verbs?"
    # planned "What is the deny?" and "What are drop ACL verbs?"
    assert offline_plan("What is the difference between the deny and drop ACL verbs?") == [
        "How do the deny and drop ACL verbs differ?", "What is the deny ACL verb?",
        "What is the drop ACL verb?"]
    assert offline_plan("What is the difference between the -v and -q flags?")[1:] == [
        "What is the -v flag?", "What is the -q flag?"]
    assert offline_plan("the checkpointer and memory stores")[1:] == [
        "What is the checkpointer?", "What are memory stores?"]  # nouns: two things


def test_a_facet_asks_the_action_without_the_words_that_ask_it() -> None:
    # trial 121, F3: Flask's "Can I write my views with async def?" planned "How do you Can
    # you write your views?", shown as the report's heading "## 2. How do you Can you ..."
    assert offline_plan("Can I write my views with async def?")[1:] == [
        "How do you write your views?", "What is async def?"]
    assert offline_plan("Can I run my app with gunicorn workers?")[1] == "How do you run your app?"
    assert offline_plan("Can I define my routes using async def?")[1] == (
        "How do you define your routes?")
    # the other wrappers a how-question's subject keeps: a wish, a request, a gerund
    for topic in ("I want to run my app with gunicorn workers",
                  "Show me how to run my app with gunicorn workers",
                  "Tell me how to run my app with gunicorn workers",
                  "running my app with gunicorn workers"):
        assert offline_plan(topic)[1] == "How do you run your app?", topic
    # yes/no questions of other openers were never wrapped: asked as they are, or not at all
    assert offline_plan("Should I sign my commits with GPG keys?")[1:] == [
        "Should I sign my commits?", "What are GPG keys?"]
    for topic in ("Is it possible to run my app via gunicorn workers?",
                  "Could I deploy my app using docker containers?",
                  "May I sign my tags by ssh keys?", "Do I need to run my app with gunicorn?",
                  "Can I not run my app with gunicorn workers?"):
        assert not any(q.startswith("How do you") for q in offline_plan(topic)), topic


def test_a_yes_no_question_about_a_thing_is_planned_whole() -> None:
    # trial 125, F4: "Can bash do math with decimal numbers?" planned "Can bash do math?" (yes,
    # where the question's answer is no) and "What are decimal numbers?" (not about bash)
    for topic in ("Can bash do math with decimal numbers?",
                  "Is the checkpointer safe with async nodes?",
                  "Can cron run with second precision?", "Is the parser fast with huge files?"):
        assert offline_plan(topic) == [topic], topic


def test_the_askers_own_yes_no_question_keeps_its_facets() -> None:
    # a wish to do a thing: how to do it and what its means are (trial 121, F3)
    assert offline_plan("Can I write my views with async def?")[1:] == [
        "How do you write your views?", "What is async def?"]
    assert offline_plan("Could we deploy our app using docker containers?")[1:] == [
        "Could we deploy our app?", "What are docker containers?"]
    assert offline_plan("Is it possible to sign my tags with ssh keys?") != [
        "Is it possible to sign my tags with ssh keys?"]


def test_a_verb_phrase_cut_from_what_its_object_is_of_is_no_facet() -> None:
    # trial 127, F6: "How do you enable insertion?" of HAProxy's X-Forwarded-For question
    topic = "How do I enable insertion of the X-Forwarded-For header?"
    assert offline_plan(topic) == [topic, "What is the X-Forwarded-For header?"]


def test_a_clauses_verb_and_object_are_not_asked_what_they_are() -> None:
    # trial 127, F7: "What is a module ask the user?" and "What is a password (conversation)?"
    # of libpam-doc's question; "ask" is in no verb list
    topic = "How does a module ask the user for a password (conversation)?"
    assert offline_plan(topic) == [topic]
    assert phrase_facets("how", "a worker tell the parent about a result file") == []


def test_an_action_a_preposition_takes_is_no_thing_to_ask_about() -> None:
    # trial 127, F8: "What are dropping connections?" of "... without dropping connections";
    # the verb phrase before it is still asked
    topic = "how do I reload haproxy without dropping connections"
    assert offline_plan(topic)[1:] == ["How do you reload haproxy?"]
    assert offline_plan("How do I keep pending writes across a process crash?")[1:] == [
        "How do you keep pending writes?", "What is a process crash?"]
