"""Hub environments: the switch from staging to production re-creates everything at the new hub, a 404
on PATCH re-creates the resource, and what one hub knows never carries over to the other. Through the
real path (service -> outbox -> Celery task -> HTTP -> sandbox), staging at /sandbox/ and production at
/sandbox/production/."""

import threading

import pytest
from django.db import close_old_connections, transaction
from django.utils import translation
from django.utils.translation import gettext

from hubsandbox import state as hub_state
from hubsandbox.models import SandboxProperty
from integration.ari.dates import DateRange
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.catalog.models import CatalogSnapshot
from integration.catalog.services.catalog import catalog_refresh
from integration.content.services import content_saved
from integration.hub.client import get_hub_client
from integration.hub.environments import HubEnvironment
from integration.hub.models import HubConnection, HubSwitch
from integration.hub.selectors import hub_environment_active
from integration.models import ResourceKind, SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.selectors import hub_switch_progress
from integration.sync.services import outbox
from integration.sync.services.sender import Outcome, sync_send
from integration.sync.services.switch import SwitchRefused, hub_environment_switch
from licenses.selectors import license_property_ids_to_refresh
from tests.factories import PropertyFactory, hub_content, korean, member
from tests.hub_fixtures import all_synced, hub_ids, wait_until
from tests.integration.ari.factories import day
from tests.licenses.factories import LicenseRequestFactory

pytestmark = pytest.mark.django_db(transaction=True)

PRODUCTION = HubEnvironment.PRODUCTION


def synced_property(vendor_id):
    """A property with a room type, the standalone and a package model, two rate plans, rates and
    availability for three days, all changed through the services and synced to the staging hub."""
    prop = PropertyFactory(vendor_id=vendor_id)
    room_type, standalone, package, plans = hub_content(prop)
    user = member(prop, "manager")
    with transaction.atomic():
        for obj in (prop, room_type, standalone, package, *plans):
            content_saved(obj=obj, created=True, user=user)
    days = (DateRange(day(1), day(3)),)
    ari_edit_apply(AriEdit(ranges=days, operation=Operation.SET, value=120_000, rate_plans=(plans[0],)))
    ari_edit_apply(AriEdit(ranges=days, operation=Operation.SET_AVAILABILITY, value=4, room_types=(room_type,)))
    wait_until(all_synced, message="everything at the staging hub")
    return prop, room_type, standalone, package, plans


def test_switch_recreates_everything_at_the_production_hub(worker, production_hub):
    prop, room_type, standalone, package, plans = synced_property("seaside")
    assert hub_state.get_resource("property", "seaside", hub=PRODUCTION) is None

    switch = hub_environment_switch(to=PRODUCTION)

    assert hub_environment_active() == PRODUCTION
    # 6 content resources, the rates of both plans (the package one has none to send) and the room type's stock
    assert switch.resources == SyncState.objects.count() == 9
    wait_until(all_synced, message="everything at the production hub")
    for obj in (prop, room_type, standalone, package, *plans):
        kind = ResourceKind.PROPERTY if obj is prop else outbox.KIND_OF_MODEL[type(obj)]
        held = hub_state.get_resource(kind, *hub_ids(obj), hub=PRODUCTION)
        assert held is not None, f"the production hub does not know {obj}"
        assert held == hub_state.get_resource(kind, *hub_ids(obj))  # the same as staging holds
    rates = hub_state.rates_of("seaside", room_type.vendor_id, plans[0].vendor_id, hub=PRODUCTION)
    assert [values["rate"] for values in rates.values()] == [120_000] * 3
    assert list(hub_state.avails_of("seaside", room_type.vendor_id, hub=PRODUCTION).values()) == [4, 4, 4]
    # The new hub's code catalog is fetched after the switch.
    wait_until(
        lambda: CatalogSnapshot.objects.filter(environment=PRODUCTION).exists(), message="the production catalog"
    )
    # Created, not patched: the new hub saw a POST for each resource and the ARI calls; besides, only reads:
    # the catalog, and the property's channel statuses and the channels they name (ours were the old hub's).
    production_log = hub_state.request_log(hub=PRODUCTION)
    reads = {entry.path for entry in production_log if entry.method == "GET"}
    channel_reads = (
        "/gds/vendor/channels/",
        "/gds/vendor/properties/seaside/channels",
        "/gds/vendor/properties/seaside/open-requests",
    )
    assert all(path == "/gds/vendor/meta" or path.startswith(channel_reads) for path in reads), reads
    writes = [entry for entry in production_log if entry.method != "GET"]
    assert {entry.method for entry in writes} == {"POST"}
    assert all(entry.response_status == 200 for entry in writes)
    progress = hub_switch_progress(switch)
    assert (progress.synced, progress.pending, progress.failed, progress.done) == (9, 0, 0, True)
    assert set(SyncState.objects.values_list("environment", flat=True)) == {PRODUCTION}


