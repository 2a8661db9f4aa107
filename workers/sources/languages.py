"""One language of a manual shipped in several: a folder that holds the same pages translated is
indexed in one language, not in all of them side by side.

Debian's ``apache2-doc`` ships its manual as ``manual/{en,fr,ja,ko,...}/`` (the untranslated
pages links to ``en/``, skipped as links by :func:`workers.sources.walk.once_each`): indexed
whole, "How do I enable HTTP/2?" was answered from ``ko/programs/configure.html`` in Korean,
and other answers said one fact in English, Japanese and French, or quoted a stale Spanish
copy. Two layouts are recognised by their names, then confirmed by their text (below):

* **language folders** (:func:`translation_sets`): sibling folders named by a language tag
  (:func:`language_tag`: an ISO 639-1 code, perhaps a region, ``en``, ``zh-cn``, ``pt-br``,
  ``de_DE``), at least two of them, whose pages overlap by their path inside the folder (at
  least half of the smaller one's, not counting the paths a sibling folder named by no language
  has too): a ``de/`` folder of Delaware data beside no other, or beside a ``fr/`` holding other
  files, is no translation, nor are ``/usr/share/doc``'s ``tk/`` and ``gv/`` packages (each
  holds a ``copyright``, as ``bash/`` does);
* **language suffixes**, as content negotiation serves them (upstream Apache's
  ``index.html.en``, ``index.html.fr``, ``index.html.ko.euc-kr``: :func:`suffix_language`), or
  Hugo and MkDocs name them (``about.fr.md``): at least two languages of one page in one folder.

**A translation is the same page in another language** (trial 59, F2: ``de/ fr/ it/ es/ nl/``,
each with an ``annual-report.md`` in English, lost 4 reports of 5): up to :data:`SAMPLED` shared
pages of each language are read (:mod:`workers.sources.textlanguage`), and languages whose pages
all read as one language are no translation set (a note says so). Pages too short to tell, or
PDFs, leave the names to decide (as before), as do two tags of one language (``en-us``,
``en-gb``). ``--corpus-language all`` (:data:`ALL`) indexes every language side by side.

**Which language** (:func:`chosen_language`): the one asked (``RESEARCH_CORPUS_LANGUAGE`` /
``--corpus-language``; a region the folder lacks, ``fr-FR`` for ``fr/``: its language, in a
note), else English (``en``, ``en-*``), else the language with the most pages (two of as many:
the first by name, in a note).
A language asked that no set holds is a :class:`~workers.sources.base.CorpusError` naming the
languages found. A folder with no such set is indexed whole, whatever is asked (an operator's
variable may serve several corpora; a note says it chose nothing).

**A page with no version in the chosen language is still indexed**, in one language (the
most-paged one that has it): a user asking about a page the English manual lacks is better
served by the French page than by no page, while a page the chosen language has is read in it
only, so a stale or partial translation never outranks, nor repeats, the page chosen. Each
translation left out is counted ``translation`` and the run's notes say so in one line
(:func:`language_note`). Standard library and this package.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from workers.sources.base import CorpusError
from workers.sources.note_groups import named_list
from workers.sources.text import plural, safe_name
from workers.sources.textlanguage import page_text, read_alike, text_language

__all__ = ["ALL", "ISO_639_1", "TranslationSet", "alike_note", "chosen_language",
           "language_note", "language_tag", "one_language", "suffix_language",
           "tie_note", "translation_sets"]

_File = tuple[str, Path, os.stat_result]

ISO_639_1 = frozenset("""
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy
    da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu
    hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb
    lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om
    or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw
    ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
