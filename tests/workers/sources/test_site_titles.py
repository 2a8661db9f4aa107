"""The site's name a folder's page titles share is no part of any page's title (trials 81, 85:
"API — Jinja Documentation (3.1.x): Some decorators are available ..." labelled a finding)."""

from __future__ import annotations

from pathlib import Path

from workers.sources import Corpus

SUFFIX = " — Frob Documentation (3.1.x)"


def _page(title: str, text: str) -> str:
    return f"<html><head><title>{title}</title></head><body><p>{text}</p></body></html>"


def _titles(tmp_path: Path, pages: dict[str, tuple[str, str]]) -> dict[str, str]:
    folder = tmp_path / "site"
    folder.mkdir()
    for name, (title, text) in pages.items():
        (folder / name).write_text(_page(title, text), encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        return {h.doc_id: h.title for h in corpus.search("frobnication widgets", k=10)}


def test_the_sites_name_is_dropped_from_each_pages_title(tmp_path: Path) -> None:
    titles = _titles(tmp_path, {
        "api.html": ("API" + SUFFIX, "The API of frobnication widgets."),
        "faq.html": ("FAQ" + SUFFIX, "Questions on frobnication widgets."),
        "tricks.html": ("Tips - Tricks" + SUFFIX, "Tricks for frobnication widgets."),
        "index.html": (SUFFIX.removeprefix(" — "), "Welcome to frobnication widgets."),
    })
    assert titles == {"api.html": "API", "faq.html": "FAQ", "tricks.html": "Tips - Tricks",
                      "index.html": "Frob Documentation (3.1.x)"}


def test_titles_sharing_no_name_are_kept(tmp_path: Path) -> None:
    titles = _titles(tmp_path, {
        "a.html": ("Setup — Widgets", "Setting up frobnication widgets."),
        "b.html": ("Usage — Gadgets", "Using frobnication widgets."),
        "c.html": ("Limits", "Limits of frobnication widgets."),
    })
    assert titles == {"a.html": "Setup — Widgets", "b.html": "Usage — Gadgets",
                      "c.html": "Limits"}


def test_files_titled_by_their_name_do_not_outvote_the_sites_pages(tmp_path: Path) -> None:
    """Trial 127, F2: python-pexpect-doc's 12 Sphinx pages beside 17 example scripts, titled by
    their file names, kept "— Pexpect 4.8 documentation" in every page's title."""
    folder = tmp_path / "site"
    (folder / "examples").mkdir(parents=True)
    for name in ("api", "faq", "tricks"):
        (folder / f"{name}.html").write_text(
            _page(name.upper() + SUFFIX, f"The {name} of frobnication widgets."), encoding="utf-8")
    for n in range(5):
        (folder / "examples" / f"demo{n}.py").write_text(
            f"import frob\nfrob.widgets({n})  # frobnication widgets\n", encoding="utf-8")
    with Corpus.open(tmp_path / "data", folder=folder) as corpus:
        titles = {h.doc_id: h.title for h in corpus.search("frobnication widgets", k=20)}
    assert {titles[f"{n}.html"] for n in ("api", "faq", "tricks")} == {"API", "FAQ", "TRICKS"}
    assert titles["examples/demo0.py"] == "demo0.py"
