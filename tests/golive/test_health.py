"""The health page of a property: its selector, who may open it, and both languages."""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from golive.selectors import property_health
from integration.drift.choices import DriftCheckStatus
from integration.drift.models import DriftCheck, DriftDifference
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind
from integration.sync.services.outbox import sync_mark_changed
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.factories import PropertyFactory, RoomTypeFactory, hub_content, korean, member

from .readiness import make_ready, mark_synced

pytestmark = pytest.mark.django_db


def health_url(prop):
    return reverse("admin:integration_property_health", args=[prop.pk])


def checklist_url(prop):
    return reverse("admin:integration_property_checklist", args=[prop.pk])


def state(obj, kind):
    return SyncState.objects.get(kind=kind, object_id=obj.pk)


@pytest.fixture
def troubled():
    """A property whose room type the hub refused and whose rate plans wait for it."""
    prop = PropertyFactory(name="Troubled")
    room_type, standalone, package, plans = hub_content(prop)
    synced_at = timezone.now() - datetime.timedelta(hours=2)
    for obj in (prop, standalone, package):
        SyncState.objects.filter(pk=mark_synced(obj).pk).update(last_synced_at=synced_at)
    sync_mark_changed(room_type)
    SyncState.objects.filter(kind=ResourceKind.ROOM_TYPE, object_id=room_type.pk).update(
        status=SyncStatus.FAILED, last_error="HTTP 400: max_capacity: must be at least standard_capacity"
    )
    for plan in plans:
        sync_mark_changed(plan)
        SyncState.objects.filter(kind=ResourceKind.RATE_PLAN, object_id=plan.pk).update(
            last_error="Waiting for the room type to reach the hub."
        )
    # The first plan's change is the oldest one not at the hub.
    SyncState.objects.filter(kind=ResourceKind.RATE_PLAN, object_id=plans[0].pk).update(
        pending_since=timezone.now() - datetime.timedelta(days=1)
    )
    return prop, room_type, (standalone, package), plans, synced_at


def test_health_shows_the_last_push_per_kind_and_what_failed_or_waits_with_why(troubled):
    prop, room_type, _models, plans, synced_at = troubled

    health = property_health(prop)

    pushes = {push.kind: (push.last_synced_at, push.count) for push in health.pushes}
    assert pushes[ResourceKind.PROPERTY] == (synced_at, 1)
    assert pushes[ResourceKind.RATE_PLAN_MODEL] == (synced_at, 2)
    assert pushes[ResourceKind.ROOM_TYPE] == (None, 1)  # never pushed
    rows = [(row.kind_label, row.name, row.status, row.reason) for row in health.problems]
    assert rows == [
        ("room type", room_type.vendor_id, "failed", "HTTP 400: max_capacity: must be at least standard_capacity"),
        ("rate plan", plans[0].vendor_id, "pending", "Waiting for the room type to reach the hub."),
        ("rate plan", plans[1].vendor_id, "pending", "Waiting for the room type to reach the hub."),
    ]
    assert (health.problems_total, health.failed_total) == (3, 1)
    assert health.problems[0].object_url == f"/admin/integration/roomtype/{room_type.pk}/change/"
    assert health.oldest_pending.name == plans[0].vendor_id
    assert health.oldest_pending.since < timezone.now() - datetime.timedelta(hours=23)
    assert health.catalog_fetched_at is None
    assert not health.checklist.passed


def test_a_change_is_pending_since_its_first_edit_until_the_hub_has_it(db):
    prop = PropertyFactory()
    sync_mark_changed(prop)
    first = SyncState.objects.get().pending_since
    sync_mark_changed(prop)  # a second edit before the send: still pending since the first

    assert first is not None
    assert SyncState.objects.get().pending_since == first


def test_bookings_today_and_pending_holds_come_from_the_vendor_api(client):
    cache.clear()
    _room_type, standalone, _package = sellable()
    hub = HubClient(client)
    for _ in range(2):
        assert hub.post("/bookings", create_body(standalone)).status_code == 200

    health = property_health(standalone.property)

    assert (health.bookings_today, health.pending_holds) == (2, 2)
    assert property_health(standalone.property, with_bookings=False).bookings_today is None


def test_health_costs_the_same_queries_for_a_larger_property():
    small, large = PropertyFactory(), PropertyFactory()
    make_ready(small)
    make_ready(large)
    for prop, count in ((small, 1), (large, 6)):
        for _ in range(count):
            room_type = RoomTypeFactory(property=prop)
            korean(room_type)
            sync_mark_changed(room_type)
    property_health(small)  # the catalog is parsed once per process

    with CaptureQueriesContext(connection) as small_queries:
        property_health(small)
    with CaptureQueriesContext(connection) as large_queries:
        health = property_health(large)

    assert health.problems_total == 6
    assert len(large_queries) == len(small_queries)


def test_staff_open_the_health_page_and_checklist_of_their_property_only(client, staff_a, property_a, property_b):
    client.force_login(staff_a)

    for url in (health_url(property_a), checklist_url(property_a)):
        assert client.get(url).status_code == 200
    for url in (health_url(property_b), checklist_url(property_b)):
        assert client.get(url).status_code == 404
    dashboard = client.get(reverse("admin:index")).content.decode()
    assert f'href="{health_url(property_a)}"' in dashboard
    assert health_url(property_b) not in dashboard


def test_a_superuser_opens_any_propertys_health(client, superuser, property_b):
    client.force_login(superuser)

    assert client.get(health_url(property_b)).status_code == 200


def test_the_health_page_needs_a_login(client, property_a):
    response = client.get(health_url(property_a))

    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_the_pages_speak_korean_and_english(client, troubled):
    prop = troubled[0]
    manager = member(prop, "manager")
    client.force_login(manager)

    korean_page = client.get(health_url(prop), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "운영 상태: Troubled" in korean_page
    assert "실패 또는 대기 중" in korean_page
    assert "판매 개시 준비 안 됨" in korean_page
    english_page = client.get(health_url(prop), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Health: Troubled" in english_page
    assert "Failed or waiting" in english_page
    assert "Waiting for the room type to reach the hub." in english_page

    korean_checklist = client.get(checklist_url(prop), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "판매 개시 체크리스트: Troubled" in korean_checklist
    assert "허브 코드 카탈로그를 아직 가져온 적이 없습니다. 지금 가져오세요." in korean_checklist
    english_checklist = client.get(checklist_url(prop), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The hub&#x27;s code catalog has never been fetched: fetch it now." in english_checklist


def test_health_shows_the_drift_check_and_what_is_left_to_re_send(client, superuser, troubled):
    prop, room_type, *_ = troubled
    check = DriftCheck.objects.create(property=prop, status=DriftCheckStatus.DONE, finished_at=timezone.now())
    room_state = state(room_type, ResourceKind.ROOM_TYPE)
    for field_name, resent_at in (("name", None), ("max_capacity", timezone.now())):
        DriftDifference.objects.create(
            check_run=check, state=room_state, resource=str(room_type), field=field_name, resent_at=resent_at
        )
    client.force_login(superuser)

    english = client.get(health_url(prop), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    korean_page = client.get(health_url(prop), HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert property_health(prop).drift.differences == 1
    assert "1 difference" in english
    assert reverse("admin:integration_driftcheck_change", args=[check.pk]) in english
    assert "차이 1건" in korean_page
