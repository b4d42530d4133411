"""A manager uploads a PDF permit in a real browser and sees it pending at the hub."""

import pytest
from playwright.sync_api import expect

from hubsandbox.models import SandboxLicense
from licenses.models import LicenseRequest
from tests.factories import PropertyFactory, korean, member
from tests.licenses.files import pdf_of_size

from .test_content import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def private_files(settings, tmp_path):
    settings.LICENSE_FILES_ROOT = tmp_path / "private-licenses"


def test_upload_a_pdf_permit_and_see_it_pending(page, live_server, worker, tmp_path):
    prop = PropertyFactory(vendor_id="gahoe-hanok", name="Gahoe Hanok")
    korean(prop)
    manager = member(prop, "manager")
    scan = tmp_path / "permit-scan.pdf"
    scan.write_bytes(pdf_of_size(80_000))
    log_in(page, live_server, manager)

    page.goto(f"{live_server.url}/admin/licenses/licenserequest/")
    page.click("a.license-upload-permit")
    page.select_option("#id_permit_type", "hanok_experience")
    page.fill("#id_permit_number", "제2024-종로-0001호")
    page.fill("#id_permit_date", "2024-03-01")
    page.set_input_files("#id_file", str(scan))
    page.fill("#id_comment", "한옥체험업 지정증입니다.")
    page.click("input[name=_save]")

    # On the request's page (one message): its review turns "pending" once the hub has accepted it.
    expect(page.locator(".messagelist li")).to_have_count(1)
    badge = page.locator(".field-review .license-badge")
    for _ in range(60):
        if badge.count() and "license-pending" in (badge.first.get_attribute("class") or ""):
            break
        page.wait_for_timeout(250)
        page.reload()
    expect(badge.first).to_have_class("license-badge license-pending")

    request = LicenseRequest.objects.get()
    held = SandboxLicense.objects.get(pk=request.hub_id)
    assert (held.file_format, held.file_bytes) == ("pdf", scan.stat().st_size)
    assert held.data["number"] == "제2024-종로-0001호"
    assert page.url.endswith(f"/{request.pk}/change/")

    # The request offers the file to download.
    expect(page.locator("a.license-file")).to_have_text("permit-scan.pdf")
    with page.expect_download() as download:
        page.click("a.license-file")
    # Downloaded under our own name, never the one it was uploaded with.
    assert download.value.suggested_filename == f"{request.pk}.pdf"
