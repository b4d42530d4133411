"""The sync screens as staff read them: states name their object in the active language, every label
is translated, bodies are indented and paths decoded, and the attempts list says what each was about."""

import io
import json
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.urls import reverse

from integration.models import SyncAttempt, SyncState
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory, hub_content, korean, member

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def synced(hub):
    """A property whose room type is 대청 스위트 (Daecheong suite in English), sent to the sandbox."""
    prop = PropertyFactory(vendor_id="서촌-hanok", name="서촌 한옥")
    korean(prop, name="서촌 한옥")
    room_type, standalone, package, plans = hub_content(prop)
    room_type.name = "대청 스위트"
    room_type.save()
    room_type.translations.create(locale="en-US", name="Daecheong suite")
    for obj in (prop, room_type, standalone, package, *plans):
        sync_state_ensure(obj)
    call_command("hub_sync", "--property", prop.vendor_id, stdout=io.StringIO())
    return prop, room_type


def page(client, url, language):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_the_states_list_names_each_object_in_the_users_language(client, superuser, synced):
    client.force_login(superuser)
    url = reverse("admin:integration_syncstate_changelist")

    english, korean_page = page(client, url, "en"), page(client, url, "ko")

    assert "Room type Daecheong suite" in english
    assert "객실 타입 대청 스위트" in korean_page
    assert "Property 서촌 한옥" in english


def test_a_state_page_translates_every_label_and_indents_the_acknowledged_body(client, superuser, synced):
    _prop, room_type = synced
    state = SyncState.objects.get(kind="roomtype", object_id=room_type.pk)
    client.force_login(superuser)
    url = reverse("admin:integration_syncstate_change", args=[state.pk])

    english, korean_page = page(client, url, "en"), page(client, url, "ko")

    for label in ("Version", "Sent version", "Body the hub acknowledged", "Queued at", "Held by the worker until"):
        assert f">{label}:<" in english, label
    for label in ("버전", "전송한 버전", "허브가 받은 본문", "대기열 등록 시각", "워커 점유 만료 시각"):
        assert f">{label}:<" in korean_page, label
    assert "Acked body" not in english
    assert "Lease until" not in english
    assert "객실 타입 대청 스위트" in korean_page
    body = json.dumps(state.acked_body, ensure_ascii=False, indent=2)
    assert body.splitlines()[1].startswith("  ")
    assert body.replace('"', "&quot;") in english


def test_a_row_retried_after_the_hub_failed_reads_waiting_for_the_hub_not_failed(client, superuser, synced):
    _prop, room_type = synced
    state = SyncState.objects.get(kind="roomtype", object_id=room_type.pk)
    SyncState.objects.filter(pk=state.pk).update(status="pending", failures=40, next_attempt_at=state.updated_at)
    client.force_login(superuser)
    url = reverse("admin:integration_syncstate_changelist")

    english, korean_page = page(client, url, "en"), page(client, url, "ko")

    assert english.count("Waiting for the hub") == 1
    assert korean_page.count("허브 응답 대기 중") == 1
    assert 'class="sync-badge sync-failed"' not in english


def test_the_attempts_list_has_an_object_column_and_decoded_paths(client, superuser, synced):
    client.force_login(superuser)
    attempt = SyncAttempt.objects.filter(state__kind="roomtype").latest("id")
    assert quote("서촌-hanok") in attempt.path  # sent escaped, as HTTP wants it

    listing = page(client, reverse("admin:integration_syncattempt_changelist"), "en")
    detail = page(client, reverse("admin:integration_syncattempt_change", args=[attempt.pk]), "en")

    assert "Room type Daecheong suite" in listing
    assert "/properties/서촌-hanok/roomtypes" in listing
    assert quote("서촌-hanok") not in listing
    assert '<pre class="vh-log-body">{\n  &quot;' in detail


def test_naming_a_page_of_states_costs_one_query_per_kind(client, superuser, synced, django_assert_max_num_queries):
    client.force_login(superuser)
    # Session, user, the header's inbox badge, count, page, and one per kind (property, room type, two for
    # rate plan models, rate plans with their names): not one per row.
    with django_assert_max_num_queries(17):
        page(client, reverse("admin:integration_syncstate_changelist"), "en")


@pytest.mark.parametrize(("role", "offered"), [("staff", False), ("manager", True)])
def test_the_resource_filter_offers_license_requests_only_to_who_may_see_them(client, property_a, role, offered):
    client.force_login(member(property_a, role))

    html = page(client, reverse("admin:integration_syncstate_changelist"), "en")

    assert ("?kind__exact=license" in html) is offered
    assert "?kind__exact=property" in html
    assert client.get(reverse("admin:integration_syncstate_changelist"), {"kind__exact": "property"}).status_code == 200
