"""License files: what format a file is, judged by its contents (never its name or the browser's media
type): the first bytes name a format, a parser of that format must open the whole file (Pillow for
images, pypdf for PDF), the file must end where the format ends and hold no web page or script, so that a
polyglot (a PDF or image header followed by HTML or JavaScript) is refused. Also the size limit, private
storage under our own name (`<license id>.<format>`), and the base64 text the hub receives.

Files are kept outside any public URL (LICENSE_FILES_ROOT) and leave it only through the admin's
download view or base64-encoded in a submission to the hub; neither path logs their contents.
"""

import base64
import logging
import re
import zlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.storage import FileSystemStorage
from django.template.defaultfilters import filesizeformat
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from . import imagecheck, pdfcheck
from .choices import FileFormat

#: OURS (decision 0016): at most 10 MiB before base64.
MAX_FILE_BYTES = 10 * 1024 * 1024
#: Enough of the start of a file to tell its format (a PNG needs 33 bytes: signature and IHDR chunk).
HEAD_BYTES = 64

#: An image larger than this, all its frames counted, is refused before it is decoded: a scan of an A4 page
#: at 600 dpi has 35 million.
MAX_IMAGE_PIXELS = 50_000_000
#: The budget of a file's check in a child process (an image's decoding, licenses.imagecheck; a PDF's
#: parsing, licenses.pdfcheck): well within the web worker's timeout, and room for one frame of
#: MAX_IMAGE_PIXELS in RGBA with Pillow's working copies.
CHECK_SECONDS = 10
CHECK_MEMORY_BYTES = 1024 * 1024 * 1024

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"
_PDF_HEADER = re.compile(rb"%PDF-[12]\.\d")
#: What a browser sniffing a file would take for a web page or a script, anywhere in the file (as such
#: sequences are all but impossible in compressed image data, any of them marks a polyglot): a page's or a
#: script's tag, namespaced too (`<svg:script>`); any tag start with an event attribute (`<img/src onerror=`);
#: a `javascript:` URL; a refresh that sends the browser elsewhere (`<meta http-equiv=refresh>`).
#: Searched one by one in the file's lower-case copy: so each starts with a literal that the search skips
#: to, and a 10 MiB file takes about a tenth of a second (one pattern, ignoring case, took 1.5 s).
_MARKUP = tuple(
    re.compile(pattern)
    for pattern in (
        rb"<(?:[a-z][\w.-]*:)?(?:script|html|body|iframe|svg|!doctype|object|embed)[\s/>]",
        rb"<[a-z][\w:.-]*(?:[\s/][^<>]{0,1000}?)?[\s/\"']on[a-z]+\s*=",
        rb"javascript\s*:",
        rb"<meta[\s/][^<>]{0,1000}?http-equiv",
    )
)
#: The name Pillow gives each image format.
_PILLOW_FORMATS = {FileFormat.JPEG: "JPEG", FileFormat.PNG: "PNG", FileFormat.GIF: "GIF", FileFormat.WEBP: "WEBP"}

logger = logging.getLogger(__name__)


def _is_png(head):
    # The signature, then a complete IHDR chunk (length 13, type, data, CRC) with a non-zero size: a
    # truncated or forged header fails here rather than at the hub.
    if not head.startswith(_PNG_SIGNATURE) or len(head) < 33 or head[8:16] != b"\x00\x00\x00\x0dIHDR":
        return False
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    return width > 0 and height > 0 and zlib.crc32(head[12:29]) == int.from_bytes(head[29:33], "big")


def _is_jpeg(head):
    # Start of image, then the first segment's marker (APPn, DQT, SOF, ...).
    return len(head) >= 4 and head[:3] == b"\xff\xd8\xff" and 0xC0 <= head[3] <= 0xFE


def _is_gif(head):
    # The header and the whole logical screen descriptor.
    return len(head) >= 13 and head[:6] in (b"GIF87a", b"GIF89a")


def _is_webp(head):
    return (
        len(head) >= 16 and head[:4] == b"RIFF" and head[8:12] == b"WEBP" and head[12:16] in (b"VP8 ", b"VP8L", b"VP8X")
    )


