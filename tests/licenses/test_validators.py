"""The business registration number's check digit, dates in Korea time, and file formats by their bytes."""

import datetime
from io import BytesIO

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from core.dates import korea_today
from licenses.choices import FileFormat
from licenses.files import MAX_FILE_BYTES, license_file_check, sniff_format
from licenses.validators import (
    business_number_check_digit,
    business_number_is_valid,
    business_number_mask,
    validate_business_number,
    validate_not_future_in_korea,
)

from .files import EXE, GIF, JPEG, TRUNCATED_PNG, WEBP, pdf_bytes, pdf_of_size, png_bytes

#: Real business registration numbers.
REAL_NUMBERS = ["220-81-62517", "124-81-00998"]


def single_digit_changes(number):
    """Every number that differs from number (ten digits) in exactly one digit: 90 of them."""
    return [number[:i] + other + number[i + 1 :] for i in range(10) for other in "0123456789" if other != number[i]]


def reference_is_valid(digits):
    """The check as decision 0016 states it, written out independently of the product."""
    d = [int(c) for c in digits]
    total = d[0] * 1 + d[1] * 3 + d[2] * 7 + d[3] * 1 + d[4] * 3 + d[5] * 7 + d[6] * 1 + d[7] * 3 + d[8] * 5
    total += (d[8] * 5) // 10
    return (10 - total % 10) % 10 == d[9]


@pytest.mark.parametrize("number", REAL_NUMBERS)
def test_real_numbers_are_valid_with_or_without_hyphens(number):
    assert reference_is_valid(number.replace("-", ""))
    validate_business_number(number)
    validate_business_number(number.replace("-", ""))
    assert business_number_is_valid(number)


@pytest.mark.parametrize("number", REAL_NUMBERS)
def test_every_single_digit_change_is_refused(number):
    digits = number.replace("-", "")
    changes = single_digit_changes(digits)
    assert len(changes) == 90
    for changed in changes:
        # The algorithm itself says so (weights 1, 3, 7 and the d9 term never cancel a change mod 10)...
        assert not reference_is_valid(changed), changed
        # ...and the product refuses each one, as the check digit's error.
        assert not business_number_is_valid(changed), changed
        with pytest.raises(ValidationError) as refused:
            validate_business_number(changed)
        assert refused.value.code == "check_digit"


def test_check_digit_matches_the_reference_on_many_numbers():
    for n in range(0, 10**9, 7_654_321):
        first_nine = f"{n:09d}"
        check = business_number_check_digit(first_nine)
        assert reference_is_valid(first_nine + str(check))


@pytest.mark.parametrize(
    "value", ["", "220816251", "22081625170", "220-8162-517", "22O-81-62517", "220 81 62517", "٢٢٠٨١٦٢٥١٧"]
)
def test_numbers_of_the_wrong_shape_are_a_format_error(value):
    with pytest.raises(ValidationError) as refused:
        validate_business_number(value)
    assert refused.value.code == "format"


def test_mask_hides_the_last_five_digits():
    assert business_number_mask("2208162517") == "22081*****"


def at(utc_text, monkeypatch):
    """Stop the clock at an instant given in UTC."""
    instant = datetime.datetime.fromisoformat(utc_text).replace(tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: instant)


def test_today_is_korean_today(monkeypatch):
    # 16:00 UTC on 21 November is 01:00 on 22 November in Seoul.
    at("2026-11-21T16:00:00", monkeypatch)
    assert korea_today() == datetime.date(2026, 11, 22)


def test_future_is_judged_in_korea_time(monkeypatch):
    at("2026-11-21T16:00:00", monkeypatch)
    # Today in Korea (already tomorrow in UTC) is allowed...
    validate_not_future_in_korea(datetime.date(2026, 11, 22))
    validate_not_future_in_korea(datetime.date(2026, 11, 21))
    # ...tomorrow in Korea is not.
    with pytest.raises(ValidationError) as refused:
        validate_not_future_in_korea(datetime.date(2026, 11, 23))
    assert "2026-11-22" in refused.value.messages[0]


def test_just_before_midnight_in_korea_tomorrow_is_refused(monkeypatch):
    # 23:59:59 in Seoul on 21 November; UTC is still in the afternoon of the same day.
    at("2026-11-21T14:59:59", monkeypatch)
    with pytest.raises(ValidationError):
        validate_not_future_in_korea(datetime.date(2026, 11, 22))
    at("2026-11-21T15:00:00", monkeypatch)
    validate_not_future_in_korea(datetime.date(2026, 11, 22))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (JPEG, FileFormat.JPEG),
        (png_bytes(), FileFormat.PNG),
        (GIF, FileFormat.GIF),
        (WEBP, FileFormat.WEBP),
        (pdf_bytes(), FileFormat.PDF),
    ],
)
def test_accepted_formats_are_recognised_by_their_bytes(content, expected):
    assert sniff_format(content[:64]) == expected
    # The name does not matter: a PDF called .png is a PDF.
    upload = SimpleUploadedFile("scan.png" if expected != FileFormat.PNG else "scan.pdf", content)
    assert license_file_check(upload) == expected


@pytest.mark.parametrize(
    "content",
    [
        EXE,
        TRUNCATED_PNG,
        png_bytes()[:8],
        png_bytes()[:29] + b"\x00\x00\x00\x00" + png_bytes()[33:],  # the IHDR chunk's CRC is wrong
        b"\xff\xd8",
        b"GIF89a",
        b"RIFF\x00\x00\x00\x00WAVEfmt ",
        b"<html><body>%PDF-1.4</body></html>",
        b"PK\x03\x04" + b"\x00" * 40,
    ],
)
def test_other_bytes_are_refused_whatever_the_name(content):
    with pytest.raises(ValidationError) as refused:
        license_file_check(SimpleUploadedFile("license.pdf", content, content_type="application/pdf"))
    assert refused.value.code == "format"


def test_size_limit_is_10_mib():
    assert license_file_check(SimpleUploadedFile("big.pdf", pdf_of_size(MAX_FILE_BYTES))) == FileFormat.PDF
    with pytest.raises(ValidationError) as refused:
        license_file_check(SimpleUploadedFile("big.pdf", pdf_of_size(MAX_FILE_BYTES + 1)))
    assert refused.value.code == "too_large"


def test_empty_file_is_refused():
    upload = SimpleUploadedFile("empty.pdf", b"")
    upload.file = BytesIO(b"")
    with pytest.raises(ValidationError) as refused:
        license_file_check(upload)
    assert refused.value.code == "empty"