def test_a_patch_the_hub_answers_404_to_recreates_the_resource(worker, production_hub):
    prop = PropertyFactory(vendor_id="lost")
    korean(prop)
    with transaction.atomic():
        content_saved(obj=prop, created=True, user=member(prop, "manager"))
    wait_until(all_synced, message="the property at the hub")
    SandboxProperty.objects.filter(vendor_id="lost").delete()  # the hub lost it behind our back

    with transaction.atomic():
        prop.name = "Found again"
        prop.email = "found@example.com"
        prop.save()
        content_saved(obj=prop, created=False, user=prop.memberships.get().user)
    wait_until(lambda: all_synced() and SyncAttempt.objects.filter(method="PATCH").exists(), message="the edit")

    attempts = list(SyncAttempt.objects.filter(state__kind=ResourceKind.PROPERTY).order_by("id"))
    assert [(a.method, a.status_code) for a in attempts[-2:]] == [("PATCH", 404), ("POST", 200)]
    assert hub_state.get_resource("property", "lost")["email"] == "found@example.com"
    state = SyncState.objects.get(kind=ResourceKind.PROPERTY, object_id=prop.pk)
    assert (state.status, state.known_to_hub, state.last_error) == (SyncStatus.SYNCED, True, "")


def test_a_property_without_korean_is_not_sent_and_says_why(worker, production_hub, client, superuser):
    prop = PropertyFactory(vendor_id="no-korean")
    with transaction.atomic():
        outbox.sync_mark_changed(prop)
    state_filter = {"kind": ResourceKind.PROPERTY, "object_id": prop.pk, "status": SyncStatus.FAILED}
    wait_until(lambda: SyncState.objects.filter(**state_filter).exists(), message="the refusal")

    # Stored in the language the worker speaks (its thread's, Korean by default), shown as stored.
    message = "Add a Korean (ko-KR) translation first: the hub requires one to create %(what)s."
    expected = set()
    for language in ("en", "ko"):
        with translation.override(language):
            expected.add(gettext(message) % {"what": gettext("a property")})
    stored = SyncState.objects.get(kind=ResourceKind.PROPERTY, object_id=prop.pk).last_error
    assert stored in expected
    assert not hub_state.request_log(path_prefix="/gds/vendor/properties").exists()
    client.force_login(superuser)
    page = client.get(f"/admin/integration/property/{prop.pk}/change/", HTTP_ACCEPT_LANGUAGE="en")
    assert stored in page.content.decode()


def test_a_switch_needs_the_environment_configured_and_another_one(production_hub, settings):
    settings.HUB_PRODUCTION_API_TOKEN = ""
    with pytest.raises(SwitchRefused, match="Production hub has no base URL or token"):
        hub_environment_switch(to=PRODUCTION)
    with pytest.raises(SwitchRefused, match="Staging hub is already the active one"):
        hub_environment_switch(to=HubEnvironment.STAGING)
    assert hub_environment_active() == HubEnvironment.STAGING
    assert not HubSwitch.objects.exists()


