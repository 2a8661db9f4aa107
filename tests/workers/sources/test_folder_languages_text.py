"""Language folders that are no translations, and a language change named as such (trial 59):

* F2: folders of per-country reports named ``de/ fr/ it/ es/ nl/``, the same file in each, all
  in English, were taken for translations by their names: 4 of 5 reports dropped, and a
  question about Italy told the sources said nothing. The pages' text now decides: folders
  whose sampled pages read as one language are indexed whole; ``--corpus-language all``
  indexes every language of a real translation too.
* F7: a thread indexed in the default language, resumed with ``RESEARCH_CORPUS_LANGUAGE=fr``,
  was refused as if its files had been "added, removed or modified"; it now names the change
  (default -> fr) and the commands that continue it or run it again in French.
* F8: ``fr_FR`` was refused for a folder ``fr/``; an ``en-US``/``en-GB`` tie was settled
  without a word; Hugo's ``about.fr.md`` was not recognised.
"""
from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path

import pytest

from app.settings.env import load_settings
from app.settings.hints import APP
from tests.conftest import AS_OF, write_corpus
from tests.workers.sources.test_folder_languages import MANUAL, _page
from workers.sources import Corpus
from workers.sources.folder import folder_files

COUNTRIES = {"de": ("Germany", "Berlin", 412), "fr": ("France", "Paris", 377),
             "it": ("Italy", "Milan", 298), "es": ("Spain", "Madrid", 251),
             "nl": ("Netherlands", "Amsterdam", 189)}


def _reports() -> dict[str, str]:
    return {f"{code}/annual-report.md": f"# Annual report 2024: {name}\n\nThe {name} subsidiary "
            f"opened a new office in {city}. Revenue in {name} reached {rev} million euros in "
            "2024.\n" for code, (name, city, rev) in COUNTRIES.items()}


def _refs(folder: Path, language: str | None = None, notes: list[str] | None = None
          ) -> list[str]:
    return [rel for rel, _p, _st in folder_files(folder, Counter(), notes=notes,
                                                 language=language)]


def test_country_folders_of_english_reports_are_no_translations(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "reports", _reports())
    notes: list[str] = []
    assert _refs(root, notes=notes) == sorted(_reports())
    assert notes == ["de/, es/, fr/ and 2 more: named by languages, but their pages read as one "
                     "language (en): no translations, every page is indexed"], notes
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        assert corpus.search("Italy subsidiary revenue Milan office", k=1)[0].doc_id == \
            "it/annual-report.md"
    # state folders (Delaware, New York, Pennsylvania, California) likewise
    states = write_corpus(tmp_path / "states", {
        f"states/{code}/index.md": f"# {name}\n\nThe heron census of {name} counts the birds "
        f"that are seen in each county of the state, and it is published every year."
        for code, name in (("de", "Delaware"), ("ny", "New York"), ("pa", "Pennsylvania"),
                           ("ca", "California"))})
    assert len(_refs(states)) == 4


def test_translations_read_apart_stay_one_language_and_all_indexes_every_one(
        tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "translated", {
        "en/annual-report.md": "# Annual report 2024\n\nThe group opened five offices, and "
                               "revenue in Europe reached 1527 million euros in 2024.\n",
        "fr/annual-report.md": "# Rapport annuel 2024\n\nLe groupe a ouvert cinq bureaux et le "
                               "chiffre d'affaires en Europe est de 1527 millions d'euros.\n",
        "de/annual-report.md": "# Jahresbericht 2024\n\nDie Gruppe hat fünf Büros eröffnet, und "
                               "der Umsatz in Europa ist auf 1527 Millionen Euro gestiegen.\n"})
    assert _refs(root) == ["en/annual-report.md"]  # they read apart: translations
    manual = write_corpus(tmp_path / "manual", MANUAL)
    notes: list[str] = []
    assert _refs(manual, "all", notes) == sorted(MANUAL)
    assert notes == ["corpus language all: every language's pages are indexed, side by side"]
    assert _refs(manual, "ALL") == sorted(MANUAL)
    assert load_settings(env={"RESEARCH_CORPUS_LANGUAGE": "all"},
                         env_file=None).corpus_language == "all"


