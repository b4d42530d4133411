"""What the rates screens tell staff: the package prices a bulk edit moves with the standalone rates, the
updates to the hub in words, where each row of the calendar stands with the hub (and its refresh), and the
change history's "what changed" with its filters."""

import datetime

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from core.dates import KOREA
from integration.ari.dates import DateRange, month_start
from integration.ari.services.bulk import ari_change_apply
from integration.ari.services.edits import AriEdit, Operation, ari_derived_prices, ari_edit_plan
from integration.ari.templatetags import ari_date
from integration.models import AriChangeSet, AriChangeSource, AriDirtyRange, ResourceKind, SyncState
from integration.sync.choices import SyncStatus
from tests.factories import PropertyFactory, member
from tests.integration.ari.factories import ari_property, fill_days, next_weekday

pytestmark = pytest.mark.django_db

SATURDAY, SUNDAY = 5, 6


def url(name, prop):
    return reverse(f"admin:integration_property_{name}", args=[prop.pk])


@pytest.fixture
def staff_client(client, staff_a):
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def bulk_post(client, prop, *, dates, plans, operation="increase_amount", value="10000", weekdays=range(7)):
    return client.post(
        url("ari_bulk", prop),
        {
            "ranges_from": [dates[0].isoformat()],
            "ranges_to": [dates[-1].isoformat()],
            "weekdays": [str(weekday) for weekday in weekdays],
            "targets": [f"rp:{plan.pk}" for plan in plans],
            "operation": operation,
            "value": value,
            "channel": "",
            "preview": "1",
        },
    )


def weekend(start_after=7):
    saturday = next_weekday(SATURDAY, after=start_after)
    return [saturday, saturday + datetime.timedelta(days=1)]


# --- Package prices that follow --------------------------------------------------------------


def test_bulk_preview_lists_the_package_prices_that_follow_the_standalone_rates(staff_client, property_a):
    rows = ari_property(property_a, room_types=2, packages=3)
    dates = weekend()
    fill_days(rows, dates, rate=100_000, modify=20_000)
    standalones = [standalone for _room_type, standalone, _packages in rows]

    response = bulk_post(staff_client, property_a, dates=dates, plans=standalones)

    preview = response.context["preview"]
    assert preview["changed_count"] == 4  # 2 standalone plans x 2 days
    assert preview["derived_count"] == 12  # 3 packages each, 2 days
    packages = {package.pk for _rt, _s, packages in rows for package in packages}
    assert len(preview["derived"]) == 12
    assert {(row["date"], row["difference"], row["old"], row["new"]) for row in preview["derived"]} == {
        (date, "+20,000", "120,000", "130,000") for date in dates
    }
    assert len(packages) == 6
    html = response.content.decode()
    assert "12 package prices follow the standalone rates" in html
    assert "130,000" in html


def test_package_prices_the_edit_sets_itself_are_its_cells_not_followers(property_a):
    ((room_type, standalone, (package, other)),) = ari_property(property_a, room_types=1, packages=2)
    dates = weekend()
    fill_days([(room_type, standalone, [package, other])], dates, rate=100_000, modify=20_000)
    edit = AriEdit(
        (DateRange(dates[0], dates[-1]),), Operation.INCREASE_AMOUNT, 5_000, rate_plans=(standalone, package)
    )

    derived = ari_derived_prices(ari_edit_plan(edit))

    assert {(price.rate_plan_id, price.before, price.after) for price in derived} == {(other.pk, 120_000, 125_000)}


def test_the_package_prices_that_follow_are_read_in_one_query_however_many(property_a):
    rows = ari_property(property_a, room_types=3, packages=4)
    dates = [next_weekday(0, after=7) + datetime.timedelta(days=n) for n in range(28)]
    fill_days(rows, dates)
    edit = AriEdit(
        (DateRange(dates[0], dates[-1]),),
        Operation.SET,
        90_000,
        rate_plans=tuple(standalone for _rt, standalone, _p in rows),
    )
    plan = ari_edit_plan(edit)

    with CaptureQueriesContext(connection) as queries:
        derived = ari_derived_prices(plan)

    assert len(derived) == 3 * 4 * 28
    assert len(queries) == 1


def test_a_channel_edit_moves_no_package_price(property_a):
    rows = ari_property(property_a, room_types=1, packages=1)
    dates = weekend()
    fill_days(rows, dates)
    edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.SET, 90_000, rate_plans=(rows[0][1],))

    assert ari_derived_prices(ari_edit_plan(edit), channel=object()) == []


