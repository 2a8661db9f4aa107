"""The passage that answers the question by its kind is retrieved and leads (trial 114, F1):
Postfix's "What is backscatter mail?" section ("... This is called backscatter mail.") and
"Address masquerading is a method to hide hosts ..." ranked below their pages' other passages,
which repeat the words more, and were cut by the two passages a document gives; Click's "By
default, a group ... is not invoked unless a subcommand is passed" opened its section and lost
to the section's example."""

from __future__ import annotations

from pathlib import Path

from tests.workers.sources.conftest import write
from workers.sources import Corpus


def _page(title: str, sections: list[tuple[str, list[str]]]) -> str:
    body = "".join(f"<h2>{heading}</h2>" + "".join(f"<p>{p}</p>" for p in paras)
                   for heading, paras in sections)
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"


INTRO = ("Introduction", ["This document describes the features below, which require version "
                          "2.0 or later; the examples use regular expression tables."])
OTHER = _page("Queue Howto", [("Queue", [
    "The queue manager moves each message from the incoming queue to the active queue, and "
    "the delivery agents report back; deferred mail waits in the deferred queue."])])


def _folder(tmp_path: Path, name: str, page: str) -> Path:
    root = tmp_path / "docs"
    write(root, name, page)
    write(root, "QUEUE_README.html", OTHER)
    return root


def _blocking(n: int) -> tuple[str, list[str]]:
    return (f"Blocking frobscatter mail with forged header {n}", [
        f"Frobscatter mail with forged header {n} is frobscatter mail all the same: block the "
        f"frobscatter mail by header {n}, since frobscatter mail repeats header {n} in every "
        "frobscatter mail message, and frobscatter mail keeps coming."])


FROBSCATTER = _page("Frobscatter Howto", [
    ("Overview", ["This document describes features that require version 2.0 or later."]),
    ("What is frobscatter mail?", [
        "When a spammer sends messages with forged sender addresses, innocent sites are "
        "flooded with undeliverable notifications. This is called frobscatter mail. You know "
        "you are a victim when your log file goes on and on."]),
    ("How do I block frobscatter mail to real recipient addresses?", [
        "When frobscatter mail passes the unknown recipient barrier, there still is no need "
        "to despair: frobscatter mail to real recipients can be blocked too."]),
    *(_blocking(n) for n in range(4))])


def test_the_section_whose_heading_asks_the_question_is_retrieved_first(tmp_path: Path) -> None:
    root = _folder(tmp_path, "FROBSCATTER_README.html", FROBSCATTER)
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        question = "What is frobscatter mail?"
        found = corpus.search(question, k=5, focus=question)
        assert "This is called frobscatter mail." in found[0].text, [p.ref for p in found]


FILLER = ("The gateway rewrites the address of each message it relays, and the hosts "
          "behind it keep their own names in the logs; ")

MASKING = _page("Address Rewriting", [
    INTRO,
    ("Address masking", [
        "Address masking is a method to hide hosts inside a domain behind their mail gateway, "
        "and to make it appear as if the mail comes from the gateway itself. " + FILLER * 4,
        "Address masking is disabled by default. To enable address masking, edit the "
        "masking_domains parameter: address masking then strips the host part of an "
        "address, so address masking of any.host.example.com gives example.com. "
        + FILLER * 2,
        "Address masking of sub domains: address masking does not change foo.example.com "
        "when address masking exceptions name it, and address masking keeps addresses "
        "unchanged otherwise. " + FILLER * 2])])


def test_the_section_opening_that_defines_the_thing_asked_leads(tmp_path: Path) -> None:
    root = _folder(tmp_path, "ADDRESS_REWRITING_README.html", MASKING)
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        question = "What is address masking?"
        found = corpus.search(question, k=5, focus=question)
        assert found[0].text.startswith("Address masking\n\nAddress masking is a method"), [
            (p.ref, p.text[:40]) for p in found]


def test_a_section_opening_ranks_before_its_later_passages() -> None:
    # Click's "Group Invocation Without Command": its opening scored 5.87, its example 6.02,
    # and "Passing Parameters" (7.24) took the page's other place
    from workers.sources.query import search_query
    from workers.sources.ranking import ranked

    heading = "Group Invocation Without Command"
    opening = (f"{heading}\n\nBy default, a group or multi command is not invoked unless a "
               "subcommand is passed. This behavior can be changed by passing "
               "invoke_without_command=True to a group.")
    example = ("And how it works in practice:\n\n```\n$ tool\nI was invoked without "
               "subcommand\n$ tool sync\nThe subcommand\n```")
    params = ("Passing Parameters\n\nClick strictly separates parameters between commands and "
              "subcommands: a group's options come before a subcommand's name.")
    rows = [(f"commands.html#{seq}", "commands.html", "Commands", "commands.html", text,
             -bm25, -bm25, "Commands", "", head, 0.0)
            for seq, text, bm25, head in ((3, params, 14.0, "Passing Parameters"),
                                          (10, example, 12.5, heading),
                                          (9, opening, 12.2, heading))]
    query = search_query("Why is my group function not run when I call my program without a "
                         "subcommand?")
    order = [row[0] for _score, row in ranked(query, rows)]
    assert order.index("commands.html#9") < order.index("commands.html#10"), order


def test_a_naming_remark_on_another_page_does_not_outrank_the_terms_own_page(
        tmp_path: Path) -> None:
    # hooks.md's "The script run before pruning is called snapshot." led "What is a snapshot?"
    # over snapshots.md, the page about snapshots (trial 119, F5)
    root = tmp_path / "docs"
    write(root, "snapshots.md", "# Snapshots\n\nSnapshots record the state of every file in a "
          "folder at one moment, so that a folder can be put back as it was. quill takes one "
          "before each sync when `snapshot = yes` is set, and keeps the last ten.\n\nOld "
          "snapshots are removed by `quill prune`, which keeps the number set by "
          "`keep_snapshots`.\n")
    write(root, "hooks.md", "# Hooks\n\nquill runs a script before and after each sync when one "
          "is set. The script run before pruning is called snapshot. It gets the folder's path "
          "as its first argument and may stop the sync by exiting with a status other than 0."
          "\n\nHooks run with the permissions of the user running quill.\n")
    with Corpus.open(tmp_path / "data", folder=root) as corpus:
        found = corpus.search("What is a snapshot?", k=5, focus="What is a snapshot?")
        docs = [p.ref.split("#")[0] for p in found]
        # the remark no longer scores as a definition: the hook's page is not retrieved for it
        assert docs[:1] == ["snapshots.md"] and "hooks.md" not in docs, docs
