"""Licenses are for the property's managers only: staff, other properties' managers and strangers can
neither list, open, refresh nor download them; the files have no public URL."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from integration.access.services import membership_grant
from licenses.files import license_storage
from tests.factories import PropertyFactory, member

from .factories import BusinessLicenseRequestFactory, LicenseRequestFactory
from .files import pdf_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def request_a(property_a):
    return LicenseRequestFactory(property=property_a, hub_id=11, status="pending")


def urls(request):
    return {
        "change": reverse("admin:licenses_licenserequest_change", args=[request.pk]),
        "history": reverse("admin:licenses_licenserequest_history", args=[request.pk]),
        "file": reverse("admin:licenses_licenserequest_file", args=[request.pk]),
    }


def assert_shut_out(client, request):
    for name, url in urls(request).items():
        assert client.get(url).status_code in (403, 404), name
    assert client.post(reverse("admin:licenses_licenserequest_refresh", args=[request.pk])).status_code == 404
    listing = client.get(reverse("admin:licenses_licenserequest_changelist"))
    assert listing.status_code == 403 or request not in listing.context["cl"].result_list


def test_staff_of_the_property_cannot_see_or_download_its_licenses(client, staff_a, request_a):
    client.force_login(staff_a)

    assert client.get(reverse("admin:licenses_licenserequest_changelist")).status_code == 403
    assert client.get(reverse("admin:licenses_licenserequest_add") + "?type=permit").status_code == 403
    assert client.get(urls(request_a)["file"]).status_code == 404
    assert_shut_out(client, request_a)
    assert "licenses" not in {app["app_label"] for app in client.get(reverse("admin:index")).context["app_list"]}


def test_a_manager_of_another_property_cannot_see_or_download_them(client, property_b, request_a):
    manager_b = member(property_b, "manager")
    own = LicenseRequestFactory(property=property_b)
    client.force_login(manager_b)

    listing = client.get(reverse("admin:licenses_licenserequest_changelist"))
    assert list(listing.context["cl"].result_list) == [own]
    assert client.get(urls(request_a)["file"]).status_code == 404
    assert client.get(urls(request_a)["change"]).status_code == 404
    assert_shut_out(client, request_a)
    # A resubmission of someone else's request does not fill the form with it.
    response = client.get(reverse("admin:licenses_licenserequest_add") + f"?resubmit={request_a.pk}")
    assert "adminform" not in response.context
    assert request_a.permit_number not in response.content.decode()


def test_staff_at_one_property_and_manager_at_another_sees_only_the_managed_one(
    client, property_a, property_b, request_a
):
    user = member(property_a, "staff")
    membership_grant(user=user, property=property_b, role="manager")
    own = LicenseRequestFactory(property=property_b)
    client.force_login(user)

    assert list(client.get(reverse("admin:licenses_licenserequest_changelist")).context["cl"].result_list) == [own]
    assert_shut_out(client, request_a)
    form = client.get(reverse("admin:licenses_licenserequest_add") + "?type=permit").context["adminform"].form
    assert list(form.fields["property"].queryset) == [property_b]


def test_a_manager_cannot_upload_for_a_property_they_only_staff(client, property_a, property_b):
    user = member(property_b, "manager")
    membership_grant(user=user, property=property_a, role="staff")
    client.force_login(user)

    response = client.post(
        reverse("admin:licenses_licenserequest_add") + "?type=permit",
        {
            "property": property_a.pk,
            "permit_type": "hostel",
            "permit_number": "1",
            "permit_date": "2024-01-01",
            "file": SimpleUploadedFile("p.pdf", pdf_bytes()),
        },
    )

    assert response.status_code == 200
    assert "property" in response.context["adminform"].form.errors
    assert not property_a.license_requests.exists()


def test_strangers_are_sent_to_the_login_page(client, request_a):
    response = client.get(urls(request_a)["file"])

    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_the_manager_downloads_the_file_as_an_attachment(client, manager_a, request_a):
    client.force_login(manager_a)

    response = client.get(urls(request_a)["file"])

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == pdf_bytes()
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment;")
    assert f'filename="{request_a.pk}.pdf"' in response["Content-Disposition"]
    assert {"private", "no-store"} <= {part.strip() for part in response["Cache-Control"].split(",")}
    assert response["X-Content-Type-Options"] == "nosniff"


def test_a_superuser_sees_every_property(client, superuser, request_a):
    other = LicenseRequestFactory(property=PropertyFactory())
    client.force_login(superuser)

    listing = client.get(reverse("admin:licenses_licenserequest_changelist"))

    assert set(listing.context["cl"].result_list) == {request_a, other}
    assert client.get(urls(request_a)["file"]).status_code == 200


def test_files_have_no_url_and_live_outside_public_roots(settings, property_a):
    request = BusinessLicenseRequestFactory(property=property_a)

    with pytest.raises(ValueError, match="no URL"):
        license_storage().url(request.file.name)
    with pytest.raises(ValueError, match="no URL"):
        _ = request.file.url
    path = request.file.path
    assert path.startswith(str(settings.LICENSE_FILES_ROOT))
    for public in (settings.MEDIA_ROOT, settings.STATIC_ROOT):
        assert not path.startswith(str(public))


def test_only_the_manager_role_holds_license_permissions(staff_a, manager_a):
    for action in ("view", "add", "change", "delete"):
        assert not staff_a.has_perm(f"licenses.{action}_licenserequest")
    assert manager_a.has_perm("licenses.view_licenserequest")
    assert manager_a.has_perm("licenses.add_licenserequest")
    # Uploaded requests are never edited or deleted by managers: the hub has no such operations.
    assert not manager_a.has_perm("licenses.change_licenserequest")
    assert not manager_a.has_perm("licenses.delete_licenserequest")
