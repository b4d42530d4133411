"""Submitting license requests through the sync engine to the sandbox over real HTTP: one POST, the hub's
answer kept, the file never in a log, a refusal kept for a retry."""

import base64
import hashlib
import io
import json
import logging

import pytest
from django.core.files.base import ContentFile

from hubsandbox.faults import inject_faults
from hubsandbox.models import SandboxLicense
from integration.hub import payloads
from integration.models import ResourceKind, SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_state_ensure
from integration.sync.services.sender import Outcome, sync_send
from licenses import resources, services
from licenses.choices import LicenseType, ReviewStatus
from tests.factories import PropertyFactory, korean

from .factories import submit_permit
from .files import pdf_of_size, png_bytes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def prop(hub):
    """A property the hub knows."""
    prop = PropertyFactory(vendor_id="seochon")
    korean(prop)
    assert sync_send(sync_state_ensure(prop).pk, schedule=False) == Outcome.SENT
    return prop


def send(request):
    """Send the request's submission in-process, as the worker's task does."""
    return sync_send(SyncState.objects.get(kind=ResourceKind.LICENSE, object_id=request.pk).pk, schedule=False)


def state_of(request):
    return SyncState.objects.get(kind=ResourceKind.LICENSE, object_id=request.pk)


def test_a_submission_is_posted_once_and_the_hubs_answer_kept(hub, prop):
    content = pdf_of_size(50_000)
    request = submit_permit(prop, content=content, comment="신규 허가증")

    assert send(request) == Outcome.SENT

    attempt = SyncAttempt.objects.get(state=state_of(request))
    assert (attempt.method, attempt.path, attempt.status_code) == (
        "POST",
        "/gds/vendor/properties/seochon/licenses",
        200,
    )
    held = SandboxLicense.objects.get()
    assert held.data == {"type": "hanok_experience", "number": "제2024-0001호", "date": "2024-03-01"}
    assert held.comment == "신규 허가증"
    # The hub got exactly the stored file's bytes.
    assert (held.file_format, held.file_bytes) == ("pdf", len(content))
    assert held.file_sha256 == hashlib.sha256(content).hexdigest()
    request.refresh_from_db()
    assert request.hub_id == held.pk
    assert request.status == ReviewStatus.PENDING
    assert request.reason == ""
    assert request.hub_created_at == held.created_at.replace(microsecond=0)
    assert state_of(request).status == SyncStatus.SYNCED

    # Known to the hub: nothing more is ever sent for it, even on a full resync.
    assert send(request) == Outcome.UNCHANGED
    assert sync_send(state_of(request).pk, schedule=False, full=True) == Outcome.UNCHANGED
    assert SandboxLicense.objects.count() == 1
    assert SyncAttempt.objects.filter(state=state_of(request)).count() == 1


def test_a_business_submission_carries_every_field(hub, prop):
    request = services.license_request_submit(
        property=prop,
        type="business",
        fields={
            "business_type": "corporation",
            "business_number": "2208162517",
            "owner_name": "김민수",
            "open_date": "2020-05-04",
            "business_name": "주식회사 서촌",
            "business_address": "서울 종로구 자하문로 1",
            "industry": "숙박업",
            "category": "한옥체험업",
        },
        file=ContentFile(png_bytes(), name="registration.png"),
    )

    send(request)

    held = SandboxLicense.objects.get()
    assert held.type == "business"
    assert held.data == {
        "type": "corporation",
        "number": "2208162517",
        "owner_name": "김민수",
        "open_date": "2020-05-04",
        "name": "주식회사 서촌",
        "address": "서울 종로구 자하문로 1",
        "industry": "숙박업",
        "category": "한옥체험업",
    }
    assert held.comment is None
    assert held.file_format == "png"


