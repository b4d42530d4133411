"""The upload forms in the admin: every rule is a field error before anything is stored or sent."""

import datetime
import errno
import logging
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from integration.models import ResourceKind, SyncState
from integration.sync.choices import SyncStatus
from licenses.choices import PermitType
from licenses.files import MAX_FILE_BYTES, license_storage
from licenses.models import LicenseRequest
from tests.factories import PropertyFactory, member

from .files import EXE, TRUNCATED_PNG, pdf_bytes, pdf_of_size, png_bytes
from .test_validators import single_digit_changes

pytestmark = pytest.mark.django_db

ADD_URL = "admin:licenses_licenserequest_add"


@pytest.fixture
def prop(db):
    return PropertyFactory(vendor_id="hanok-stay")


@pytest.fixture
def manager_client(client, prop):
    client.force_login(member(prop, "manager"))
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"  # messages are asserted in English
    return client


def upload(content=None, name="license.pdf", content_type="application/pdf"):
    return SimpleUploadedFile(name, pdf_bytes() if content is None else content, content_type=content_type)


def permit_data(prop, **overrides):
    data = {
        "property": prop.pk,
        "permit_type": PermitType.HANOK_EXPERIENCE,
        "permit_number": "제2024-0001호",
        "permit_date": "2024-03-01",
        "comment": "",
        "file": upload(),
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def business_data(prop, **overrides):
    data = {
        "property": prop.pk,
        "business_type": "corporation",
        "business_number": "220-81-62517",
        "owner_name": "김민수",
        "open_date": "2020-05-04",
        "business_name": "주식회사 한옥스테이",
        "business_address": "서울특별시 종로구 계동길 5",
        "industry": "숙박업",
        "category": "한옥체험업",
        "comment": "",
        "file": upload(),
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def post(client, license_type, data):
    return client.post(reverse(ADD_URL) + f"?type={license_type}", data)


def field_errors(response):
    assert response.status_code == 200, "the form was accepted"
    return response.context["adminform"].form.errors


def assert_nothing_stored():
    assert not LicenseRequest.objects.exists()
    assert not SyncState.objects.filter(kind=ResourceKind.LICENSE).exists()


def stop_clock_at(utc_text, monkeypatch):
    instant = datetime.datetime.fromisoformat(utc_text).replace(tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: instant)


# --- Accepted ---------------------------------------------------------------------------------------


def test_a_permit_is_stored_privately_and_marked_for_the_hub(manager_client, prop, settings):
    response = post(manager_client, "permit", permit_data(prop, comment="사업자 변경 전 허가증입니다."))

    assert response.status_code == 302, field_errors(response)
    request = LicenseRequest.objects.get()
    assert (request.type, request.permit_type, request.permit_number) == ("permit", "hanok_experience", "제2024-0001호")
    assert request.permit_date == datetime.date(2024, 3, 1)
    assert (request.file_name, request.file_format, request.file_size) == ("license.pdf", "pdf", len(pdf_bytes()))
    with request.file.open("rb") as stored:
        assert stored.read() == pdf_bytes()
    # Kept under the private root, under a random name, never under MEDIA_ROOT.
    path = request.file.path
    assert path.startswith(str(settings.LICENSE_FILES_ROOT))
    assert not path.startswith(str(settings.MEDIA_ROOT))
    assert "license.pdf" not in path
    state = SyncState.objects.get(kind=ResourceKind.LICENSE, object_id=request.pk)
    assert state.status == SyncStatus.PENDING


def test_a_corporation_with_hyphenated_number_is_stored_as_digits(manager_client, prop):
    response = post(manager_client, "business", business_data(prop))

    assert response.status_code == 302, field_errors(response)
    request = LicenseRequest.objects.get()
    assert request.business_number == "2208162517"
    assert request.masked_number() == "22081*****"


def test_a_sole_proprietor_may_leave_out_name_address_industry_and_category(manager_client, prop):
    data = business_data(
        prop, business_type="personal", business_name="", business_address="", industry="", category=""
    )

    response = post(manager_client, "business", data)

    assert response.status_code == 302, field_errors(response)


def test_a_file_of_exactly_10_mib_is_accepted(manager_client, prop):
    response = post(manager_client, "permit", permit_data(prop, file=upload(pdf_of_size(MAX_FILE_BYTES))))

    assert response.status_code == 302, field_errors(response)


def test_any_accepted_format_whatever_its_name(manager_client, prop):
    response = post(manager_client, "permit", permit_data(prop, file=upload(png_bytes(), name="scan.PDF")))

    assert response.status_code == 302, field_errors(response)
    assert LicenseRequest.objects.get().file_format == "png"


def test_today_in_korea_is_accepted_while_utc_is_still_yesterday(manager_client, prop, monkeypatch):
    stop_clock_at("2026-11-21T16:00:00", monkeypatch)  # 01:00 on 22 November in Seoul

    response = post(manager_client, "permit", permit_data(prop, permit_date="2026-11-22"))

    assert response.status_code == 302, field_errors(response)


# --- Refused: each a field error, nothing stored, nothing sent ---------------------------------------


@pytest.mark.parametrize(
    ("overrides", "field", "text"),
    [
        ({"file": upload(EXE, name="permit.pdf")}, "file", "not a JPEG, PNG, GIF, WebP or PDF"),
        ({"file": upload(TRUNCATED_PNG, name="permit.png", content_type="image/png")}, "file", "not a JPEG"),
        ({"file": upload(pdf_of_size(MAX_FILE_BYTES + 1))}, "file", "too large"),
        ({"file": upload(b"")}, "file", "empty"),
        ({"file": None}, "file", "Choose the license file"),
        ({"permit_type": "hotel"}, "permit_type", "valid choice"),
        ({"permit_type": ""}, "permit_type", "required"),
        ({"permit_number": ""}, "permit_number", "required"),
        ({"permit_number": "   "}, "permit_number", "required"),
        ({"permit_number": "1" * 255}, "permit_number", "254"),
        ({"permit_date": "2024-02-30"}, "permit_date", "valid date"),
        ({"comment": "가" * 16001}, "comment", "16000"),
    ],
)
def test_permit_limits_are_field_errors(manager_client, prop, overrides, field, text):
    errors = field_errors(post(manager_client, "permit", permit_data(prop, **overrides)))

    assert text in " ".join(errors[field]), errors
    assert len(errors[field]) == 1, errors  # said once, whether the form or the model found it
    assert_nothing_stored()


def test_a_date_tomorrow_in_korea_is_refused_although_utc_is_a_day_behind(manager_client, prop, monkeypatch):
    # 01:00 on 22 November in Seoul, 16:00 on 21 November in UTC: the 23rd is tomorrow in Korea.
    stop_clock_at("2026-11-21T16:00:00", monkeypatch)

    errors = field_errors(post(manager_client, "permit", permit_data(prop, permit_date="2026-11-23")))

    assert "in the future" in errors["permit_date"][0]
    assert "2026-11-22" in errors["permit_date"][0]
    assert_nothing_stored()


def test_a_date_tomorrow_in_korea_is_refused_while_it_is_still_today_in_utc(manager_client, prop, monkeypatch):
    # 23:30 UTC on 21 November is 08:30 on 22 November in Seoul; the 23rd is tomorrow there, the 22nd
    # already today there though still tomorrow in UTC.
    stop_clock_at("2026-11-21T23:30:00", monkeypatch)

    errors = field_errors(post(manager_client, "business", business_data(prop, open_date="2026-11-23")))
    assert "in the future" in errors["open_date"][0]

    response = post(manager_client, "business", business_data(prop, open_date="2026-11-22"))
    assert response.status_code == 302, field_errors(response)


@pytest.mark.parametrize(
    ("overrides", "field", "text"),
    [
        ({"business_number": "220-81-62518"}, "business_number", "check digit"),
        ({"business_number": "22081625"}, "business_number", "10 digits"),
        ({"business_number": "220.81.62517"}, "business_number", "10 digits"),
        ({"business_number": ""}, "business_number", "required"),
        ({"business_name": ""}, "business_name", "Required for a corporation"),
        ({"business_address": ""}, "business_address", "Required for a corporation"),
        ({"industry": ""}, "industry", "Required for a corporation"),
        ({"category": ""}, "category", "Required for a corporation"),
        ({"business_type": "partnership"}, "business_type", "valid choice"),
        ({"owner_name": ""}, "owner_name", "required"),
        ({"owner_name": "가" * 129}, "owner_name", "128"),
        ({"business_name": "가" * 255}, "business_name", "254"),
        ({"business_address": "가" * 255}, "business_address", "254"),
        ({"industry": "가" * 65}, "industry", "64"),
        ({"category": "가" * 65}, "category", "64"),
        ({"open_date": ""}, "open_date", "required"),
        ({"file": upload(EXE, name="registration.jpg", content_type="image/jpeg")}, "file", "not a JPEG"),
    ],
)
def test_business_limits_are_field_errors(manager_client, prop, overrides, field, text):
    errors = field_errors(post(manager_client, "business", business_data(prop, **overrides)))

    assert text in " ".join(errors[field]), errors
    assert len(errors[field]) == 1, errors
    assert_nothing_stored()


def test_a_corporation_without_its_name_names_each_missing_field(manager_client, prop):
    data = business_data(prop, business_name="", business_address="", industry="", category="")

    errors = field_errors(post(manager_client, "business", data))

    # The chosen file is asked for again (the browser lets go of it), by name.
    assert set(errors) == {"business_name", "business_address", "industry", "category", "file"}
    assert errors["file"][0].startswith("Choose “license.pdf” again")
    assert_nothing_stored()


def test_each_single_digit_change_of_a_real_number_is_refused_by_the_form(manager_client, prop):
    form_class = None
    for changed in single_digit_changes("2208162517"):
        hyphenated = f"{changed[:3]}-{changed[3:5]}-{changed[5:]}"
        response = post(manager_client, "business", business_data(prop, business_number=hyphenated))
        errors = field_errors(response)
        assert list(errors) == ["business_number", "file"], (changed, errors)  # the file: choose it again
        assert "check digit" in errors["business_number"][0]
        form_class = type(response.context["adminform"].form)
    assert form_class is not None
    assert_nothing_stored()


def test_an_empty_business_form_says_each_thing_once(manager_client, prop):
    errors = field_errors(post(manager_client, "business", {"property": prop.pk}))

    assert {name: len(messages) for name, messages in errors.items()} == {
        "business_type": 1,
        "business_number": 1,
        "owner_name": 1,
        "open_date": 1,
        "file": 1,
    }


def test_the_choice_of_type_comes_first(manager_client):
    response = manager_client.get(reverse(ADD_URL))

    assert response.status_code == 200
    page = response.content.decode()
    assert "?type=permit" in page
    assert "?type=business" in page


def test_the_permit_form_lists_the_22_permit_types(manager_client, prop):
    response = manager_client.get(reverse(ADD_URL) + "?type=permit")

    choices = [value for value, _label in response.context["adminform"].form.fields["permit_type"].choices if value]
    assert len(choices) == 22
    assert response.context["adminform"].form.initial["property"] == prop.pk


# --- After an error, and after an upload ------------------------------------------------------------


def test_after_another_fields_error_the_form_asks_for_the_chosen_file_again_by_name(manager_client, prop):
    data = permit_data(prop, permit_number="", file=upload(name="허가증 스캔.pdf"))

    errors = field_errors(post(manager_client, "permit", data))

    assert errors["file"] == [
        "Choose “허가증 스캔.pdf” again: the browser lets go of a chosen file when the form has an error."
    ]
    assert "required" in " ".join(errors["permit_number"])
    assert_nothing_stored()


def test_an_upload_says_one_message_naming_the_request_without_its_status(manager_client, prop):
    response = post(manager_client, "permit", permit_data(prop))

    request = LicenseRequest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:licenses_licenserequest_change", args=[request.pk])
    messages = [str(message) for message in manager_client.get(response["Location"]).context["messages"]]
    assert messages == [
        "“Accommodation permit 제2024-0001호” is stored and is being sent to the hub; its review status appears here."
    ]


# --- The storage cannot keep the file ----------------------------------------------------------------
#
# Tests run as root, for whom a folder's mode (chmod 0o500) blocks no write, and mounting a read-only file
# system needs privileges CI does not have. So the license folder is put under a regular file, where the
# operating system itself refuses to create it (ENOTDIR: an OSError raised by the same os.makedirs call
# as EACCES or EROFS would be); and a full disk, which fails in the middle of the write, is a storage whose
# _save writes part of the file and then raises ENOSPC, as the file system would.


@pytest.fixture
def unwritable(settings, tmp_path):
    """The license folder cannot be created: its parent is a regular file."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_bytes(b"")
    settings.LICENSE_FILES_ROOT = blocker / "licenses"


@pytest.fixture
def disk_full(monkeypatch):
    """The disk fills up halfway through writing a license file."""

    storage = license_storage()

    def half_then_full(name, content):
        path = Path(storage.path(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.read()[:100])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage, "_save", half_then_full)


@pytest.mark.parametrize(
    ("language", "stored", "again"),
    [
        ("en", "The server could not store the file", "Choose “license.pdf” again"),
        ("ko", "서버가 파일을 저장하지 못했습니다", "“license.pdf” 파일을 다시 선택하세요"),
    ],
)
def test_an_unwritable_license_folder_is_a_form_error_in_the_users_language(
    manager_client, prop, unwritable, caplog, language, stored, again
):
    manager_client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    data = permit_data(prop, permit_number="제2024-0777호", comment="재제출합니다.")

    with caplog.at_level(logging.ERROR, logger="core.files.storage"):
        response = post(manager_client, "permit", data)

    errors = field_errors(response)
    assert list(errors) == ["file"]
    assert stored in errors["file"][0]
    assert again in errors["file"][1]
    # The other fields come back as typed; the file is to be chosen again (a browser never keeps it).
    page = response.content.decode()
    assert 'value="제2024-0777호"' in page
    assert "재제출합니다." in page
    assert_nothing_stored()
    # The operator's log has the reason, the user's page no stack trace.
    assert [record.levelname for record in caplog.records] == ["ERROR"]
    assert "ENOTDIR" in caplog.text
    assert "not-a-folder" in caplog.text
    assert "Traceback" not in page
    assert "NotADirectoryError" not in page


def test_a_disk_full_halfway_leaves_no_request_and_no_partial_file(manager_client, prop, disk_full, settings, caplog):
    with caplog.at_level(logging.ERROR, logger="core.files.storage"):
        response = post(manager_client, "permit", permit_data(prop))

    assert "The server could not store the file" in field_errors(response)["file"][0]
    assert_nothing_stored()
    assert [path for path in settings.LICENSE_FILES_ROOT.rglob("*") if path.is_file()] == []
    assert "ENOSPC" in caplog.text


def test_the_upload_succeeds_once_the_folder_can_be_written_again(manager_client, prop, unwritable, settings, tmp_path):
    assert post(manager_client, "permit", permit_data(prop)).status_code == 200

    settings.LICENSE_FILES_ROOT = tmp_path / "licenses"
    response = post(manager_client, "permit", permit_data(prop))

    assert response.status_code == 302, field_errors(response)
    assert LicenseRequest.objects.get().file.path.startswith(str(tmp_path / "licenses"))
