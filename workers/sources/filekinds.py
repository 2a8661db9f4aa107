"""What a file of a ``--corpus`` folder is read as, by its name: the type its extension says
(``.md``, ``.html``, ``.pdf``, matched case-insensitively), the one of the name inside a
``.gz`` (``x.html.gz`` is an HTML page, ``changelog.gz`` a file without a type), or none.

A name without a type (``README``, ``upstream``, ``README.Debian``, ``changelog.Debian.amd64``,
``spin.bash``, ``Bashrc.bfox``: a suffix of no type the app knows, :func:`type_suffix`) is read
as plain text when its content is text, and named with why when it is not
(:func:`workers.sources.fileread.not_text`: no text, binary...). Debian installs
documentation so: ``/usr/share/doc/PKG`` holds ``README``, ``changelog.gz``,
``NEWS.Debian.gz``, ``copyright`` and extension-less examples (Debian Policy 12.3 and 12.7;
nginx's was refused as "3 files of other types": ``tests/workers/sources/test_folder_debian.py``).

Also :func:`open_regular`, how every file of a folder is opened once it was listed (a file
swapped for a link to ``/dev/zero``, a FIFO or a 300 MB file after the listing was
read without a bound, or blocked the run), and :func:`head_bytes`, the start of a file as its
kind reads it (decompressed for a ``.gz``). Standard library and
:mod:`workers.sources.documents` (its file types).
"""

from __future__ import annotations

import errno
import gzip
import os
import re
import stat
import zlib
from pathlib import Path
from typing import BinaryIO

from workers.sources.documents import DOCUMENT_EXTENSIONS
from workers.sources.languages import suffix_language

__all__ = [
    "DOCUMENT_EXTENSIONS",
    "FOLDER_EXTENSIONS",
    "GZIP_SUFFIX",
    "HTML_EXTENSIONS",
    "MARKDOWN_EXTENSIONS",
    "TEXT_EXTENSIONS",
    "NotRegular",
    "file_kind",
    "head_bytes",
    "inner_name",
    "open_regular",
    "type_label",
    "type_suffix",
    "unknown_suffix",
]

TEXT_EXTENSIONS: tuple[str, ...] = (".md", ".markdown", ".txt", ".rst", ".py", ".html", ".htm",
                                    ".conf", ".cfg", ".ini")
"""Text file types indexed in folder mode (matched case-insensitively). A configuration file
(``.conf``, ``.cfg``, ``.ini``) is read as plain text: the examples a package documents itself
with (``/usr/share/doc/nginx/examples/nginx.conf``: not indexed, a question about it got another
file's lines), whose comments say what each setting does."""

HTML_EXTENSIONS = (".html", ".htm")
MARKDOWN_EXTENSIONS = (".md", ".markdown")

FOLDER_EXTENSIONS: tuple[str, ...] = (*TEXT_EXTENSIONS, *DOCUMENT_EXTENSIONS)
"""Every file type indexed in folder mode (matched case-insensitively); a file without a type
(:func:`type_suffix`) is indexed too when its content is text, and each of them gzip-compressed."""

GZIP_SUFFIX = ".gz"

_TYPE_SUFFIX = re.compile(r"[a-z]+[0-9]?|[A-Z]+[0-9]?")
"""A suffix that may name a file type the app does not know: letters of one case, perhaps then
a digit (``vsd``, ``bfox``); what such a file is, its content says (:func:`unknown_suffix`)."""

_DOC_NAME = re.compile(r"[A-Z][A-Z0-9_-]+")
"""A document's name in capitals (``README``, ``NEWS``, ``TODO``, ``README_FIRST``): a suffix
after it qualifies the document, as Debian's ``README.Debian`` does (``README.source``: Debian
Policy 4.14, ``README.emacs``, ``NEWS.old``); as types, git's ``README.source`` and
``README.emacs`` were counted among the types not indexed, unnamed (trial 36, F6)."""

_OTHER_TYPES = frozenset("""
    png jpg jpeg gif svg svgz ico bmp tif tiff webp xpm xbm eps ps dvi mp3 mp4 ogg wav avi mov
    odt odg ods odp doc xls ppt rtf docm xlsx pptx
    zip tar tgz bz2 xz zst lz lzma 7z jar war deb rpm bin exe dll so o a lib class pyc db sqlite
    wasm img iso ttf otf woff woff2 eot afm pfb
    dat json xml csv tsv yaml yml toml log map inv
    css scss sass less js mjs ts c h cc cpp cxx hpp java go rs pl pm perl rb awk sed el lua tcl
    php bat cmd ps1 sql hs ml scm lisp
    asy tex sty cls bib bbl aux texi dtd xsd xsl xslt ent sgml dot gv puml pikchr mmd fig
    pdb obj stl patch diff m4 mk in am ac cmake netrc pem crt key gpg asc sig
""".split())
"""The types of file never read as text, whatever their content: images, archives, binaries,
data, and the source of programs, stylesheets and figures (code read as prose would crowd a
folder's documentation: an Asymptote example's ``.asy``), and credentials (``test.netrc``). Any
other suffix names no type the app knows, and the file's content decides, as for ``README``:
text is read as text (:func:`type_suffix`). A shell script (``.sh``, ``.bash``) is read so,
as its comments (:func:`workers.sources.comments.script_comments`): ``shellmath.sh``, the
library its README describes, was passed over beside the extension-less scripts indexed
(``functions/isvalidip``), and so were ``Bashrc.bfox``, ``inputrc.arrows`` and
``autoload.v2`` (trial 125, F8)."""

_DOC_SUFFIXES = frozenset("readme news todo install changes changelog authors thanks bugs "
                          "hacking notes faq".split())
