"""The copy of a period of rates and availability onto another: the weekdays kept exactly (a leap day in
between too), the preview of every cell, the apply as one change with its history and undo, the refusals
(overlap, outside the hub's dates, rooms booked), the screen, and the hub receiving it through the outbox
(one update per rate plan or room type)."""

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse

from integration.ari.dates import DateRange
from integration.ari.services.copy import AriCopy, aligned_shift, ari_copy_apply, ari_copy_plan, ari_copy_validate
from integration.ari.services.edits import AriStale
from integration.ari.services.history import ari_change_set_undo, ari_undo_plan
from integration.models import AriChangeSet, AriChangeSource, AriDirtyRange, RatePlanDay, ResourceKind, RoomTypeDay
from integration.sync.services.batch import sync_pending
from tests.factories import PropertyFactory, hub_content
from tests.integration.ari.factories import ari_property, day, fill_days

pytestmark = pytest.mark.django_db

D = datetime.date


# --- The weekdays ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "target", "first_monday", "onto"),
    [
        # December 2026 onto December 2027: the first Monday (the 7th) onto the first Monday (the 6th).
        (D(2026, 12, 1), D(2027, 12, 1), D(2026, 12, 7), D(2027, 12, 6)),
        # Across a leap day: March 2027 onto March 2028 (29 February 2028 in between).
        (D(2027, 3, 1), D(2028, 3, 1), D(2027, 3, 1), D(2028, 3, 6)),
        # The leap month itself: February 2028 onto February 2029.
        (D(2028, 2, 1), D(2029, 2, 1), D(2028, 2, 7), D(2029, 2, 5)),
        # Onto a later day of the same year.
        (D(2026, 12, 1), D(2026, 12, 22), D(2026, 12, 7), D(2026, 12, 28)),
    ],
)
def test_the_first_monday_lands_on_the_first_monday(source, target, first_monday, onto):
    shift = aligned_shift(source, target)
    assert first_monday + shift == onto
    assert shift.days % 7 == 0
    for offset in range(31):
        moved = source + datetime.timedelta(days=offset) + shift
        assert moved.weekday() == (source + datetime.timedelta(days=offset)).weekday()


def test_a_copy_over_the_leap_day_maps_every_day_once():
    copy = AriCopy(DateRange(D(2027, 2, 1), D(2027, 3, 31)), D(2028, 2, 1))
    days = [day + copy.shift for day in copy.source.days()]
    assert len(set(days)) == len(days) == 59
    assert days[0] == copy.target.start == D(2028, 2, 7)  # Monday 1 February 2027 onto the first Monday
    assert D(2028, 2, 29) in days
    assert [moved.weekday() for moved in days] == [source.weekday() for source in copy.source.days()]


# --- The plan and its checks ---------------------------------------------------------------------


@pytest.fixture
def rows(property_a):
    return ari_property(property_a, room_types=1, packages=1)


def source_and_target(weeks=4, length=7):
    """A week from tomorrow, and the same weekdays `weeks` weeks later."""
    source = DateRange(day(1), day(length))
    return source, source.start + datetime.timedelta(weeks=weeks)


def test_the_plan_copies_rates_differences_open_days_and_rooms(rows):
    room_type, standalone, (package,) = rows[0]
    source, target_first = source_and_target()
    fill_days(rows, list(source.days()), rate=120_000, modify=30_000, allotment=4)
    RatePlanDay.objects.filter(rate_plan=standalone, date=source.start).update(business_day=False)
    copy = AriCopy(source, target_first, rate_plans=(standalone, package), room_types=(room_type,))

    plan = ari_copy_plan(copy)

    assert not plan.errors
    shift = copy.shift
    changed = {(change.target, change.date, change.field): change.new for change in plan.changed}
    for source_day in source.days():
        assert changed[(standalone, source_day + shift, "rate")] == 120_000
        assert changed[(package, source_day + shift, "rate_modify")] == 30_000
        assert changed[(room_type, source_day + shift, "allotment")] == 4
    # The closed day closes its copy; open days onto days without a row change nothing.
    assert changed[(standalone, source.start + shift, "business_day")] is False
    assert [key for key in changed if key[2] == "business_day"] == [(standalone, source.start + shift, "business_day")]
    assert len(plan.hub_requests) == 3


def test_days_without_a_value_leave_their_copy_as_it_is(rows):
    _room_type, standalone, _packages = rows[0]
    source, target_first = source_and_target()
    fill_days(rows, [source.start])
    copy = AriCopy(source, target_first, rate_plans=(standalone,))

    plan = ari_copy_plan(copy)

    assert plan.missing == 6
    assert [change.date for change in plan.changed] == [copy.target.start]


