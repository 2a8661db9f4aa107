"""What the retrieved items leave unsaid of a topic: its names (:func:`unretrieved_names`),
words (:func:`unretrieved_words`) and names of several words (:func:`unretrieved_phrases`) no
retrieved item mentions, which the report's note names, and the subject they make up
(:func:`unsaid_subject`), which makes the run a near miss. Pure functions on the run's rows;
:func:`app.research.relevance.judge` gives the verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.llm.offline.codelike import looks_like_code
from app.research.rows import ok_items
from app.research.term_stats import TermStats, absent_terms
from app.research.topic_words import (
    describe_terms,
    judged_terms,
    mentioned,
    needed,
    retrieved_texts,
)
from workers.sources.names import code_words, name_keys

__all__ = ["asker_words", "describe_unsaid", "head_of", "passing_words", "said_apart",
           "unretrieved_names", "unretrieved_phrases", "unretrieved_words", "unsaid_subject"]


def unsaid_subject(terms: Sequence[str], names: Iterable[str], rows: Iterable[Mapping[str, Any]],
                   stats: TermStats | None, topic: str = "") -> list[str]:
    """The thing the topic asks about, when no retrieved item names it: its names
    (:func:`~app.research.topic_words.name_terms`) no retrieved item mentions, with the words
    no passage of the corpus uses (:func:`~app.research.term_stats.absent_terms`), when they
    weigh (:meth:`TermStats.weight`) at least as much as the topic's words the items do
    mention; ``[]`` when no name is among them, without statistics or items. A name one
    typing slip from a corpus word (``stats.near``), or two letters swapped from a word an
    item says (:func:`_swaps`: "BNID" beside "BIND"), is a typo, no name the corpus lacks.

    The product a near miss asks about is its heaviest word, and the search answers its
    others: "How do I run JUnit tests with Maven?" over pytest's manual was answered by its
    JUnit XML passages, "How do I configure a Kubernetes ingress controller?" by "Controlling
    warnings" (the manual names Kubernetes in its plugin list only), "create an index on a
    MongoDB collection" by SQLAlchemy's indexes, each under a note that asked whether the
    word was a typo (trial 123, F5; trial 121, F7: "a Jenkins pipeline"). A word a passage
    the search ranked lower holds (a plain word: "sitting", "app") is no name: a paraphrase
    lacks the documents' words by design, and is not warned for them. A rare word the items
    say only apart from the word it modifies (:func:`passing_words`: "*dark* mode"), and that
    word, count as words they do not say (trial 125).

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [{"kind": "passage",
        ...     "ref": "a#0", "text": "Run the tests with --junitxml for JUnit XML."}]}}]
        >>> stats = TermStats(2705, {"run": 500, "junit": 46, "tests": 1592, "maven": 0})
        >>> unsaid_subject(["run", "junit", "tests", "maven"], {"junit", "maven"}, rows, stats)
        ['maven']
        >>> unsaid_subject(["run", "junit", "tests", "maven"], {"junit"}, rows, stats)
        []
    """
    texts = retrieved_texts(rows)
    if stats is None or not texts:
        return []
    named = set(names)
    judged = judged_terms(terms, named)
    said = set().union(*(mentioned(judged, text, named) for text in texts))
    absent = set(absent_terms(judged, stats)) - said
    lost = [t for t in judged if t in named and t not in said and t not in stats.near]
    if lost:  # a slip of a word some item says is a typo (the items' words read only then)
        words = _said_words(texts)
        lost = [t for t in lost if not words & _swaps(t)]
    lost += [t for t in _name_heads(lost, judged, named, stats, topic) if t not in lost]
    lost += [t for t in passing_words(judged, named, texts, stats, topic) if t not in lost]
    subject = [t for t in judged if t in lost or t in absent]
    unsaid = sum(stats.weight(t) for t in subject)
    if not lost or unsaid < sum(stats.weight(t) for t in judged if t in said and t not in lost):
        return []
    return subject


def _name_heads(lost: Sequence[str], judged: Sequence[str], named: set[str], stats: TermStats,
                topic: str) -> list[str]:
    """The words of the corpus (neither rare nor common, no name) that the ``lost`` names
    written as code (:func:`~workers.sources.names.code_words`) modify in ``topic``
    (:func:`head_of`): its kind, "the *threading* module" no item names, is not said by
    pexpect's "a pure Python module" (trial 127, F4), as "this mode" is no dark mode. Not a
    name only capitalised: "Tomcat JDBC connection pool size" over Apache's manual is
    answered by its connection pool, "JDBC" named as a word it lacks (trial 17)."""
    coded = code_words(name_keys(topic))
    heads = [t for t in judged if t not in named and stats.frequencies.get(t, 0) > 0
             and not stats.common(t) and not stats.rare(t)]
    return [h for t in lost if t in coded and (h := head_of(t, topic, heads, named))]


def passing_words(judged: Sequence[str], names: Iterable[str], texts: Sequence[str],
                  stats: TermStats, topic: str = "") -> list[str]:
    """The words of :func:`said_apart`, each with the word it modifies: the compound said
    apart is not said ("this *mode*" is no dark mode, nor a theme's "dark" style).

    Example:
        >>> stats = TermStats(2684, {"switch": 16, "theme": 188, "dark": 2, "mode": 39})
        >>> passing_words(["switch", "theme", "dark", "mode"], (), [
        ...     "pygments_dark_style: (prefers-color-scheme: dark) for the theme",
        ...     "You can activate this mode using the -n command-line switch."], stats,
        ...     "How do I switch the HTML theme to dark mode?")
        ['dark', 'mode']
    """
    named = set(names)
    out: list[str] = []
    for term, beside in said_apart(judged, named, texts, stats, topic).items():
        paired = beside if head_of(term, topic, beside, named) else ()
        out += [t for t in (term, *paired) if t not in out]
    return out


def said_apart(judged: Sequence[str], names: Iterable[str], texts: Sequence[str],
               stats: TermStats, topic: str = "") -> dict[str, tuple[str, ...]]:
    """The ``judged`` words the corpus holds in few passages (:meth:`TermStats.rare`, in one
    at least) that modify the word after them in ``topic`` (:func:`head_of`: "*dark* mode",
    "a *Docker* container"), which no retrieved item (``texts``, :func:`item_words`) saying
    them says: each with that word; and those said in code only (:func:`_code`: a script's
    passage) beside none of the topic's other words of the corpus (neither rare nor common):
    each with those words. None of a topic of one or two words, whose items need name one of
    them only (:func:`needed`); nor a word of how the asker puts it: of their situation
    (:func:`asker_words`: "without *mangling* backslashes") or a measure of what follows it
    ("a *bunch* of edits").

    The search ranks a rare word first wherever it is, so an item says it whatever the
    passage is about: "How do I switch the Sphinx HTML theme to dark mode?" was answered by a
    theme's ``pygments_dark_style`` "(prefers-color-scheme: dark)" and by "You can activate
    this mode temporarily using the -n command-line switch." (trial 125); "How do I deploy my
    Django app in a Docker container?" by ``django-docker-box``, which runs Django's own tests
    (issue 19: the topic's distinctive words must be present, not its common words alone). A
    compound's modifier without its head names another thing, as a name of two words said
    apart is not the name (:func:`unretrieved_phrases`). A rare head without its modifier is
    the thing, in general: "a web *hex* code" is answered by the page on colours in hex, "the
    previous *answer*" by the calculator's "answer" (asymptote-doc eval); and a rare word
    prose says beside common words only may be that passage's subject ("a diameter of
    *dotfactor* times the line width"). A script that runs a command documents it no more:
    "How do I change my login shell to bash with chsh?" over bash's docs was answered by the
    startup files of login shells, the only passage saying "chsh" the completion script's
    ``complete -F _chsh chsh`` (trial 125).

    Example:
        >>> stats = TermStats(2684, {"switch": 16, "theme": 188, "dark": 2, "mode": 39})
        >>> judged = ["switch", "theme", "dark", "mode"]
        >>> topic = "How do I switch the HTML theme to dark mode?"
        >>> said_apart(judged, (), ["pygments_dark_style for the theme"], stats, topic)
        {'dark': ('mode',)}
        >>> said_apart(judged, (), ["A theme's dark mode"], stats, topic)
        {}
    """
    if needed(judged) < 2:  # one word of a short topic is on topic alone: "stop the terminal
        return {}           # from beeping" by "Disabling beep sounds" (trial 124, M2-F2)
    named = set(names)
    # the head is a word of the corpus, not of the asker's: "sitting idle" (trial 123, S7)
    heads = [t for t in judged if stats.frequencies.get(t, 0) > 0 and not stats.common(t)
             and not stats.rare(t)]
    own = asker_words(topic, named) | _partitives(topic)
    out: dict[str, tuple[str, ...]] = {}
    for term in judged:
        if not 0 < stats.frequencies.get(term, 0) or not stats.rare(term) or term in own:
            continue
        head = head_of(term, topic, heads, named)
        saying = [text for text in texts if mentioned([term], text, named)]
        if head and saying and not any(mentioned([head], text, named) for text in saying):
            out[term] = (head,)
        elif saying and all(map(_code, saying)):  # a script runs it, none documents it
            others = [t for t in judged if t != term and t in heads]
            if others and not any(mentioned(others, text, named) for text in saying):
                out[term] = tuple(others)
    return out


def _code(text: str) -> bool:
    """Whether most lines of ``text`` are code (:func:`looks_like_code`): a script's passage."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) >= 3 and 2 * sum(map(looks_like_code, lines)) > len(lines)


def describe_unsaid(subject: Sequence[str], apart: Mapping[str, Sequence[str]],
                    asked: str = "") -> str:
    """What no retrieved passage mentions of ``subject`` (:func:`unsaid_subject`), for the
    warning's sentence: its words no item says, as :func:`describe_terms` names them, or,
    when the items say each of them, its words said only apart (``apart``:
    :func:`said_apart`), as ``"dark" beside "mode"``: a passage did say "dark".

    Example:
        >>> describe_unsaid(["dark", "mode"], {"dark": ("mode",)})
        '"dark" beside "mode"'
        >>> describe_unsaid(["margherita", "recipe", "classic"], {"recipe": ("classic",)})
        '"margherita"'
    """
    pairs = {t: b for t, b in apart.items() if t in subject}
    told = set(pairs).union(*pairs.values()) if pairs else set()
    unsaid = [t for t in subject if t not in told]
    if unsaid:
        return describe_terms(unsaid, asked=asked)
    shown: list[str] = []
    for term in pairs:
        if not any(term in pairs[t] for t in shown):  # a pair once, not each way
            shown.append(term)
    return " or ".join(f"{describe_terms([t], asked=asked)} beside "
                       f"{describe_terms(pairs[t], asked=asked)}" for t in shown)


def head_of(term: str, topic: str, terms: Sequence[str], names: Iterable[str] = ()
            ) -> str | None:
    """The word of ``terms`` written right after ``term`` in ``topic``, with a space or a
    hyphen between and no other word: the head ``term`` modifies ("dark *mode*"); None when
    a preposition or a stopword follows ("with chsh?") or ``term`` ends the compound ("web
    *hex*": "hex" is modified, not modifying).

    Example:
        >>> head_of("dark", "How do I switch the HTML theme to dark mode?", ["theme", "mode"])
        'mode'
        >>> head_of("hex", "How do I define a colour from a web hex code?", ["web", "colour"])
    """
    named = set(names)
    words = list(_TOPIC_WORD.finditer(topic))
    for a, b in zip(words, words[1:], strict=False):
        if topic[a.end():b.start()] in (" ", "-") and mentioned([term], a.group(), named):
            for t in terms:
                if t != term and mentioned([t], b.group(), named):
                    return t
    return None


_TOPIC_WORD = re.compile(r"[^\W_]+")


_WORD = re.compile(r"[^\W_]+")


def _said_words(texts: Iterable[str]) -> set[str]:
    """The distinct words (lower-cased) of ``texts``, gathered one text at a time, so what is
    held is the items' vocabulary, not their running text: joined first, the item texts of a
    1,200-task run made a 6.5 MB string and a list of 261,000 words, 22 MB at once and the
    peak of the run's ``report`` (scripts/bench_scale.py).

    Example:
        >>> sorted(_said_words(["Bind the Port", "bind_address"]))
        ['address', 'bind', 'port', 'the']
    """
    words: set[str] = set()
    for text in texts:
        words.update(_WORD.findall(text.lower()))
    return words


def asker_words(topic: str, names: Iterable[str] = ()) -> frozenset[str]:
    """The words (lower-cased) of the asker's own situation in ``topic``, not of the thing
    asked about: the word after a possessive ("*my app*", "*our* server") and a verb's
    participle ("after *sitting* idle", "*deleted*"), names (``names``) aside. The note on a
    word no passage has names the topic's rare words no passage retrieved too, as the report
    answers without them; these are no such word: "Why does my app lose its MySQL connection
    after sitting idle overnight?" was answered well, under a note that no passage retrieved
    mentions "overnight", "nor "app" or "sitting"" (trial 123, F5).

    Example:
        >>> sorted(asker_words("Why does my app lose its MySQL connection after sitting idle?",
        ...                    {"mysql"}))
        ['app', 'sitting']
        >>> sorted(asker_words("Tomcat JDBC connection pool size"))
        []
    """
    owned = {m.group(1).lower() for m in _POSSESSED.finditer(topic)}
    verbs = {w.lower() for w in _PARTICIPLE.findall(topic)}
    return frozenset((owned | verbs) - set(names))


def _partitives(topic: str) -> frozenset[str]:
    """The words (lower-cased) of ``topic`` that measure or portion out what follows them, a
    noun between an article and "of" ("a *bunch* of edits", "a *handful* of rows").

    Example:
        >>> sorted(_partitives("How do I undo a bunch of edits in one go?"))
        ['bunch']
    """
    return frozenset(m.group(1).lower() for m in _PARTITIVE.finditer(topic))


_PARTITIVE = re.compile(r"\b(?:a|an|one)\s+([^\W\d_]+)\s+of\b", re.IGNORECASE)
_POSSESSED = re.compile(r"\b(?:my|our|your|his|her|its|their)\s+([^\W\d_]+)", re.IGNORECASE)
_PARTICIPLE = re.compile(r"\b[^\W\d_]{2,}(?:ing|ed)\b")


def _swaps(word: str) -> set[str]:
    """``word`` with two neighbouring letters swapped, each way: the slip of a short name
    (:func:`~app.research.term_stats.slips` leaves words under six letters alone).

    Example:
        >>> sorted(_swaps("bnid"))
        ['bind', 'bndi', 'nbid']
    """
    return {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)} - {
        word}


def unretrieved_names(terms: Sequence[str], names: Iterable[str],
                      rows: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The names among ``terms`` (:func:`name_terms`: "MATLAB", "GitHub") that no retrieved
    item mentions, when the run retrieved any: the corpus may name the thing somewhere, but
    what the report cites is about its other words. Else "What is the default
    figure size in MATLAB?" over gnuplot's manual (MATLAB in one passage, not retrieved) was
    answered "Its default size will be 5 by 3 inches." (a terminal's) without a word.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "passage", "ref": "a#0", "text": "The default size is 5 by 3 inches."}]}}]
        >>> unretrieved_names(["default", "size", "matlab"], {"matlab"}, rows)
        ('matlab',)
    """
    texts = retrieved_texts(rows)
    named = set(names)

    def said(name: str) -> bool:  # a plural names its singular ("RewriteRules")
        forms = {name, name[:-1] if name.endswith("s") else name,
                 name[:-2] if name.endswith("es") else name}
        return any(mentioned([f], text, named | forms) for f in forms for text in texts)

    return tuple(t for t in terms if t in named and texts and not said(t))


def unretrieved_words(terms: Sequence[str], rows: Iterable[Mapping[str, Any]],
                      names: Iterable[str] = ()) -> tuple[str, ...]:
    """The ``terms`` no retrieved item mentions (:func:`mentioned`), when the run retrieved
    any: those the corpus holds in few passages (:meth:`TermStats.rare`) are named beside a
    word it lacks, as the note on it says "the report answers the topic's other words" (trial
    57: "worker_connections in the nginx events block" over Apache's manual named
    "worker_connections" alone, though no passage cited said "nginx", in 1 of 18,000).

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [
        ...     {"kind": "passage", "ref": "a#0", "text": "The event MPM serves connections."}]}}]
        >>> unretrieved_words(["nginx", "events", "connections"], rows)
        ('nginx',)
        >>> rows[0]["structured"]["items"][0]["heading"] = "THE NGINX GROUP"
        >>> unretrieved_words(["nginx", "events", "connections"], rows)
        ()
    """
    texts = retrieved_texts(rows)
    said = set().union(*(mentioned(terms, text, names) for text in texts)) if texts else set()
    return tuple(t for t in terms if texts and t not in said)


def unretrieved_phrases(phrases: Sequence[str], rows: Iterable[Mapping[str, Any]]
                        ) -> tuple[str, ...]:
    """The names of several words (:func:`~app.research.topic_words.name_phrases`: "github
    pages") that no retrieved item writes with their words side by side (a plural or a hyphen
    aside), when the run retrieved any: each word may be there, the name is not.

    Example:
        >>> rows = [{"status": "ok", "structured": {"items": [{"kind": "passage", "ref": "a#0",
        ...     "text": "Publish the pages of a mirror on GitHub."}]}}]
        >>> unretrieved_phrases(["github pages"], rows), unretrieved_phrases(["a mirror"], rows)
        (('github pages',), ())
        >>> rows[0]["structured"]["items"][0]["text"] = "Each event loop runs a TaskGroup."
        >>> unretrieved_phrases(["event loops", "task groups"], rows)
        ()
        >>> rows[0]["structured"]["items"][0]["text"] = "Paste into Microsoft(R) Word(R) files."
        >>> unretrieved_phrases(["microsoft word"], rows)
        ()
    """
    texts = [f"{item.get('title') or ''} {item.get('text') or ''}"
             for _row, item in ok_items(list(rows)) if item.get("ref")]
    if not texts:
        return ()
    missing = []
    for phrase in phrases:
        # each word in any number (loops, loop), apart, joined as an identifier writes them
        # ("Task Groups": TaskGroup) or trade-marked ("Microsoft(R) Word(R)", trial 90, F5)
        words = [re.escape(re.sub(r"(?:es|s)$", "", w) if len(w) > 3 else w)
                 for w in phrase.split()]
        said = re.compile(r"(?<![^\W_])" + r"\w{0,2}(?:\((?:R|TM)\)|[®™])?[\s._:/-]*".join(words)
                          + r"\w{0,2}(?![^\W_])", re.IGNORECASE)
        if not any(said.search(text) for text in texts):
            missing.append(phrase)
    return tuple(missing)
