"""The report's ``## Caveats`` section: the limitations and warnings found
(:mod:`app.research.caveats` tells which claims are one), each once and not again when the
Answer quoted it, or a line saying why none is listed (issue 19)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from app.research.caveats import ASKS_CAUTION, cautionary, warnings_found, warns
from app.research.citations import Citations, items, once, said
from app.research.text import bullet, clip

__all__ = ["caveat_lines"]

_LINE = 400
"""The most characters of a caveat bullet (as the report's other bullets)."""

_NONE_FOUND = "No limitations or warnings were found in the passages retrieved."
"""What the section says when it lists none."""
_ANSWER_QUOTES = "The Answer above quotes the only limitations or warnings found."
"""What it says when the Answer quoted every one found: it points up, saying what is there
(once "_None beyond what the Answer above says._", read as a placeholder line, trial 102, F9;
then "No other limitations or warnings were found", which read as a list above it that the
section did not have, trial 114, F12; trial 115, F10)."""


def caveat_lines(rows: Sequence[dict[str, Any]], cites: Citations, failed: str, wanted: str,
                 warned: bool, cautions: set[str],
                 answered: Collection[tuple[str, str]] = (),
                 own: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None,
                 ) -> list[str]:
    """The Caveats section: the limitations and warnings found (a sentence without a word of
    caution is a finding; a finding that is a warning, :data:`~app.research.caveats.WARNING`, is
    one), each once, also when a section above quoted it as a finding, but not when the Answer
    quoted it (``answered``: its claim keys; then the section points up to it,
    :data:`_ANSWER_QUOTES`, as it does for a warning the Answer quoted from a passage);
    off-topic, it says no caveat mentions what was asked: the section says "none were found"
    only when no caveat came back and the Answer quoted no warning (``failed``: the workers that
    ended in error, when any did). ``own`` keeps the caveats of the entry asked
    (:func:`app.research.own.entry_own`): a neighbouring setting's limitation is not the one
    asked about (HAProxy's tune.h2.max-frame-size "allow to limit the maximum frame size" was
    the Caveat of tune.bufsize, trial 79, F8)."""
    found = [*items(rows, None, "caveat"), *warnings_found(rows)]
    found = own(found) if own else found
    caveats = cautionary(found, cautions, cites.numbers)
    unsaid = [c for c in caveats if not said(c, answered)]  # a copy of it too
    # a warning the Answer quoted from a passage (no finding of the rows) is one found too
    quoted = any(warns(text) for text, _ref in answered)
    lines = ["## Caveats", ""]
    if warned:  # found or not, as every off-topic report words it (trial 114, F12)
        lines.append(f"- No caveat retrieved mentions {wanted}; none is listed.")
    elif (caveats or quoted) and not unsaid:
        lines.append(f"- {_ANSWER_QUOTES}")
    elif caveats:
        lines += [bullet(c['text'], f"[{cites.cite(c)}]", _LINE) for c in unsaid]
    elif failed and not found:
        lines.append(f"- Unavailable (worker failed: {failed}): no caveats came back; "
                     "see Failures.")
    else:
        lines += _headed_lines(rows, cites, answered)
    return [*lines, ""]


def _headed_lines(rows: Sequence[dict[str, Any]], cites: Citations,
                  answered: Collection[tuple[str, str]]) -> list[str]:
    """The Caveats' lines when no caveat was found: the findings quoted from a cited passage whose
    heading names limitations (:data:`~app.research.caveats.ASKS_CAUTION`), or a line pointing
    to such a passage; :data:`_NONE_FOUND` only when no cited passage's heading names one.
    BIND's "What are the limitations of DNS RPZ?" said "No limitations or warnings were found"
    while its Findings quoted section "6.9.4. Limitations of DNS RPZ" (trial 118, F4)."""
    limits = {ref: heading for ref, heading in cites.headings.items()
              if ASKS_CAUTION.search(heading)}
    if not limits:
        return [f"- {_NONE_FOUND}"]
    headed = once([f for f in items(rows, None, "finding") if f.get("ref") in limits],
                  cited=cites.numbers)
    if headed:
        unsaid = [f for f in headed if not said(f, answered)]
        return ([bullet(f['text'], f"[{cites.cite(f)}]", _LINE) for f in unsaid]
                or [f"- {_ANSWER_QUOTES}"])
    ref, heading = next(iter(limits.items()))
    number = cites.numbers[cites.passages[ref].document_key]
    return [f"- The documents' limitations are in the passage cited under "
            f"\u201c{clip(heading, 70)}\u201d [{number}] above."]
