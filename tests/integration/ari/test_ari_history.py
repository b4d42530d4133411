"""Safe edits of rates and availability: every change recorded per cell (who, when, old, new, through
which screen), its undo as a new change that the hub receives, the refusal to write over what someone
changed after a preview (two sessions), and the confirmation of rooms far above a room type's rooms."""

import datetime

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.db import OperationalError
from django.urls import reverse
from django.utils import timezone, translation
from psycopg import errors

from integration.ari.csv_parse import ari_csv_read
from integration.ari.dates import DateRange
from integration.ari.selectors.grid import CellSeen
from integration.ari.services import bulk
from integration.ari.services.bulk import ari_change_apply
from integration.ari.services.cells import AriCellStale, ari_cell_save
from integration.ari.services.csv_import import ari_csv_apply
from integration.ari.services.edits import AriEdit, AriStale, Operation, availability_far_above
from integration.ari.services.history import ari_change_set_undo, ari_undo_plan
from integration.ari.tasks import ari_history_purge_task
from integration.models import (
    AriCellChange,
    AriChangeSet,
    AriChangeSource,
    AriDirtyRange,
    RatePlanDay,
    ResourceKind,
    RoomTypeDay,
)
from integration.sync.services.batch import sync_pending
from tests.factories import PropertyFactory, hub_content, member
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days
from tests.login import Client

pytestmark = pytest.mark.django_db

SATURDAY, SUNDAY = 5, 6


@pytest.fixture
def rows(property_a):
    return ari_property(property_a, room_types=1, packages=1)


def english_client(user):
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def url(name, prop, *args):
    return reverse(f"admin:integration_property_{name}", args=[prop.pk, *args])


def rates(plan, dates):
    stored = dict(RatePlanDay.objects.filter(rate_plan=plan, date__in=dates).values_list("date", "rate"))
    return [stored.get(date) for date in dates]


def dirty(target, kind):
    return set(
        AriDirtyRange.objects.filter(state__kind=kind, state__object_id=target.pk).values_list("date_from", "date_to")
    )


# --- History ----------------------------------------------------------------------------------


def test_a_bulk_edit_is_one_change_with_each_cells_old_and_new_value(property_a, rows, staff_a):
    _room_type, standalone, (_package,) = rows[0]
    dates = [day(n) for n in range(1, 8)]
    fill_days(rows, dates, rate=100_000, modify=20_000, allotment=5)
    edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.INCREASE_PERCENT, 10, rate_plans=(standalone,))

    plan, change_set = ari_change_apply(prop=property_a, edit=edit, source=AriChangeSource.BULK, user=staff_a)

    assert len(plan.changed) == 7
    assert (change_set.user, change_set.source, change_set.cell_count) == (staff_a, "bulk", 7)
    cells = AriCellChange.objects.filter(change_set=change_set).order_by("date")
    assert [(cell.rate_plan, cell.date, cell.field, cell.old, cell.new) for cell in cells] == [
        (standalone, date, "rate", 100_000, 110_000) for date in dates
    ]


@pytest.mark.django_db(transaction=True)
def test_a_bulk_edit_the_database_gave_up_to_a_deadlock_runs_again_whole(property_a, rows, staff_a, monkeypatch):
    _room_type, standalone, (_package,) = rows[0]
    dates = [day(n) for n in range(1, 8)]
    fill_days(rows, dates, rate=100_000, modify=20_000, allotment=5)
    edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.INCREASE_PERCENT, 10, rate_plans=(standalone,))
    apply_edit, attempts = bulk.ari_edit_apply, []

    def deadlocked_once(*args, **kwargs):
        plan = apply_edit(*args, **kwargs)  # its cells written, then the database gives the transaction up
        attempts.append(plan)
        if len(attempts) == 1:
            raise OperationalError("deadlock detected") from errors.DeadlockDetected()
        return plan

    monkeypatch.setattr(bulk, "ari_edit_apply", deadlocked_once)
    plan, change_set = ari_change_apply(prop=property_a, edit=edit, source=AriChangeSource.BULK, user=staff_a)

    assert (len(attempts), len(plan.changed)) == (2, 7)
    assert list(AriChangeSet.objects.values_list("pk", flat=True)) == [change_set.pk]
    assert set(rates(standalone, dates)) == {110_000}