@pytest.mark.parametrize(
    ("source", "target_first", "field", "message"),
    [
        (DateRange(day(10), day(3)), day(40), "source_to", "must not end before it starts"),
        (DateRange(day(1), day(400)), day(500), "source_to", "at most 366 days"),
        (DateRange(day(1), day(30)), day(14), "target_from", "must not overlap"),
        (DateRange(day(1), day(30)), day(800), "target_from", "the hub takes dates from today"),
    ],
)
def test_a_copy_that_cannot_be_is_a_field_error(rows, source, target_first, field, message):
    _room_type, standalone, _packages = rows[0]
    errors = ari_copy_validate(AriCopy(source, target_first, rate_plans=(standalone,)))
    assert message in errors[field]


def test_no_rows_chosen_is_an_error():
    assert "targets" in ari_copy_validate(AriCopy(DateRange(day(1), day(3)), day(40)))


def test_rooms_booked_above_the_copied_rooms_refuse_the_whole_copy(rows, staff_a, property_a):
    room_type, standalone, _packages = rows[0]
    source, target_first = source_and_target()
    fill_days(rows, list(source.days()), allotment=1)
    copy = AriCopy(source, target_first, rate_plans=(standalone,), room_types=(room_type,))
    booked_day = copy.target.start + datetime.timedelta(days=2)
    RoomTypeDay.objects.create(room_type=room_type, date=booked_day, allotment=3, taken=2, available=1)

    plan = ari_copy_plan(copy)

    assert [(change.date, change.error) for change in plan.errors] == [
        (booked_day, "2 rooms are already booked on this day.")
    ]
    with pytest.raises(ValidationError):
        ari_copy_apply(prop=property_a, copy=copy, user=staff_a, expected=plan.fingerprint())
    assert not RatePlanDay.objects.filter(date__gte=copy.target.start).exists()


# --- The apply: history, undo, stale previews -------------------------------------------------------


def test_the_copy_is_one_change_that_undoes(rows, staff_a, property_a):
    room_type, standalone, (package,) = rows[0]
    source, target_first = source_and_target()
    fill_days(rows, list(source.days()), rate=120_000, allotment=4)
    copy = AriCopy(source, target_first, rate_plans=(standalone, package), room_types=(room_type,))
    fill_days(rows, list(copy.target.days()), rate=90_000, allotment=2)

    plan, change_set = ari_copy_apply(
        prop=property_a, copy=copy, user=staff_a, expected=ari_copy_plan(copy).fingerprint()
    )

    assert change_set.source == AriChangeSource.COPY
    assert change_set.user == staff_a
    assert change_set.cell_count == len(plan.changed) == 7 * 2  # the rates and the rooms; differences equal
    assert change_set.description == copy.description()
    target_rates = RatePlanDay.objects.filter(rate_plan=standalone, date__in=list(copy.target.days()))
    assert set(target_rates.values_list("rate", flat=True)) == {120_000}
    assert set(RoomTypeDay.objects.filter(date__gte=copy.target.start).values_list("allotment", flat=True)) == {4}
    # Marked for the hub: the copied days of the rate plan and of the room type.
    dirty = AriDirtyRange.objects.values_list("state__kind", "date_from", "date_to")
    assert set(dirty) == {
        (ResourceKind.ARI_RATES, copy.target.start, copy.target.end),
        (ResourceKind.ARI_AVAILS, copy.target.start, copy.target.end),
    }

    ari_change_set_undo(change_set=change_set, user=staff_a, expected=ari_undo_plan(change_set).fingerprint())

    assert set(target_rates.values_list("rate", flat=True)) == {90_000}
    assert set(RoomTypeDay.objects.filter(date__gte=copy.target.start).values_list("allotment", flat=True)) == {2}


def test_a_copy_previewed_before_someone_changed_its_cells_is_refused(rows, staff_a, property_a):
    _room_type, standalone, _packages = rows[0]
    source, target_first = source_and_target()
    fill_days(rows, list(source.days()), rate=120_000)
    copy = AriCopy(source, target_first, rate_plans=(standalone,))
    previewed = ari_copy_plan(copy).fingerprint()
    RatePlanDay.objects.create(rate_plan=standalone, date=copy.target.start, rate=77_000)

    with pytest.raises(AriStale):
        ari_copy_apply(prop=property_a, copy=copy, user=staff_a, expected=previewed)

    assert not AriChangeSet.objects.exists()
    assert RatePlanDay.objects.get(rate_plan=standalone, date=copy.target.start).rate == 77_000


# --- The screen -------------------------------------------------------------------------------


@pytest.fixture
def staff_client(client, staff_a):
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def copy_data(source, target_first, targets):
    return {
        "source_from": source.start.isoformat(),
        "source_to": source.end.isoformat(),
        "target_from": target_first.isoformat(),
        "targets": targets,
    }


