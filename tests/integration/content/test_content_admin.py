"""The content screens: every spec rule is a field error before anything is sent; all scoped."""

import pytest
from django.urls import reverse

from integration.models import Property, RatePlanModel, RoomType, SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_state_ensure
from tests.admin_forms import submit
from tests.factories import PropertyFactory, RatePlanModelFactory, RoomTypeFactory, hub_content, korean, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager_client(client, manager_a):
    client.force_login(manager_a)
    return client


def test_a_new_property_is_managed_by_its_creator_and_queued_for_the_hub(manager_client, manager_a):
    response, errors, _ = submit(
        manager_client,
        reverse("admin:integration_property_add"),
        vendor_id="new-stay",
        name="New stay",
        **{"translations-0-name": "새 숙소"},
    )

    assert response.status_code == 302, errors
    prop = Property.objects.get(vendor_id="new-stay")
    assert prop.memberships.get(user=manager_a).role == "manager"
    assert SyncState.objects.get(object_id=prop.pk, kind="property").status == SyncStatus.PENDING


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"vendor_id": "x" * 41}, "vendor_id", "40"),
        ({"vendor_id": "has space"}, "vendor_id", "letters, digits"),
        ({"email": "not-an-email"}, "email", "email"),
        ({"phone": "call me"}, "phone", "phone"),
        ({"website": "not a url"}, "website", "URL"),
        ({"checkin": "25:00"}, "checkin", "time"),
    ],
)
def test_property_rules_are_field_errors_and_nothing_is_sent(manager_client, fields, field, message, settings):
    settings.LANGUAGE_CODE = "en"
    base = {"vendor_id": "stay", "name": "Stay", "translations-0-name": "숙소"}

    response, errors, _ = submit(manager_client, reverse("admin:integration_property_add"), **{**base, **fields})

    assert response.status_code == 200
    assert field in errors
    assert message.lower() in str(errors[field]).lower()
    assert not Property.objects.filter(name="Stay").exists()
    assert not SyncState.objects.exists()


def test_a_property_needs_its_korean_name(manager_client):
    response, _, formset_errors = submit(
        manager_client,
        reverse("admin:integration_property_add"),
        vendor_id="stay",
        name="Stay",
        **{"translations-1-name": "Stay"},
    )

    assert response.status_code == 200
    assert any("ko-KR" in error for error in formset_errors)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"min_stay": "5", "max_stay": "2"}, "max_stay"),
        ({"standard_capacity": "4", "max_capacity": "2"}, "max_capacity"),
        ({"min_stay": "0"}, "min_stay"),
        ({"standard_capacity": "-1"}, "standard_capacity"),
        ({"double_beds": "-1"}, "double_beds"),
        ({"vendor_id": "taken"}, "__all__"),
    ],
)
def test_room_type_rules_are_field_errors(manager_client, property_a, fields, field):
    korean(property_a)
    RoomTypeFactory(property=property_a, vendor_id="taken")
    base = {"property": property_a.pk, "vendor_id": "ondol", "name": "Ondol", "translations-0-name": "온돌"}

    response, errors, _ = submit(manager_client, reverse("admin:integration_roomtype_add"), **{**base, **fields})

    assert response.status_code == 200
    assert field in errors
    assert RoomType.objects.filter(property=property_a).count() == 1


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"sale_from": "2027-02-01", "sale_to": "2027-01-01"}, "sale_to"),
        ({"min_los": "3", "max_los": "2"}, "max_los"),
        ({"min_los": "0"}, "min_los"),
        ({"type": "standalone"}, "type"),
        ({"channels": "[0]"}, "channels"),
    ],
)
def test_rate_plan_model_rules_are_field_errors(manager_client, property_a, fields, field):
    RatePlanModelFactory(property=property_a, type="standalone")
    base = {
        "property": property_a.pk,
        "vendor_id": "pkg",
        "name": "Package",
        "type": "package",
        "translations-0-name": "패키지",
    }

    response, errors, _ = submit(manager_client, reverse("admin:integration_rateplanmodel_add"), **{**base, **fields})

    assert response.status_code == 200
    assert field in errors
    assert RatePlanModel.objects.filter(property=property_a).count() == 1


def test_rate_plans_only_offer_the_users_room_types_and_models(manager_client, property_a, property_b):
    mine = RoomTypeFactory(property=property_a)
    theirs = RoomTypeFactory(property=property_b)
    theirs_model = RatePlanModelFactory(property=property_b)

    page = manager_client.get(reverse("admin:integration_rateplan_add"))
    choices = page.context["adminform"].form.fields["room_type"].queryset
    assert list(choices) == [mine]

    _response, errors, _ = submit(
        manager_client,
        reverse("admin:integration_rateplan_add"),
        room_type=theirs.pk,
        model=theirs_model.pk,
        vendor_id="stolen",
    )
    assert {"room_type", "model"} <= errors.keys()


