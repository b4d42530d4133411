"""The license requests screen: newest first, badges, filters, the masked number, the review timeline,
the link to a superseding request, resubmit and retry."""

import datetime
import os

import pytest
from django.urls import reverse
from django.utils import timezone

from integration.access.services import membership_grant
from integration.models import ResourceKind, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_state_ensure
from licenses.models import LicenseRequest
from tests.factories import member

from .factories import BusinessLicenseRequestFactory, LicenseRequestFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:licenses_licenserequest_changelist"


@pytest.fixture
def manager(client, manager_a):
    client.force_login(manager_a)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def change_url(request):
    return reverse("admin:licenses_licenserequest_change", args=[request.pk])


def with_state(request, status):
    state = sync_state_ensure(request, kind=ResourceKind.LICENSE)
    SyncState.objects.filter(pk=state.pk).update(
        status=status, last_error="data.file: broken" if status == SyncStatus.FAILED else ""
    )
    return request


def listed(client, **query):
    response = client.get(reverse(CHANGELIST), query)
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


def test_newest_first_with_badges(manager, property_a):
    old = with_state(LicenseRequestFactory(property=property_a, hub_id=1, status="confirm"), SyncStatus.SYNCED)
    rejected = with_state(
        LicenseRequestFactory(property=property_a, hub_id=2, status="reject", reason="흐림"), SyncStatus.SYNCED
    )
    failed = with_state(LicenseRequestFactory(property=property_a), SyncStatus.FAILED)
    sending = with_state(LicenseRequestFactory(property=property_a), SyncStatus.PENDING)

    assert listed(manager) == [sending, failed, rejected, old]
    page = manager.get(reverse(CHANGELIST)).content.decode()
    assert "license-badge license-confirm" in page
    assert "license-badge license-reject" in page
    assert "sync-badge sync-failed" in page
    assert "data.file: broken" in page
    assert "sync-badge sync-pending" in page


def test_filters_by_type_and_status(manager, property_a):
    permit = with_state(LicenseRequestFactory(property=property_a, hub_id=1, status="pending"), SyncStatus.SYNCED)
    business = with_state(
        BusinessLicenseRequestFactory(property=property_a, hub_id=2, status="reject"), SyncStatus.SYNCED
    )
    failed = with_state(LicenseRequestFactory(property=property_a), SyncStatus.FAILED)
    unsent = with_state(BusinessLicenseRequestFactory(property=property_a), SyncStatus.PENDING)

    assert listed(manager, type="business") == [unsent, business]
    assert listed(manager, status="pending") == [permit]
    assert listed(manager, status="reject") == [business]
    assert listed(manager, status="failed") == [failed]
    assert listed(manager, status="unsent") == [unsent]
    assert listed(manager, type="permit", status="failed") == [failed]


def test_the_business_number_is_only_ever_shown_masked(manager, property_a):
    request = BusinessLicenseRequestFactory(property=property_a, business_number="2208162517")

    list_page = manager.get(reverse(CHANGELIST)).content.decode()
    detail_page = manager.get(change_url(request)).content.decode()

    for page in (list_page, detail_page):
        assert "22081*****" in page
        assert "2208162517" not in page
        assert "62517" not in page

    # Once read back, the hub's own masking is shown.
    LicenseRequest.objects.filter(pk=request.pk).update(hub_number="220-81-*****")
    assert "220-81-*****" in manager.get(change_url(request)).content.decode()


def test_the_detail_shows_the_history_newest_first_ending_with_the_submission(manager, property_a):
    submitted = timezone.make_aware(datetime.datetime(2026, 11, 1, 9, 0))
    request = LicenseRequestFactory(
        property=property_a,
        hub_id=5,
        status="reject",
        reason="만료됨",
        hub_created_at=submitted,
        history=[
            {"status": "reject", "reason": "만료됨", "created_at": "2026-11-03T10:00:00+09:00"},
            {"status": "confirm", "reason": None, "created_at": "2026-11-02T10:00:00+09:00"},
        ],
    )

    page = manager.get(change_url(request)).content.decode()

    timeline = page[page.index('class="license-timeline"') :]
    order = [timeline.index(f"license-event-{name}") for name in ("reject", "confirm", "submitted")]
    assert order == sorted(order)
    assert "2026-11-03 10:00" in timeline
    assert "2026-11-01 09:00" in timeline
    assert "만료됨" in timeline


def test_a_superseded_request_links_to_the_newer_one(manager, property_a):
    newer = LicenseRequestFactory(property=property_a, hub_id=43, status="pending")
    older = LicenseRequestFactory(
        property=property_a,
        hub_id=42,
        status="reject",
        reason="Superseded by request 43",
        history=[{"status": "reject", "reason": "Superseded by request 43", "created_at": "2026-11-03T10:00:00+09:00"}],
    )

    page = manager.get(change_url(older)).content.decode()

    assert page.count(f'<a href="{change_url(newer)}" class="license-newer">') == 2  # review and timeline


