"""The code mapping table applied to what we send, through the real path (service -> outbox -> Celery
task -> HTTP -> sandbox): the hub receives its own codes, and a code neither mapped nor in the catalog
keeps the resource from being sent, with the reason on the object."""

import pytest
from django.db import transaction
from django.urls import reverse

from hubsandbox import state as hub_state
from integration.catalog.services.catalog import catalog_refresh
from integration.content.services import content_saved
from integration.models import CodeMapping, SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_request, sync_state_ensure
from integration.sync.services.sender import Outcome, sync_send
from tests.factories import PropertyFactory, RoomTypeFactory, korean, member
from tests.hub_fixtures import all_synced, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def save(obj, user):
    """Mark obj changed as the admin does when staff save it."""
    with transaction.atomic():
        content_saved(obj=obj, created=False, user=user)


def state_of(obj):
    return SyncState.objects.get(kind=sync_state_ensure(obj).kind, object_id=obj.pk)


def test_the_hub_receives_the_hub_codes_of_our_mapped_codes(worker):
    catalog_refresh()  # the sandbox's catalog, fetched over HTTP
    CodeMapping.objects.create(group="facility", vendor_code="our-parking", hub_code="parking")
    CodeMapping.objects.create(group="view", vendor_code="yard", hub_code="courtyard")
    prop = PropertyFactory(vendor_id="mapped", facility_tags=["our-parking", "dining.cafe"])
    korean(prop)
    room_type = RoomTypeFactory(property=prop, vendor_id="ondol", view_tags=["yard", "garden"])
    korean(room_type)
    user = member(prop, "manager")

    save(prop, user)
    save(room_type, user)

    wait_until(all_synced, message="the property and room type synced")
    assert hub_state.get_resource("property", "mapped")["facility_tags"] == ["parking", "dining.cafe"]
    assert hub_state.get_resource("roomtype", "mapped", "ondol")["view_tags"] == ["courtyard", "garden"]
    # What the hub acknowledged is kept as sent: hub codes, not ours.
    assert state_of(prop).acked_body["facility_tags"] == ["parking", "dining.cafe"]


def test_an_unknown_code_blocks_the_sync_with_the_reason_on_the_object_until_it_is_mapped(worker, client):
    catalog_refresh()
    prop = PropertyFactory(vendor_id="blocked", name="Blocked", facility_tags=["parking", "our-sauna"])
    korean(prop)
    user = member(prop, "manager")

    save(prop, user)

    wait_until(lambda: state_of(prop).status == SyncStatus.FAILED, message="the property refused")
    state = state_of(prop)
    # The worker writes it in the site's language (Korean), as every sync message.
    assert state.last_error == (
        "시설: 허브 코드 카탈로그(시설)에 our-sauna에 해당하는 코드가 없습니다. 코드 매핑 표에서 "
        "코드 카탈로그의 코드로 매핑하거나, 코드 카탈로그의 코드를 고르세요."
    )
    assert not SyncAttempt.objects.exists()  # nothing went out
    assert hub_state.get_resource("property", "blocked") is None
    client.force_login(user)
    page = client.get(reverse("admin:integration_property_change", args=[prop.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert state.last_error in page.content.decode()

    # Mapped (to a code of the catalog), and retried as staff do: the hub gets its code.
    CodeMapping.objects.create(group="facility", vendor_code="our-sauna", hub_code="wellness.sauna")
    sync_request([state], retry_failed=True)

    wait_until(all_synced, message="the property synced after the mapping")
    assert hub_state.get_resource("property", "blocked")["facility_tags"] == ["parking", "wellness.sauna"]


def test_a_mapping_to_a_code_the_catalog_no_longer_has_blocks_too(hub):
    catalog_refresh()
    CodeMapping.objects.create(group="facility", vendor_code="our-pool", hub_code="pool.retired")
    prop = PropertyFactory(vendor_id="stale", facility_tags=["our-pool"])
    korean(prop)

    assert sync_send(sync_state_ensure(prop).pk, schedule=False) == Outcome.FAILED

    assert "has no code for our-pool" in state_of(prop).last_error
    assert hub_state.get_resource("property", "stale") is None


def test_before_the_first_catalog_fetch_codes_go_mapped_or_as_they_are(hub):
    CodeMapping.objects.create(group="facility", vendor_code="our-parking", hub_code="parking")
    prop = PropertyFactory(vendor_id="early", facility_tags=["our-parking", "dining.cafe"])
    korean(prop)

    assert sync_send(sync_state_ensure(prop).pk, schedule=False) == Outcome.SENT

    assert hub_state.get_resource("property", "early")["facility_tags"] == ["parking", "dining.cafe"]


def test_two_of_our_codes_for_one_hub_code_go_once(hub):
    catalog_refresh()
    CodeMapping.objects.create(group="facility", vendor_code="lot", hub_code="parking")
    CodeMapping.objects.create(group="facility", vendor_code="garage", hub_code="parking")
    prop = PropertyFactory(vendor_id="twice", facility_tags=["lot", "garage"])
    korean(prop)

    assert sync_send(sync_state_ensure(prop).pk, schedule=False) == Outcome.SENT

    assert hub_state.get_resource("property", "twice")["facility_tags"] == ["parking"]
