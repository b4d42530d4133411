"""Issue 24, the content side: what we send is what the spec lets the hub take, against the strict sandbox
over real HTTP. A full resync and the PATCH after a 409 clear what the hub holds and we do not, as
decision 0004 says; ids holding "/" and URLs holding Korean reach the hub; a property's package
models and rate plans wait for its standalone model."""

import io
import json
from urllib.parse import quote

import pytest
from django.core.management import call_command

from integration.hub import endpoints
from integration.hub.client import get_hub_client
from integration.hub.payloads import NULLABLE
from integration.models import SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.resources import KIND_OF_MODEL, RESOURCES
from integration.sync.services.outbox import sync_mark_changed, sync_state_ensure
from integration.sync.services.sender import Outcome, sync_send
from tests.factories import (
    PropertyFactory,
    RatePlanFactory,
    RatePlanModelFactory,
    RoomTypeFactory,
    hub_content,
    korean,
)
from tests.hub_fixtures import assert_hub_holds, hub_ids, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

STANDALONE_MESSAGE = "Add the property's standalone rate plan model first"


def hub_sync(*args):
    call_command("hub_sync", *args, stdout=io.StringIO())


def send(obj):
    return sync_send(sync_state_ensure(obj).pk, schedule=False)


def extra_fields(hub, obj):
    """The fields the hub holds for obj beyond our body (and the ones the hub derives from the path)."""
    kind = KIND_OF_MODEL[type(obj)]
    ours = RESOURCES[kind].body(RESOURCES[kind].load(obj.pk))
    derived = {"vendor_property_id", "vendor_roomtype_id", "type"} if kind == "rateplan" else {"vendor_property_id"}
    return set(hub.get_resource(kind, *hub_ids(obj))) - set(ours) - derived


def assert_no_null_where_the_spec_forbids_it():
    """Every PATCH we sent carries null only on a field the spec marks nullable."""
    for attempt in SyncAttempt.objects.filter(method="PATCH"):
        kind = attempt.state.kind
        nulls = {key for key, value in attempt.request_body.items() if value is None}
        assert nulls <= NULLABLE.get(kind, frozenset()), (attempt.path, nulls)
        settings = attempt.request_body.get("settings") or {}
        assert set(settings) <= {"extra_adult_price"}


def test_a_full_resync_leaves_the_hub_holding_exactly_our_content(hub):
    prop = PropertyFactory(vendor_id="seochon", email="stay@example.com")
    korean(prop, name="서촌")
    room_type, standalone, package, plans = hub_content(prop)
    hub_sync("--all")
    # The hub's copy holds what we no longer have (or never had): an old e-mail and website, a refund
    # policy, a photo, a room composition, a sale window and a channel list.
    hub.alter_resource(
        "property",
        "seochon",
        patch={
            "email": "old@hub.example",
            "website": "https://old.hub.example",
            "refunds": {"3d": 50},
            "photos": [{"url": "https://img.example.com/old.jpg", "order": 0}],
        },
    )
    hub.alter_resource("roomtype", "seochon", room_type.vendor_id, patch={"details": {"bedroom": 2}})
    window = {"sale_from": "2027-01-01", "sale_to": "2027-01-31", "channels": [3, 7], "min_los": 2}
    hub.alter_resource("rateplan_model", "seochon", package.vendor_id, patch=window)
    before = SyncAttempt.objects.count()

    hub_sync("--all")

    assert SyncAttempt.objects.count() > before
    assert not SyncState.objects.exclude(status=SyncStatus.SYNCED).exists()
    for obj in (prop, room_type, standalone, package, *plans):
        assert_hub_holds(obj)
    for obj in (room_type, standalone, package, *plans):
        assert extra_fields(hub, obj) == set(), obj
    # Only what decision 0004 says the hub keeps stays: a URI cannot be cleared (the screen says so).
    assert extra_fields(hub, prop) == {"website"}
    assert hub.get_resource("property", "seochon")["email"] == "stay@example.com"
    assert_no_null_where_the_spec_forbids_it()


def test_the_patch_after_a_409_on_create_clears_what_the_hub_holds(hub):
    prop = PropertyFactory(vendor_id="seochon")
    korean(prop, name="서촌")
    send(prop)
    # The hub has the model already (another environment's sends, a lost answer): with a sale window.
    model = RatePlanModelFactory(property=prop, vendor_id="std", type="standalone", refundable=False)
    korean(model, name="기본")
    body = {"id": "std", "type": "standalone", "i18n": [{"locale": "ko-KR", "name": "옛 이름"}], "channels": [3]}
    get_hub_client().call(
        endpoints.RATEPLAN_MODEL_CREATE, path_params={"pid": "seochon"}, body=body | {"sale_to": "2027-01-31"}
    )

    assert send(model) == Outcome.SENT

    post, patch = SyncAttempt.objects.filter(state__kind="rateplan_model").order_by("pk")
    assert (post.method, post.status_code, patch.method, patch.status_code) == ("POST", 409, "PATCH", 200)
    assert (patch.request_body["sale_to"], patch.request_body["channels"]) == (None, None)
    assert_hub_holds(model)
    assert extra_fields(hub, model) == set()
    assert_no_null_where_the_spec_forbids_it()


