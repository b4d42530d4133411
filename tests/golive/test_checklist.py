"""The go-live checklist: each item computed from the property as it is, with the reason and where to fix it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from golive.checklist import property_checklist
from integration.ari.models import AriDirtyRange, RatePlanDay, RoomTypeDay
from integration.hub.environments import HubEnvironment
from integration.hub.models import CONNECTION_PK, HubConnection
from integration.models import CodeMapping, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind
from integration.sync.services.outbox import sync_state_ensure
from licenses.models import LicenseRequest
from tests.factories import PropertyFactory, RoomTypeFactory, korean

from .readiness import give_ari, make_ready, mark_synced

pytestmark = pytest.mark.django_db


def items(prop):
    return {item.key: item for item in property_checklist(prop).items}


def test_an_empty_property_fails_every_item_with_the_reason():
    prop = PropertyFactory(name="Empty")

    checklist = property_checklist(prop)

    assert not checklist.passed
    assert checklist.passed_count == 0
    reasons = {item.key: item.reason for item in checklist.items}
    assert reasons == {
        "catalog": "The hub's code catalog has never been fetched: fetch it now.",
        "codes": "Fetch the hub's code catalog first: codes are checked against it.",
        "standalone": "The property has no standalone rate plan model; the hub requires exactly one.",
        "korean": "No Korean (ko-KR) name: “Empty”.",
        "synced": "0 failed, 0 pending, 1 never sent.",
        "ari": "There is no enabled room type with an enabled rate plan to sell.",
        "license": "Not confirmed by the hub yet: Accommodation permit, Business registration.",
    }
    links = {item.key: [link.url for link in item.links] for item in checklist.items}
    assert links["catalog"] == ["/admin/integration/catalogsnapshot/"]
    assert f"/admin/integration/rateplanmodel/add/?property={prop.pk}&type=standalone" in links["standalone"]
    assert links["korean"] == [f"/admin/integration/property/{prop.pk}/change/"]
    assert links["license"] == [f"/admin/licenses/licenserequest/?property__id__exact={prop.pk}"]


def test_a_ready_property_passes_every_item():
    prop = PropertyFactory()
    make_ready(prop)

    checklist = property_checklist(prop)

    assert [(item.key, item.passed) for item in checklist.items if not item.passed] == []
    assert checklist.passed
    reasons = {item.key: item.reason for item in checklist.items}
    assert reasons["codes"] == "The 1 code in use is known to the catalog."
    assert reasons["license"] == "Confirmed by the hub: Accommodation permit, Business registration."


def test_exactly_one_standalone_model_is_required():
    prop = PropertyFactory()
    _room_type, standalone, _package, _plans = make_ready(prop)
    assert items(prop)["standalone"].reason == f"“{standalone.name}” is the standalone model."

    standalone.type = "package"
    standalone.save()

    item = items(prop)["standalone"]
    assert not item.passed
    assert item.reason == "The property has no standalone rate plan model; the hub requires exactly one."


def test_codes_pass_once_mapped_to_codes_of_the_catalog():
    prop = PropertyFactory()
    room_type, *_ = make_ready(prop)
    room_type.view_tags = ["our-sea", "ocean"]
    room_type.save()

    item = items(prop)["codes"]
    assert not item.passed
    assert item.reason == (
        f"“{room_type.name}”: views: the hub's catalog (View) has no code for our-sea; map them to codes of the "
        "catalog in the code mapping table, or choose codes of the catalog."
    )
    assert [link.url for link in item.links] == [
        f"/admin/integration/roomtype/{room_type.pk}/change/",
        "/admin/integration/codemapping/",
    ]

    CodeMapping.objects.create(group="view", vendor_code="our-sea", hub_code="ocean")
    assert items(prop)["codes"].passed


def test_korean_names_are_required_of_room_types_and_models_too():
    prop = PropertyFactory()
    room_type, _standalone, package, _plans = make_ready(prop)
    room_type.translations.all().delete()
    package.translations.update(name="")

    item = items(prop)["korean"]
    assert not item.passed
    assert item.reason == f"No Korean (ko-KR) name: “{room_type.name}”, “{package.name}”."


def test_every_resource_must_be_synced():
    prop = PropertyFactory()
    room_type, standalone, _package, _plans = make_ready(prop)
    SyncState.objects.filter(kind=ResourceKind.ROOM_TYPE, object_id=room_type.pk).update(status=SyncStatus.FAILED)
    SyncState.objects.filter(kind=ResourceKind.RATE_PLAN_MODEL, object_id=standalone.pk).update(
        status=SyncStatus.PENDING
    )
    unsent = RoomTypeFactory(property=prop)
    korean(unsent)

    item = items(prop)["synced"]
    assert not item.passed
    assert item.reason == "1 failed, 1 pending, 1 never sent."
    assert [link.label for link in item.links] == ["Failed", "Pending"]


def test_the_ari_title_names_the_horizon_of_the_setting(settings):
    prop = PropertyFactory()
    assert items(prop)["ari"].title == "Rates and availability are pushed for the next 365 days"
    settings.ARI_HORIZON_DAYS = 500
    assert items(prop)["ari"].title == "Rates and availability are pushed for the next 500 days"


def test_rates_and_availability_must_be_at_the_hub_for_365_days():
    prop = PropertyFactory()
    room_type, _standalone, _package, plans = make_ready(prop)
    assert items(prop)["ari"].passed

    last_days = RoomTypeDay.objects.filter(room_type=room_type).order_by("-date").values_list("pk", flat=True)[:165]
    RoomTypeDay.objects.filter(pk__in=list(last_days)).delete()
    item = items(prop)["ari"]
    assert not item.passed
    assert f"“{room_type.name}”: availability on 200 of 365 days" in item.reason

    RoomTypeDay.objects.filter(room_type=room_type).delete()
    give_ari(room_type, [])  # the whole horizon again
    assert items(prop)["ari"].passed
    state = sync_state_ensure(plans[1], kind=ResourceKind.ARI_RATES)
    day = RatePlanDay.objects.filter(rate_plan=plans[1]).latest("date").date
    AriDirtyRange.objects.create(state=state, date_from=day, date_to=day)  # changed, not yet pushed
    item = items(prop)["ari"]
    assert not item.passed
    assert f"“{room_type.name} · {plans[1].model.name}”: rates not yet at the hub" in item.reason


def test_both_licenses_must_be_confirmed():
    prop = PropertyFactory()
    make_ready(prop)
    LicenseRequest.objects.filter(property=prop, type="business").update(status="pending")

    item = items(prop)["license"]
    assert not item.passed
    assert item.reason == "Not confirmed by the hub yet: Business registration."


def test_the_checklist_costs_the_same_queries_for_a_larger_property():
    small, large = PropertyFactory(), PropertyFactory()
    make_ready(small)
    make_ready(large)
    for _ in range(4):
        room_type = RoomTypeFactory(property=large, view_tags=["garden"])
        korean(room_type)
        mark_synced(room_type)
    property_checklist(small)  # the catalog is parsed once per process, not per checklist

    with CaptureQueriesContext(connection) as small_queries:
        property_checklist(small)
    with CaptureQueriesContext(connection) as large_queries:
        property_checklist(large)

    assert len(large_queries) == len(small_queries)


def test_after_a_switch_only_the_new_hubs_confirmations_count():
    prop = PropertyFactory()
    make_ready(prop)  # both licenses confirmed by the staging hub
    HubConnection.objects.update_or_create(pk=CONNECTION_PK, defaults={"environment": HubEnvironment.PRODUCTION})

    item = items(prop)["license"]
    assert not item.passed
    assert item.reason == "Not confirmed by the hub yet: Accommodation permit, Business registration."

    LicenseRequest.objects.filter(property=prop).update(hub_environment=HubEnvironment.PRODUCTION)
    assert items(prop)["license"].passed


@pytest.mark.parametrize(("role", "sees_licenses"), [("staff", False), ("manager", True)])
def test_the_checklist_links_only_what_its_viewer_can_open(client, role, sees_licenses):
    from django.urls import reverse

    from tests.factories import member

    prop = PropertyFactory()
    client.force_login(member(prop, role))

    page = client.get(reverse("admin:integration_property_checklist", args=[prop.pk])).content.decode()

    assert ("/admin/licenses/licenserequest/" in page) is sees_licenses
    assert f"/admin/integration/property/{prop.pk}/change/" in page


@pytest.mark.parametrize(("language", "name"), [("en", "Room only"), ("ko", "객실만")])
def test_the_checklist_names_content_in_the_readers_language(language, name):
    from django.utils import translation

    from integration.content.choices import Locale, RatePlanType
    from integration.models import RatePlanModel

    prop = PropertyFactory()
    model = RatePlanModel.objects.create(property=prop, name="객실만", type=RatePlanType.STANDALONE, vendor_id="only")
    model.translations.create(locale=Locale.EN_US, name="Room only")

    with translation.override(language):
        reason = items(prop)["standalone"].reason

    assert reason.startswith(f"“{name}”")