def test_a_cell_save_records_its_rate_and_business_day_and_a_save_that_changes_nothing_records_nothing(
    property_a, rows, staff_a
):
    _room_type, standalone, _packages = rows[0]
    fill_days(rows, [day(2)], rate=100_000)
    standalone.property = property_a

    ari_cell_save(target=standalone, day=day(2), value=90_000, business_day=False, user=staff_a)
    ari_cell_save(target=standalone, day=day(2), value=90_000, business_day=False, user=staff_a)

    (change_set,) = AriChangeSet.objects.all()
    assert (change_set.source, change_set.user) == ("cell", staff_a)
    assert set(change_set.cells.values_list("field", "old", "new")) == {
        ("rate", 100_000, 90_000),
        ("business_day", 1, 0),
    }


def test_a_csv_import_is_one_change_named_by_its_file(property_a, rows, staff_a):
    room_type, standalone, _packages = rows[0]
    fill_days(rows, [day(3)], rate=100_000, allotment=5)
    content = (
        "kind,room_type,rate_plan,channel,date,value,business_day\n"
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(3)},95000,\n"
        f"availability,{room_type.vendor_id},,,{day(3)},4,\n"
    )

    plan = ari_csv_apply(property_a, ari_csv_read(content), user=staff_a, file_name="december.csv")

    assert plan.applied
    change_set = plan.change_set
    assert (change_set.source, change_set.description, change_set.cell_count) == ("csv", "december.csv", 2)
    assert set(change_set.cells.values_list("field", "old", "new")) == {("rate", 100_000, 95_000), ("allotment", 5, 4)}


def test_the_calendar_shows_a_cells_history_and_the_change_page_its_cells(property_a, rows, staff_a):
    _room_type, standalone, _packages = rows[0]
    fill_days(rows, [day(2)], rate=100_000)
    standalone.property = property_a
    ari_cell_save(target=standalone, day=day(2), value=90_000, user=staff_a)
    ari_cell_save(target=standalone, day=day(2), value=80_000, user=staff_a)
    client = english_client(staff_a)

    response = client.get(
        url("ari_history", property_a), {"kind": "rate", "target": standalone.pk, "date": day(2).isoformat()}
    )

    html = response.content.decode()
    assert response.status_code == 200
    rows_html = html.split("<tbody>")[1].split("<tr>")[1:]
    assert "100,000" not in rows_html[0]
    assert "80,000" in rows_html[0]
    assert "100,000" in rows_html[1]
    assert "grid cell edit" in rows_html[1]
    assert staff_a.username in rows_html[1]
    change_set = AriChangeSet.objects.order_by("created_at", "pk").first()
    page = client.get(url("ari_change", property_a, change_set.pk))
    assert page.status_code == 200
    assert [(cell["old"], cell["new"]) for cell in page.context["cells"]] == [("100,000", "90,000")]
    other = PropertyFactory()
    assert english_client(member(other, "staff")).get(url("ari_change", other, change_set.pk)).status_code == 404


# --- Undo -------------------------------------------------------------------------------------


def test_undo_restores_standalone_rates_and_package_differences_of_an_import(property_a, rows, staff_a):
    room_type, standalone, (package,) = rows[0]
    fill_days(rows, [day(4), day(5)], rate=100_000, modify=20_000, allotment=5)
    content = (
        "kind,room_type,rate_plan,channel,date,value,business_day\n"
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(4)},150000,0\n"
        f"rate_modify,{room_type.vendor_id},{package.vendor_id},,{day(4)},-10000,\n"
        f"availability,{room_type.vendor_id},,,{day(5)},2,\n"
    )
    imported = ari_csv_apply(property_a, ari_csv_read(content), user=staff_a).change_set
    AriDirtyRange.objects.all().delete()

    undo = ari_undo_plan(imported)
    assert len(undo.plan.changed) == 4
    assert not undo.skipped
    new = ari_change_set_undo(change_set=imported, user=staff_a, expected=undo.fingerprint())

    assert (new.source, new.undo_of, new.cell_count) == ("undo", imported, 4)
    day4 = RatePlanDay.objects.get(rate_plan=standalone, date=day(4))
    assert (day4.rate, day4.business_day) == (100_000, True)
    assert RatePlanDay.objects.get(rate_plan=package, date=day(4)).rate_modify == 20_000
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(5)).allotment == 5
    assert dirty(standalone, ResourceKind.ARI_RATES) == {(day(4), day(4))}
    assert dirty(package, ResourceKind.ARI_RATES) == {(day(4), day(4))}
    assert dirty(room_type, ResourceKind.ARI_AVAILS) == {(day(5), day(5))}


