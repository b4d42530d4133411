"""The drift screens: each person sees and acts on their own properties' checks only."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from integration.content.names import display_name
from integration.drift.choices import DriftCheckStatus
from integration.drift.models import DriftCheck, DriftDifference
from integration.models import RoomType
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import UserFactory, hub_content

pytestmark = pytest.mark.django_db


def checked(prop):
    """A finished check of prop with two differences of the property itself: one changed field and one
    the hub added."""
    state = sync_state_ensure(prop)
    state.known_to_hub = True
    state.status = SyncStatus.SYNCED
    state.acked_body = {"id": prop.vendor_id, "email": "front@example.com"}
    state.save()
    check = DriftCheck.objects.create(property=prop, status=DriftCheckStatus.DONE, difference_count=2)
    DriftDifference.objects.create(
        check_run=check, state=state, resource=prop.vendor_id, field="email", ours="front@example.com", hubs="x@hub"
    )
    DriftDifference.objects.create(
        check_run=check,
        state=state,
        resource=prop.vendor_id,
        field="website",
        ours=None,
        hubs="https://hub.example",
        ours_present=False,
    )
    return check


def test_staff_see_only_their_properties_checks(client, staff_a, property_a, property_b):
    mine, theirs = checked(property_a), checked(property_b)
    client.force_login(staff_a)

    listing = client.get(reverse("admin:integration_driftcheck_changelist"))
    assert listing.status_code == 200
    assert list(listing.context["cl"].result_list) == [mine]

    report = client.get(reverse("admin:integration_driftcheck_change", args=[mine.pk]))
    assert report.status_code == 200
    assert "x@hub" in report.content.decode()
    assert client.get(reverse("admin:integration_driftcheck_change", args=[theirs.pk])).status_code == 404

    # The property's page links to its checks.
    link = f"{reverse('admin:integration_driftcheck_changelist')}?property__id__exact={property_a.pk}"
    assert link in client.get(reverse("admin:integration_property_change", args=[property_a.pk])).content.decode()
    assert list(client.get(link).context["cl"].result_list) == [mine]


def test_resend_of_another_propertys_check_is_a_404_and_changes_nothing(client, staff_a, property_a, property_b):
    theirs = checked(property_b)
    state = theirs.differences.first().state
    client.force_login(staff_a)

    response = client.post(reverse("admin:integration_driftcheck_resend", args=[theirs.pk]), {"all": "1"})

    assert response.status_code == 404
    state.refresh_from_db()
    assert (state.status, state.version) == (SyncStatus.SYNCED, 1)
    assert not theirs.differences.filter(resent_at__isnull=False).exists()


def test_resend_one_row_resends_its_resource_whole_and_clears_what_the_hub_added(client, staff_a, property_a):
    check = checked(property_a)
    email_row = check.differences.get(field="email")
    client.force_login(staff_a)

    response = client.post(
        reverse("admin:integration_driftcheck_resend", args=[check.pk]), {"difference": email_row.pk}
    )

    assert response.status_code == 302
    state = email_row.state
    state.refresh_from_db()
    # Pending again, with nothing taken as acknowledged: the next send is a full PATCH that clears what we
    # lack as far as decision 0004 lets it (integration.hub.payloads.patch_body).
    assert (state.status, state.version, state.acked_body) == (SyncStatus.PENDING, 2, None)
    assert check.differences.filter(resent_at__isnull=True).count() == 0  # both rows are this resource's


def test_the_check_form_offers_only_the_users_properties(client, staff_a, property_a, property_b):
    client.force_login(staff_a)
    url = reverse("admin:integration_driftcheck_check")

    form = client.get(url).context["form"]
    assert list(form.fields["property"].queryset) == [property_a]

    refused = client.post(url, {"property": property_b.pk})
    assert refused.status_code == 200
    assert "property" in refused.context["form"].errors
    assert not DriftCheck.objects.exists()

    queued = client.post(url, {"property": property_a.pk})
    assert queued.status_code == 302
    assert DriftCheck.objects.get().property == property_a


def test_a_resend_without_a_row_is_a_message_not_an_error(client, staff_a, property_a):
    check = checked(property_a)
    client.force_login(staff_a)

    response = client.post(reverse("admin:integration_driftcheck_resend", args=[check.pk]), {}, follow=True)

    assert response.status_code == 200
    assert "다시 보낼 차이를 고르거나 모두 다시 보내세요." in response.content.decode()
    assert check.differences.filter(resent_at__isnull=False).count() == 0


def test_people_without_a_role_cannot_open_the_screens(client, property_a):
    outsider = UserFactory(is_staff=True)
    client.force_login(outsider)
    assert client.get(reverse("admin:integration_driftcheck_check")).status_code == 403


def test_the_report_names_fields_by_label_and_shows_plain_values_with_the_raw_path_in_a_tooltip(
    client, staff_a, property_a
):
    check = checked(property_a)
    state = check.differences.first().state
    for field, ours, hubs in [
        ("i18n[ko-KR].name", "한옥 스테이", "한옥"),
        ("settings.extra_adult_price", 20000, 25000),
        ("facility_tags", ["PARKING", "WIFI"], ["WIFI"]),
        ("photos[1].description", "정원", None),
    ]:
        DriftDifference.objects.create(
            check_run=check, state=state, resource=property_a.vendor_id, field=field, ours=ours, hubs=hubs
        )
    client.force_login(staff_a)
    client.cookies["django_language"] = "en"

    rows = client.get(reverse("admin:integration_driftcheck_change", args=[check.pk])).context["rows"]
    shown = {row.field: (label, ours[0], hubs[0], ours[1]) for row, label, ours, hubs in rows}

    assert shown["i18n[ko-KR].name"] == ("Name (Korean)", "한옥 스테이", "한옥", 'i18n[ko-KR].name: "한옥 스테이"')
    assert shown["settings.extra_adult_price"][:3] == ("Extra adult price (KRW)", "20,000", "25,000")
    assert shown["facility_tags"][1:3] == ("PARKING, WIFI", "WIFI")
    assert shown["photos[1].description"][:3] == ("Property photos · #2 · caption", "정원", "—")
    assert shown["email"][:3] == ("Email", "front@example.com", "x@hub")
    html = client.get(reverse("admin:integration_driftcheck_change", args=[check.pk])).content.decode()
    assert 'title="settings.extra_adult_price"' in html
    assert '"front@example.com"' not in html.replace('title="email: &quot;front@example.com&quot;"', "")


def test_the_list_and_the_report_follow_a_check_until_it_has_run(client, staff_a, property_a):
    done = checked(property_a)
    queued = DriftCheck.objects.create(property=property_a, status=DriftCheckStatus.QUEUED)
    client.force_login(staff_a)
    running_url = reverse("admin:integration_driftcheck_running")

    listing = client.get(reverse("admin:integration_driftcheck_changelist")).content.decode()
    report = client.get(reverse("admin:integration_driftcheck_change", args=[queued.pk])).content.decode()
    finished = client.get(reverse("admin:integration_driftcheck_change", args=[done.pk])).content.decode()

    assert f'data-url="{running_url}" data-ids="{queued.pk}"' in listing
    assert "vendorhub/drift_refresh.js" in listing
    assert f'data-ids="{queued.pk}"' in report
    assert "drift_refresh.js" not in finished
    assert client.get(running_url).json() == {"running": [queued.pk]}
    DriftCheck.objects.filter(pk=queued.pk).update(status=DriftCheckStatus.DONE)
    assert client.get(running_url).json() == {"running": []}
    assert "drift_refresh.js" not in client.get(reverse("admin:integration_driftcheck_changelist")).content.decode()


@pytest.mark.parametrize(
    ("language", "capacity", "unknown"),
    [("ko", "최대 인원", "허브의 필드 “max_occupancy”"), ("en", "Maximum capacity", "The hub's field “max_occupancy”")],
)
def test_the_report_names_room_types_and_plans_and_says_a_field_we_do_not_know_in_the_readers_language(
    client, staff_a, property_a, language, capacity, unknown
):
    """A resource by its name (its hub id in a tooltip), never by id alone; a field none of our models has
    in the reader's language around the hub's name, never as English words ("Max occupancy")."""
    room_type, _standalone, _package, (plan, _other) = hub_content(property_a)
    RoomType.objects.filter(pk=room_type.pk).update(name="별채")
    check = DriftCheck.objects.create(property=property_a, status=DriftCheckStatus.DONE, difference_count=3)
    room_state, plan_state = sync_state_ensure(room_type), sync_state_ensure(plan)
    for state, resource, field in [
        (room_state, f"{property_a.vendor_id}/{room_type.vendor_id}", "max_capacity"),
        (room_state, f"{property_a.vendor_id}/{room_type.vendor_id}", "max_occupancy"),
        (plan_state, f"{property_a.vendor_id}/{plan.vendor_id}", "name"),
    ]:
        DriftDifference.objects.create(check_run=check, state=state, resource=resource, field=field, ours=4, hubs=5)
    client.force_login(staff_a)
    client.cookies["django_language"] = language

    response = client.get(reverse("admin:integration_driftcheck_change", args=[check.pk]))

    labels = {row.field: label for row, label, _ours, _hubs in response.context["rows"]}
    assert labels["max_capacity"] == capacity
    assert labels["max_occupancy"] == unknown
    cells = re.findall(r'<td class="vh-drift-resource">(.*?)</td>', response.content.decode(), re.S)
    assert len(cells) == 3
    assert all("<code>" not in cell for cell in cells)  # every resource named, none by its id alone
    with translation.override(language):
        plan.refresh_from_db()
        assert any(display_name(plan) in cell for cell in cells)
    assert any("별채" in cell and f'title="{property_a.vendor_id}/{room_type.vendor_id}"' in cell for cell in cells)
