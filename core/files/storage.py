"""Files that staff actions write, through one door: a storage that cannot be written (permission denied,
disk full, read-only file system) is said to the user as a ValidationError in their language and to the
operator in the log (the path and errno), never a server error; and the health check's probe of whether a
storage can be written at all."""

import contextlib
import errno
import logging
import uuid

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)


def _reason(error):
    """An OSError in a few words for the log and the health check: its errno's name and text."""
    name = errno.errorcode.get(error.errno, f"errno {error.errno}")
    return f"{name}: {error.strerror or error}"


def storage_save(storage, name, content, *, max_length=None):
    """storage.save(name, content): the name the file was stored under. Raises ValidationError (code
    "storage") when the storage cannot be written, logged with the path and errno; then nothing stays of
    the attempt (a file written in part before the disk filled up is deleted)."""
    try:
        # A name free before the attempt: whatever is found there after a failed attempt is its partial file.
        name = storage.get_available_name(name, max_length=max_length)
        return storage.save(name, content, max_length=max_length)
    except OSError as error:
        location = getattr(storage, "location", type(storage).__name__)
        logger.error("could not store %s under %s: %s", name, location, _reason(error))
        # Nothing was written there, or the file system refuses deletions too (read-only).
        with contextlib.suppress(OSError):
            storage.delete(name)
        raise ValidationError(
            _(
                "The server could not store the file: its file storage is full or cannot be written. Nothing "
                "was saved. Try again later; if this happens again, tell the administrator."
            ),
            code="storage",
        ) from None


def storage_probe(storage):
    """None when a small file can be written to storage and deleted again; the reason (errno's name and
    text) when it cannot. For the deep health check."""
    try:
        name = storage.save(f".healthz-{uuid.uuid4().hex}", ContentFile(b"ok"))
        storage.delete(name)
    except OSError as error:
        location = getattr(storage, "location", type(storage).__name__)
        logger.warning("the storage under %s cannot be written: %s", location, _reason(error))
        return _reason(error)
    return None