""".split())
"""The two-letter language codes (ISO 639-1): a folder ``js/`` or ``py/`` names none."""

_TAG = re.compile(r"(?P<lang>[A-Za-z]{2})(?:[-_](?:[A-Za-z]{2}|[0-9]{3}|[A-Za-z]{4}))?")
"""A language, then perhaps a region (``US``, ``419``) or a script (``Hans``): BCP 47's shapes;
``tk-dev`` (Debian's Tk package beside ``tk``) is none."""
_CHARSET = re.compile(r"utf-?8|euc-[a-z]{2}|iso-?8859-[0-9]+|koi8-[a-z]|s(?:hift_)?jis|big5|"
                      r"gb2312|gbk|gb18030|(?:cp|windows-)[0-9]+|tis-620|(?:us-)?ascii", re.I)
"""The charset part Apache's type maps put after a language (``index.html.ko.euc-kr``)."""
_GZ = ".gz"


def language_tag(name: str) -> str | None:
    """The language tag ``name`` is, lower-cased with ``-`` (``"de_DE"`` -> ``"de-de"``), or
    None.

    Example:
        >>> [language_tag(n) for n in ("en", "zh-CN", "pt_br", "de_DE", "js", "data", "e")]
        ['en', 'zh-cn', 'pt-br', 'de-de', None, None, None]
    """
    match = _TAG.fullmatch(name)
    if match is None or match["lang"].lower() not in ISO_639_1:
        return None
    return name.lower().replace("_", "-")


def suffix_language(name: str) -> tuple[str, str] | None:
    """``(page name, tag)`` of a file named by content negotiation's rule: its language after
    its real extension, perhaps then a charset (and ``.gz``), or by Hugo's and MkDocs' (its
    language before its extension, ``about.fr.md``); None for any other name.

    Example:
        >>> suffix_language("index.html.en"), suffix_language("index.html.ko.euc-kr")
        (('index.html', 'en'), ('index.html', 'ko'))
        >>> suffix_language("a.html.zh-cn.utf8.gz"), suffix_language("README.de")
        (('a.html', 'zh-cn'), None)
        >>> suffix_language("about.fr.md"), suffix_language("jquery.min.js")
        (('about.md', 'fr'), None)
    """
    inner = name[: -len(_GZ)] if name.lower().endswith(_GZ) else name
    parts = inner.split(".")
    if len(parts) > 3 and _CHARSET.fullmatch(parts[-1]):
        parts.pop()
    if len(parts) < 3 or not parts[0]:
        return None
    if (tag := language_tag(parts[-1])) is not None:
        return ".".join(parts[:-1]), tag
    if (tag := language_tag(parts[-2])) is not None:  # Hugo, MkDocs: about.fr.md
        return ".".join(parts[:-2] + parts[-1:]), tag
    return None


@dataclass
class TranslationSet:
    """The pages of one manual in several languages: ``pages[page][tag]`` lists the refs of
    ``page`` in language ``tag``; ``label(tag)`` is how a note names a language's pages
    (``"fr/"``, ``"doc/*.fr"``)."""

    where: str
    """The folder holding the language folders (``""``: the corpus folder), or the files."""
    suffixed: bool
    pages: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    """Each tag as the folder or file names it (``de_DE`` for ``de-de``)."""

    def counts(self) -> Counter[str]:
        """Pages per language."""
        return Counter(tag for langs in self.pages.values() for tag in langs)

    def label(self, tag: str) -> str:
        tag = self.names.get(tag, tag)
        if self.suffixed:
            return f"{self.where}/*.{tag}" if self.where else f"*.{tag}"
        return f"{self.where}/{tag}/" if self.where else f"{tag}/"


def _overlapping(pages: dict[str, dict[str, list[str]]], common: set[str]) -> bool:
    """Whether two languages share at least half of the smaller one's pages (and one), leaving
    out the ``common`` ones: those a sibling folder named by no language has too."""
    per: dict[str, set[str]] = {}
    for page, langs in pages.items():
        for tag in langs:
            if page not in common:
                per.setdefault(tag, set()).add(page)
    tags = sorted(per)
    return any(len(per[a] & per[b]) * 2 >= min(len(per[a]), len(per[b])) and per[a] & per[b]
               for i, a in enumerate(tags) for b in tags[i + 1:])


def translation_sets(refs: list[str], translated: Callable[[TranslationSet], bool] | None = None
                     ) -> list[TranslationSet]:
    """The sets of translated pages among ``refs`` (``/`` paths relative to the corpus folder):
    language folders first (a file belongs to its outermost one), then language suffixes among
    the files left; each set named so is kept when ``translated`` (the pages' text: None, by
    their names only) says it is one. A path every package folder of ``/usr/share/doc`` has
    (``copyright``, ``changelog.Debian.gz``) is no page two language folders share: a path a
    sibling folder named by no language has too does not count (Debian's ``tk`` beside
    ``gv``)."""
    folders: dict[str, TranslationSet] = {}
    rest = []
    for ref in refs:
        parts = ref.split("/")
        at = next((i for i, part in enumerate(parts[:-1]) if language_tag(part)), None)
        if at is None:
            rest.append(ref)
            continue
        where = "/".join(parts[:at])
        page = "/".join(parts[at + 1:])
        page = page[: -len(_GZ)] if page.lower().endswith(_GZ) else page
        found = folders.setdefault(where, TranslationSet(where, False))
        tag = language_tag(parts[at]) or ""
        found.names.setdefault(tag, parts[at])
        found.pages.setdefault(page, {}).setdefault(tag, []).append(ref)
    common: dict[str, set[str]] = {where: set() for where, s in folders.items()
                                   if len(s.counts()) > 1}
    for ref in refs if common else ():
        parts = ref.split("/")
        for at, part in enumerate(parts[:-1]):
            if (where := "/".join(parts[:at])) in common and not language_tag(part):
                page = "/".join(parts[at + 1:])
                common[where].add(page[: -len(_GZ)] if page.lower().endswith(_GZ) else page)
    sets = [s for where, s in folders.items()
            if where in common and _overlapping(s.pages, common[where])
            and (translated is None or translated(s))]
    taken = {ref for s in sets for langs in s.pages.values() for refs_ in langs.values()
             for ref in refs_}
    rest += [ref for s in folders.values() if s not in sets for langs in s.pages.values()
             for refs_ in langs.values() for ref in refs_ if ref not in taken]
    suffixed: dict[str, TranslationSet] = {}
    for ref in rest:
        where, _, name = ref.rpartition("/")
        if (tagged := suffix_language(name)) is not None:
            found = suffixed.setdefault(where, TranslationSet(where, True))
            found.pages.setdefault(tagged[0], {}).setdefault(tagged[1], []).append(ref)
    for found in suffixed.values():  # a page in one language only is no translation
        found.pages = {page: langs for page, langs in found.pages.items() if len(langs) > 1}
    return sets + [s for s in suffixed.values()
                   if s.pages and (translated is None or translated(s))]


def _matches(tag: str, asked: str) -> bool:
    """Whether language ``tag`` is the one ``asked``: the same tag, or ``asked`` names only
    the language (``pt`` for ``pt-br``)."""
    return tag == asked or "-" not in asked and tag.split("-")[0] == asked


def chosen_language(counts: Counter[str], asked: str | None) -> str | None:
    """The language of a set whose pages per language are ``counts``: the one ``asked`` (of
    its tags, the most-paged that matches), else English (``en``, then an ``en-*``), else the
    most-paged (ties: the first in sorted order); None when ``asked`` matches none.

    Example:
        >>> chosen_language(Counter(en=5, fr=9), None), chosen_language(Counter(fr=3, ja=4), None)
        ('en', 'ja')
        >>> chosen_language(Counter({"en": 5, "pt-br": 2}), "pt")
        'pt-br'
        >>> chosen_language(Counter(en=1), "de") is None
        True
    """
    ranked = sorted(counts, key=lambda tag: (-counts[tag], tag))
    if asked is not None:
        return next((tag for tag in ranked if _matches(tag, asked)), None)
    return next((tag for tag in ranked if _matches(tag, "en")), ranked[0] if ranked else None)


ALL = "all"
"""``--corpus-language all``: every language indexed, side by side (no page skipped)."""

SAMPLED = 5
"""Pages of each language whose text is read to tell whether the folders are translations."""


def _labels(tset: TranslationSet, files: dict[str, tuple[Path, int]]
            ) -> dict[str, list[str | None]]:
    """What each language's sampled pages of ``tset`` read as (:func:`~workers.sources.
    textlanguage.text_language`): up to :data:`SAMPLED` of its pages other languages have too,
    those most languages have first, then by name (the same pages in each language), a page
    with no text read here (a PDF) passed over (``files``: each ref's path and size)."""
    labels: dict[str, list[str | None]] = {}
    for tag in sorted(tset.counts()):
        shared = sorted((page for page, langs in tset.pages.items()
                         if tag in langs and len(langs) > 1),
                        key=lambda page: (-len(tset.pages[page]), page))
        labels[tag] = []
        for page in shared[: SAMPLED * 3]:
            ref = tset.pages[page][tag][0]
            if len(labels[tag]) < SAMPLED and (text := page_text(files[ref][0], ref)).strip():
                labels[tag].append(text_language(text))
    return labels


def one_language(found: list[_File], asked: str | None, skipped: Counter[str],
                 notes: list[str] | None) -> list[_File]:
    """``found`` (``(ref, path, stat)``, sorted) with each translated page in one language
    (module docstring): the others counted ``translation`` and said in one note; every page
    with ``asked`` :data:`ALL`.

    Raises:
        CorpusError: ``asked`` (a language tag) is the language of no translated page, while
            the folder holds some (the message names the languages found).
    """
    asked = None if asked is None else (language_tag(asked.strip()) or asked.strip().lower())
    files = {ref: (path, st.st_size) for ref, path, st in found}
    alike: list[tuple[TranslationSet, str]] = []

    def translated(tset: TranslationSet) -> bool:
        if (label := read_alike(_labels(tset, files))) is not None:
            alike.append((tset, label))
        return label is None

    sets = translation_sets([ref for ref, _p, _st in found], translated)
    if notes is not None:
        notes += [alike_note(tset, label) for tset, label in alike]
    if asked == ALL or not sets:
        if asked is not None and notes is not None:
            notes.append(f"corpus language {safe_name(asked)}: " + (
                "every language's pages are indexed, side by side" if sets else
                "the folder holds no pages in several languages, every page is indexed"))
        return found
    asked = _in_folder(asked, sets, notes)
    dropped: set[str] = set()
    chosen_labels: list[str] = []
    left_out: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    for tset in sets:
        counts = tset.counts()
        chosen = chosen_language(counts, asked) or chosen_language(counts, None)
        chosen_labels.append(tset.label(chosen))
        if notes is not None and (tied := tie_note(tset, chosen, asked)):
            notes.append(tied)
        order = sorted(counts, key=lambda tag: (tag != chosen, -counts[tag], tag))
        for langs in tset.pages.values():
            kept = next(tag for tag in order if tag in langs)
            if kept != chosen:
                alone[tset.label(kept)] += 1
            for tag, refs in langs.items():
                if tag != kept:
                    dropped.update(refs)
                    left_out[tset.label(tag)] += len(refs)
    skipped["translation"] += len(dropped)
    if notes is not None and dropped:
        notes.append(language_note(len(dropped), [label for label, _n in left_out.most_common()],
                                   chosen_labels, alone))
    return [entry for entry in found if entry[0] not in dropped]


def _in_folder(asked: str | None, sets: list[TranslationSet], notes: list[str] | None
               ) -> str | None:
    """The language ``asked`` as the folder has it: a region it lacks falls back to the bare
    language, said in a note (``fr-FR`` for a folder ``fr/``).

    Raises:
        CorpusError: no translated page is in that language (the message names those found).
    """
    if asked is None:
        return None
    if "-" in asked and not any(chosen_language(s.counts(), asked) for s in sets):
        bare = asked.split("-")[0]  # fr-FR for a folder fr/: French
        if any(chosen_language(s.counts(), bare) for s in sets):
            if notes is not None:
                notes.append(f"corpus language {safe_name(asked)}: the folder has no "
                             f"{safe_name(asked)} pages, its {bare} pages are indexed (a "
                             "region it lacks: the language)")
            asked = bare
    if not any(chosen_language(s.counts(), asked) for s in sets):
        langs = sorted({tag for s in sets for tag in s.counts()})
        raise CorpusError(f"corpus language {safe_name(asked)}: no translated page of the folder "
                          f"is in it; languages found: {', '.join(langs)} (--corpus-language, "
                          "RESEARCH_CORPUS_LANGUAGE)")
    return asked


def tie_note(tset: TranslationSet, chosen: str, asked: str | None) -> str | None:
    """The note of a choice between languages of as many pages, each the one asked as much as
    the other (``en-us/`` and ``en-gb/`` for English): which one, and how to take another."""
    counts = tset.counts()
    wanted = asked if asked is not None and _matches(chosen, asked) else (
        "en" if asked is None and _matches(chosen, "en") else None)
    tied = sorted(tag for tag in counts if tag != chosen and counts[tag] == counts[chosen]
                  and (wanted is None or _matches(tag, wanted)))
    if not tied:
        return None
    others = ", ".join(safe_name(tset.label(tag)) for tag in tied)
    return (f"{safe_name(tset.label(chosen))} and {others} have as many pages "
            f"({counts[chosen]:,}): {safe_name(tset.label(chosen))} is indexed, the first by "
            f"name (--corpus-language {safe_name(tset.names.get(tied[0], tied[0]))} chooses "
            "that one)")


def alike_note(tset: TranslationSet, label: str, shown: int = 3) -> str:
    """The note of folders (or pages) named by languages whose text reads as one: no
    translations, every page indexed."""
    where = sorted(tset.counts(), key=lambda tag: tset.label(tag))
    named = named_list([safe_name(tset.label(tag)) for tag in where], shown)
    return (f"{named}: named by languages, but their pages read as one language ({label}): "
            "no translations, every page is indexed")


def language_note(n: int, left_out: list[str], chosen: list[str], alone: Counter[str],
                  shown: int = 3) -> str:
    """The one note of the translations left out (``left_out``: where, most first), e.g.
    ``"583 translated pages skipped in fr/, ko/, ja/ and 7 more languages: the en/ pages are
    indexed (--corpus-language or RESEARCH_CORPUS_LANGUAGE chooses another)"``; ``alone``: the
    pages indexed in another language than the chosen one, which lacks them, by where."""
    where = ", ".join(safe_name(label) for label in left_out[:shown])
    if len(left_out) > shown:
        where += f" and {len(left_out) - shown} more languages"
    picked = ", ".join(safe_name(label) for label in dict.fromkeys(chosen))
    also = (f", and {plural(sum(alone.values()), 'page')} only in other languages, from "
            f"{', '.join(safe_name(label) for label, _n in alone.most_common())}" if alone else "")
    pages = "1 translated page" if n == 1 else f"{n:,} translated pages"
    return (f"{pages} skipped in {where}: the {picked} pages are indexed{also} "
            "(--corpus-language or RESEARCH_CORPUS_LANGUAGE chooses another)")