def _is_pdf(head):
    return _PDF_HEADER.match(head) is not None


_SNIFFERS = (
    (FileFormat.JPEG, _is_jpeg),
    (FileFormat.PNG, _is_png),
    (FileFormat.GIF, _is_gif),
    (FileFormat.WEBP, _is_webp),
    (FileFormat.PDF, _is_pdf),
)


def _holds_markup(data):
    """Whether data holds anything of _MARKUP, in any case."""
    lowered = data.lower()
    return any(pattern.search(lowered) for pattern in _MARKUP)


def _ends_where_the_format_ends(data, file_format):
    """Whether nothing follows the format's own end: a PNG's IEND chunk, a JPEG's end-of-image marker, a
    GIF's trailer, a WebP's RIFF size, a PDF's last %%EOF (and white space)."""
    if file_format == FileFormat.PNG:
        return data.endswith(_PNG_END)
    if file_format == FileFormat.JPEG:
        return data.endswith(b"\xff\xd9")
    if file_format == FileFormat.GIF:
        return data.endswith(b";")
    if file_format == FileFormat.WEBP:
        size = int.from_bytes(data[4:8], "little")
        return len(data) == 8 + size + size % 2
    end = data.rfind(b"%%EOF")
    return end >= 0 and not data[end + 5 :].strip()


def _parses_as(data, file_format):
    """Whether the format's parser opens and reads the whole file as that format (in a child process within
    CHECK_SECONDS and CHECK_MEMORY_BYTES); ValidationError when it cannot within them, and for a PDF
    carrying active content or an image with too many pixels."""
    if file_format == FileFormat.PDF:
        return _pdf_check(data)
    return _image_check(data, _PILLOW_FORMATS[file_format])


def _pdf_check(data):
    """Parse a PDF with pypdf in a child process (licenses.pdfcheck); whether it is a PDF; ValidationError
    when it carries active content or cannot be parsed within the budget."""
    status = pdfcheck.check_within_budget(data, CHECK_SECONDS, CHECK_MEMORY_BYTES)
    if status == pdfcheck.ACTIVE_CONTENT:
        raise ValidationError(
            _(
                "This PDF carries a script, an automatic action, an attached file or a link that runs "
                "something. Print the license to a plain PDF, or scan it, and upload that file."
            ),
            code="pdf_active_content",
        )
    if status is None:
        logger.warning("an uploaded PDF was not parsed within %s s and %s bytes", CHECK_SECONDS, CHECK_MEMORY_BYTES)
        raise ValidationError(
            _(
                "This PDF could not be checked within our time and memory limits. Print the license to a "
                "plain PDF, or scan it, and upload that file."
            ),
            code="pdf_budget",
        )
    return status == pdfcheck.OK


