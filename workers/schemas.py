"""Structured outputs of the agent workers (their ``create_agent`` ``response_format``).

Every claim carries the ``ref`` of the corpus passage it comes from, exactly as the search tool
returned it, so the report can cite it and a test can resolve every citation to real text. The
field descriptions are what the model reads: they say what belongs in each list.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["Caveat", "Caveats", "Finding", "Findings"]


class Finding(BaseModel):
    """One sourced claim that answers the sub-question."""

    claim: str = Field(
        description="One sentence that answers the question, taken from a retrieved passage."
    )
    ref: str = Field(
        description="The ref of the passage the claim comes from, exactly as the tool gave it."
    )


class Findings(BaseModel):
    """The analyst's answer: the key facts, each with its source."""

    findings: list[Finding] = Field(
        description="Two to five facts that answer the question: what it is, how it works, "
        "how it is used. Each is a sourced claim."
    )


class Caveat(BaseModel):
    """One sourced limitation, pitfall or deprecation."""

    claim: str = Field(
        description="One sentence stating a limitation, caveat, warning, deprecation, "
        "requirement or pitfall, taken from a retrieved passage."
    )
    ref: str = Field(
        description="The ref of the passage the claim comes from, exactly as the tool gave it."
    )


class Caveats(BaseModel):
    """The critic's answer: what a user must watch out for, each with its source."""

    # No minimum: passages that state no caveat give an empty list, never a filler sentence.
    # Every word here steers the offline model (it favours sentences sharing them), so the
    # description avoids everyday words such as "not" or "none" ("..., or `None` if not found."
    # is no caveat).
    caveats: list[Caveat] = Field(
        min_length=0,
        max_length=4,
        description="Up to four caveats: limitations, warnings, deprecated, experimental, "
        "unstable or unsupported usage, what must never be done, what is required and what is "
        "never guaranteed. Each is a sourced claim.",
    )
