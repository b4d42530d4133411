"""Validators for the spec's field rules, shared by models, forms and services."""

import re

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from ..hub.endpoints import VENDOR_ID_PATTERN

# SPEC: days before check-in written 0d, 1d, 2d...: no leading zero, a lowercase d.
_REFUND_KEY = re.compile(r"(0|[1-9][0-9]*)d")
_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")

#: The message of an id that breaks the vendor id rule (integration.hub.endpoints.VENDOR_ID_PATTERN).
VENDOR_ID_MESSAGE = _(
    "Use only letters, digits, “-”, “_” and “.” in an id, starting with a letter or a digit: "
    "the hub finds it by its address."
)

validate_vendor_id = RegexValidator(rf"\A{VENDOR_ID_PATTERN}\Z", VENDOR_ID_MESSAGE, code="vendor_id")


def validate_single_line(value):
    """Text the spec keeps on one line (a property's address): no line breaks."""
    if _LINE_BREAK.search(value):
        raise ValidationError(_("Write it on one line: the hub takes no line breaks here."), code="single_line")


def _is_number(value):
    return isinstance(value, int | float) and not isinstance(value, bool)


def validate_refunds(value):
    """A refund policy: {"<n>d": percent}, n days before check-in, percent from 0 to 100."""
    if not isinstance(value, dict):
        raise ValidationError(_("The refund policy must map days before check-in to a percentage."))
    for key, percent in value.items():
        if not isinstance(key, str) or not _REFUND_KEY.fullmatch(key):
            raise ValidationError(
                _("'%(key)s' is not a number of days before check-in such as 0d, 1d or 7d."), params={"key": key}
            )
        if not _is_number(percent) or not 0 <= percent <= 100:
            raise ValidationError(_("The refund for %(key)s must be a percentage from 0 to 100."), params={"key": key})


def validate_code_list(value):
    """A list of distinct catalog codes (strings)."""
    if not isinstance(value, list) or not all(isinstance(code, str) and code for code in value):
        raise ValidationError(_("Choose codes from the hub's code catalog."))
    if len(set(value)) != len(value):
        raise ValidationError(_("Each code may be chosen only once."))


def validate_counts(value):
    """A map of names (room, bedroom, bathroom, ...) to counts >= 0."""
    if not isinstance(value, dict):
        raise ValidationError(_("The room composition must map names such as 'bedroom' to counts."))
    for key, count in value.items():
        if not isinstance(key, str) or not key.strip():
            raise ValidationError(_("Each part of the room composition needs a name."))
        if not _is_number(count) or count < 0:
            raise ValidationError(_("The count of '%(key)s' must be a number of 0 or more."), params={"key": key})


def validate_channel_ids(value):
    """Sales channel ids: integers > 0; empty or None means every channel."""
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in value):
        raise ValidationError(_("Channels must be sales channel ids (whole numbers above 0)."))
    if len(set(value)) != len(value):
        raise ValidationError(_("Each channel may be chosen only once."))