def _image_check(data, pillow_format):
    """Decode an image in a child process (forked) within CHECK_SECONDS and CHECK_MEMORY_BYTES (licenses.imagecheck);
    whether it is an image of pillow_format; ValidationError when it has too many pixels or cannot be
    decoded within that budget."""
    status = imagecheck.check_within_budget(data, pillow_format, MAX_IMAGE_PIXELS, CHECK_SECONDS, CHECK_MEMORY_BYTES)
    if status == imagecheck.TOO_MANY_PIXELS:
        raise ValidationError(
            _(
                "This image has too many pixels (all its frames counted): at most %(limit)s million. Scan the "
                "license as a single page at a lower resolution."
            ),
            code="too_many_pixels",
            params={"limit": MAX_IMAGE_PIXELS // 1_000_000},
        )
    if status is None:
        logger.warning("an uploaded image was not decoded within %s s and %s bytes", CHECK_SECONDS, CHECK_MEMORY_BYTES)
        raise ValidationError(
            _(
                "This image could not be checked within our time and memory limits. Save or scan the license "
                "again as a smaller JPEG, PNG or PDF file."
            ),
            code="decode_budget",
        )
    return status == imagecheck.OK


def sniff_format(head):
    """The FileFormat that bytes (the start of a file) begin with, or None when it is none of them."""
    for file_format, matches in _SNIFFERS:
        if matches(head):
            return file_format
    return None


def license_file_check(file):
    """The FileFormat of an uploaded or stored file; ValidationError when it is empty, larger than
    MAX_FILE_BYTES, not an accepted format by its bytes, or not wholly that format (a polyglot, a damaged
    file: license_content_check). Leaves the file at its start."""
    size = file.size
    if not size:
        raise ValidationError(_("The file is empty."), code="empty")
    if size > MAX_FILE_BYTES:
        raise ValidationError(
            _("The file is too large (%(size)s): the hub accepts at most %(limit)s."),
            code="too_large",
            params={"size": filesizeformat(size), "limit": filesizeformat(MAX_FILE_BYTES)},
        )
    file.seek(0)
    head = file.read(HEAD_BYTES)
    file.seek(0)
    file_format = sniff_format(head)
    if file_format is None:
        raise ValidationError(
            _(
                "This file is not a JPEG, PNG, GIF, WebP or PDF file (judged by its contents, not its name). "
                "Scan or save the license in one of these formats."
            ),
            code="format",
        )
    data = file.read()
    file.seek(0)
    license_content_check(data, file_format)
    return file_format


def license_content_check(data, file_format):
    """ValidationError unless data (a whole file) is wholly of file_format: its parser reads all of it, it
    ends where the format ends, and it holds nothing a browser would run as a page or a script; an image's
    frames hold at most MAX_IMAGE_PIXELS and decode within a budget, a PDF carries no script or action
    (each with its own ValidationError)."""
    if not (
        _ends_where_the_format_ends(data, file_format) and not _holds_markup(data) and _parses_as(data, file_format)
    ):
        raise ValidationError(
            _(
                "This file starts like a %(format)s file but is not one throughout: it is damaged, or it hides "
                "something else (such as a web page or a script). Save or scan the license again as a plain PDF, "
                "JPEG or PNG file."
            ),
            code="polyglot",
            params={"format": FileFormat(file_format).label},
        )


def validate_license_file(value):
    """Model field validator: the file is one the hub accepts (see license_file_check)."""
    if value:
        license_file_check(value)


def license_file_base64(field_file, file_format):
    """The stored file as the base64 text of the hub's file field, once it passed the check again (a file
    stored before a check existed is never sent); ValidationError when it does not."""
    with field_file.open("rb") as stored:
        data = stored.read()
    license_content_check(data, file_format)
    return base64.b64encode(data).decode("ascii")


def license_file_name(license_request):
    """Our own name of a request's file, `<license id>.<detected format>`: how it is stored and served (the
    uploader's file name is kept in the row only, never in a path or a download)."""
    return f"{license_request.pk}.{license_request.file_format or 'bin'}"


def license_file_path(instance, filename):
    """Where a license file is stored: under its property, by our own name (license_file_name); the row
    is saved first, so that it has its id."""
    return f"{instance.property_id}/{license_file_name(instance)}"


class PrivateFileStorage(FileSystemStorage):
    """Files under LICENSE_FILES_ROOT, readable by the server's user only, and without any URL."""

    def __init__(self, **kwargs):
        kwargs.setdefault("file_permissions_mode", 0o600)
        kwargs.setdefault("directory_permissions_mode", 0o700)
        super().__init__(**kwargs)

    @cached_property
    def base_location(self):
        # FileSystemStorage sets _location (the location given, or None) in __init__; the stubs leave it out.
        return self._value_or_setting(self._location, settings.LICENSE_FILES_ROOT)  # type: ignore[attr-defined]

    def _clear_cached_properties(self, setting, **kwargs):
        super()._clear_cached_properties(setting, **kwargs)
        if setting == "LICENSE_FILES_ROOT":
            self.__dict__.pop("base_location", None)
            self.__dict__.pop("location", None)

    def url(self, name):
        raise ValueError("License files have no URL; the admin serves them to the property's managers.")


_storage = PrivateFileStorage()


def license_storage():
    """The private storage of license files (a callable, so that migrations name it rather than copy it)."""
    return _storage