def test_undo_leaves_a_cell_changed_again_since_and_restores_the_others(property_a, rows, staff_a):
    _room_type, standalone, _packages = rows[0]
    dates = [day(n) for n in range(1, 4)]
    fill_days(rows, dates, rate=100_000)
    edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.SET, 120_000, rate_plans=(standalone,))
    _plan, bulk = ari_change_apply(prop=property_a, edit=edit, source=AriChangeSource.BULK, user=staff_a)
    standalone.property = property_a
    ari_cell_save(target=standalone, day=dates[1], value=130_000, user=staff_a)

    undo = ari_undo_plan(bulk)
    ari_change_set_undo(change_set=bulk, user=staff_a, expected=undo.fingerprint())

    assert [(cell.date, cell.field) for cell, _reason in undo.skipped] == [(dates[1], "rate")]
    assert rates(standalone, dates) == [100_000, 130_000, 100_000]


def test_an_undo_previewed_before_someone_changed_its_cells_is_refused_with_the_new_plan(property_a, rows, staff_a):
    _room_type, standalone, _packages = rows[0]
    dates = [day(1), day(2)]
    fill_days(rows, dates, rate=100_000)
    edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.SET, 120_000, rate_plans=(standalone,))
    _plan, bulk = ari_change_apply(prop=property_a, edit=edit, source=AriChangeSource.BULK, user=staff_a)
    previewed = ari_undo_plan(bulk).fingerprint()
    standalone.property = property_a
    ari_cell_save(target=standalone, day=dates[0], value=125_000, user=staff_a)

    with pytest.raises(AriStale) as refused:
        ari_change_set_undo(change_set=bulk, user=staff_a, expected=previewed)

    assert rates(standalone, dates) == [125_000, 120_000]
    assert len(refused.value.plan.skipped) == 1
    assert AriChangeSet.objects.filter(source="undo").count() == 0


@pytest.mark.django_db(transaction=True)
def test_an_undo_reaches_the_hub_through_the_sandbox(hub, staff_a):
    prop = PropertyFactory(vendor_id="hanok-undo")
    room_type, _standalone_model, _package_model, (standalone, _package) = hub_content(prop)
    sync_pending(full=True)
    days = (DateRange(day(0), day(6)),)
    ari_change_apply(
        prop=prop, edit=AriEdit(days, Operation.SET, 100_000, rate_plans=(standalone,)), source=AriChangeSource.BULK
    )
    ari_change_apply(
        prop=prop, edit=AriEdit(days, Operation.SET_AVAILABILITY, 5, room_types=(room_type,)), source="bulk"
    )
    sync_pending()
    weekend = AriEdit(days, Operation.SET, 150_000, rate_plans=(standalone,), weekdays=frozenset({SATURDAY, SUNDAY}))
    _plan, raised = ari_change_apply(prop=prop, edit=weekend, source=AriChangeSource.BULK, user=staff_a)
    _plan, rooms = ari_change_apply(
        prop=prop, edit=AriEdit(days, Operation.SET_AVAILABILITY, 3, room_types=(room_type,)), source="bulk"
    )
    sync_pending()
    held = hub.rates_of(prop.vendor_id, room_type.vendor_id, standalone.vendor_id)
    assert {held[day(n)]["rate"] for n in range(7)} == {100_000, 150_000}

    for change_set in (raised, rooms):
        ari_change_set_undo(change_set=change_set, user=staff_a, expected=ari_undo_plan(change_set).fingerprint())
    assert AriDirtyRange.objects.exists()
    summary = sync_pending()

    assert summary.counts["failed"] == 0
    held = hub.rates_of(prop.vendor_id, room_type.vendor_id, standalone.vendor_id)
    assert {date: values["rate"] for date, values in held.items() if date <= day(6)} == {
        day(n): 100_000 for n in range(7)
    }
    assert hub.avails_of(prop.vendor_id, room_type.vendor_id) == {day(n): 5 for n in range(7)}
    assert not AriDirtyRange.objects.exists()