def test_a_region_the_folder_lacks_falls_back_to_its_language(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "manual", MANUAL)
    for asked in ("fr_FR", "fr-FR", "fr-ca"):
        notes: list[str] = []
        assert _refs(root, asked, notes) == ["fr/howto/nests.html", "fr/howto/only.html",
                                             "fr/index.html"], asked
        shown = asked.lower().replace("_", "-")
        assert notes[0] == (f"corpus language {shown}: the folder has no {shown} pages, its fr "
                            "pages are indexed (a region it lacks: the language)"), notes


def test_a_tie_between_two_englishes_is_settled_by_name_and_said(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "guide", {
        **{f"{tag}/{page}.html": _page(page, f"The {page} page of the heron guide is written "
                                       "for the users, and it is in English.")
           for tag in ("en-US", "en-GB") for page in ("a", "b")},
        **{f"fr-FR/{page}.html": _page(page, f"La page {page} du guide est en français et "
                                       "elle est pour les utilisateurs.") for page in "ab"}})
    for asked in (None, "en"):
        notes: list[str] = []
        assert _refs(root, asked, notes) == ["en-GB/a.html", "en-GB/b.html"]
        assert notes[0] == ("en-GB/ and en-US/ have as many pages (2): en-GB/ is indexed, the "
                            "first by name (--corpus-language en-US chooses that one)"), notes
    notes = []
    assert _refs(root, "en-us", notes) == ["en-US/a.html", "en-US/b.html"]
    assert not any("as many pages" in note for note in notes)


def test_hugo_names_the_language_before_the_extension(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "site", {
        "about.en.md": "# About\n\nThe heron is a bird that is found in the marsh, and it eats "
                       "fish.\n",
        "about.fr.md": "# À propos\n\nLe héron est un oiseau que l'on trouve dans le marais, "
                       "et il mange des poissons.\n",
        "index.md": "# Heron site\n"})
    notes: list[str] = []
    assert _refs(root, notes=notes) == ["about.en.md", "index.md"]
    assert notes == ["1 translated page skipped in *.fr: the *.en pages are indexed "
                     "(--corpus-language or RESEARCH_CORPUS_LANGUAGE chooses another)"]
    assert _refs(root, "fr") == ["about.fr.md", "index.md"]


def test_a_changed_corpus_language_is_named_not_taken_for_changed_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        cli_env: None) -> None:
    from app.cli import main
    from app.runs.ids import default_thread_id
    from tests.app.test_changed_corpus_advice import _run_unfinished

    root, data = write_corpus(tmp_path / "manual", MANUAL), ["--data-dir", str(tmp_path / "d")]
    topic = "heron HTTP/2 Protocols"
    thread = default_thread_id(topic, AS_OF)
    _run_unfinished(monkeypatch, ["research", topic, "--as-of", AS_OF, "--corpus", str(root),
                                  *data])
    capsys.readouterr()
    monkeypatch.setenv("RESEARCH_CORPUS_LANGUAGE", "fr")
    assert main(["resume", thread, *data]) == 2
    err = capsys.readouterr().err
    assert "files added" not in err, err
    assert (f"error: thread '{thread}' is unfinished and its corpus folder {root.resolve()} was "
            "indexed in the default corpus language (English, else the one with the most "
            "pages), this command asks corpus language fr (default -> fr; other translations "
            "would be indexed); continue it without --corpus-language or "
            "RESEARCH_CORPUS_LANGUAGE, or run its topic again in fr") in err, err
    advised = shlex.split(err[err.index(APP):].strip())[len(APP.split()):]
    assert advised[advised.index("--corpus-language") + 1] == "fr", advised
    assert main(advised) == 0
    out = capsys.readouterr().out
    assert (f"thread {thread} was unfinished and its corpus folder {root.resolve()} was indexed "
            "in the default corpus language") in out, out
    assert "(default -> fr): running it again from its start in fr (" in out, out
    assert "files added" not in out
    monkeypatch.delenv("RESEARCH_CORPUS_LANGUAGE")
    assert main(["research", topic, "--as-of", AS_OF, "--corpus", str(root), *data]) == 0
    out = capsys.readouterr().out  # finished: a rerun in English, in place, not refused
    assert "finished earlier: running it again" in out and "from its start" not in out, out