# --- Updates to the hub, in words --------------------------------------------------------------


def test_previews_count_updates_to_the_hub_and_show_paths_to_superusers_only(client, staff_a, superuser, property_a):
    rows = ari_property(property_a, room_types=1, packages=1)
    dates = weekend()
    fill_days(rows, dates)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    client.force_login(staff_a)
    staff = bulk_post(client, property_a, dates=dates, plans=[rows[0][1]])
    client.force_login(superuser)
    admin = bulk_post(client, property_a, dates=dates, plans=[rows[0][1]])

    assert staff.context["preview"]["requests_label"] == "1 update to the hub"
    assert "POST /" not in staff.content.decode()
    assert "1 update to the hub" in staff.content.decode()
    assert admin.context["preview"]["requests"][0]["path"].startswith("POST /")
    assert "POST /" in admin.content.decode()


def test_the_count_of_updates_is_plural_in_korean_too(client, staff_a, property_a):
    rows = ari_property(property_a, room_types=2, packages=1)
    dates = weekend()
    fill_days(rows, dates)
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"

    response = bulk_post(client, property_a, dates=dates, plans=[standalone for _rt, standalone, _p in rows])

    assert response.context["preview"]["requests_label"] == "허브 업데이트 2건"
    assert "패키지 판매가 4개" in response.content.decode()


# --- Where each row stands with the hub ----------------------------------------------------------


def state(target, kind, **fields):
    return SyncState.objects.create(kind=kind, object_id=target.pk, property=target.property, **fields)


def test_calendar_shows_each_rows_standing_and_underlines_days_not_at_the_hub(staff_client, property_a):
    ((room_type, standalone, (package, other)),) = ari_property(property_a, room_types=1, packages=2)
    dates = weekend()
    fill_days([(room_type, standalone, [package, other])], dates)
    pending = state(standalone, ResourceKind.ARI_RATES)
    AriDirtyRange.objects.create(state=pending, date_from=dates[0], date_to=dates[0])
    failed = state(
        package, ResourceKind.ARI_RATES, status=SyncStatus.FAILED, last_error="rate must be positive", failures=1
    )
    AriDirtyRange.objects.create(state=failed, date_from=dates[1], date_to=dates[1])
    state(room_type, ResourceKind.ARI_AVAILS, status=SyncStatus.PENDING, failures=2, last_error="hub busy (503)")

    response = staff_client.get(url("calendar", property_a), {"month": f"{dates[0]:%Y-%m}"})

    html = response.content.decode()
    assert f'id="hub-rp-{standalone.pk}" data-hub-status="pending"' in html
    assert f'id="hub-rp-{package.pk}" data-hub-status="failed"' in html
    assert f'id="hub-rp-{other.pk}" data-hub-status="none"' in html
    assert f'id="hub-al-{room_type.pk}" data-hub-status="retrying"' in html
    assert "rate must be positive" in html
    assert "hub busy (503)" in html
    assert f"?state__id__exact={failed.pk}" in html
    grid = response.context["grid"]
    (block,) = grid.room_types
    unsent = {(row.rate_plan.pk, cell.day.date) for row in block.rate_plans for cell in row.cells if cell.unsent}
    assert unsent == {(standalone.pk, dates[0]), (package.pk, dates[1])}
    assert f'id="c-rp-{standalone.pk}-{dates[0].isoformat()}" class="vh-cell' in html
    assert html.count("vh-unsent") >= 2


def test_the_calendars_hub_standing_costs_two_queries_whatever_the_rows(client, superuser):
    client.force_login(superuser)
    month = month_start(next_weekday(0, after=40))

    def count(room_types):
        prop = PropertyFactory()
        for room_type, standalone, packages in ari_property(prop, room_types=room_types, packages=2):
            for target, kind in [(room_type, ResourceKind.ARI_AVAILS), (standalone, ResourceKind.ARI_RATES)]:
                row = state(target, kind)
                AriDirtyRange.objects.create(state=row, date_from=month, date_to=month)
            for package in packages:
                state(package, ResourceKind.ARI_RATES, status=SyncStatus.SYNCED)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url("ari_hub", prop), {"month": f"{month:%Y-%m}"})
        return len(queries), response.json()

    few, answer = count(1)
    many, answer_many = count(6)

    assert few == many
    assert answer["waiting"] is True
    assert len(answer["rows"]) == 1 * 4
    assert len(answer_many["rows"]) == 6 * 4
    assert len(answer_many["unsent"]) == 6 * 2