def test_the_change_page_previews_the_undo_then_applies_it(property_a, rows, staff_a):
    _room_type, standalone, _packages = rows[0]
    dates = [day(1), day(2)]
    fill_days(rows, dates, rate=100_000)
    edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.SET, 120_000, rate_plans=(standalone,))
    _plan, bulk = ari_change_apply(prop=property_a, edit=edit, source=AriChangeSource.BULK, user=staff_a)
    client = english_client(staff_a)

    preview = client.post(url("ari_change", property_a, bulk.pk), {"preview": "1"})
    assert rates(standalone, dates) == [120_000, 120_000]
    undo = preview.context["undo"]
    assert [(cell["old"], cell["new"]) for cell in undo["cells"]] == [("120,000", "100,000")] * 2
    assert len(undo["requests"]) == 1
    # The undo button under the preview's counts, above its cells and the change's (lists of thousands of
    # rows would push it out of sight): one button, the first thing after the counts.
    page = preview.content.decode()
    assert page.count('name="apply"') == 1
    assert page.index(">Restore<") < page.index('name="apply"') < page.index('class="vh-bulk-cells vh-undo-cells"')
    assert page.index('name="apply"') < page.index('id="vh-change-cells"')
    response = client.post(url("ari_change", property_a, bulk.pk), {"apply": "1", "cells": undo["digest"]})

    new = AriChangeSet.objects.get(source="undo")
    assert response.status_code == 302
    assert response["Location"] == url("ari_change", property_a, new.pk)
    assert rates(standalone, dates) == [100_000, 100_000]
    assert (new.user, new.undo_of) == (staff_a, bulk)


# --- Two sessions -----------------------------------------------------------------------------


def bulk_form(dates, *, targets, operation, value, **extra):
    return {
        "ranges_from": [dates[0].isoformat()],
        "ranges_to": [dates[-1].isoformat()],
        "weekdays": [str(n) for n in range(7)],
        "targets": targets,
        "operation": operation,
        "value": value,
        "channel": "",
        **extra,
    }


def test_a_bulk_apply_after_someone_else_changed_the_cells_shows_the_new_preview_and_saves_nothing(
    property_a, rows, staff_a
):
    _room_type, standalone, _packages = rows[0]
    dates = [day(n) for n in range(1, 5)]
    fill_days(rows, dates, rate=100_000)
    first, second = english_client(staff_a), english_client(member(property_a, "staff"))
    raise_10 = bulk_form(dates, targets=[f"rp:{standalone.pk}"], operation="increase_percent", value="10")
    previewed = first.post(url("ari_bulk", property_a), {**raise_10, "preview": "1"}).context["preview"]
    assert {cell["new"] for cell in previewed["cells"]} == {"110,000"}

    # Meanwhile, another member of staff sets two of the days.
    set_two = bulk_form(dates[:2], targets=[f"rp:{standalone.pk}"], operation="set", value="90000")
    other = second.post(url("ari_bulk", property_a), {**set_two, "preview": "1"}).context["preview"]
    assert (
        second.post(url("ari_bulk", property_a), {**set_two, "apply": "1", "digest": other["digest"]}).status_code
        == 302
    )

    stale = first.post(url("ari_bulk", property_a), {**raise_10, "apply": "1", "digest": previewed["digest"]})

    assert stale.status_code == 200
    assert rates(standalone, dates) == [90_000, 90_000, 100_000, 100_000]
    assert "after your preview" in " ".join(str(message) for message in get_messages(stale.wsgi_request))
    fresh = stale.context["preview"]
    assert sorted((cell["old"], cell["new"]) for cell in fresh["cells"]) == [
        ("100,000", "110,000"),
        ("100,000", "110,000"),
        ("90,000", "99,000"),
        ("90,000", "99,000"),
    ]
    applied = first.post(url("ari_bulk", property_a), {**raise_10, "apply": "1", "digest": fresh["digest"]})
    assert applied.status_code == 302
    assert rates(standalone, dates) == [99_000, 99_000, 110_000, 110_000]