def test_a_rate_plan_needs_a_model_of_its_room_types_property(client, property_a, property_b):
    user = member(property_a, "manager")
    from integration.access.services import membership_grant

    membership_grant(user=user, property=property_b, role="manager")
    client.force_login(user)

    _, errors, _ = submit(
        client,
        reverse("admin:integration_rateplan_add"),
        room_type=RoomTypeFactory(property=property_a).pk,
        model=RatePlanModelFactory(property=property_b).pk,
        vendor_id="mixed",
    )

    assert "model" in errors


def test_sync_state_shows_on_the_object_with_the_hubs_message_and_a_log_link(manager_client, property_a):
    state = sync_state_ensure(property_a)
    SyncState.objects.filter(pk=state.pk).update(status=SyncStatus.FAILED, last_error="facility_tags[0]: unknown code")

    page = manager_client.get(reverse("admin:integration_property_change", args=[property_a.pk])).content.decode()

    assert "sync-failed" in page
    assert "facility_tags[0]: unknown code" in page
    assert f"?state__id__exact={state.pk}" in page


def test_retry_action_requeues_failed_rows_of_own_properties_only(client, staff_a, property_a, property_b):
    mine, theirs = sync_state_ensure(property_a), sync_state_ensure(property_b)
    SyncState.objects.update(status=SyncStatus.FAILED)
    client.force_login(staff_a)

    client.post(
        reverse("admin:integration_property_changelist"),
        {"action": "retry_failed", "_selected_action": [property_a.pk, property_b.pk]},
    )

    assert SyncState.objects.get(pk=mine.pk).status == SyncStatus.PENDING
    assert SyncState.objects.get(pk=theirs.pk).status == SyncStatus.FAILED


def test_sync_log_and_states_are_scoped(client, staff_a, property_a, property_b):
    for prop in (property_a, property_b):
        state = sync_state_ensure(prop)
        SyncAttempt.objects.create(
            state=state,
            property=prop,
            method="POST",
            path=f"/gds/vendor/{prop.vendor_id}",
            outcome="success",
            duration_ms=5,
        )
    client.force_login(staff_a)

    attempts = client.get(reverse("admin:integration_syncattempt_changelist"))
    states = client.get(reverse("admin:integration_syncstate_changelist"))
    other = SyncAttempt.objects.get(property=property_b)

    assert [a.property for a in attempts.context["cl"].result_list] == [property_a]
    assert [s.property for s in states.context["cl"].result_list] == [property_a]
    assert client.get(reverse("admin:integration_syncattempt_change", args=[other.pk])).status_code == 404
    assert "prop-b" not in attempts.content.decode()


@pytest.mark.parametrize("model", ["roomtype", "rateplanmodel", "rateplan"])
def test_content_of_another_property_is_404(client, staff_a, property_b, model):
    room_type, standalone, _package, plans = hub_content(property_b)
    obj = {"roomtype": room_type, "rateplanmodel": standalone, "rateplan": plans[0]}[model]
    client.force_login(staff_a)

    assert client.get(reverse(f"admin:integration_{model}_change", args=[obj.pk])).status_code == 404
    listing = client.get(reverse(f"admin:integration_{model}_changelist"))
    assert list(listing.context["cl"].result_list) == []


def test_staff_cannot_create_properties_but_managers_can(client, staff_a, manager_a):
    client.force_login(staff_a)
    assert client.get(reverse("admin:integration_property_add")).status_code == 403
    client.force_login(manager_a)
    assert client.get(reverse("admin:integration_property_add")).status_code == 200


def test_property_list_shows_sync_state_without_a_query_per_row(client, superuser, django_assert_max_num_queries):
    for _ in range(15):
        sync_state_ensure(PropertyFactory())
    client.force_login(superuser)

    with django_assert_max_num_queries(12):
        response = client.get(reverse("admin:integration_property_changelist"))

    assert response.content.decode().count("sync-badge sync-pending") == 15


def test_the_screens_name_the_fields_the_hub_keeps(manager_client, property_a, settings):
    """Decision 0004: a field with a format cannot be cleared at the hub, and the screen says so."""
    settings.LANGUAGE_CODE = "en"
    room_type = RoomTypeFactory(property=property_a)

    property_page = manager_client.get(reverse("admin:integration_property_change", args=[property_a.pk]))
    room_page = manager_client.get(reverse("admin:integration_roomtype_change", args=[room_type.pk]))

    assert (
        "The hub cannot clear email, phone, SMS sender number, check-in time, check-out time, website: emptied here"
        in property_page.content.decode()
    )
    assert (
        "The hub cannot clear minimum stay (nights), maximum stay (nights), size (m²), standard capacity, "
        "maximum capacity" in room_page.content.decode()
    )
