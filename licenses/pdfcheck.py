"""The parsing of an uploaded PDF with pypdf, run in a forked child process within a time and memory budget
(licenses.budget): a hostile PDF (object streams that decompress to gigabytes, millions of objects, deep
nesting, cycles) costs a refused upload, never a web worker."""

import io
import logging
import re
import warnings
from typing import Any

from pypdf import PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

from .budget import exit_status_within_budget

#: Exit statuses, read by licenses.files.
OK, NOT_A_PDF, ACTIVE_CONTENT = 0, 3, 6

#: What a PDF may not carry (decision 0016 names the files the hub accepts: a license to look at, never a
#: program): dictionary keys of scripts, auto-actions and attached files, and the kinds (/S) of actions that
#: run or open something.
_ACTIVE_KEYS = frozenset(
    {"/JS", "/JavaScript", "/OpenAction", "/AA", "/Launch", "/EmbeddedFile", "/EmbeddedFiles", "/RichMedia"}
)
_ACTIVE_ACTIONS = frozenset(
    {"/JavaScript", "/Launch", "/GoToE", "/ImportData", "/SubmitForm", "/Rendition", "/RichMediaExecute"}
)
#: How many objects of a PDF are looked at, at most (a license has a few hundred); more is refused.
_MAX_OBJECTS = 100_000

logger = logging.getLogger("licenses.files")


def check(data: bytes) -> int:
    """The exit status for data: whether pypdf opens it and reads every page, and whether it carries
    active content (_active_content)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(io.BytesIO(data))
            # Every page read (pypdf reads objects when asked): a header followed by anything else has none.
            if not (len(reader.pages) > 0 and all(page.mediabox.width > 0 for page in reader.pages)):
                return NOT_A_PDF
            return ACTIVE_CONTENT if _active_content(reader) else OK
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        logger.info("an uploaded PDF did not open: %s", type(error).__name__)
        return NOT_A_PDF


def check_within_budget(data: bytes, seconds: float, max_bytes: int) -> int | None:
    """The status of check() run in a child process given seconds and max_bytes more memory than this
    process holds; None when the child ran out of either."""
    return exit_status_within_budget(lambda: check(data), seconds=seconds, max_bytes=max_bytes)


def _active_content(reader: PdfReader) -> bool:
    """Whether a PDF carries a script, an auto-action, an attached file or an action that runs or opens
    something (a `javascript:` link too), anywhere among the objects its trailer reaches."""
    pending: list[object] = [reader.trailer]
    seen: set[tuple[int, int]] = set()
    while pending:
        item = pending.pop()
        if isinstance(item, IndirectObject):
            key = (item.idnum, item.generation)
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > _MAX_OBJECTS:
                return True
            item = item.get_object()
        if isinstance(item, DictionaryObject):
            if _ACTIVE_KEYS.intersection(item.keys()) or item.get("/S") in _ACTIVE_ACTIONS:
                return True
            uri = item.get("/URI")
            if uri is not None and b"javascript" in _uri_bytes(uri):
                return True
            pending.extend(item.values())
        elif isinstance(item, ArrayObject):
            pending.extend(item)
    return False


def _uri_bytes(uri: Any) -> bytes:
    # A URI is a PDF string (text or bytes); browsers ignore white space and case in the scheme.
    value = uri.get_object()
    raw = value.encode("latin-1", "replace") if isinstance(value, str) else bytes(value)
    return re.sub(rb"[\x00-\x20]", b"", raw).lower()