def test_the_hub_refresh_says_when_nothing_waits_any_more(staff_client, property_a):
    ((_room_type, standalone, _packages),) = ari_property(property_a, room_types=1, packages=1)
    row = state(standalone, ResourceKind.ARI_RATES, status=SyncStatus.SYNCED)

    answer = staff_client.get(url("ari_hub", property_a)).json()

    assert answer == {
        "rows": {
            f"hub-rp-{standalone.pk}": {"status": "synced", "html": answer["rows"][f"hub-rp-{standalone.pk}"]["html"]}
        },
        "unsent": [],
        "waiting": False,
    }
    assert "At the hub" in answer["rows"][f"hub-rp-{standalone.pk}"]["html"]
    assert row.pk


def test_a_cell_edit_answers_its_cells_underlined_until_the_hub_has_them(staff_client, property_a):
    ((_room_type, standalone, _packages),) = ari_property(property_a, room_types=1, packages=1)
    day = weekend()[0]

    answer = staff_client.post(
        url("ari_cell", property_a),
        {"kind": "rate", "target": standalone.pk, "date": day.isoformat(), "value": "90000", "channel": ""},
    ).json()

    assert answer["ok"] is True
    assert "vh-unsent" in answer["cells"][f"c-rp-{standalone.pk}-{day.isoformat()}"]


def change_of(prop, rows, dates, value, user):
    edit = AriEdit(
        (DateRange(dates[0], dates[-1]),),
        Operation.SET,
        value,
        rate_plans=tuple(standalone for _rt, standalone, _p in rows),
    )
    return ari_change_apply(prop=prop, edit=edit, source=AriChangeSource.BULK, user=user)[1]


# --- The change history: what changed, filters ------------------------------------------------------


def set_rates(prop, plans, dates, value, user):
    """One bulk change by user: plans' rates on dates set to value."""
    edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.SET, value, rate_plans=tuple(plans))
    return ari_change_apply(prop=prop, edit=edit, source=AriChangeSource.BULK, user=user)[1]


def test_the_history_says_what_each_change_changed_up_to_three_cells(staff_client, staff_a, property_a):
    ((_room_type, standalone, _packages),) = rows = ari_property(property_a, room_types=1, packages=1)
    dates = [next_weekday(0, after=7) + datetime.timedelta(days=n) for n in range(5)]
    fill_days(rows, dates, rate=100_000)
    set_rates(property_a, [standalone], dates, 120_000, staff_a)
    set_rates(property_a, [standalone], dates[:1], 130_000, staff_a)

    response = staff_client.get(url("ari_changes", property_a))

    newest, oldest = response.context["page"]
    assert newest.what == [f"{ari_date(dates[0])} · Room 00 · Room only: rate 120,000 → 130,000"]
    assert newest.more == 0
    assert len(oldest.what) == 3
    assert oldest.what[0] == f"{ari_date(dates[0])} · Room 00 · Room only: rate 100,000 → 120,000"
    assert oldest.more == 2
    assert "and 2 more cells" in response.content.decode()


def test_the_history_filters_by_when_a_day_a_row_and_who(client, staff_a, property_a):
    ((room_type, standalone, (package,)),) = rows = ari_property(property_a, room_types=1, packages=1)
    dates = [next_weekday(0, after=7) + datetime.timedelta(days=n) for n in range(5)]
    fill_days(rows, dates, rate=100_000)
    other = member(property_a, "manager")
    by_staff = set_rates(property_a, [standalone], dates, 120_000, staff_a)
    by_manager = set_rates(property_a, [package], dates[3:], 150_000, other)
    last_week = set_rates(property_a, [standalone], dates[:1], 90_000, other)
    AriChangeSet.objects.filter(pk=last_week.pk).update(created_at=timezone.now() - datetime.timedelta(days=7))
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    def listed(**query):
        response = client.get(url("ari_changes", property_a), query)
        assert response.status_code == 200
        return [change.pk for change in response.context["page"]]

    today = timezone.localdate(timezone=KOREA)
    assert listed() == [by_manager.pk, by_staff.pk, last_week.pk]
    assert listed(user=other.pk) == [by_manager.pk, last_week.pk]
    assert listed(row=f"rp:{package.pk}") == [by_manager.pk]
    assert listed(day=dates[0].isoformat()) == [by_staff.pk, last_week.pk]
    assert listed(made_from=today.isoformat()) == [by_manager.pk, by_staff.pk]
    assert listed(made_to=(today - datetime.timedelta(days=1)).isoformat()) == [last_week.pk]
    assert listed(row=f"rt:{room_type.pk}") == []
    # Filtered by a row, the change names that row's cells and counts only them.
    response = client.get(url("ari_changes", property_a), {"row": f"rp:{package.pk}"})
    (change,) = response.context["page"]
    assert [line.split(":")[0] for line in change.what] == [
        f"{ari_date(day)} · Room 00 · Package 0" for day in dates[3:]
    ]
    assert change.more == 0