def test_a_cell_saved_over_someone_elses_change_is_refused_with_what_it_holds_now(property_a, rows, staff_a):
    _room_type, standalone, _packages = rows[0]
    fill_days(rows, [day(3)], rate=100_000)
    first, second = english_client(staff_a), english_client(member(property_a, "staff"))
    cell = {"kind": "rate", "target": standalone.pk, "date": day(3).isoformat(), "business_day": "1"}
    seen = {"seen_value": "100000", "seen_open": "1"}
    assert second.post(url("ari_cell", property_a), {**cell, **seen, "value": "110000"}).json()["ok"]

    refused = first.post(url("ari_cell", property_a), {**cell, **seen, "value": "95000"})

    answer = refused.json()
    assert refused.status_code == 409
    assert answer["stale"]
    assert "110,000" in answer["error"]
    assert "110,000" in answer["cells"][f"c-rp-{standalone.pk}-{day(3).isoformat()}"]
    assert rates(standalone, [day(3)]) == [110_000]
    again = first.post(
        url("ari_cell", property_a), {**cell, "seen_value": "110000", "seen_open": "1", "value": "95000"}
    )
    assert again.json()["ok"]
    assert rates(standalone, [day(3)]) == [95_000]
    standalone.property = property_a
    with pytest.raises(AriCellStale):
        ari_cell_save(target=standalone, day=day(3), value=1, seen=CellSeen(95_000, False))


# --- Rooms far above the room count -----------------------------------------------------------


def test_far_above_means_more_than_the_room_types_rooms(property_a, rows):
    room_type = rows[0][0]
    assert not availability_far_above(room_type, 1_000)  # no room count: nothing to compare with
    room_type.room_count = 10
    assert not availability_far_above(room_type, 10)
    assert availability_far_above(room_type, 11)


def test_a_bulk_edit_of_rooms_above_the_room_count_asks_for_confirmation(property_a, rows, staff_a):
    room_type = rows[0][0]
    room_type.room_count = 10
    room_type.save()
    dates = [day(1), day(2)]
    fill_days(rows, dates, allotment=5)
    client = english_client(staff_a)
    data = bulk_form(dates, targets=[f"rt:{room_type.pk}"], operation="set_availability", value="30")

    asked = client.post(url("ari_bulk", property_a), {**data, "preview": "1"})

    assert asked.context["form"].errors["confirm_rooms"] == [
        f"30 rooms to sell is more than {room_type.name} has (10 rooms): confirm to sell that many."
    ]
    assert 'name="confirm_rooms"' in asked.content.decode()
    assert asked.context["preview"] is None
    confirmed = client.post(url("ari_bulk", property_a), {**data, "confirm_rooms": "on", "preview": "1"})
    preview = confirmed.context["preview"]
    assert preview["changed_count"] == 2
    client.post(url("ari_bulk", property_a), {**data, "confirm_rooms": "on", "apply": "1", "digest": preview["digest"]})
    assert set(RoomTypeDay.objects.filter(room_type=room_type).values_list("allotment", flat=True)) == {30}
    assert (
        "confirm_rooms"
        not in client.post(
            url("ari_bulk", property_a),
            {
                **bulk_form(dates, targets=[f"rt:{room_type.pk}"], operation="set_availability", value="10"),
                "preview": "1",
            },
        ).content.decode()
    )


def test_a_cell_of_rooms_above_the_room_count_asks_for_confirmation_in_korean_too(property_a, rows, staff_a):
    room_type = rows[0][0]
    room_type.room_count = 8
    room_type.save()
    fill_days(rows, [day(2)], allotment=5)
    cell = {"kind": "availability", "target": room_type.pk, "date": day(2).isoformat(), "value": "80"}
    client = english_client(staff_a)

    asked = client.post(url("ari_cell", property_a), cell)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    korean = client.post(url("ari_cell", property_a), cell).json()

    assert asked.status_code == 400
    assert asked.json()["confirm"]
    assert "confirm to sell that many" in asked.json()["error"]
    assert korean["confirm"]
    assert "확인" in korean["error"]
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(2)).allotment == 5
    assert client.post(url("ari_cell", property_a), {**cell, "confirm": "1"}).json()["ok"]
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(2)).allotment == 80


