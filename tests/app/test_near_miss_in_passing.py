"""A rare word that modifies the word after it names a kind of that thing ("*dark* mode", "a
*Docker* container"): an item saying it without that word speaks of another thing, so the
topic's distinctive words are not present (issue 19). Trial 125: "How do I switch the Sphinx
HTML theme to dark mode?" was answered by a theme's ``pygments_dark_style`` "(prefers-color-
scheme: dark)" and by "You can activate this mode temporarily using the -n command-line
switch.". So is a rare word a script says, beside none of the topic's other words: "How do I
change my login shell to bash with chsh?" over bash's docs, whose only passage saying "chsh" was
a completion script's. A rare head without its modifier, or a rare word prose says beside
common words only, is no near miss: the paraphrases of the stored evals answer so.
"""

from __future__ import annotations

from app.research.relevance import NO_RELEVANT_SOURCES, judge
from app.research.report import render_markdown
from app.research.term_stats import TermStats
from tests.app.report_rows import Q1, data, item, row

# a documentation tool's manual: "dark" in two passages of 2,700
THEMES = TermStats(2700, {"switch": 16, "sphinx": 1370, "html": 540, "theme": 190, "dark": 2,
                          "mode": 39})
PYGMENTS = item("passage", "The pygments_dark_style setting of a theme gives the Pygments "
                "style used when the CSS media query (prefers-color-scheme: dark) is true.",
                "theming.html#3")
NITPICKY = item("passage", "nitpicky: if true, Sphinx warns about every missing reference. You "
                "can activate this mode temporarily with the -n command-line switch.",
                "configuration.html#32")
DARK = "How do I switch the Sphinx HTML theme to dark mode?"

# a web framework's manual: "docker" in one passage of 11,000
WEB = TermStats(11000, {"deploy": 84, "django": 6960, "app": 940, "docker": 1, "container": 847})
BOX = item("passage", "Running the test suite with django-docker-box: it runs Django's own "
           "tests across every supported database.", "contributing/unit-tests.html#9")
WSGI = item("passage", "How to deploy with WSGI: Django's primary deployment platform is WSGI; "
            "the app server is a container for your project's application.",
            "deployment/wsgi.html#1")


# a shell's manual: "chsh" in two passages of 3,000, "shell" and "bash" in most of them
SHELL = TermStats(3000, {"change": 800, "login": 70, "shell": 1300, "bash": 2300, "chsh": 2})
STARTUP = item("passage", "When bash is invoked as an interactive login shell, it reads "
               "/etc/profile, then ~/.bash_profile. You may change these startup files.",
               "manual.html#480")
COMPLETION = item("passage", 'if [ "$prev" = "-s" ]; then\n  COMPREPLY=( $( </etc/shells ) )\n'
                  'else\n  COMPREPLY=( $( compgen -u -- $cur ) )\nfi\nreturn 0\n}\n'
                  "complete -F _chsh chsh", "examples/bash_completion#86",
                  title="bash_completion")
CHSH = "How do I change my login shell to bash with chsh?"


def test_a_rare_word_only_a_script_says_is_a_near_miss() -> None:
    rows = [row("docs_search", Q1, [STARTUP, COMPLETION])]
    verdict = judge(CHSH, rows, SHELL)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    assert 'no retrieved passage mentions "chsh" beside "login"' in verdict.warnings[0].message
    md = render_markdown(data(rows, topic=CHSH, sub_questions=[Q1], relevance=verdict))
    assert "say nothing about" in md and "invoked as an interactive login shell" not in md


def test_a_rare_word_a_script_says_beside_the_topics_words_is_covered() -> None:
    login = item("passage", 'if [ "$login" = yes ]; then\n  chsh -s /bin/bash "$USER"\nfi\n'
                 "exit 0", "examples/login#3")
    assert judge(CHSH, [row("docs_search", Q1, [STARTUP, COMPLETION, login])],
                 SHELL).warnings == []


def test_a_compound_said_apart_is_a_near_miss() -> None:
    rows = [row("docs_search", Q1, [PYGMENTS, NITPICKY])]
    verdict = judge(DARK, rows, THEMES)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    assert 'no retrieved passage mentions "dark" beside "mode"' in verdict.warnings[0].message
    md = render_markdown(data(rows, topic=DARK, sub_questions=[Q1], relevance=verdict))
    assert "say nothing about" in md and "activate this mode" not in md


def test_a_name_said_without_the_thing_it_names_a_kind_of_is_a_near_miss() -> None:
    rows = [row("docs_search", Q1, [BOX, WSGI])]
    verdict = judge("How do I deploy my Django app in a Docker container?", rows, WEB)
    assert [w.code for w in verdict.warnings] == [NO_RELEVANT_SOURCES], verdict
    assert '"Docker" beside "container"' in verdict.warnings[0].message


def test_the_compound_said_whole_is_covered() -> None:
    dark = item("passage", "A theme may offer a dark mode: switch to it with the theme's "
                "dark_mode option.", "theming.html#9")
    rows = [row("docs_search", Q1, [PYGMENTS, NITPICKY, dark])]
    assert judge(DARK, rows, THEMES).warnings == []


def test_a_rare_head_without_its_modifier_is_the_thing_asked() -> None:
    # "a web *hex* code": the page on colours in hex answers it, "web" is the asker's
    stats = TermStats(2300, {"define": 36, "colour": 72, "web": 26, "hex": 2, "code": 321})
    rows = [row("docs_search", Q1, [item(
        "passage", "A colour may be given by its hex value: rgb(\"#ff8000\") defines it.",
        "colours.html#3")])]
    assert judge("How do I define a colour from a web hex code?", rows, stats).warnings == []


def test_a_rare_word_beside_common_words_only_is_no_verdict() -> None:
    # the item whose subject it is may say it beside the corpus's commonest words alone
    stats = TermStats(2300, {"default": 237, "value": 80, "dotfactor": 1})
    rows = [row("docs_search", Q1, [item(
        "passage", "A dot has a diameter of dotfactor times the line width by default.",
        "plain.html#4")])]
    assert judge("What is the default value of dotfactor?", rows, stats).warnings == []


def test_a_rare_word_of_a_short_topic_is_on_topic_alone() -> None:
    stats = TermStats(1000, {"stop": 15, "printer": 40, "beeping": 1})
    rows = [row("docs_search", Q1, [item(
        "passage", "Disabling beep sounds: unplug the speaker.", "ch09.html#76")])]
    assert judge("How do I stop the printer from beeping?", rows, stats).warnings == []


def test_a_modifier_of_the_askers_own_is_no_compound() -> None:
    # "without mangling backslashes": a participle of the asker's situation (asker_words)
    stats = TermStats(3000, {"loop": 73, "line": 591, "file": 705, "mangling": 2,
                             "backslashes": 127})
    rows = [row("docs_search", Q1, [
        item("passage", "read -r: backslash does not act as an escape; read each line of "
             "the file in a while loop.", "builtins.html#309"),
        item("passage", "Name mangling is done in the completion functions.", "compl#107")])]
    topic = "How do I loop over every line of a file without mangling backslashes?"
    assert judge(topic, rows, stats).warnings == []
