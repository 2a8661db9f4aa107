"""A long PDF beside the folder's pages is read first as a sample of its pages: a copy of the
pages (:mod:`workers.sources.format_copies`) is told from the sample and read no further.

The Debian Reference's PDF (261 pages) took about 27 s of pypdf to read, most of the folder's
build, only to be skipped as a copy of its 15 HTML chapters (trial 124, FA1). A PDF of more
than :data:`LONG_PDF_PAGES` pages, in a folder that holds other pages (HTML, Markdown, reST,
.docx), is read as :data:`SAMPLE_PAGES` pages spread over it (:func:`sample_pages`; its running
lines left out as the whole file's are); the copy rule judges the sample
(:func:`~workers.sources.format_copies.copy_by_sample`, by a higher share than a whole PDF's),
and only when the sample is no clear copy is the file read whole (and judged again as any PDF,
so a PDF of its own is indexed as before). Of a copy told by its sample, pages of its own (an
appendix) are not looked for: they are found only in a PDF read whole (a short one, or one whose
sample is no clear copy). A PDF that is encrypted or cannot be read is read whole, and named as
before.

This module imports the standard library and the sources' own helpers; pypdf when it reads.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from workers.sources.base import RawDoc
from workers.sources.documents import page_doc_id, page_texts, quiet_pypdf
from workers.sources.format_copies import copy_by_sample
from workers.sources.running_lines import running_lines, without_running_lines

__all__ = ["LONG_PDF_PAGES", "SAMPLE_PAGES", "Sampled", "judged_samples", "pdf_sample",
           "sample_pages"]

LONG_PDF_PAGES = 48
"""A PDF of more pages than this is sampled first (a shorter one reads in a few seconds)."""

SAMPLE_PAGES = 12
"""The pages read as a long PDF's sample: 5% of the Debian Reference's 261 (a sample of 12
spread pages held 87% of the text the whole PDF's pages hold 87% of; of Asymptote's manual,
97% to 95%)."""


def sample_pages(count: int) -> list[int]:
    """The pages (from 0) of a PDF of ``count`` pages read as its sample: none when it is not
    long (:data:`LONG_PDF_PAGES`); else :data:`SAMPLE_PAGES`, the middle one of each twelfth
    of the file (the front matter is one of many).

    Example:
        >>> sample_pages(48), sample_pages(120)[:4], sample_pages(261)[-1]
        ([], [5, 15, 25, 35], 250)
    """
    if count <= LONG_PDF_PAGES:
        return []
    return [int((at + 0.5) * count / SAMPLE_PAGES) for at in range(SAMPLE_PAGES)]


def pdf_sample(data: bytes, rel: str) -> tuple[list[RawDoc], int] | None:
    """The sampled pages of the PDF of bytes ``data`` (at ``rel``), each a document as the
    whole file's page is (``"a.pdf:p23"``), its running lines left out, and how many pages the
    file has; None when it is not long, is encrypted or cannot be read (read whole, it is then
    named as such a file is)."""
    from pypdf import PdfReader

    quiet_pypdf()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted:
                return None
            count = len(reader.pages)
            chosen = sample_pages(count)
            pages = [reader.pages[at] for at in chosen]
    except Exception:  # noqa: BLE001 - PdfReadError, or anything a damaged file raises
        return None
    if not chosen:
        return None
    texts, _bad = page_texts(pages, reader)
    running = running_lines([text for text in texts if text is not None])
    name = rel.rsplit("/", 1)[-1]
    return [RawDoc(page_doc_id(rel, at + 1), name, f"{rel}, page {at + 1}", bare)
            for at, text in zip(chosen, texts, strict=True)
            if text and (bare := without_running_lines(text, running)).strip()], count


@dataclass(frozen=True)
class Sampled:
    """A long PDF read as a sample: its sampled pages' documents, how many pages it has, and
    how to read it whole (its documents, its notes and counts as any PDF's)."""

    sample: list[RawDoc]
    count: int
    whole: Callable[[], list[RawDoc]]


def judged_samples(read: list[list[RawDoc]], order: list[str], later: dict[str, Sampled],
                   notes: list[str], reading: Callable[[str], None]) -> Iterator[RawDoc]:
    """The documents of a folder's files (``read``, those of ``order[i]`` at ``read[i]``),
    in order, each sampled PDF of ``later`` (given none there) judged by its sample against
    the rest: a copy named in ``notes``, any other read whole; ``reading(rel)`` before each
    is judged (a whole read takes a while: the progress names the file), ``reading("")``
    once all are."""
    rels = set(order)
    others = [doc for docs in read for doc in docs]
    for at, rel in enumerate(order):
        if (sampled := later.get(rel)) is not None:
            reading(rel)
            note = copy_by_sample(rel, sampled.sample, sampled.count, others, rels)
            if note is not None:
                notes.append(note)
            else:
                read[at] = sampled.whole()
    reading("")
    for at, docs in enumerate(read):
        read[at] = []  # held once: the caller holds what is yielded
        yield from docs
