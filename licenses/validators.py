"""Validators of license fields: the business registration number's check digit, and dates that may not
be in the future in Korea (decision 0016). Shared by the model, the forms and the services."""

import re

from django.core.exceptions import ValidationError
from django.utils import formats
from django.utils.translation import gettext_lazy as _

from core.dates import korea_today

#: Weights of digits 1 to 9 of a business registration number (the tenth is the check digit).
CHECK_WEIGHTS = (1, 3, 7, 1, 3, 7, 1, 3, 5)

# Ten digits, written as is or in the usual 123-45-67891 groups.
_BUSINESS_NUMBER = re.compile(r"\d{3}-?\d{2}-?\d{5}", re.ASCII)
#: How the form shows an example number; a real one, whose check digit matches.
BUSINESS_NUMBER_EXAMPLE = "123-45-67891"


def validate_not_future_in_korea(value):
    """A date no later than today in Korea."""
    today = korea_today()
    if value is not None and value > today:
        raise ValidationError(
            _("This date is in the future: it may be at most today in Korea (%(today)s)."),
            code="future",
            params={"today": formats.date_format(today, "Y-m-d")},
        )


def business_number_check_digit(digits):
    """The check digit of a business registration number, from its first nine digits (a string)."""
    values = [int(digit) for digit in digits[:9]]
    total = sum(weight * value for weight, value in zip(CHECK_WEIGHTS, values, strict=True))
    total += values[8] * 5 // 10
    return (10 - total % 10) % 10


def business_number_normalize(value):
    """The ten digits of a number typed with or without hyphens (surrounding spaces ignored), or None when
    it is not ten digits in that shape."""
    value = (value or "").strip()
    if not _BUSINESS_NUMBER.fullmatch(value):
        return None
    return value.replace("-", "")


def business_number_is_valid(value):
    """Whether value is a business registration number whose check digit matches."""
    digits = business_number_normalize(value)
    return digits is not None and business_number_check_digit(digits) == int(digits[9])


def validate_business_number(value):
    """A business registration number: ten digits (hyphens allowed) whose check digit matches."""
    digits = business_number_normalize(value)
    if digits is None:
        raise ValidationError(
            _("Enter the 10 digits of the business registration number, with or without hyphens (123-45-67891)."),
            code="format",
        )
    if business_number_check_digit(digits) != int(digits[9]):
        raise ValidationError(
            _(
                "This is not a valid business registration number: its check digit does not match. "
                "Look for a mistyped digit."
            ),
            code="check_digit",
        )


def business_number_mask(digits):
    """The number as the hub shows it: the last five digits masked ("22081*****")."""
    if not digits:
        return ""
    return digits[:-5] + "*" * min(5, len(digits))
