"""Build the labeled question set of the research eval from the default corpus itself.

Run it (it rewrites ``tests/quality/eval_set.json``)::

    uv run python scripts/make_eval_set.py

The procedure (fixed seed, no hand-picking; ``scripts/eval_research.py`` runs the result):

1. Open the default corpus (the installed packages' docstrings and Python's pydoc topics) in a
   temporary data dir and read its documents and their first passages.
2. **API questions** (areas ``langgraph``, ``langchain`` = ``langchain`` + ``langchain_core``,
   ``pydantic``): a candidate is a documented public symbol whose last name (``RetryPolicy`` of
   ``langgraph.types.RetryPolicy``) is at least 6 characters long and no other document of the
   corpus shares (so the gold answer is unambiguous) and that reads as a symbol rather than a
   word (CamelCase or snake_case: ``default`` is left out), and whose docstring opens with a plain
   prose sentence of 4 to 14 words that no other candidate opens with.
3. **Python questions** (area ``python``): a candidate is a pydoc topic whose heading (its first
   line, e.g. ``The "for" statement``) no other topic shares and whose text has a prose sentence
   of at least 4 words (the first one is its summary; grammar rules are skipped).
4. From each area's candidates, sorted by id, ``random.Random(SEED)`` samples ``PER_AREA``. They
   alternate between two forms of question, each a research topic as a user would type it:

   * ``name``: how a user names the thing: the symbol's last name (``RetryPolicy``), or a pydoc
     topic's heading (``The "for" statement``);
   * ``summary``: how a user describes what they want without the name: the first sentence of
     the docstring (or of the pydoc topic's first paragraph), cut to ``SUMMARY_WORDS`` words,
     code marks removed.

   The gold source is the sampled document (``doc_id``, e.g. ``langgraph.types.RetryPolicy`` or
   ``pydoc:for``).
5. **Off-topic questions** (area ``none``, gold ``null``): the phrases of ``OFF_TOPIC`` (fixed
   here, written before any measurement) that share no word with the corpus at all (the
   corpus's own search returns nothing for them), in order, up to ``OFF_TOPIC_COUNT``. The
   report must say its sources say nothing about them (the ``no_relevant_sources`` warning).

The set depends on the installed package versions (pinned by ``uv.lock``) and the Python version
(pydoc topics); the file records the corpus description it was built from, and
``tests/quality/test_eval_set.py`` checks that regenerating it on that corpus gives the same file.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SET_PATH = ROOT / "tests" / "quality" / "eval_set.json"
SEED = 13
PER_AREA = 12
SUMMARY_WORDS = 14
MIN_NAME_CHARS = 6
OFF_TOPIC_COUNT = 8

AREAS: dict[str, tuple[str, ...]] = {
    "langgraph": ("langgraph",),
    "langchain": ("langchain", "langchain_core"),
    "pydantic": ("pydantic",),
}
"""API areas and the top-level packages whose docstrings they draw from."""

OFF_TOPIC: tuple[str, ...] = (
    "zebra marmalade",
    "sourdough starter hydration",
    "byzantine mosaic restoration",
    "tarte tatin caramelization",
    "glacier moraine sediment",
    "violin bow rehairing",
    "kombucha scoby fermentation",
    "cricket wicketkeeping gloves",
    "recette de confiture de figues",
    "medieval falconry hoods",
    "tulip bulb vernalization",
    "sumo wrestling tournaments",
    "origami crane folding",
    "beekeeping varroa mites",
    "sherpa himalayan expeditions",
    "lighthouse fresnel lenses",
)
"""Everyday topics far from the corpus, in the order they are tried."""

_CODE = re.compile(r"[=(){}\[\]<>]|>>>|::|\bhttps?:")
_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.DOTALL)


def _first_sentence(text: str, *, skip_code: bool = False) -> str | None:
    """The first sentence of the first paragraph (skipping headings and rules), one line; with
    ``skip_code``, of the first paragraph whose first sentence is prose (pydoc topics open with
    grammar rules such as ``lambda_expr ::= ...``)."""
    for para in re.split(r"\n\s*\n", text):
        lines = [ln for ln in para.strip().splitlines() if not set(ln.strip()) <= set("*=-~#^")]
        flat = " ".join(" ".join(lines).split())
        if not flat:
            continue
        match = _SENTENCE.match(flat)
        sentence = match.group(1) if match else flat
        if skip_code and (_CODE.search(sentence) or not sentence[0].isalpha()):
            continue
        return sentence
    return None


def _plain(sentence: str) -> str:
    """A sentence as a topic: code marks removed, trailing punctuation dropped, at most
    ``SUMMARY_WORDS`` words."""
    words = sentence.replace("`", "").replace("*", "").split()[:SUMMARY_WORDS]
    return " ".join(words).rstrip(".!?:;,")


def _documents(index: Path) -> list[tuple[str, str]]:
    """``(doc_id, text of its first passage)`` of every document, sorted by doc_id."""
    con = sqlite3.connect(f"{index.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT doc_id, text FROM passages WHERE seq = 0 ORDER BY doc_id"
        ).fetchall()
    finally:
        con.close()
    return [(str(d), str(t)) for d, t in rows]


def api_candidates(docs: list[tuple[str, str]]) -> dict[str, list[dict[str, str]]]:
    """Step 2: the API candidates of each area, sorted by doc_id."""
    api = [(d, t) for d, t in docs if not d.startswith("pydoc:")]
    last_counts: dict[str, int] = {}
    for doc_id, _ in api:
        last = doc_id.rsplit(".", 1)[-1]
        last_counts[last] = last_counts.get(last, 0) + 1
    found: list[dict[str, str]] = []
    for doc_id, text in api:
        last = doc_id.rsplit(".", 1)[-1]
        if last.startswith("_") or len(last) < MIN_NAME_CHARS or last_counts[last] > 1:
            continue
        if last.islower() and "_" not in last:  # "default", "client": a word, not a symbol
            continue
        sentence = _first_sentence(text)
        if sentence is None or _CODE.search(sentence):
            continue
        if not 4 <= len(sentence.split()) <= 14 or not sentence[0].isalpha():
            continue
        found.append({"doc_id": doc_id, "name": last, "summary": _plain(sentence)})
    openings: dict[str, int] = {}
    for c in found:
        openings[c["summary"].lower()] = openings.get(c["summary"].lower(), 0) + 1
    out: dict[str, list[dict[str, str]]] = {area: [] for area in AREAS}
    for c in found:
        if openings[c["summary"].lower()] > 1:
            continue
        top = c["doc_id"].split(".", 1)[0]
        for area, packages in AREAS.items():
            if top in packages:
                out[area].append(c)
    return out


def python_candidates(docs: list[tuple[str, str]]) -> list[dict[str, str]]:
    """Step 3: pydoc topics with a heading of their own, sorted by doc_id."""
    topics = [(d, t) for d, t in docs if d.startswith("pydoc:")]
    headings = {d: t.strip().splitlines()[0].strip() for d, t in topics}
    counts: dict[str, int] = {}
    for h in headings.values():
        counts[h] = counts.get(h, 0) + 1
    out = []
    for doc_id, text in topics:
        heading = headings[doc_id]
        body = text.strip().split("\n", 1)[1] if "\n" in text.strip() else ""
        sentence = _first_sentence(body, skip_code=True)
        if counts[heading] > 1 or not sentence or len(sentence.split()) < 4:
            continue
        out.append({"doc_id": doc_id, "name": heading, "summary": _plain(sentence)})
    return out


def build_set(corpus: Any) -> dict[str, Any]:
    """The labeled set as a JSON-ready dict, from an open default :class:`Corpus`."""
    docs = _documents(Path(corpus.path))
    pools = api_candidates(docs)
    pools["python"] = python_candidates(docs)
    rng = random.Random(SEED)
    questions: list[dict[str, Any]] = []
    for area in (*AREAS, "python"):
        pool = pools[area]
        if len(pool) < PER_AREA:
            raise SystemExit(f"area {area}: only {len(pool)} candidates, need {PER_AREA}")
        for i, c in enumerate(rng.sample(pool, PER_AREA), 1):
            form = "name" if i % 2 else "summary"
            questions.append({"id": f"{area}-{i:02d}", "area": area, "form": form,
                              "topic": c[form], "gold": c["doc_id"]})
    off = [t for t in OFF_TOPIC if not corpus.search(t, k=1)][:OFF_TOPIC_COUNT]
    questions += [{"id": f"none-{i:02d}", "area": "none", "form": "off-topic", "topic": t,
                   "gold": None} for i, t in enumerate(off, 1)]
    return {
        "generated_by": "scripts/make_eval_set.py",
        "seed": SEED,
        "corpus": corpus.description,
        "questions": questions,
    }


def generate() -> dict[str, Any]:
    """Open the default corpus in a temporary data dir and build the set from it."""
    from workers.sources import Corpus

    with tempfile.TemporaryDirectory(prefix="eval-set-") as tmp, Corpus.open(Path(tmp)) as corpus:
        return build_set(corpus)


def dumps(data: dict[str, Any]) -> str:
    """The set as the file holds it: one question per line, easy to review in a diff."""
    head = {k: v for k, v in data.items() if k != "questions"}
    lines = json.dumps(head, indent=2, ensure_ascii=False)[:-2].rstrip()
    body = ",\n".join("    " + json.dumps(q, ensure_ascii=False) for q in data["questions"])
    return f'{lines},\n  "questions": [\n{body}\n  ]\n}}\n'


def main() -> int:
    data = generate()
    SET_PATH.parent.mkdir(parents=True, exist_ok=True)
    SET_PATH.write_text(dumps(data), encoding="utf-8")
    counts: dict[str, int] = {}
    for q in data["questions"]:
        counts[q["area"]] = counts.get(q["area"], 0) + 1
    print(f"wrote {SET_PATH.relative_to(ROOT)}: {len(data['questions'])} questions {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