"""A document's name as a suffix (Nettle's ``descore.README``: the README of its DES code,
passed over as of a type ".readme", trial 105, F12): no type."""


def _known_type(suffix: str) -> bool:
    """Whether ``suffix`` (lower case, no dot) is one of :data:`_OTHER_TYPES`, perhaps followed
    by a number (``pdb1``, a Protein Data Bank file's first model)."""
    return suffix in _OTHER_TYPES or suffix.rstrip("0123456789") in _OTHER_TYPES


def inner_name(name: str) -> str:
    """``name`` without its ``.gz`` suffix: the name of the file compressed in it.

    Example:
        >>> inner_name("changelog.Debian.gz"), inner_name("x.HTML.GZ"), inner_name("a.md")
        ('changelog.Debian', 'x.HTML', 'a.md')
    """
    if name.lower().endswith(GZIP_SUFFIX) and len(name) > len(GZIP_SUFFIX):
        return name[: -len(GZIP_SUFFIX)]
    return name


def type_suffix(name: str) -> str:
    """The file-type extension of ``name``, lower-cased (``".md"``), or ``""`` when it has
    none: no dot after its first character, or a suffix that names no type the app knows
    (:data:`_OTHER_TYPES`): the file's content decides what it is.

    Example:
        >>> [type_suffix(n) for n in ("a.MD", "README", "README.Debian", "NEWS.1", "x.png")]
        ['.md', '', '', '', '.png']
        >>> [type_suffix(n) for n in ("README.source", "README.png", "test.netrc", "x.pdb1")]
        ['', '.png', '.netrc', '.pdb1']
        >>> [type_suffix(n) for n in ("shellmath.sh", "Bashrc.bfox", "autoload.v2", "x.JPG")]
        ['', '', '', '.jpg']
    """
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem.strip("."):
        return ""
    if f".{suffix.lower()}" in FOLDER_EXTENSIONS or _known_type(suffix.lower()):
        return f".{suffix.lower()}"
    return ""


def unknown_suffix(name: str) -> bool:
    """Whether ``name`` ends in a suffix that may name a type the app does not know (``.vsd``,
    ``.bfox``): a binary file of one is counted among the types not indexed, as it was before
    its content decided (a binary ``README.saving`` or ``NEWS.1`` is named as binary). Not one:
    a suffix after a document's name in capitals (:data:`_DOC_NAME`), a document's name as a
    suffix (:data:`_DOC_SUFFIXES`), a version's number.

    Example:
        >>> [unknown_suffix(n) for n in ("x.bfox", "README.saving", "NEWS.1", "a.README", "b")]
        [True, False, False, False, False]
    """
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem.strip(".") or type_suffix(name):
        return False
    if _DOC_NAME.fullmatch(stem) or suffix.lower() in _DOC_SUFFIXES:
        return False
    return bool(_TYPE_SUFFIX.fullmatch(suffix))


def file_kind(name: str) -> str | None:
    """How the file ``name`` is read: its type extension when indexed (``".html"`` for
    ``x.html`` and ``x.html.gz``), ``""`` for a name without a type (text when its content is),
    None for a type not indexed (``x.png``, ``x.tar.gz``). A page named by its language after
    its type, as content negotiation serves it (``index.html.fr``, ``index.html.ko.euc-kr``:
    :func:`workers.sources.languages.suffix_language`), is read as that type.

    Example:
        >>> [file_kind(n) for n in ("a.html.en", "a.html.ko.euc-kr", "a.md.gz", "a.png.de")]
        ['.html', '.html', '.md', None]
        >>> [file_kind(n) for n in ("spin.bash", "cat.sh.gz", "inputrc.arrows", "x.json")]
        ['', '', '', None]
    """
    kind = type_suffix(inner_name(name))
    if kind not in FOLDER_EXTENSIONS and (tagged := suffix_language(name)) is not None:
        inner = type_suffix(tagged[0])
        kind = inner or kind  # a.png.de: a .png; README.de: its content decides
    return kind if kind == "" or kind in FOLDER_EXTENSIONS else None


def type_label(name: str) -> str:
    """How the notes count a file passed over by its type: ``".png"``, ``".tar.gz"``,
    ``"(no extension)"`` (a binary ``README``)."""
    inner = inner_name(name)
    ext = type_suffix(inner) or (
        f".{inner.rpartition('.')[2].lower()}" if "." in inner.lstrip(".") else "")
    return (ext + ("" if inner == name else GZIP_SUFFIX)) or "(no extension)"


class NotRegular(OSError):
    """The file is no regular file (now): a FIFO, a device, a folder."""


def open_regular(path: Path) -> BinaryIO:
    """``path`` open for reading in binary, checked on the open handle (``fstat``) to be a
    regular file: what the listing checked may have been swapped since (``ln -sfn /dev/zero``
    reads without end, a FIFO waits for a writer). Opened with ``O_NONBLOCK``, so a FIFO does
    not block the ``open`` itself (``open(2)``); a regular file reads as ever. The caller bounds
    what it reads (the size the handle's ``fstat`` gives, or a limit: a file may grow).

    Raises:
        NotRegular: it is no regular file.
        OSError: it cannot be opened.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file", str(path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def head_bytes(path: Path, size: int) -> bytes | None:
    """The first ``size`` bytes of ``path`` (decompressed for a ``.gz``), or None when it
    cannot be read or is no regular file (the build names it)."""
    try:
        with open_regular(path) as fh:
            if not path.name.lower().endswith(GZIP_SUFFIX):
                return fh.read(size)
            if os.fstat(fh.fileno()).st_size == 0:  # no gzip file: Python's gzip reads b""
                return None
            with gzip.GzipFile(fileobj=fh, mode="rb") as packed:
                return packed.read(size)
    except (OSError, EOFError, zlib.error):
        return None
