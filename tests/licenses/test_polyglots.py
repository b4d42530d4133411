"""Uploads whose first bytes lie (issue 25, item 4): a file is a license only when a parser of its format
reads all of it; polyglots are refused on the field, in the user's language; files are stored and served
under our own name; and only files that pass reach the hub."""

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from integration.models import ResourceKind, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_state_ensure
from integration.sync.services.sender import sync_send
from licenses.files import license_file_check, sniff_format
from licenses.models import LicenseRequest
from tests.factories import PropertyFactory, member

from .factories import LicenseRequestFactory, submit_permit
from .files import GIF, JPEG, POLYGLOTS, WEBP, png_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def prop(db):
    return PropertyFactory(vendor_id="hanok-stay")


@pytest.mark.parametrize("name", POLYGLOTS)
def test_a_polyglot_starts_like_an_accepted_format_but_is_refused(name):
    content = POLYGLOTS[name]
    assert sniff_format(content[:64]) is not None  # what let it through before

    with pytest.raises(ValidationError) as refused:
        license_file_check(SimpleUploadedFile("license.pdf", content))

    assert refused.value.code == "polyglot"


@pytest.mark.parametrize(("language", "text"), [("en", "is not one throughout"), ("ko", "전체가 그 형식이 아닙니다")])
@pytest.mark.parametrize("name", POLYGLOTS)
def test_the_upload_form_says_why_on_the_file_field_and_stores_nothing(client, prop, name, language, text):
    client.force_login(member(prop, "manager"))
    data = {
        "property": prop.pk,
        "permit_type": "hostel",
        "permit_number": "1",
        "permit_date": "2024-01-01",
        "file": SimpleUploadedFile("license.html", POLYGLOTS[name], content_type="application/pdf"),
    }

    response = client.post(
        reverse("admin:licenses_licenserequest_add") + "?type=permit", data, HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 200
    assert text in " ".join(response.context["adminform"].form.errors["file"])
    assert not LicenseRequest.objects.exists()
    assert not SyncState.objects.filter(kind=ResourceKind.LICENSE).exists()


@pytest.mark.parametrize(("content", "extension"), [(JPEG, "jpeg"), (png_bytes(), "png"), (GIF, "gif"), (WEBP, "webp")])
def test_files_are_stored_and_served_under_our_own_name(client, prop, content, extension):
    manager = member(prop, "manager")
    request = submit_permit(prop, user=manager, content=content, name="license.html")
    client.force_login(manager)

    response = client.get(reverse("admin:licenses_licenserequest_file", args=[request.pk]))

    assert request.file.name == f"{prop.pk}/{request.pk}.{extension}"
    assert request.file_name == "license.html"  # kept to show the manager what they chose, never as a name
    assert response["Content-Disposition"] == f'attachment; filename="{request.pk}.{extension}"'
    assert b"".join(response.streaming_content) == content


class _NoHub:
    """A hub client that must not be called."""

    calls = []

    def call(self, *args, **kwargs):
        self.calls.append(args)
        raise AssertionError("the file was sent to the hub")


def test_a_stored_file_that_fails_the_check_is_never_sent(prop):
    # A file stored before the content check existed: the first bytes of a PNG, then a web page.
    request = LicenseRequestFactory(property=prop, file=POLYGLOTS["png header, then html"], file_format="png")
    SyncState.objects.filter(pk=sync_state_ensure(prop).pk).update(known_to_hub=True)
    state = sync_state_ensure(request, kind=ResourceKind.LICENSE)

    sync_send(state.pk, schedule=False, client=_NoHub())

    state.refresh_from_db()
    assert _NoHub.calls == []
    assert state.status == SyncStatus.FAILED
    assert "is not one throughout" in state.last_error