def test_the_history_costs_the_same_queries_whatever_its_size(client, superuser):
    client.force_login(superuser)

    def count(changes):
        prop = PropertyFactory()
        ((_room_type, standalone, (package,)),) = rows = ari_property(prop, room_types=1, packages=1)
        dates = [next_weekday(0, after=7) + datetime.timedelta(days=n) for n in range(6)]
        fill_days(rows, dates)
        for n in range(changes):
            set_rates(prop, [standalone, package], dates, 100_001 + n, superuser)
        queries = {}
        for name, query in {"all": {}, "filtered": {"row": f"rp:{standalone.pk}", "day": dates[2].isoformat()}}.items():
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url("ari_changes", prop), query)
            assert len(response.context["page"]) == min(changes, 50)
            queries[name] = len(captured)
        return queries

    assert count(2) == count(60)


def test_the_history_pages_newer_and_older_without_counting_it(client, superuser, monkeypatch):
    from integration.ari import admin_history

    monkeypatch.setattr(admin_history, "CHANGES_PER_PAGE", 2)
    client.force_login(superuser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    prop = PropertyFactory()
    ((_room_type, standalone, _packages),) = rows = ari_property(prop, room_types=1, packages=1)
    dates = [next_weekday(0, after=7)]
    fill_days(rows, dates)
    made = [set_rates(prop, [standalone], dates, 100_001 + n, superuser).pk for n in range(3)]

    with CaptureQueriesContext(connection) as captured:
        first = client.get(url("ari_changes", prop))
    second = client.get(url("ari_changes", prop), {"page": "2"})

    assert [change.pk for change in first.context["page"]] == made[:0:-1]
    assert [change.pk for change in second.context["page"]] == made[:1]
    assert "page=2" in first.content.decode()
    assert "Older" in first.content.decode()
    assert "Older" not in second.content.decode()
    assert "page=1" in second.content.decode()
    assert not [
        query for query in captured.captured_queries if "arichangeset" in query["sql"] and "COUNT(" in query["sql"]
    ]
    assert client.get(url("ari_changes", prop), {"page": "x"}).context["page"].number == 1


def test_days_edited_twice_before_a_send_are_listed_once(staff_client, property_a):
    ((_room_type, standalone, _packages),) = ari_property(property_a, room_types=1, packages=1)
    first, second = weekend()
    row = state(standalone, ResourceKind.ARI_RATES)
    AriDirtyRange.objects.create(state=row, date_from=first, date_to=second)
    AriDirtyRange.objects.create(state=row, date_from=second, date_to=second)

    answer = staff_client.get(url("ari_hub", property_a), {"month": f"{first:%Y-%m}"}).json()

    month = [day for day in (first, second) if day.month == first.month]
    assert answer["unsent"] == [f"c-rp-{standalone.pk}-{day.isoformat()}" for day in month]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_grid_the_editor_and_the_previews_write_a_day_one_way(client, staff_a, property_a, language):
    rows = ari_property(property_a, room_types=1, packages=1)
    dates = weekend()
    fill_days(rows, dates)
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    with translation.override(language):
        shown = ari_date(dates[0])
    calendar = client.get(url("calendar", property_a), {"month": f"{dates[0]:%Y-%m}"}).content.decode()
    preview = bulk_post(client, property_a, dates=dates, plans=[rows[0][1]]).content.decode()

    assert f'title="{shown}"' in calendar  # the column, which the cell editor's title repeats
    assert shown in preview
    assert f">{dates[0].isoformat()}" not in preview
    assert shown == {"ko": f"{dates[0].year}년 {dates[0].month}월 {dates[0].day}일", "en": shown}[language]
