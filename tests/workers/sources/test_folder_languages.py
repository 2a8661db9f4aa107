"""A manual shipped in several languages is indexed in one (issue #19, trial 57: Debian's
``apache2-doc`` answered "How do I enable HTTP/2?" from ``ko/programs/configure.html`` in Korean,
and repeated one fact in English, Japanese and French): English by default, another with
``RESEARCH_CORPUS_LANGUAGE`` / ``--corpus-language``, a page no copy in it has in another, and a
``de/`` folder of Delaware data beside it is no translation."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from app.settings.config import ConfigError
from app.settings.env import load_settings
from tests.conftest import AS_OF, run_cli, write_corpus
from workers.sources import Corpus, CorpusError
from workers.sources.folder import folder_files
from workers.sources.languages import language_tag, suffix_language


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1><p>{body}</p>" \
           "</body></html>"


MANUAL = {
    "en/index.html": _page("Heron manual", "The heron daemon serves nests over HTTP/2 when "
                           "the Protocols directive lists h2."),
    "en/howto/nests.html": _page("Nest configuration", "Configure each heron nest with the "
                                 "NestRoot directive."),
    "fr/index.html": _page("Manuel du héron", "Le démon heron sert les nids en HTTP/2 quand "
                           "la directive Protocols contient h2."),
    "fr/howto/nests.html": _page("Configuration des nids", "Chaque nid heron se configure "
                                 "avec la directive NestRoot."),
    "fr/howto/only.html": _page("Seulement en français", "La directive HeronQuirk n'existe "
                                "que dans cette page."),
    "ja/index.html": _page("ヘロン マニュアル", "heron デーモンは Protocols に h2 があれば "
                           "HTTP/2 で巣を提供します。"),
}


def _refs(folder: Path, language: str | None = None, notes: list[str] | None = None
          ) -> list[str]:
    skipped: Counter[str] = Counter()
    return [rel for rel, _p, _st in folder_files(folder, skipped, notes=notes,
                                                 language=language)]


def test_language_folders_are_indexed_in_english_and_a_page_only_in_french_too(
        tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "manual", MANUAL)
    notes: list[str] = []
    assert _refs(root, notes=notes) == ["en/howto/nests.html", "en/index.html",
                                        "fr/howto/only.html"]
    assert notes == ["3 translated pages skipped in fr/, ja/: the en/ pages are indexed, and "
                     "1 page only in other languages, from fr/ (--corpus-language or "
                     "RESEARCH_CORPUS_LANGUAGE chooses another)"], notes
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        hits = corpus.search("heron HTTP/2 Protocols h2", k=10)
        assert hits and {hit.doc_id for hit in hits} <= {"en/index.html", "en/howto/nests.html",
                                                         "fr/howto/only.html"}, hits
        assert hits[0].doc_id == "en/index.html", hits
        assert [hit.doc_id for hit in corpus.search("HeronQuirk", k=3)] == ["fr/howto/only.html"]
        assert any(note.startswith("3 translated pages skipped") for note in corpus.notes)
        assert "(3 files)" in corpus.description, corpus.description


def test_the_setting_chooses_french_and_the_index_is_another(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "manual", MANUAL)
    notes: list[str] = []
    assert _refs(root, "fr", notes) == ["fr/howto/nests.html", "fr/howto/only.html",
                                        "fr/index.html"]
    assert notes[0].startswith("3 translated pages skipped in en/, ja/: the fr/ pages are "
                               "indexed (--corpus-language"), notes
    assert _refs(root, "FR") == _refs(root, "fr")  # a tag is a tag, whatever its case
    with Corpus.open(tmp_path / "data", folder=root) as english, \
            Corpus.open(tmp_path / "data", folder=root, language="fr") as french:
        assert english.fingerprint != french.fingerprint
        assert english.content_fingerprint != french.content_fingerprint
        assert {h.doc_id for h in french.search("heron HTTP/2 Protocols h2", k=10)} <= {
            "fr/index.html", "fr/howto/nests.html", "fr/howto/only.html"}
    settings = load_settings(env={"RESEARCH_CORPUS_LANGUAGE": "fr"}, env_file=None)
    assert settings.corpus_language == "fr"
    with pytest.raises(ConfigError, match="RESEARCH_CORPUS_LANGUAGE.*language tag"):
        load_settings(env={"RESEARCH_CORPUS_LANGUAGE": "french"}, env_file=None)


def test_a_language_the_folder_lacks_is_refused_naming_those_it_has(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "manual", MANUAL)
    with pytest.raises(CorpusError, match=r"corpus language de: .*languages found: en, fr, ja"):
        _refs(root, "de")


def test_suffix_named_pages_are_indexed_in_one_language(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "site", {
        "a.html.en": _page("Heron nests", "Heron nests are served over HTTP/2."),
        "a.html.fr": _page("Nids de héron", "Les nids de héron sont servis en HTTP/2."),
        "a.html.ko.euc-kr": _page("Heron", "Heron HTTP/2 (Korean copy)."),
        "b.html.en": _page("Heron roosts", "Roosts hold the herons at night."),
        "notes.txt": "Plain notes about heron roosts.",
    })
    notes: list[str] = []
    assert _refs(root, notes=notes) == ["a.html.en", "b.html.en", "notes.txt"]
    assert notes == ["2 translated pages skipped in *.fr, *.ko: the *.en pages are indexed "
                     "(--corpus-language or RESEARCH_CORPUS_LANGUAGE chooses another)"], notes
    assert _refs(root, "fr") == ["a.html.fr", "b.html.en", "notes.txt"]
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        hit = corpus.search("heron nests HTTP/2", k=1)[0]
        assert (hit.doc_id, hit.title) == ("a.html.en", "Heron nests")  # read as HTML


def test_a_de_folder_of_data_is_no_translation(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "survey", {
        **{f"manual/{rel}": text for rel, text in MANUAL.items()},
        "census/de/population.txt": "Delaware heron population by county.",
        "census/ny/counties.txt": "New York heron counties.",  # ny: a language code too
        "census/README.txt": "Heron census data by state.",
        "states/de/README.md": "# Delaware\n\nHeron sightings in Delaware.",
    })
    refs = _refs(root)
    assert {"census/de/population.txt", "census/ny/counties.txt", "census/README.txt",
            "states/de/README.md"} <= set(refs), refs
    assert not any(ref.startswith(("manual/fr/index", "manual/ja/")) for ref in refs), refs
    assert "manual/en/index.html" in refs


def test_package_folders_named_like_languages_are_no_translation(tmp_path: Path) -> None:
    # /usr/share/doc: Debian's tk, tk-dev and gv packages each install a copyright and a
    # changelog, as every package's folder (bash's) does: the same paths, no translation
    root = write_corpus(tmp_path / "doc", {
        f"{package}/{name}": f"{package} {name}: the heron toolkit's {name} of {package}."
        for package in ("tk", "tk-dev", "gv", "bash") for name in ("copyright", "README.Debian")})
    assert len(_refs(root)) == 8


def test_tags_and_suffixes() -> None:
    assert [language_tag(n) for n in ("en", "en-US", "de_DE", "zh-cn", "pt-br", "js", "de1")] == [
        "en", "en-us", "de-de", "zh-cn", "pt-br", None, None]
    assert suffix_language("index.html.ja.utf8") == ("index.html", "ja")
    assert suffix_language("index.html.gz") is None and suffix_language("x.en") is None


def test_an_unknown_language_through_the_cli_is_one_line_and_exit_2(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "manual", MANUAL)
    proc = run_cli("research", "heron HTTP/2", "--as-of", AS_OF, "--corpus", root,
                   "--corpus-language", "it", "--data-dir", tmp_path / "data")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert lines == ["error: corpus language it: no translated page of the folder is in it; "
                     "languages found: en, fr, ja (--corpus-language, RESEARCH_CORPUS_LANGUAGE)"
                     ], proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not (tmp_path / "data").exists()  # refused before anything is written


def test_a_thread_records_the_language_its_folder_was_indexed_with(tmp_path: Path) -> None:
    from app.runs.sources_key import corpus_key, recorded_language, recorded_max_bytes, split_key

    root = write_corpus(tmp_path / "manual", MANUAL)
    settings = load_settings(env={"RESEARCH_CORPUS": str(root), "RESEARCH_CORPUS_LANGUAGE": "fr",
                                  "RESEARCH_MAX_FILE_BYTES": "5000"}, env_file=None)
    key = corpus_key(settings, "0a1b")
    assert split_key(key) == (str(root.resolve()), False, "0a1b")
    assert (recorded_language(key), recorded_max_bytes(key)) == ("fr", 5000)
    plain = corpus_key(replace(settings, corpus_language=None), "0a1b")
    assert recorded_language(plain) is None