def test_an_id_stored_with_a_slash_is_patched_at_its_quoted_path_and_found(hub):
    prop = PropertyFactory(vendor_id="a/b")  # stored before the vendor id rule: forms refuse it now
    korean(prop, name="옛 숙소")
    send(prop)
    prop.phone = "02-123-4567"
    prop.save()

    assert send(prop) == Outcome.SENT

    patch = SyncAttempt.objects.order_by("-pk").first()
    assert (patch.method, patch.path, patch.status_code) == ("PATCH", "/gds/vendor/properties/a%2Fb", 200)
    assert hub.get_resource("property", "a/b")["phone"] == "02-123-4567"
    assert hub.request_log(method="PATCH").get().path == "/gds/vendor/properties/a%2Fb"


def test_urls_holding_korean_letters_are_sent_as_uris(hub):
    prop = PropertyFactory(vendor_id="seochon", website="https://예시.kr/소개")
    korean(prop, name="서촌")
    prop.photos.create(url="https://img.example.com/객실.jpg", order=0)

    assert send(prop) == Outcome.SENT

    held_property = hub.get_resource("property", "seochon")
    assert held_property["website"] == f"https://xn--vv4b11d.kr/{quote('소개')}"
    assert held_property["photos"] == [{"url": f"https://img.example.com/{quote('객실')}.jpg", "order": 0}]
    assert SyncState.objects.get(kind="property").status == SyncStatus.SYNCED


def test_package_models_and_rate_plans_wait_for_the_standalone_model(hub):
    prop = PropertyFactory(vendor_id="seochon")
    korean(prop, name="서촌")
    room_type = RoomTypeFactory(property=prop, vendor_id="ondol")
    korean(room_type)
    package = RatePlanModelFactory(property=prop, vendor_id="bb")
    korean(package)
    package_plan = RatePlanFactory(room_type=room_type, model=package, vendor_id="ondol-bb")

    hub_sync("--all")

    for obj in (package, package_plan):
        state = SyncState.objects.get(kind=KIND_OF_MODEL[type(obj)], object_id=obj.pk)
        assert (state.status, state.known_to_hub) == (SyncStatus.PENDING, False)
        assert state.last_error.startswith(STANDALONE_MESSAGE)
    assert not hub.request_log(path_prefix="/gds/vendor/properties/seochon/rateplan-models").exists()
    assert not hub.list_resources("rateplan", "seochon")

    # The standalone model comes after the package (a higher id): it goes first, then what waited.
    standalone = RatePlanModelFactory(property=prop, vendor_id="std", type="standalone")
    korean(standalone)
    RatePlanFactory(room_type=room_type, model=standalone, vendor_id="ondol-std")
    hub_sync("--all")

    assert not SyncState.objects.exclude(status=SyncStatus.SYNCED).exists()
    models = hub.request_log(method="POST", path="/gds/vendor/properties/seochon/rateplan-models")
    assert [json.loads(request.request_body)["id"] for request in models] == ["std", "bb"]
    assert {plan["id"] for plan in hub.list_resources("rateplan", "seochon")} == {"ondol-bb", "ondol-std"}


def test_we_never_send_the_patch_that_would_leave_the_hub_without_a_standalone_model(hub):
    """Issue 41: the model the hub holds as the property's standalone one made a package here fails with a
    message for staff, nothing sent (the hub would refuse it: exactly one per property); set back, it
    sends its other changes."""
    prop = PropertyFactory(vendor_id="bukchon")
    korean(prop, name="북촌")
    standalone = RatePlanModelFactory(property=prop, vendor_id="std", type="standalone")
    korean(standalone)
    package = RatePlanModelFactory(property=prop, vendor_id="bb")
    korean(package)
    hub_sync("--all")

    # Staff move the role here (which the hub cannot follow).
    standalone.type, package.type = "package", "standalone"
    standalone.save()
    package.save()
    sync_mark_changed(standalone)
    assert send(standalone) is Outcome.FAILED

    state = SyncState.objects.get(kind="rateplan_model", object_id=standalone.pk)
    assert state.last_error.startswith("The hub holds this model as the property's standalone rate plan model")
    assert not hub.request_log(method="PATCH").exists()
    assert hub.get_resource("rateplan_model", "bukchon", "std")["type"] == "standalone"
    package.type = "package"
    package.save()
    standalone.type, standalone.min_los = "standalone", 2
    standalone.save()
    sync_mark_changed(standalone)
    assert send(standalone) is Outcome.SENT
    assert hub.get_resource("rateplan_model", "bukchon", "std")["min_los"] == 2


def test_a_package_model_waiting_for_the_standalone_one_follows_it_through_the_queue(worker, hub):
    prop = PropertyFactory(vendor_id="seochon")
    korean(prop, name="서촌")
    send(prop)
    package = RatePlanModelFactory(property=prop, vendor_id="bb")
    korean(package)
    assert send(package) == Outcome.WAITING  # not queued again by itself: the standalone one brings it

    standalone = RatePlanModelFactory(property=prop, vendor_id="std", type="standalone")
    korean(standalone)
    sync_mark_changed(standalone)

    wait_until(
        lambda: SyncState.objects.filter(kind="rateplan_model", status=SyncStatus.SYNCED).count() == 2,
        message="both models at the hub",
    )
    assert hub.get_resource("rateplan_model", "seochon", "bb") is not None