def test_the_screen_previews_then_applies_the_copy(staff_client, property_a, rows):
    _room_type, standalone, _packages = rows[0]
    source, target_first = source_and_target()
    fill_days(rows, list(source.days()), rate=120_000)
    url = reverse("admin:integration_property_ari_copy", args=[property_a.pk])
    data = copy_data(source, target_first, [f"rp:{standalone.pk}"])

    preview = staff_client.post(url, {**data, "preview": "1"})

    assert preview.status_code == 200
    shown = preview.context["preview"]
    assert shown["changed_count"] == 7
    assert shown["weeks"] == 4
    assert "is copied onto" in preview.content.decode()
    assert not RatePlanDay.objects.filter(date__gte=target_first).exists()

    applied = staff_client.post(url, {**data, "apply": "1", "digest": shown["digest"]})

    assert applied.status_code == 302
    assert f"start={target_first.isoformat()}" in applied["Location"]
    assert RatePlanDay.objects.filter(date__gte=target_first, rate=120_000).count() == 7


def test_the_screen_refuses_an_apply_of_other_choices(staff_client, property_a, rows):
    _room_type, standalone, _packages = rows[0]
    source, target_first = source_and_target()
    fill_days(rows, list(source.days()))
    url = reverse("admin:integration_property_ari_copy", args=[property_a.pk])
    data = copy_data(source, target_first, [f"rp:{standalone.pk}"])
    digest = staff_client.post(url, {**data, "preview": "1"}).context["preview"]["digest"]

    other = {**data, "target_from": (target_first + datetime.timedelta(weeks=1)).isoformat()}
    response = staff_client.post(url, {**other, "apply": "1", "digest": digest})

    assert response.status_code == 200
    assert not AriChangeSet.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"source_from": "soon"}, "source_from"),
        ({"targets": []}, "targets"),
        ({"targets": ["rp:999999"]}, "targets"),
        ({"target_from": "2020-01-01"}, "target_from"),
    ],
)
def test_bad_input_is_a_form_error(staff_client, property_a, rows, change, field):
    _room_type, standalone, _packages = rows[0]
    source, target_first = source_and_target()
    url = reverse("admin:integration_property_ari_copy", args=[property_a.pk])
    data = {**copy_data(source, target_first, [f"rp:{standalone.pk}"]), **change, "apply": "1"}

    response = staff_client.post(url, data)

    assert response.status_code == 200
    assert field in response.context["form"].errors


def test_another_property_is_404(staff_client, property_b):
    assert staff_client.get(reverse("admin:integration_property_ari_copy", args=[property_b.pk])).status_code == 404


# --- Through the outbox to the hub ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_copied_period_reaches_the_hub_as_one_update_per_rate_plan_and_room_type(hub, staff_a):
    prop = PropertyFactory(vendor_id="hanok-copy")
    room_type, _standalone_model, _package_model, (standalone, package) = hub_content(prop)
    sync_pending(full=True)
    source = DateRange(day(1), day(14))
    fill_days([(room_type, standalone, [package])], list(source.days()), rate=130_000, modify=20_000, allotment=6)
    onto = day(1) + datetime.timedelta(weeks=8)
    copy = AriCopy(source, onto, rate_plans=(standalone, package), room_types=(room_type,))
    before = hub.request_log(method="POST").count()

    ari_copy_apply(prop=prop, copy=copy, user=staff_a, expected=ari_copy_plan(copy).fingerprint())
    summary = sync_pending()

    assert summary.counts["failed"] == 0
    rates = hub.rates_of(prop.vendor_id, room_type.vendor_id, standalone.vendor_id)
    assert {rates[d]["rate"] for d in copy.target.days()} == {130_000}
    differences = hub.rates_of(prop.vendor_id, room_type.vendor_id, package.vendor_id)
    assert {differences[d]["rate_modify"] for d in copy.target.days()} == {20_000}
    assert hub.avails_of(prop.vendor_id, room_type.vendor_id) == dict.fromkeys(copy.target.days(), 6)
    # One rates call per rate plan, one availability call per room type.
    assert hub.request_log(method="POST").count() - before == 3


def test_the_plan_reads_each_table_twice_whatever_the_rows_and_days(property_a, django_assert_num_queries):
    rows = ari_property(property_a, room_types=3, packages=2)
    source = DateRange(day(1), day(60))
    fill_days(rows, list(source.days()))
    plans = tuple(plan for _room_type, standalone, packages in rows for plan in (standalone, *packages))
    room_types = tuple(room_type for room_type, _standalone, _packages in rows)
    small = AriCopy(DateRange(day(1), day(2)), day(1) + datetime.timedelta(weeks=20), plans[:1], room_types[:1])
    large = AriCopy(source, day(1) + datetime.timedelta(weeks=20), plans, room_types)

    for copy in (small, large):
        with django_assert_num_queries(4):
            ari_copy_plan(copy)
