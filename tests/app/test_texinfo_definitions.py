"""A Texinfo definition ("Builtin: dnl", "Builtin: changequote ([start], [end])", the category
before the name) heads its entry: "What does X do?" opens with the entry's first sentence, and
the entry ranks above its page's other passages. GNU m4's manual answered "What does dnl do?"
with "The expansion of dnl is void." and "What does changequote do?" with "To achieve this, two
calls of changequote must be made ...", its definition not even retrieved (trial 101, F1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.report_rows import first_answer

_HEAD = ('<html><head><title>{title} (GNU M5 macro processor)</title>'
         '<meta name="Generator" content="makeinfo"></head><body>')


def _page(title: str, section: str, name: str, args: str, definition: str, more: str) -> str:
    form = f'<strong>{name}</strong>' + (f' <em>{args}</em>' if args else "")
    return (_HEAD.format(title=title) + f'<h3 class="section">{section}</h3>'
            f'<p>The builtin <code>{name}</code> is one of the quoting macros:</p>'
            f'<dl class="def"><dt id="index-{name}"><span class="category">Builtin: </span>'
            f'<span>{form}</span></dt><dd><p>{definition}</p>'
            f'<p>The expansion of <code>{name}</code> is void.</p></dd></dl>'
            + "".join(f"<p>{more.format(name=name)}</p>" for _ in range(3))
            + "</body></html>")


FILES = {
    "Dnl.html": _page("Dnl", "8.1 Deleting whitespace in input", "dnl", "",
                      "All characters, up to and including the next newline, are discarded "
                      "without performing any macro expansion.",
                      "It is often used with define: {name} after define removes the newline "
                      "that follows, and {name} is common in every m5 file."),
    "Changequote.html": _page(
        "Changequote", "8.2 Changing the quote characters", "changequote",
        "([start = ‘`’], [end = ‘'’])",
        "This sets start as the new begin-quote delimiter and end as the new end-quote "
        "delimiter.",
        "To achieve this, two calls of {name} must be made, one for the temporary quotes and "
        "one for the new quotes; {name} with no arguments restores the default {name} quotes."),
}


@pytest.mark.parametrize(("question", "definition"), [
    ("What does dnl do?", "All characters, up to and including the next newline, are discarded"),
    ("What does changequote do?", "This sets start as the new begin-quote delimiter"),
])
def test_a_texinfo_definition_answers_what_its_builtin_does(tmp_path: Path, question: str,
                                                            definition: str) -> None:
    report, first = first_answer(tmp_path, FILES, question)
    assert definition in first, report


@pytest.mark.parametrize("question", ["What does ctr_crypt do?", "Explain ctr_crypt."])
def test_a_c_functions_definition_answers_before_a_macro_spelled_otherwise(
        tmp_path: Path, question: str) -> None:
    # Nettle: "Function: void ctr_crypt (...)" lost to "Macro: CTR_CRYPT (...)": the type
    # before the name was no definition's form, and the name matched whatever its case
    # (trial 105, F1, F2); a full stop after the name is none of it (trial 108, F7)
    entry = ('<dl class="def"><dt id="index-{0}"><span class="category">{1}: </span>'
             '<span>{2}<strong>{0}</strong> <em>({3})</em></span></dt><dd><p>{4}</p></dd></dl>')
    page = (
        _HEAD.format(title="CTR") + '<h3 class="section">7.3.2 Counter mode</h3>'
        + entry.format("CTR_CRYPT", "Macro", "", "ctx, f, length, dst, src",
                       "A simpler way to invoke ctr_crypt.")
        + entry.format("ctr_crypt", "Function", "<em>void</em> ", "const void *ctx, "
                       "nettle_cipher_func *f, size_t length", "Applies the encryption "
                       "function f in CTR mode.") + "</body></html>")
    report, first = first_answer(tmp_path, {"nettle.html": page}, question)
    assert "Applies the encryption function f in CTR mode." in first, report


def test_a_guides_titled_section_is_no_definition(tmp_path: Path) -> None:
    # "## Case study: compression" was read as a Texinfo definition of compression, and its
    # story led the Answer: "`compression`: A photographer who synced a folder of RAW images
    # ... saw the nightly run take longer, not shorter." (trial 113, F4)
    guide = ("# Quillsync guide\n\n## Compression\n\nCompression shrinks file data before "
             "quillsync sends it over the network, and the receiving side expands it again. "
             "Turn it on with the --compress option.\n\n## Bandwidth\n\nThe --bwlimit option "
             "caps the rate at which quillsync sends data.\n\n## Case study: compression\n\n"
             "A photographer who synced a folder of RAW images to a backup host every night "
             "turned it on and saw the nightly run take longer, not shorter. Her images were "
             "already compressed by the camera.\n")
    report, first = first_answer(tmp_path, {"guide.md": guide}, "What does compression do?")
    assert "photographer" not in first, report


def test_a_c_function_with_a_callback_parameter_answers_what_it_does(tmp_path: Path) -> None:
    # libffi's definition was no definition: the callback's parameters were read as its own,
    # and "What does ffi_prep_closure_loc do?" was answered "ffi_prep_closure_loc will return
    # FFI_OK if everything went ok ..." (trial 113, F5)
    page = (_HEAD.format(title="The Closure API (libffi)") + '<h4 class="subsection">'
            "3.3.2 The Closure API</h4><p>libffi also provides a way to write a generic "
            "function.</p><dl class=\"def\"><dt id=\"index-ffi_005fstatus-3\"><span "
            "class=\"category\">Function: </span><span><strong>ffi_status</strong> <em>"
            "ffi_prep_closure_loc (ffi_closure *<var>closure</var>, ffi_cif *<var>cif</var>, void"
            " (*<var>fun</var>) (ffi_cif *<var>cif</var>, void *<var>ret</var>, void **<var>args"
            "</var>, void *<var>user_data</var>), void *<var>user_data</var>, void *<var>codeloc"
            "</var>)</em></span></dt><dd><p>Prepare a closure function. The arguments to <code>"
            "ffi_prep_closure_loc</code> are:</p><dl compact=\"compact\"><dt><span><var>closure"
            "</var></span></dt><dd><p>The address of a <code>ffi_closure</code> object.</p></dd>"
            "</dl><p><code>ffi_prep_closure_loc</code> will return <code>FFI_OK</code> if "
            "everything went ok, and one of the other <code>ffi_status</code> values on error."
            "</p></dd></dl></body></html>")
    question = "What does ffi_prep_closure_loc do?"
    report, first = first_answer(tmp_path, {"The-Closure-API.html": page}, question)
    assert "Prepare a closure function." in first, report
