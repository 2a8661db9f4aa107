"""The row of the run's passages whose label is the very thing a "What does X do?", "What does
X mean?" or "What is X?" question asks: an option's own line (``--lf, --last-failed - to only
re-run the failures.``), a definition list's row (``Exit code 5: No tests were collected``) or
a parameter's entry (``pool_pre_ping –`` over "boolean, if True will enable the connection pool
“pre-ping” feature ..."). It is that thing's definition: the Answer leads with it, never with
a release note or a sentence that only mentions the thing ("--lf and --ff now support long
names", "Before create_engine.pool_pre_ping was added, ...": trial 123, F3).

Pure: reads the rows it is given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from app.research.citations import items
from app.research.definitions import DEFINES
from workers.sources.change_logs import is_change_log_passage
from workers.sources.chunks import PARA_SPLIT
from workers.sources.entries import LABEL, label_name
from workers.sources.query import mentions

__all__ = ["asked_rows", "asked_thing", "listing_order", "row_forms"]

_KIND_WORDS = (r"(?:option|flag|switch|parameter|argument|setting|keyword|field|attribute|"
               r"command|function|method|directive|variable|property|clause)")
_ASKED = re.compile(
    r"what\s+(?:does|do|is|are)\s+(?:the\s+(?:meaning|purpose)\s+of\s+)?(?:the\s+|an?\s+)?"
    r"(?P<thing>[^?\s](?:[^?]{0,58}?[^?\s])??)"
    rf"(?:\s+{_KIND_WORDS})?(?:\s+(?:do|mean|stand\s+for))?\s*\?*", re.IGNORECASE)
"""A question asking what one thing is, does or means; ``thing`` is the thing as written, less
a word naming its kind ("the --lf option")."""
_DO = re.compile(r"what\s+(?:does|do)\s", re.IGNORECASE)
_ENDS = re.compile(r"\s(?:do|mean|stand\s+for)\s*\?*$", re.IGNORECASE)


def asked_thing(asked: str) -> str:
    """The thing ``asked`` asks the meaning of, as written (see :data:`_ASKED`), else "": a
    "What does ..." question must end in "do", "mean" or "stand for" ("What does json_extract
    return?" asks a result, not a meaning).

    Example:
        >>> asked_thing("What does --lf do?"), asked_thing("What does exit code 5 mean?")
        ('--lf', 'exit code 5')
        >>> asked_thing("What is pool_pre_ping?"), asked_thing("What does the -x option do?")
        ('pool_pre_ping', '-x')
        >>> asked_thing("What is the meaning of exit code 5?")
        'exit code 5'
        >>> asked_thing("What does json_extract return?"), asked_thing("How do I use -x?")
        ('', '')
    """
    question = " ".join(asked.split())
    found = _ASKED.fullmatch(question)
    if not found or (_DO.match(question) and not _ENDS.search(question)):
        return ""
    return found.group("thing").strip("`'\"“”")


_FORM = r"[-+]{1,2}[A-Za-z0-9][\w-]*(?:=\S+|\s[A-Za-z_<{\[][^\s,:]*)?"
_OPTION_LINE = re.compile(rf"(?P<label>{_FORM}(?:,\s*{_FORM})*)"
                          r"(?:\s[-\u2013\u2014]|:)\s(?P<text>\S.*)")
"""An option's own line: its forms (each perhaps with its value's name), then a dash or a
colon, then what it does (``--lf, --last-failed - to only re-run the failures.``, ``-p name:
Early-load given plugin module name``)."""
_DANGLING = re.compile(r"(?P<label>[^\s.:;!?][^.:;!?]{0,60}?)\s[-\u2013\u2014]")
"""A parameter's label alone on its paragraph, its dash dangling: Sphinx writes
``pool_pre_ping –`` and puts the description in the paragraph below."""
_TABLE_ROW = re.compile(r"(?P<label>[^\s\u2014][^\u2014.:;!?]{0,60}?) \u2014 (?P<text>\S.*)")
"""A table's row as the index writes it, its first cell naming it
(:mod:`workers.sources.tables`: ``TG-3 — Location: Lighthouse rock; Installed: 2019.``)."""
_OPTION_NAME = re.compile(r"[-+]{1,2}[A-Za-z0-9][\w-]*")
_OPTION_FORM = re.compile(rf"(?P<name>{_OPTION_NAME.pattern})(?:[=\s]\S+)?")
"""One form of an option, perhaps with its value (``--color=yes``, ``-k EXPRESSION``)."""


def row_forms(label: str) -> set[str]:
    """The forms a row's ``label`` gives its thing, compared as written for an option (``-x``
    is not ``-X``) and in lower case otherwise; a value or a type after a name is not its
    name.

    Example:
        >>> sorted(row_forms("--lf, --last-failed"))
        ['--last-failed', '--lf']
        >>> sorted(row_forms("pool_size=5")), sorted(row_forms("Exit code 5"))
        (['pool_size'], ['exit code 5'])
        >>> sorted(row_forms("ca_certs (str)")), sorted(row_forms("--color=yes"))
        (['ca_certs'], ['--color'])
        >>> sorted(row_forms("--lf and --ff now support long names"))  # a sentence's
        ['--lf and --ff now support long names']
        >>> sorted(row_forms("setup(dburl, echo, num)"))  # a call's, no forms of its own
        ['setup']
    """
    forms = set()
    for part in label.split(",") if "(" not in label else [label]:  # not a call's arguments
        part = " ".join(part.split()).strip("`'\"“”")
        if option := _OPTION_FORM.fullmatch(part):
            forms.add(option.group("name"))
        elif name := label_name(f"{part}: x"):
            forms.add(name.casefold())
    return forms


def _rows(text: str) -> list[tuple[str, str]]:
    """``(label, shown)`` for each paragraph of ``text`` that is a labelled row: an option's
    line, a definition's ``term: text`` or ``term – text`` or a table's row (``TG-3 —
    Location: ...``), shown whole, or a label alone over its description, shown as the
    description.

    Example:
        >>> _rows("Exit codes\\n\\nExit code 5: No tests were collected\\n\\n"
        ...       "pool_pre_ping –\\n\\nboolean, if True will enable it.")
        [('Exit code 5', 'Exit code 5: No tests were collected'), \
('pool_pre_ping', 'boolean, if True will enable it.')]
        >>> _rows("TG-3 — Location: Lighthouse rock; Installed: 2019.")
        [('TG-3', 'TG-3 — Location: Lighthouse rock; Installed: 2019.')]
        >>> _rows("baked_query = bakery(lambda session: session.query(User)) baked_query")
        []
    """
    paragraphs = [" ".join(p.split()) for p in PARA_SPLIT.split(text.strip())]
    out = []
    for at, paragraph in enumerate(paragraphs):
        if "```" in paragraph:
            continue  # code, no row
        if found := _OPTION_LINE.fullmatch(paragraph):
            out.append((found.group("label"), paragraph, found.group("text")))
        elif (found := _TABLE_ROW.fullmatch(paragraph) or LABEL.match(paragraph)) and (
                0 < len(label_name(f"{found.group('label')}: x").split()) <= 6):
            out.append((found.group("label"), paragraph, paragraph[found.end("label"):]))
        elif (found := _DANGLING.fullmatch(paragraph)) and at + 1 < len(paragraphs):
            said = paragraphs[at + 1]
            out.append((found.group("label"), said, said))
    return [(label.strip(), shown) for label, shown, said in out
            if _describes(said) and not _CODE.search(label)]


_CODE = re.compile(r"\s=\s|[{}]|\blambda\b|^(?:def|class|import|from|return)\s")
"""A label that is code, an assignment or a definition (``baked_query = bakery(lambda
session: ...)``, a line SQLAlchemy's migration notes hold outside a code block)."""


def _describes(text: str) -> bool:
    """Whether ``text`` says something: two words at least, not code, not a label of its own
    (its last character no colon nor dash)."""
    return (len(re.findall(r"[A-Za-z]{2,}", text)) >= 2 and not text.startswith("```")
            and not text.rstrip().endswith((":", "-", "\u2013", "\u2014")))


def _matches(thing: str, label: str) -> bool:
    """Whether the asked ``thing`` is one of the forms of a row's ``label``
    (:func:`row_forms`): an option as written, a word written with capitals in its case
    ("the Session" is no parameter ``session``), else in any case; a dotted name by its last
    part too (``create_engine.pool_pre_ping``).

    Example:
        >>> _matches("Session", "session"), _matches("session", "Session (class)")
        (False, True)
    """
    forms = row_forms(label)
    if _OPTION_NAME.fullmatch(thing):
        return thing in forms
    name = " ".join(thing.split()).casefold().removesuffix("()")
    if " " not in name and thing != thing.lower() and not re.search(
            rf"(?<![\w-]){re.escape(thing.removesuffix('()'))}(?![\w-])", label):
        return False
    return name in forms or ("." in name and name.rsplit(".", 1)[1] in forms)


def asked_rows(rows_by_question: Sequence[tuple[str, Sequence[dict[str, Any]]]],
               asked: str) -> list[dict[str, Any]]:
    """The rows (:func:`_rows`) of the run's passages labelled by the thing ``asked`` asks
    about (:func:`asked_thing`), each as a finding citing its passage, in the order the rows
    (sub-questions in plan order, passages in rank order) give them, one per passage. A row
    shown without its label (the description under ``pool_pre_ping –``) carries the label's
    name under :data:`~app.research.definitions.DEFINES`: the Answer shows it under that name.

    Example:
        >>> passage = {"kind": "passage", "ref": "a#0",
        ...            "text": "Usage\\n\\n--lf, --last-failed - to only re-run the failures."}
        >>> rows = [{"status": "ok", "structured": {"items": [passage]}}]
        >>> found = asked_rows([("q", rows)], "What does --lf do?")
        >>> [(f["ref"], f["text"]) for f in found]
        [('a#0', '--lf, --last-failed - to only re-run the failures.')]
    """
    thing = asked_thing(asked)
    if not thing:
        return []
    out: dict[str, dict[str, Any]] = {}
    for _question, rows in rows_by_question:
        for passage in items(list(rows), None, "passage"):
            for label, shown in _rows(str(passage.get("text") or "")):
                if passage["ref"] in out or not _matches(thing, label):
                    continue
                row = {**passage, "kind": "finding", "text": shown}
                if not shown.startswith(label):
                    row[DEFINES] = label_name(f"{label}: x") or label
                out[passage["ref"]] = row
    # a change log's row after the others: "--lf: now ..." is news of the option, no
    # definition, though it may rank higher (trial 123, F3's release notes)
    return sorted(out.values(), key=lambda row: is_change_log_passage(
        str(row["ref"]), str(row.get("title") or ""), str(row.get("heading") or "")))


def listing_order(found: Sequence[dict[str, Any]], subject: Sequence[str]
                  ) -> list[dict[str, Any]]:
    """``found`` (the Answer's candidates, in order) with the option rows of one passage (a
    ``--help`` listing's siblings: :data:`_OPTION_LINE`) reordered among their own places, the
    row whose description names more of the question's ``subject`` words first (stable): asked
    "How do I rerun only the tests that failed last time?", pytest's "--ff, --failed-first:
    Run all tests, but run the last failures first." led its sibling "--lf, --last-failed:
    Rerun only the tests that failed at the last run" (trial 123, F3, P7).

    Example:
        >>> rows = [{"ref": "r#1", "text": "--ff, --failed-first: Run all tests, failures first."},
        ...         {"ref": "r#1", "text": "--lf, --last-failed: Rerun only the failed tests."}]
        >>> [row["text"][:4] for row in listing_order(rows, ["rerun", "failed", "tests"])]
        ['--lf', '--ff']
    """
    def said(item: dict[str, Any]) -> str:
        found = _OPTION_LINE.fullmatch(" ".join(str(item.get("text") or "").split()))
        return found.group("text") if found else ""

    out = list(found)
    for ref in {str(item.get("ref")) for item in out if said(item)}:
        places = [at for at, item in enumerate(out) if str(item.get("ref")) == ref and said(item)]
        ranked = sorted((out[at] for at in places),
                        key=lambda item: -len(mentions(subject, said(item))))
        for at, item in zip(places, ranked, strict=True):
            out[at] = item
    return out