def test_an_undo_of_an_undo_brings_the_change_back(property_a, rows, staff_a):
    _room_type, standalone, _packages = rows[0]
    dates = [day(1)]
    fill_days(rows, dates, rate=100_000)
    edit = AriEdit((DateRange(dates[0], dates[0]),), Operation.SET, 120_000, rate_plans=(standalone,))
    _plan, bulk = ari_change_apply(prop=property_a, edit=edit, source=AriChangeSource.BULK, user=staff_a)
    undo = ari_change_set_undo(change_set=bulk, user=staff_a, expected=ari_undo_plan(bulk).fingerprint())
    redo = ari_change_set_undo(change_set=undo, user=staff_a, expected=ari_undo_plan(undo).fingerprint())

    assert rates(standalone, dates) == [120_000]
    assert redo.undo_of == undo


def test_the_daily_task_deletes_changes_older_than_ari_history_days_with_their_cells(property_a, rows, settings):
    settings.ARI_HISTORY_DAYS = 400
    _room_type, standalone, _packages = rows[0]
    fill_days(rows, [day(1), day(2)], rate=100_000)
    old_edit = AriEdit((DateRange(day(1), day(2)),), Operation.SET, 110_000, rate_plans=(standalone,))
    _plan, old = ari_change_apply(prop=property_a, edit=old_edit, source=AriChangeSource.BULK)
    new_edit = AriEdit((DateRange(day(1), day(1)),), Operation.SET, 120_000, rate_plans=(standalone,))
    _plan, recent = ari_change_apply(prop=property_a, edit=new_edit, source=AriChangeSource.BULK)
    AriChangeSet.objects.filter(pk=old.pk).update(created_at=timezone.now() - datetime.timedelta(days=401))

    ari_history_purge_task()

    assert list(AriChangeSet.objects.values_list("pk", flat=True)) == [recent.pk]
    assert set(AriCellChange.objects.values_list("change_set_id", flat=True)) == {recent.pk}
    assert settings.CELERY_BEAT_SCHEDULE["ari-history-purge"]["task"] == ari_history_purge_task.name


def test_undo_leaves_days_the_hub_no_longer_takes(property_a, rows, staff_a):
    _room_type, standalone, _packages = rows[0]
    fill_days(rows, [day(1), day(2)], rate=100_000)
    edit = AriEdit((DateRange(day(1), day(2)),), Operation.SET, 120_000, rate_plans=(standalone,))
    _plan, bulk = ari_change_apply(prop=property_a, edit=edit, source=AriChangeSource.BULK, user=staff_a)
    # As if the change had been made days ago: its first day is past now.
    RatePlanDay.objects.create(rate_plan=standalone, date=day(-3), rate=120_000)
    bulk.cells.filter(date=day(1)).update(date=day(-3))

    with translation.override("en"):
        undo = ari_undo_plan(bulk)
    ari_change_set_undo(change_set=bulk, user=staff_a, expected=undo.fingerprint())

    assert [(cell.date, reason) for cell, reason in undo.skipped] == [
        (day(-3), "The hub no longer takes this day; left as it is.")
    ]
    assert rates(standalone, [day(-3), day(2)]) == [120_000, 100_000]


def test_a_channels_cell_history_is_its_own(property_a, rows, staff_a):
    room_type, _standalone, _packages = rows[0]
    fill_days(rows, [day(2)], allotment=5)
    channel = SalesChannelFactory(open_for=property_a)
    room_type.property = property_a
    ari_cell_save(target=room_type, day=day(2), value=3, channel=channel, user=staff_a)
    ari_cell_save(target=room_type, day=day(2), value=4, user=staff_a)
    client = english_client(staff_a)
    query = {"kind": "availability", "target": room_type.pk, "date": day(2).isoformat()}

    on_channel = client.get(url("ari_history", property_a), {**query, "channel": channel.pk}).content.decode()
    common = client.get(url("ari_history", property_a), query).content.decode()

    assert "channel cap" in on_channel
    assert "rooms to sell" not in on_channel
    assert "rooms to sell" in common
    assert "channel cap" not in common
