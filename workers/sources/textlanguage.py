"""Which language a page is written in, told by a small, well-known signal: the share of each
language's most common function words in its text (Latin-script languages), or the script it
is written in (CJK, Cyrillic, Greek, Arabic, Hebrew, Thai, Devanagari). Deterministic, the
standard library only: what :mod:`workers.sources.languages` asks of a few pages of each
language folder, so that folders named ``de/ fr/ it/`` holding the same reports, all in
English, are not taken for translations (trial 59, F2: 4 of 5 reports were dropped).

Why not a library: ``langdetect`` is random unless seeded and ships 55 profiles (about 2 MB);
``langid``/``py3langid`` need numpy and a trained model. Telling *whether two folders read as
the same language* needs neither: 25-odd function words per language say it from a few lines
(the words that make up a third of any prose), and where they do not (too little text, a PDF,
a near tie) the answer is "unknown", and the caller keeps the folders' names as the evidence.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

__all__ = ["LABEL_LANGUAGES", "SAMPLE_BYTES", "page_text", "read_alike", "text_language"]

_WORDS: dict[str, str] = {
    "en": "the of and to in a is that for it as with was on be by this are or from at an which "
          "not have has but when can if",
    "fr": "le la les de des du et en un une est que qui dans pour pas sur au aux par ce cette "
          "il elle sont avec ne se plus vous",
    "de": "der die das und ist nicht ein eine zu den von mit sich des auf für im dem auch es "
          "wird werden oder bei sind aus wenn",
    "es": "el la los las de del y en que es por para con una un se no su al lo como más o "
          "pero sus está",
    "it": "il la le di del della che e è per un una non con sono gli i da nel alla dei al si "
          "anche come questo",
    "pt": "o a os as de do da dos das e que em um uma para com não é por no na se mais ao "
          "como você",
    "nl": "de het een en van is dat op te in zijn voor met die niet aan er ook als bij of wordt "
          "door u",
    "sv": "och att det som en är av för på med till den inte har de ett om var kan men eller "
          "från du",
    "da-no": "og at det som en er af av for på med til den ikke har de et om var kan men eller "
             "fra du",
    "fi": "ja on ei että se oli hän mutta kun niin ovat tai jos myös ole sekä kanssa tämä voi "
          "joka jotka",
    "pl": "i w na z do się nie że jest to o jak po co ale przez od dla jego czy tak są oraz "
          "lub",
    "cs-sk": "a se na je v že to s z do o pro jako by ale i jsou k tak od po který které nebo "
             "také",
    "ro": "și de în la a cu că o nu pe un din este care se mai pentru sau ca sunt fi",
    "hu": "a az és hogy nem is egy ez meg van csak de el már mint volt vagy ki sem azt",
    "tr": "ve bir bu da de için ile olarak daha çok gibi en ne o var ama kadar sonra olan "
          "veya ise",
    "id-ms": "yang dan di dengan untuk dari ini itu dalam tidak akan ke pada adalah juga atau "
             "oleh ada",
    "ca": "el la els les de del i a en que per amb no es un una al com més o són",
    "vi": "của và là các có được trong cho một những không với này để người khi đã",
}
"""The most common function words of each language the signal tells apart (a label with a
``-`` covers languages too close for them: Danish and Norwegian, Czech and Slovak)."""

_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("ko", "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f"),
    ("ja", "\u3040-\u30ff"),
    ("zh", "\u4e00-\u9fff\u3400-\u4dbf"),
    ("cyrl", "\u0400-\u04ff"),
    ("el", "\u0370-\u03ff\u1f00-\u1fff"),
    ("arab", "\u0600-\u06ff\u0750-\u077f"),
    ("hebr", "\u0590-\u05ff"),
    ("th", "\u0e00-\u0e7f"),
    ("deva", "\u0900-\u097f"),
)
"""Scripts that say the language (or a few) by themselves: Hangul, kana (Japanese: its Han
characters count as Japanese when kana stand beside them), Han, Cyrillic, Greek, ..."""

LABEL_LANGUAGES: dict[str, frozenset[str]] = {
    **{label: frozenset(label.split("-")) for label in _WORDS},
    "da-no": frozenset({"da", "nb", "nn", "no"}),
    "ko": frozenset({"ko"}), "ja": frozenset({"ja"}), "zh": frozenset({"zh"}),
    "el": frozenset({"el"}), "th": frozenset({"th"}), "hebr": frozenset({"he", "yi"}),
    "cyrl": frozenset("ru uk be bg sr mk kk ky mn tg tt ba cv ce os ab kv av cu".split()),
    "arab": frozenset("ar fa ur ps ug ku sd ks".split()),
    "deva": frozenset("hi mr ne sa".split()),
}
"""The ISO 639-1 languages a label may be: one, or several the signal cannot tell apart."""

_WEIGHT: dict[str, dict[str, float]] = {}
for _label, _words in _WORDS.items():
    for _word in _words.split():
        _WEIGHT.setdefault(_word, {})[_label] = 1.0
for _word, _labels in _WEIGHT.items():  # a word of several languages counts less for each
    for _label in _labels:
        _labels[_label] = 1.0 / len(_labels)

_LETTERS = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_SCRIPT_RES = [(label, re.compile(f"[{chars}]")) for label, chars in _SCRIPTS]
_DROPPED = re.compile(r"<(script|style|pre|code)\b.*?</\1\s*>|<!--.*?-->", re.I | re.S)
_TAG = re.compile(r"<[^>]*>")
_MARKUP = re.compile(r"<(?:html|body|head|p|div|h[1-6]|title|span|a)\b", re.I)

SAMPLE_BYTES = 65536
"""How much of a page is read to tell its language."""

MIN_SCORE = 1.5
"""The fewest (weighted) function words a text needs to be told a language: less is unknown."""

MIN_SHARE = 0.05
"""The least share of a text's words its language's function words must be: prose has far more
(a third), a list of names or code far less (a directive index read as Czech by its "a", "s"
and "v")."""

MARGIN = 1.5
"""How many times the runner-up's score the first language's must be (else: unknown)."""


def text_language(text: str) -> str | None:
    """The language ``text`` reads as: a key of :data:`LABEL_LANGUAGES` (``"en"``, ``"fr"``,
    ``"ja"``, ``"cyrl"``, ``"da-no"``), or None when the text is too short or too mixed to say.

    Example:
        >>> text_language("The office opened in Milan, and revenue in Italy reached 298 million.")
        'en'
        >>> text_language("Le démon sert les nids en HTTP/2 quand il est actif.")
        'fr'
        >>> text_language("巣を提供します。"), text_language("Привет, мир"), text_language("h2")
        ('ja', 'cyrl', None)
    """
    latin = len(_LATIN.findall(text))
    scripts = Counter({label: len(found.findall(text)) for label, found in _SCRIPT_RES})
    if scripts["ja"] and scripts["ja"] * 10 >= scripts["zh"]:  # kana beside Han: Japanese
        scripts["ja"] += scripts.pop("zh")
    label, count = max(scripts.items(), key=lambda item: (item[1], item[0]))
    if count and count * 10 >= latin:  # a tenth of the Latin letters' count (a character of
        return label  # Chinese or Japanese is about a word), or more: code and names beside it
    scores: Counter[str] = Counter()
    words = _LETTERS.findall(text.lower())
    for word in words:
        for label, weight in _WEIGHT.get(word, {}).items():
            scores[label] += weight
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    if not ranked or ranked[0][1] < max(MIN_SCORE, MIN_SHARE * len(words)):
        return None
    if len(ranked) > 1 and ranked[0][1] < MARGIN * ranked[1][1]:
        return None
    return ranked[0][0]


def page_text(path: Path, name: str, size: int = SAMPLE_BYTES) -> str:
    """The first ``size`` bytes of the page ``path`` (named ``name``: ``.gz`` decompressed) as
    text, markup, scripts and code left out; ``""`` for a PDF or ``.docx`` (binary: its text
    would need the reader), a binary file or one that cannot be read."""
    from workers.sources.documents import DOCUMENT_EXTENSIONS
    from workers.sources.filekinds import head_bytes, inner_name
    from workers.sources.text import decode_file, html_charset

    parts = inner_name(name).lower().split(".")
    if any(f".{part}" in DOCUMENT_EXTENSIONS for part in parts[1:]):
        return ""
    raw = head_bytes(path, size)
    if not raw:
        return ""
    text = decode_file(raw, html_charset(raw)).text or ""
    if _MARKUP.search(text):
        text = html.unescape(_TAG.sub(" ", _DROPPED.sub(" ", text)))
    return text


def read_alike(labels: dict[str, list[str | None]]) -> str | None:
    """The one language that pages of languages named apart all read as, page by page
    (``labels``: what each language's sampled pages read as; ``{"de": ["en"], "fr": ["en"]}``:
    ``"en"``, no translation); None when their text says they are translations, or cannot
    say: a page of one reads as another language than a page of another, one language alone
    or none read, one base language named (``en-us/``, ``en-gb/``), or a script of several
    languages read in folders of two of them (``ru/`` and ``uk/``, both Cyrillic).

    Example:
        >>> read_alike({"de": ["en", None], "it": ["en"], "es": []})
        'en'
        >>> read_alike({"en": ["en"], "fr": ["fr", "en"]}), read_alike({"en": ["en"], "cs": []})
        (None, None)
        >>> read_alike({"en-us": ["en"], "en-gb": ["en"]}), read_alike({"ru": ["cyrl"],
        ...                                                              "uk": ["cyrl"]})
        (None, None)
    """
    known = {tag: {label for label in read if label} for tag, read in labels.items()}
    read = set().union(*known.values())
    if len(read) != 1:
        return None
    label = read.pop()
    bases = {tag.split("-")[0] for tag, found in known.items() if found}
    may_be = LABEL_LANGUAGES[label]
    if len(bases) < 2 or len(may_be) > 1 and len(bases & may_be) > 1:
        return None
    return label