def test_the_file_is_never_in_the_attempt_log_the_outbox_or_the_logs(hub, prop, caplog):
    content = pdf_of_size(120_000)
    encoded = base64.b64encode(content).decode()
    request = submit_permit(prop, content=content)

    with caplog.at_level(logging.DEBUG):
        send(request)

    attempt = SyncAttempt.objects.get(state=state_of(request))
    assert attempt.request_body["data"]["file"] == f"[{len(encoded)} characters removed]"
    assert attempt.request_body["data"]["number"] == "제2024-0001호"
    assert encoded[:64] not in json.dumps(attempt.request_body)
    assert encoded[:64] not in json.dumps(state_of(request).acked_body)
    assert encoded[:64] not in caplog.text
    assert (
        encoded[:64]
        not in hub.request_log(method="POST", path_prefix="/gds/vendor/properties/seochon/lic").get().request_body
    )


def test_a_request_waits_for_its_property_to_reach_the_hub(hub):
    prop = PropertyFactory(vendor_id="not-yet")
    korean(prop)
    request = submit_permit(prop)

    assert send(request) == Outcome.WAITING
    assert not SandboxLicense.objects.exists()

    sync_send(sync_state_ensure(prop).pk, schedule=False)
    assert send(request) == Outcome.SENT
    assert SandboxLicense.objects.get().property.vendor_id == "not-yet"


def test_a_refused_submission_keeps_the_entries_and_file_and_retry_resends_them(hub, prop, monkeypatch):
    content = pdf_of_size(4_000)
    request = submit_permit(prop, content=content, permit_number="A-7")
    # Something between our storage and the hub corrupts the file's base64: the hub refuses it (400).
    monkeypatch.setattr(resources, "license_file_base64", lambda field_file, file_format: "%%% not base64 %%%")

    assert send(request) == Outcome.FAILED

    state = state_of(request)
    assert state.status == SyncStatus.FAILED
    assert state.last_status_code == 400
    assert state.last_error.startswith("data.file: must be base64")
    assert not SandboxLicense.objects.exists()
    request.refresh_from_db()
    assert (request.permit_number, request.hub_id, request.status) == ("A-7", None, "")
    with request.file.open("rb") as stored:
        assert stored.read() == content
    # Not retried by itself...
    assert send(request) == Outcome.FAILED

    monkeypatch.undo()
    # ..."retry" sends it again as it is.
    assert services.license_requests_retry(license_requests=[request]) == 1
    assert send(request) == Outcome.SENT
    request.refresh_from_db()
    assert request.status == ReviewStatus.PENDING
    assert SandboxLicense.objects.get().file_sha256 == hashlib.sha256(content).hexdigest()


def test_a_busy_hub_is_retried_by_the_engine(hub, prop):
    request = submit_permit(prop)

    with inject_faults(error_rate=1.0, seed=1):
        assert send(request) == Outcome.RETRY
    assert state_of(request).status == SyncStatus.PENDING
    assert send(request) == Outcome.SENT
    assert SandboxLicense.objects.count() == 1


def test_a_request_whose_file_is_gone_fails_with_a_message_instead_of_crashing(hub, prop):
    request = submit_permit(prop)
    request.file.storage.delete(request.file.name)

    assert send(request) == Outcome.FAILED

    state = state_of(request)
    assert state.status == "failed"
    assert "file is missing" in state.last_error


def test_hub_sync_names_a_failed_license_in_its_summary(hub, prop):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    request = submit_permit(prop)
    request.file.storage.delete(request.file.name)
    out = io.StringIO()

    with pytest.raises(CommandError):
        call_command("hub_sync", stdout=out, verbosity=0)

    assert f"license {request}" in out.getvalue()
    assert "file is missing" in out.getvalue()


@pytest.mark.django_db(transaction=False)
def test_the_hub_bodies_read_the_license_words_the_model_holds():
    # The hub's bodies (integration.hub.payloads) cannot import licenses: their spec words must stay the
    # model's choices, or a status the hub answers would be dropped as unknown.
    assert set(ReviewStatus.values) == payloads.LICENSE_REVIEW_STATUSES
    assert {payloads.LICENSE_PERMIT, payloads.LICENSE_BUSINESS} == set(LicenseType.values)
