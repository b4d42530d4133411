"""License files: what format a file is, judged by its first bytes (never its name or the browser's
media type), the size limit, private storage, and the base64 text the hub receives.

Files are kept outside any public URL (LICENSE_FILES_ROOT) and leave it only through the admin's
download view or base64-encoded in a submission to the hub; neither path logs their contents.
"""

import base64
import re
import uuid
import zlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.storage import FileSystemStorage
from django.template.defaultfilters import filesizeformat
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from .choices import FileFormat

#: OURS (hub-contract.md section 5): at most 10 MiB before base64.
MAX_FILE_BYTES = 10 * 1024 * 1024
#: Enough of the start of a file to tell its format (a PNG needs 33 bytes: signature and IHDR chunk).
HEAD_BYTES = 64

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PDF_HEADER = re.compile(rb"%PDF-[12]\.\d")


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


def sniff_format(head):
    """The FileFormat that bytes (the start of a file) begin with, or None when it is none of them."""
    for file_format, matches in _SNIFFERS:
        if matches(head):
            return file_format
    return None


def license_file_check(file):
    """The FileFormat of an uploaded or stored file; ValidationError when it is empty, larger than
    MAX_FILE_BYTES or not an accepted format by its bytes. Leaves the file at its start."""
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
    return file_format


def validate_license_file(value):
    """Model field validator: the file is one the hub accepts (see license_file_check)."""
    if value:
        license_file_check(value)


def license_file_base64(field_file):
    """The stored file as the base64 text of the hub's file field."""
    with field_file.open("rb") as stored:
        return base64.b64encode(stored.read()).decode("ascii")


def license_file_path(instance, filename):
    """Where a license file is stored: under its property, a random name with the extension of its sniffed
    format (the uploader's file name is kept in the row only, never in a path)."""
    extension = instance.file_format or "bin"
    return f"{instance.property_id}/{uuid.uuid4().hex}.{extension}"


class PrivateFileStorage(FileSystemStorage):
    """Files under LICENSE_FILES_ROOT, readable by the server's user only, and without any URL."""

    def __init__(self, **kwargs):
        kwargs.setdefault("file_permissions_mode", 0o600)
        kwargs.setdefault("directory_permissions_mode", 0o700)
        super().__init__(**kwargs)

    @cached_property
    def base_location(self):
        return self._value_or_setting(self._location, settings.LICENSE_FILES_ROOT)

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