def test_an_answer_of_the_old_hub_arriving_after_the_switch_is_not_kept(production_hub):
    prop = PropertyFactory(vendor_id="in-flight")
    hub_content(prop)
    state = outbox.sync_state_ensure(prop)
    staging_client = get_hub_client()

    class SwitchDuringTheCall:
        """The staging hub's client; the switch commits while the call is under way."""

        def call(self, endpoint, **kwargs):
            answer = staging_client.call(endpoint, **kwargs)
            hub_environment_switch(to=PRODUCTION)
            return answer

    assert sync_send(state.pk, schedule=False, client=SwitchDuringTheCall()) is Outcome.MOVED

    state.refresh_from_db()
    assert (state.environment, state.status, state.known_to_hub, state.acked_body) == (
        PRODUCTION,
        SyncStatus.PENDING,
        False,
        None,
    )
    assert hub_state.get_resource("property", "in-flight") is not None  # staging got it; production will
    assert sync_send(state.pk, schedule=False) is Outcome.SENT
    assert hub_state.get_resource("property", "in-flight", hub=PRODUCTION) is not None


def test_license_requests_the_old_hub_received_stay_with_it(production_hub):
    received = LicenseRequestFactory(hub_id=7)
    received_state = outbox.sync_state_ensure(received, kind=ResourceKind.LICENSE)
    SyncState.objects.filter(pk=received_state.pk).update(status=SyncStatus.SYNCED, known_to_hub=True)
    never_sent = LicenseRequestFactory(property=received.property)
    never_sent_state = outbox.sync_state_ensure(never_sent, kind=ResourceKind.LICENSE)

    hub_environment_switch(to=PRODUCTION)

    received_state.refresh_from_db()
    never_sent_state.refresh_from_db()
    assert (received_state.environment, received_state.status) == (HubEnvironment.STAGING, SyncStatus.SYNCED)
    assert (never_sent_state.environment, never_sent_state.status) == (PRODUCTION, SyncStatus.PENDING)
    received.refresh_from_db()
    assert (received.hub_environment, received.hub_id) == (HubEnvironment.STAGING, 7)


@pytest.mark.postgres
def test_two_switches_at_once_make_one(production_hub):
    PropertyFactory(vendor_id="raced")
    HubConnection.objects.get_or_create(pk=1)  # the migration's row (a flush between tests removes it)
    barrier, outcomes = threading.Barrier(2), []

    def switch():
        barrier.wait()
        try:
            hub_environment_switch(to=PRODUCTION)
            outcomes.append("switched")
        except SwitchRefused:
            outcomes.append("refused")
        finally:
            close_old_connections()

    threads = [threading.Thread(target=switch) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["refused", "switched"]
    assert HubSwitch.objects.count() == 1
    assert SyncState.objects.get().version == 2  # reset once, not twice


def test_after_a_switch_only_the_new_hubs_license_requests_are_read_back(production_hub):
    staging_request = LicenseRequestFactory(hub_id=7)
    assert list(license_property_ids_to_refresh()) == [staging_request.property_id]

    hub_environment_switch(to=PRODUCTION)

    assert list(license_property_ids_to_refresh()) == []
    production_request = LicenseRequestFactory(hub_id=7, hub_environment=PRODUCTION)
    assert list(license_property_ids_to_refresh()) == [production_request.property_id]


def test_the_catalog_is_fetched_from_the_active_hub_and_says_which(production_hub):
    assert catalog_refresh().environment == HubEnvironment.STAGING
    hub_environment_switch(to=PRODUCTION)

    assert catalog_refresh().environment == PRODUCTION
    # Each hub served its own catalog (a switch also queues a fetch of its own, which a worker of another
    # test may run meanwhile: hence a set, not a count).
    assert {entry.hub for entry in hub_state.request_log(path="/gds/vendor/meta")} == {"staging", "production"}
