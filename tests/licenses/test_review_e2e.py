"""End to end with a real worker: a manager uploads in the admin -> outbox -> Celery -> HTTP -> sandbox;
the hub's reviewer decides in the sandbox; "refresh" (or the periodic task) brings the review back."""

import hashlib
import re

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from config.celery import app as celery_app
from hubsandbox import state
from hubsandbox.models import SandboxLicense
from licenses.models import LicenseRequest
from licenses.services import license_requests_refresh_open
from licenses.tasks import license_requests_refresh_open_task
from tests.factories import PropertyFactory, korean, member
from tests.hub_fixtures import wait_until
from tests.login import Client

from .files import pdf_bytes, pdf_of_size

pytestmark = pytest.mark.django_db(transaction=True)

CHANGELIST = "admin:licenses_licenserequest_changelist"


@pytest.fixture
def prop(db):
    """A property the hub does not know yet: the first upload brings it there first."""
    prop = PropertyFactory(vendor_id="bukchon")
    korean(prop)
    return prop


@pytest.fixture
def manager(client, prop):
    client.force_login(member(prop, "manager"))
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def upload_permit(client, prop, *, number, content=None):
    response = client.post(
        reverse("admin:licenses_licenserequest_add") + "?type=permit",
        {
            "property": prop.pk,
            "permit_type": "hanok_experience",
            "permit_number": number,
            "permit_date": "2024-03-01",
            "comment": "",
            "file": SimpleUploadedFile("permit.pdf", content or pdf_bytes(), content_type="application/pdf"),
        },
    )
    assert response.status_code == 302, response.context and response.context["adminform"].form.errors
    return LicenseRequest.objects.get(permit_number=number)


def at_hub(request):
    """Wait until the hub has accepted the request; returns it fresh."""

    def accepted():
        request.refresh_from_db()
        return request.hub_id is not None and request.status == "pending"

    wait_until(accepted, message=f"license request {request.pk} at the hub")
    return request


def refresh(client, *requests):
    response = client.post(
        reverse(CHANGELIST), {"action": "refresh_from_hub", "_selected_action": [r.pk for r in requests]}
    )
    assert response.status_code == 302


def wait_for_status(request, status):
    def reached():
        request.refresh_from_db()
        return request.status == status

    wait_until(reached, message=f"license request {request.pk} {status}")
    return request


def detail(client, request):
    response = client.get(reverse("admin:licenses_licenserequest_change", args=[request.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_upload_review_refresh_and_resubmit(worker, manager, prop, superuser):
    content = pdf_of_size(30_000)
    request = at_hub(upload_permit(manager, prop, number="제2024-0001호", content=content))
    held = SandboxLicense.objects.get(pk=request.hub_id)
    assert held.file_sha256 == hashlib.sha256(content).hexdigest()

    # The hub's reviewer rejects it in the sandbox's admin.
    reviewer = Client()
    reviewer.force_login(superuser)
    reviewer.post(
        reverse("admin:hubsandbox_sandboxlicense_changelist"),
        {
            "action": "reject_selected",
            "_selected_action": [held.pk],
            "apply": "1",
            "reason": "허가번호가 보이지 않습니다.",
        },
    )

    refresh(manager, request)
    wait_for_status(request, "reject")

    assert request.reason == "허가번호가 보이지 않습니다."
    assert [entry["status"] for entry in request.history] == ["reject"]
    assert request.history[0]["reason"] == "허가번호가 보이지 않습니다."
    page = detail(manager, request)
    assert "license-badge license-reject" in page
    timeline = page[page.index('class="license-timeline"') :]
    assert timeline.index("license-event-reject") < timeline.index("license-event-submitted")
    assert "허가번호가 보이지 않습니다." in timeline

    # "Resubmit" opens the form filled in, offering the old file.
    resubmit_url = reverse("admin:licenses_licenserequest_add") + f"?resubmit={request.pk}"
    assert resubmit_url.replace("&", "&amp;") in page or resubmit_url in page
    form_page = manager.get(resubmit_url)
    form = form_page.context["adminform"].form
    assert form.initial["permit_number"] == "제2024-0001호"
    assert form.initial["permit_type"] == "hanok_experience"
    assert form.fields["reuse_file"].initial is True
    assert "permit.pdf" in str(form.fields["reuse_file"].label)

    response = manager.post(
        resubmit_url,
        {
            "property": prop.pk,
            "permit_type": "hanok_experience",
            "permit_number": "제2024-0001호",
            "permit_date": "2024-03-01",
            "comment": "번호가 보이도록 다시 스캔했습니다.",
            "reuse_file": "on",
        },
    )
    assert response.status_code == 302, response.context and response.context["adminform"].form.errors
    second = at_hub(LicenseRequest.objects.exclude(pk=request.pk).get())
    assert second.resubmission_of == request
    assert SandboxLicense.objects.get(pk=second.hub_id).file_sha256 == hashlib.sha256(content).hexdigest()

    # The hub confirms the new one; the periodic refresh brings it back.
    state.review_license(second.hub_id, "confirm")
    license_requests_refresh_open()
    second.refresh_from_db()
    assert second.status == "confirm"
    assert [entry["status"] for entry in second.history] == ["confirm"]
    assert "license-badge license-confirm" in detail(manager, second)


def test_a_newer_request_supersedes_a_pending_one_and_links_to_it(worker, manager, prop):
    first = at_hub(upload_permit(manager, prop, number="A-1"))
    second = at_hub(upload_permit(manager, prop, number="A-2"))

    refresh(manager, first)
    wait_for_status(first, "reject")

    assert first.reason == f"Superseded by request {second.hub_id}"
    assert first.history[0]["reason"] == first.reason
    page = detail(manager, first)
    newer_url = reverse("admin:licenses_licenserequest_change", args=[second.pk])
    assert re.search(
        rf'Superseded by request {second.hub_id} <a href="{re.escape(newer_url)}" class="license-newer">', page
    )
    second.refresh_from_db()
    assert second.status == "pending"


def test_the_periodic_refresh_runs_on_the_worker(worker, manager, prop):
    request = at_hub(upload_permit(manager, prop, number="B-1"))
    state.review_license(request.hub_id, "confirm")

    entry = django_settings.CELERY_BEAT_SCHEDULE["hub-license-refresh"]
    assert entry["task"] == license_requests_refresh_open_task.name
    assert entry["task"] in celery_app.tasks
    celery_app.send_task(entry["task"])

    wait_for_status(request, "confirm")
