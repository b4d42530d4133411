"""`manage.py hub_sync` against the sandbox over real HTTP: order, narrowing, full resync, failures."""

import io

import pytest
from django.core.management import CommandError, call_command

from integration.hub.payloads import build_property, full_patch_body
from integration.models import SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory, RoomTypeFactory, hub_content, korean

pytestmark = pytest.mark.django_db(transaction=True)


def hub_sync(*args):
    """Run the command; its stdout (the summary), with the CommandError it raised, if any."""
    out = io.StringIO()
    try:
        call_command("hub_sync", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error
    return out.getvalue(), None


def content_of(vendor_id):
    """A property with a room type, two models and two rate plans; every one pending, children marked
    first so that the outbox's own order (by id) would send them before their parents."""
    prop = PropertyFactory(vendor_id=vendor_id)
    korean(prop, name=f"{vendor_id} 호텔")
    room_type, standalone, package, plans = hub_content(prop)
    resources = [*plans, room_type, standalone, package, prop]
    for obj in resources:
        sync_state_ensure(obj)
    return prop, resources


def rank(path):
    """The depth of a hub path: 0 property, 1 room type or rate plan model, 2 rate plan."""
    if "/rateplans" in path:
        return 2
    if "/roomtypes" in path or "/rateplan-models" in path:
        return 1
    return 0


def test_pending_content_of_two_properties_arrives_parents_first(hub):
    content_of("seochon")
    content_of("bukchon")

    out, error = hub_sync()

    assert error is None
    assert "sent 12, unchanged 0, waiting 0, retry 0, failed 0, busy 0" in out
    requests = list(hub.request_log())
    assert [request.method for request in requests] == ["POST"] * 12
    ranks = [rank(request.path) for request in requests]
    assert ranks == sorted(ranks)
    assert not SyncState.objects.exclude(status=SyncStatus.SYNCED).exists()
    for pid in ("seochon", "bukchon"):
        assert hub.get_resource("property", pid) is not None
        assert len(hub.list_resources("rateplan", pid)) == 2


def test_nothing_pending_sends_nothing(hub):
    content_of("seochon")
    hub_sync()

    out, error = hub_sync()

    assert (out.strip(), error) == ("Nothing to send to the hub.", None)
    assert hub.request_totals()["count"] == 6


@pytest.mark.parametrize("by", ["vendor_id", "pk"])
def test_property_narrows_to_one_property(hub, by):
    seochon, _ = content_of("seochon")
    bukchon, bukchon_content = content_of("bukchon")

    out, error = hub_sync("--property", str(getattr(bukchon, by)))

    assert error is None
    assert "Hub sync (pending, property bukchon): 6 resources" in out
    paths = [request.path for request in hub.request_log()]
    assert len(paths) == 6
    assert all(path.startswith("/gds/vendor/properties/bukchon/") for path in paths if path != "/gds/vendor/properties")
    assert hub.get_resource("property", "seochon") is None
    assert set(SyncState.objects.filter(property=seochon).values_list("status", flat=True)) == {SyncStatus.PENDING}
    assert SyncState.objects.filter(property=bukchon, status=SyncStatus.SYNCED).count() == len(bukchon_content)


def test_all_resends_full_bodies_and_creates_missing_states(hub):
    prop, resources = content_of("seochon")
    prop.email = "stay@example.com"
    prop.save()
    hub_sync()
    # Content that never went through a service has no outbox row: only --all finds it.
    new_room = RoomTypeFactory(property=prop, vendor_id="annex")
    korean(new_room, name="별관")
    before = hub.request_log().count()

    out, error = hub_sync("--all")

    assert error is None
    # Seven content resources, and four with no rates or availability yet: nothing of those to send.
    assert "Hub sync (full resync): 11 resources" in out
    assert "sent 7, unchanged 4" in out
    resent = list(hub.request_log()[before:])
    assert sorted(request.method for request in resent) == ["PATCH"] * len(resources) + ["POST"]
    # Every field the hub already holds goes again, although nothing changed.
    property_patch = next(request for request in resent if request.path == "/gds/vendor/properties/seochon")
    sent = SyncAttempt.objects.filter(path=property_patch.path, method="PATCH").get().request_body
    assert sent == full_patch_body(sync_state_ensure(prop).kind, build_property(prop))
    assert {"status", "i18n", "email", "photos", "settings"} <= sent.keys()
    assert SyncState.objects.get(object_id=new_room.pk, kind="roomtype").status == SyncStatus.SYNCED
    assert hub.get_resource("roomtype", "seochon", "annex")["i18n"][0]["name"] == "별관"


def test_all_with_property_creates_states_of_that_property_only(hub):
    seochon = PropertyFactory(vendor_id="seochon")
    korean(seochon)
    bukchon = PropertyFactory(vendor_id="bukchon")
    korean(bukchon)

    out, error = hub_sync("--all", "--property", "seochon")

    assert error is None
    assert "Hub sync (full resync, property seochon): 1 resource in" in out
    assert list(SyncState.objects.values_list("property__vendor_id", flat=True)) == ["seochon"]
    assert hub.get_resource("property", "bukchon") is None


def test_a_hub_4xx_is_reported_with_its_message_and_fails_the_command(hub):
    content_of("seochon")
    broken, broken_content = content_of("bukchon")
    broken.facility_tags = ["no-such-facility"]  # past our form checks: only the hub can refuse it here
    broken.save()

    out, error = hub_sync()

    assert error is not None
    assert error.returncode != 0
    assert "the hub refused 1 resource;" in str(error)
    # Its children wait for it; the other property goes through.
    assert f"sent 6, unchanged 0, waiting {len(broken_content) - 1}, retry 0, failed 1, busy 0" in out
    state = SyncState.objects.get(kind="property", object_id=broken.pk)
    assert state.last_status_code == 400
    assert f"property bukchon: HTTP 400: {state.last_error}" in out
    assert "facility_tags" in state.last_error
    assert hub.get_resource("property", "seochon") is not None


def test_unknown_property_is_a_command_error(hub):
    content_of("seochon")

    with pytest.raises(CommandError, match="No property has the vendor id or pk 'nowhere'"):
        call_command("hub_sync", "--property", "nowhere", stdout=io.StringIO())

    assert hub.request_totals()["count"] == 0