def test_superseded_by_a_request_not_made_here_shows_the_reason_without_a_link(manager, property_a):
    older = LicenseRequestFactory(property=property_a, hub_id=42, status="reject", reason="Superseded by request 99")

    page = manager.get(change_url(older)).content.decode()

    assert "Superseded by request 99" in page
    assert "license-newer" not in page


@pytest.mark.parametrize(
    ("status", "sync_status", "offered"),
    [
        ("reject", SyncStatus.SYNCED, True),
        ("", SyncStatus.FAILED, True),
        ("pending", SyncStatus.SYNCED, False),
        ("confirm", SyncStatus.SYNCED, False),
        ("", SyncStatus.PENDING, False),
    ],
)
def test_resubmit_is_offered_for_rejected_and_failed_requests(manager, property_a, status, sync_status, offered):
    request = with_state(
        LicenseRequestFactory(property=property_a, hub_id=7 if status else None, status=status), sync_status
    )
    resubmit = reverse("admin:licenses_licenserequest_add") + f"?resubmit={request.pk}"

    page = manager.get(change_url(request)).content.decode()
    form_page = manager.get(resubmit)

    assert (resubmit in page) is offered
    if offered:
        assert form_page.context["adminform"].form.initial["permit_number"] == request.permit_number
    else:
        assert "adminform" not in form_page.context  # the choice of type instead


def test_a_business_resubmission_is_filled_in_with_the_full_number(manager, property_a):
    request = BusinessLicenseRequestFactory(property=property_a, hub_id=3, status="reject", owner_name="박서준")

    form = (
        manager.get(reverse("admin:licenses_licenserequest_add") + f"?resubmit={request.pk}").context["adminform"].form
    )

    assert form.initial["business_number"] == "2208162517"
    assert form.initial["owner_name"] == "박서준"
    assert form.initial["property"] == property_a.pk


def test_retry_requeues_failed_submissions(manager, property_a):
    request = with_state(LicenseRequestFactory(property=property_a), SyncStatus.FAILED)

    manager.post(reverse(CHANGELIST), {"action": "retry_failed", "_selected_action": [request.pk]})

    assert SyncState.objects.get(kind=ResourceKind.LICENSE, object_id=request.pk).status == SyncStatus.PENDING


def test_managers_cannot_change_or_delete_a_request(manager, property_a):
    request = LicenseRequestFactory(property=property_a)

    response = manager.post(change_url(request), {"permit_number": "changed"})
    assert response.status_code == 403
    assert manager.post(reverse("admin:licenses_licenserequest_delete", args=[request.pk])).status_code == 403
    request.refresh_from_db()
    assert request.permit_number != "changed"


def test_a_superuser_deleting_a_request_removes_its_file(
    client, superuser, property_a, django_capture_on_commit_callbacks
):
    request = LicenseRequestFactory(property=property_a)
    path = request.file.path
    assert os.path.exists(path)
    client.force_login(superuser)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:licenses_licenserequest_delete", args=[request.pk]), {"post": "yes"})

    assert response.status_code == 302
    assert not LicenseRequest.objects.exists()
    assert not os.path.exists(path)


def test_the_manager_of_two_properties_picks_one(client, property_a, property_b):
    user = member(property_a, "manager")
    membership_grant(user=user, property=property_b, role="manager")
    client.force_login(user)

    form = client.get(reverse("admin:licenses_licenserequest_add") + "?type=business").context["adminform"].form

    assert set(form.fields["property"].queryset) == {property_a, property_b}
    assert "property" not in form.initial


@pytest.mark.parametrize(("status", "sync_status"), [("reject", SyncStatus.SYNCED), ("", SyncStatus.FAILED)])
def test_a_rejected_or_failed_request_leads_with_a_primary_resubmit_and_no_green_badge(
    manager, property_a, status, sync_status
):
    request = with_state(
        LicenseRequestFactory(property=property_a, hub_id=7 if status else None, status=status), sync_status
    )

    page = manager.get(change_url(request)).content.decode()

    assert 'class="button default license-resubmit"' in page
    assert page.index("license-resubmit") < page.index("<fieldset")  # before the request's fields
    assert "sync-synced" not in page


def test_a_request_under_review_keeps_its_synced_badge(manager, property_a):
    request = with_state(LicenseRequestFactory(property=property_a, hub_id=7, status="pending"), SyncStatus.SYNCED)

    page = manager.get(change_url(request)).content.decode()

    assert "sync-synced" in page
    assert "license-resubmit" not in page


def test_the_uploader_is_named_without_a_link_a_manager_could_not_follow(manager, manager_a, property_a):
    request = LicenseRequestFactory(property=property_a, created_by=manager_a)

    page = manager.get(change_url(request)).content.decode()

    assert manager_a.get_username() in page
    assert "/admin/auth/user/" not in page
    assert manager.get(reverse("admin:auth_user_change", args=[manager_a.pk])).status_code == 403
