"""A Top passage is shown by a sentence of it, never by the label it is shown under again:
Werkzeug's ``RequestTimeout`` passage opens with its signature, its heading too, and the
report showed "exception werkzeug.exceptions.RequestTimeout(description=None, response=None):
exception werkzeug.exceptions.RequestTimeout(description=None, response=None)" (trial 75, F7)."""

from __future__ import annotations

from app.research.citations import excerpt
from app.research.reference import entry_label, unlabelled

SIGNATURE = "exception werkzeug.exceptions.RequestTimeout(description=None, response=None)"
PASSAGE = {"title": "HTTP Exceptions — Werkzeug Documentation", "heading": SIGNATURE,
           "text": f"{SIGNATURE}\n\n408 Request Timeout\n\nRaise to signalize a timeout.\n\n"
                   "Parameters: description (Optional[str]) –\n\nresponse (Optional[Response]) –"}


def test_the_excerpt_is_not_the_label_again() -> None:
    label = entry_label(PASSAGE)
    assert label == SIGNATURE
    shown = excerpt(unlabelled(PASSAGE), about=["timeout", "requests"])
    assert shown == "Raise to signalize a timeout.", shown


def test_a_passage_that_is_its_label_alone_is_shown_as_it_is() -> None:
    alone = {**PASSAGE, "text": SIGNATURE}
    assert unlabelled(alone) == SIGNATURE
