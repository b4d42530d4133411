"""The rates and availability grid: a month's rows and marks, bounded queries, inline cell edits, the bulk
edit with its preview, the per-channel view, and who may reach them."""

import datetime
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.dates import korea_today
from integration.ari.dates import add_months, month_end, month_start
from integration.models import (
    AriDirtyRange,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    ResourceKind,
    RoomTypeDay,
    SyncState,
)
from tests.factories import member
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days, month_dates, next_weekday

pytestmark = pytest.mark.django_db

SATURDAY, SUNDAY = 5, 6


def url(name, prop):
    return reverse(f"admin:integration_property_{name}", args=[prop.pk])


def cell(html, cell_id):
    """(classes, text) of the grid cell with this id; text without tags, whitespace collapsed."""
    match = re.search(rf'<td id="{re.escape(cell_id)}" class="([^"]*)"[^>]*>(.*?)</td>', html, re.S)
    assert match, f"no cell {cell_id}"
    text = re.sub(r"<[^>]+>", " ", match.group(2))
    return match.group(1).split(), " ".join(text.split())


def cell_id(prefix, target, date):
    return f"c-{prefix}-{target.pk}-{date.isoformat()}"


@pytest.fixture
def staff_client(client, staff_a):
    """Staff of property A, reading the screens in English (messages are asserted in English)."""
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def rows(property_a):
    """One room type with the standalone plan and one package."""
    return ari_property(property_a, room_types=1, packages=1)


def dirty_dates(target, kind):
    """Every date the hub still has to get for target."""
    state = SyncState.objects.get(kind=kind, object_id=target.pk)
    dates = set()
    for dirty in AriDirtyRange.objects.filter(state=state):
        current = dirty.date_from
        while current <= dirty.date_to:
            dates.add(current)
            current += datetime.timedelta(days=1)
    return dates


# --- The grid ---------------------------------------------------------------------------------


def test_grid_shows_a_month_of_rows_with_weekends_today_and_package_prices(staff_client, property_a, rows):
    room_type, standalone, (package,) = rows[0]
    month = month_start(korea_today())
    dates = [date for date in month_dates(month) if date >= korea_today()]
    fill_days(rows, dates, rate=100_000, modify=20_000, allotment=5, held=1, taken=2)

    response = staff_client.get(url("calendar", property_a), {"month": month.strftime("%Y-%m")})

    assert response.status_code == 200
    html = response.content.decode()
    grid = response.context["grid"]
    assert [grid_day.date for grid_day in grid.days] == month_dates(month)
    assert [block.room_type for block in grid.room_types] == [room_type]
    assert [row.rate_plan for row in grid.room_types[0].rate_plans] == [standalone, package]
    target = dates[-1]
    # Availability rows: rooms to sell, booked (held + taken), available.
    assert cell(html, cell_id("al", room_type, target))[1] == "5"
    assert cell(html, cell_id("bk", room_type, target))[1] == "3"
    assert cell(html, cell_id("av", room_type, target))[1] == "2"
    assert cell(html, cell_id("rp", standalone, target))[1] == "100,000"
    # The package shows the price guests pay, and its difference in small print.
    classes, text = cell(html, cell_id("rp", package, target))
    assert text == "120,000 +20,000"
    # Weekends and today are marked, on the header and on every cell of the column.
    for date in month_dates(month):
        classes, _ = cell(html, cell_id("rp", standalone, date))
        assert ("vh-sat" in classes) == (date.weekday() == SATURDAY)
        assert ("vh-sun" in classes) == (date.weekday() == SUNDAY)
        assert ("vh-today" in classes) == (date == korea_today())
        # Days before today are outside the hub's window: shown, not editable.
        assert ("vh-editable" in classes) == (date >= korea_today())
    assert html.count('aria-current="date"') == 1


def test_grid_marks_closed_days_and_days_without_a_rate(staff_client, property_a, rows):
    _room_type, standalone, (package,) = rows[0]
    closed = day(3)
    # Another day of the same month, with no values at all.
    empty = closed + datetime.timedelta(days=1 if (closed + datetime.timedelta(days=1)).month == closed.month else -1)
    fill_days(rows, [closed])
    RatePlanDay.objects.filter(rate_plan=standalone, date=closed).update(business_day=False)

    html = staff_client.get(url("calendar", property_a), {"month": closed.strftime("%Y-%m")}).content.decode()

    classes, text = cell(html, cell_id("rp", standalone, closed))
    assert "vh-closed" in classes
    assert "100,000" in text
    classes, text = cell(html, cell_id("rp", package, empty))
    assert "vh-empty" in classes
    assert text == "—"


def _count_grid_queries(client, prop, month):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url("calendar", prop), {"month": month.strftime("%Y-%m")})
        assert response.status_code == 200
    return len(queries)


def test_grid_queries_do_not_grow_with_rows_or_days(client, superuser, django_assert_max_num_queries):
    from tests.factories import PropertyFactory

    small, large = PropertyFactory(), PropertyFactory()
    month = add_months(month_start(korea_today()), 1)
    fill_days(ari_property(small, room_types=1, packages=2), month_dates(month))
    fill_days(ari_property(large, room_types=10, packages=2), month_dates(month))
    client.force_login(superuser)
    _count_grid_queries(client, small, month)  # the session and permissions are cached from here on

    baseline = _count_grid_queries(client, small, month)
    with django_assert_max_num_queries(baseline):
        response = client.get(url("calendar", large), {"month": month.strftime("%Y-%m")})
    assert len(response.context["grid"].room_types) == 10
    assert sum(len(block.rate_plans) for block in response.context["grid"].room_types) == 30

    channel = SalesChannelFactory(open_for=[small, large])
    with CaptureQueriesContext(connection) as small_channel:
        client.get(url("calendar", small), {"month": month.strftime("%Y-%m"), "channel": channel.pk})
    with django_assert_max_num_queries(len(small_channel)):
        client.get(url("calendar", large), {"month": month.strftime("%Y-%m"), "channel": channel.pk})


# --- Inline cell edits ------------------------------------------------------------------------


def post_cell(client, prop, **data):
    return client.post(url("ari_cell", prop), {"channel": "", "business_day": "", **data})


def test_cell_edit_saves_and_answers_the_cells_that_changed(staff_client, property_a, rows):
    _room_type, standalone, (package,) = rows[0]
    target = day(5)
    fill_days(rows, [target])

    response = post_cell(
        staff_client,
        property_a,
        kind="rate",
        target=standalone.pk,
        date=target.isoformat(),
        value="110,000",
        business_day="1",
    )

    assert response.status_code == 200
    answer = response.json()
    assert answer["ok"] is True
    assert RatePlanDay.objects.get(rate_plan=standalone, date=target).rate == 110_000
    # The standalone rate moves the package's price: the answer carries that cell too.
    assert cell(answer["cells"][cell_id("rp", standalone, target)], cell_id("rp", standalone, target))[1] == "110,000"
    package_html = answer["cells"][cell_id("rp", package, target)]
    assert cell(package_html, cell_id("rp", package, target))[1] == "130,000 +20,000"
    assert dirty_dates(standalone, ResourceKind.ARI_RATES) == {target}


def test_cell_edit_of_a_package_takes_the_price_guests_pay(staff_client, property_a, rows):
    _room_type, _standalone, (package,) = rows[0]
    target = day(5)
    fill_days(rows, [target])

    response = post_cell(
        staff_client, property_a, kind="rate", target=package.pk, date=target.isoformat(), value="150000"
    )

    assert response.json()["ok"] is True
    assert RatePlanDay.objects.get(rate_plan=package, date=target).rate_modify == 50_000


def test_cell_edit_closes_a_day(staff_client, property_a, rows):
    _room_type, standalone, _ = rows[0]
    target = day(6)
    fill_days(rows, [target])

    response = post_cell(
        staff_client,
        property_a,
        kind="rate",
        target=standalone.pk,
        date=target.isoformat(),
        value="100000",
        business_day="0",
    )

    assert response.json()["ok"] is True
    assert RatePlanDay.objects.get(rate_plan=standalone, date=target).business_day is False
    assert (
        "vh-closed"
        in cell(response.json()["cells"][cell_id("rp", standalone, target)], cell_id("rp", standalone, target))[0]
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "availability", "value": "2"}, "3 rooms are already booked"),
        ({"kind": "availability", "value": "-1"}, "Give a number from 0"),
        ({"kind": "availability", "value": "many"}, "Enter a whole number"),
        ({"kind": "rate", "value": ""}, "Give a rate of 0 or more"),
        ({"kind": "availability", "value": "4", "date": "past"}, "The hub takes dates from today"),
    ],
)
def test_cell_edit_answers_the_error_and_saves_nothing(staff_client, property_a, rows, data, message):
    room_type, standalone, _ = rows[0]
    target = day(7)
    fill_days(rows, [target, day(-1)], allotment=5, held=1, taken=2)
    date = day(-1) if data.pop("date", None) == "past" else target
    target_id = room_type.pk if data["kind"] == "availability" else standalone.pk

    response = post_cell(staff_client, property_a, target=target_id, date=date.isoformat(), **data)

    assert response.status_code == 400
    answer = response.json()
    assert answer["ok"] is False
    assert message in answer["error"]
    assert RoomTypeDay.objects.get(room_type=room_type, date=target).allotment == 5
    assert RatePlanDay.objects.get(rate_plan=standalone, date=target).rate == 100_000
    assert not AriDirtyRange.objects.exists()


def test_cell_edit_of_a_row_of_another_property_is_404(staff_client, property_a, property_b, rows):
    (_other_room_type, other_plan, _), *_ = ari_property(property_b)

    response = post_cell(
        staff_client, property_a, kind="rate", target=other_plan.pk, date=day(3).isoformat(), value="1"
    )

    assert response.status_code == 404
    assert not RatePlanDay.objects.filter(rate_plan=other_plan).exists()


def test_cell_edit_needs_post(staff_client, property_a):
    assert staff_client.get(url("ari_cell", property_a)).status_code == 405


# --- Per channel ------------------------------------------------------------------------------


def test_channel_view_edits_and_clears_overrides_and_caps(staff_client, property_a, rows):
    room_type, standalone, (package,) = rows[0]
    channel = SalesChannelFactory(open_for=property_a)
    target = day(8)
    fill_days(rows, [target])
    month = target.strftime("%Y-%m")

    rate = post_cell(
        staff_client,
        property_a,
        kind="rate",
        target=package.pk,
        date=target.isoformat(),
        value="140000",
        channel=channel.pk,
    )
    cap = post_cell(
        staff_client,
        property_a,
        kind="availability",
        target=room_type.pk,
        date=target.isoformat(),
        value="2",
        channel=channel.pk,
    )

    assert rate.json()["ok"] is True
    assert cap.json()["ok"] is True
    # A package's channel price is kept as its difference, like the common one; the common values stay.
    assert ChannelRateDay.objects.get(rate_plan=package, channel=channel, date=target).rate_modify == 40_000
    assert ChannelAvailDay.objects.get(room_type=room_type, channel=channel, date=target).cap == 2
    assert RatePlanDay.objects.get(rate_plan=package, date=target).rate_modify == 20_000
    assert RoomTypeDay.objects.get(room_type=room_type, date=target).allotment == 5
    html = staff_client.get(url("calendar", property_a), {"month": month, "channel": channel.pk}).content.decode()
    classes, text = cell(html, cell_id("rp", package, target))
    assert "vh-override" in classes
    assert text.startswith("140,000")
    classes, text = cell(html, cell_id("rp", standalone, target))
    assert "vh-inherited" in classes
    assert text == "100,000"
    assert cell(html, cell_id("cap", room_type, target))[1] == "2"
    assert cell(html, cell_id("av", room_type, target))[1] == "2"

    cleared = post_cell(
        staff_client,
        property_a,
        kind="rate",
        target=package.pk,
        date=target.isoformat(),
        value="",
        channel=channel.pk,
    )
    post_cell(
        staff_client,
        property_a,
        kind="availability",
        target=room_type.pk,
        date=target.isoformat(),
        value="",
        channel=channel.pk,
    )

    assert cleared.json()["ok"] is True
    override = ChannelRateDay.objects.get(rate_plan=package, channel=channel, date=target)
    assert (override.rate, override.rate_modify) == (None, None)
    assert ChannelAvailDay.objects.get(room_type=room_type, channel=channel, date=target).cap is None
    assert dirty_dates(package, ResourceKind.ARI_RATES) == {target}
    assert dirty_dates(room_type, ResourceKind.ARI_AVAILS) == {target}
    html = staff_client.get(url("calendar", property_a), {"month": month, "channel": channel.pk}).content.decode()
    assert "vh-inherited" in cell(html, cell_id("rp", package, target))[0]


def test_unknown_channel_is_404(staff_client, property_a):
    assert staff_client.get(url("calendar", property_a), {"channel": "999"}).status_code == 404


# --- Bulk edit --------------------------------------------------------------------------------


def bulk_data(ranges, *, targets, operation, value="", weekdays=range(7), channel=""):
    return {
        "ranges_from": [start.isoformat() for start, _ in ranges],
        "ranges_to": [end.isoformat() for _, end in ranges],
        "weekdays": [str(weekday) for weekday in weekdays],
        "targets": targets,
        "operation": operation,
        "value": value,
        "channel": channel,
    }


def test_bulk_form_opens_with_the_rows_of_the_property(staff_client, property_a, rows):
    room_type, standalone, (package,) = rows[0]

    response = staff_client.get(url("ari_bulk", property_a), {"from": day(1).isoformat()})

    assert response.status_code == 200
    choices = dict(response.context["form"].fields["targets"].choices)
    assert [value for value, _ in choices[str(room_type)]] == [
        f"rt:{room_type.pk}",
        f"rp:{standalone.pk}",
        f"rp:{package.pk}",
    ]


def test_bulk_preview_lists_cells_and_hub_requests_and_saves_nothing(staff_client, property_a):
    rows = ari_property(property_a, room_types=2, packages=1)
    first = next_weekday(0, after=7)  # a Monday
    dates = [first + datetime.timedelta(days=n) for n in range(14)]
    fill_days(rows, dates)
    plans = [standalone for _, standalone, _ in rows]

    response = staff_client.post(
        url("ari_bulk", property_a),
        {
            **bulk_data(
                [(dates[0], dates[-1])],
                targets=[f"rp:{plan.pk}" for plan in plans],
                operation="increase_percent",
                value="20",
                weekdays=[SATURDAY, SUNDAY],
            ),
            "preview": "1",
        },
    )

    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview["changed_count"] == 4 * 2  # two weekends, two rate plans
    assert preview["error_count"] == 0
    assert {(cell["date"], cell["old"], cell["new"]) for cell in preview["cells"]} == {
        (date, "100,000", "120,000") for date in dates if date.weekday() >= SATURDAY
    }
    assert len(preview["requests"]) == 2
    assert {request["days"] for request in preview["requests"]} == {4}
    assert preview["requests_label"] == "2 updates to the hub"
    # Staff read what is updated, not the request's path (superusers see it: test_ari_screens).
    assert all(request["path"] == "" for request in preview["requests"])
    assert "/gds/" not in response.content.decode()
    assert 'name="apply"' in response.content.decode()
    assert set(RatePlanDay.objects.filter(rate_plan__in=plans).values_list("rate", flat=True)) == {100_000}
    assert not AriDirtyRange.objects.exists()


def test_bulk_apply_writes_exactly_the_previewed_cells_and_marks_them_for_the_hub(staff_client, property_a):
    rows = ari_property(property_a, room_types=2, packages=1)
    first = next_weekday(0, after=7)
    dates = [first + datetime.timedelta(days=n) for n in range(14)]
    fill_days(rows, dates)
    plans = [standalone for _, standalone, _ in rows]
    data = bulk_data(
        [(dates[0], dates[2]), (dates[5], dates[-1])],
        targets=[f"rp:{plan.pk}" for plan in plans],
        operation="increase_percent",
        value="20",
        weekdays=[SATURDAY, SUNDAY],
    )
    preview = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})

    response = staff_client.post(
        url("ari_bulk", property_a), {**data, "apply": "1", "digest": preview.context["preview"]["digest"]}
    )

    assert response.status_code == 302
    assert response["Location"].startswith(url("calendar", property_a))
    weekend = {date for date in dates if date.weekday() >= SATURDAY}
    for plan in plans:
        stored = dict(RatePlanDay.objects.filter(rate_plan=plan).values_list("date", "rate"))
        assert stored == {date: 120_000 if date in weekend else 100_000 for date in dates}
        assert dirty_dates(plan, ResourceKind.ARI_RATES) == weekend
    # The packages' differences are untouched (their price follows the standalone rate).
    assert set(RatePlanDay.objects.exclude(rate_plan__in=plans).values_list("rate_modify", flat=True)) == {20_000}
    assert not SyncState.objects.filter(kind=ResourceKind.ARI_AVAILS).exists()
    messages = [str(message) for message in response.wsgi_request._messages]
    assert any(message.startswith("8 cells changed; 2 updates to the hub queued.") for message in messages)


def test_bulk_apply_of_one_cell_says_so_in_the_singular(staff_client, property_a):
    """ "1 requests to the hub are queued" was the message of a one-cell change."""
    rows = ari_property(property_a, room_types=1, packages=0)
    date = next_weekday(0, after=7)
    fill_days(rows, [date])
    data = bulk_data([(date, date)], targets=[f"rp:{rows[0][1].pk}"], operation="increase_percent", value="20")
    preview = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})

    response = staff_client.post(
        url("ari_bulk", property_a), {**data, "apply": "1", "digest": preview.context["preview"]["digest"]}
    )

    messages = [str(message) for message in response.wsgi_request._messages]
    assert any(message.startswith("1 cell changed; 1 update to the hub queued.") for message in messages), messages


def test_bulk_apply_of_a_changed_form_shows_a_new_preview_instead(staff_client, property_a, rows):
    _room_type, standalone, _ = rows[0]
    fill_days(rows, [day(3)])
    data = bulk_data([(day(3), day(3))], targets=[f"rp:{standalone.pk}"], operation="set", value="90000")
    preview = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})

    response = staff_client.post(
        url("ari_bulk", property_a),
        {**data, "value": "1", "apply": "1", "digest": preview.context["preview"]["digest"]},
    )

    assert response.status_code == 200
    assert response.context["preview"]["cells"][0]["new"] == "1"
    assert RatePlanDay.objects.get(rate_plan=standalone).rate == 100_000


def test_bulk_availability_below_booked_rooms_is_refused(staff_client, property_a, rows):
    room_type, _standalone, _ = rows[0]
    dates = [day(3), day(4)]
    fill_days(rows, dates, allotment=5, held=1, taken=2)
    data = bulk_data([(dates[0], dates[-1])], targets=[f"rt:{room_type.pk}"], operation="set_availability", value="2")
    preview = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})

    assert preview.status_code == 200
    form = preview.context["form"]
    assert not form.is_valid() or form.non_field_errors()
    errors = " ".join(form.non_field_errors())
    assert "2 cells cannot change" in errors
    assert "3 rooms are already booked" in errors
    assert preview.context["preview"]["blocked"] is True
    assert 'name="apply"' not in preview.content.decode()

    forced = staff_client.post(url("ari_bulk", property_a), {**data, "apply": "1", "digest": "anything"})

    assert forced.status_code == 200
    assert set(RoomTypeDay.objects.values_list("allotment", flat=True)) == {5}
    assert not AriDirtyRange.objects.exists()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"targets": []}, "targets", "Choose the rate plans to change."),
        ({"ranges_from": [], "ranges_to": []}, "ranges", "Choose at least one range of days."),
        ({"ranges_from": ["2020-01-01"], "ranges_to": ["2020-01-02"]}, "ranges", "The hub takes dates from today"),
        ({"ranges_from": ["tomorrow"]}, "ranges", "is not a date"),
        ({"value": ""}, "value", "Give an amount of 0 or more."),
        ({"value": "-5"}, "value", "Give a number from 0"),
    ],
)
def test_bulk_form_errors_save_nothing(staff_client, property_a, rows, change, field, message):
    _room_type, standalone, _ = rows[0]
    fill_days(rows, [day(3)])
    data = {**bulk_data([(day(3), day(3))], targets=[f"rp:{standalone.pk}"], operation="set", value="1"), **change}

    response = staff_client.post(url("ari_bulk", property_a), {**data, "apply": "1"})

    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert response.context["preview"] is None
    assert RatePlanDay.objects.get(rate_plan=standalone).rate == 100_000


def test_bulk_decrease_below_zero_is_a_cell_error(staff_client, property_a, rows):
    _room_type, standalone, _ = rows[0]
    fill_days(rows, [day(3)], rate=10_000)
    data = bulk_data([(day(3), day(3))], targets=[f"rp:{standalone.pk}"], operation="decrease_amount", value="20000")

    response = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})

    assert "The rate would fall below 0." in " ".join(response.context["form"].non_field_errors())
    assert response.context["preview"]["cells"][0]["error"] == "The rate would fall below 0."


def test_bulk_edit_on_a_channel_sets_caps_and_clears_them(staff_client, property_a, rows):
    room_type, _standalone, _ = rows[0]
    channel = SalesChannelFactory(open_for=property_a)
    dates = [day(3), day(4)]
    fill_days(rows, dates)
    data = bulk_data(
        [(dates[0], dates[-1])],
        targets=[f"rt:{room_type.pk}"],
        operation="set_availability",
        value="1",
        channel=channel.pk,
    )
    preview = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})
    staff_client.post(
        url("ari_bulk", property_a), {**data, "apply": "1", "digest": preview.context["preview"]["digest"]}
    )

    assert set(ChannelAvailDay.objects.values_list("date", "cap")) == {(dates[0], 1), (dates[1], 1)}
    assert set(RoomTypeDay.objects.values_list("allotment", flat=True)) == {5}

    clear = {**data, "operation": "clear_channel", "value": ""}
    preview = staff_client.post(url("ari_bulk", property_a), {**clear, "preview": "1"})
    assert preview.context["preview"]["changed_count"] == 2
    staff_client.post(
        url("ari_bulk", property_a), {**clear, "apply": "1", "digest": preview.context["preview"]["digest"]}
    )

    assert set(ChannelAvailDay.objects.values_list("cap", flat=True)) == {None}


def test_clearing_channel_values_needs_a_channel(staff_client, property_a, rows):
    _room_type, standalone, _ = rows[0]
    data = bulk_data([(day(3), day(3))], targets=[f"rp:{standalone.pk}"], operation="clear_channel")

    response = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})

    assert "Choose the channel" in " ".join(response.context["form"].errors["channel"])


def test_bulk_percent_on_a_standalone_plan_and_its_package_raises_both_prices_by_that_percent(
    staff_client, property_a, rows
):
    _room_type, standalone, (package,) = rows[0]
    fill_days(rows, [day(3)], rate=100_000, modify=20_000)
    data = bulk_data(
        [(day(3), day(3))],
        targets=[f"rp:{standalone.pk}", f"rp:{package.pk}"],
        operation="increase_percent",
        value="20",
    )
    preview = staff_client.post(url("ari_bulk", property_a), {**data, "preview": "1"})
    staff_client.post(
        url("ari_bulk", property_a), {**data, "apply": "1", "digest": preview.context["preview"]["digest"]}
    )

    base = RatePlanDay.objects.get(rate_plan=standalone).rate
    modify = RatePlanDay.objects.get(rate_plan=package).rate_modify
    assert base == 120_000
    assert base + modify == 144_000  # 120,000 x 1.2


# --- Who may reach the screens ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["calendar", "ari_bulk", "ari_export", "ari_import"])
def test_staff_of_another_property_get_404_on_every_page(client, property_a, property_b, rows, name):
    client.force_login(member(property_b, "staff"))

    assert client.get(url(name, property_a)).status_code == 404
    assert client.post(url(name, property_a), {}).status_code == 404


def test_staff_of_another_property_cannot_post_a_cell_or_a_bulk_edit(client, property_a, property_b, rows):
    _room_type, standalone, _ = rows[0]
    fill_days(rows, [day(3)])
    client.force_login(member(property_b, "staff"))

    cell_response = post_cell(client, property_a, kind="rate", target=standalone.pk, date=day(3).isoformat(), value="1")
    bulk_response = client.post(
        url("ari_bulk", property_a),
        {**bulk_data([(day(3), day(3))], targets=[f"rp:{standalone.pk}"], operation="set", value="1"), "apply": "1"},
    )

    assert cell_response.status_code == 404
    assert bulk_response.status_code == 404
    assert RatePlanDay.objects.get(rate_plan=standalone).rate == 100_000


@pytest.mark.parametrize("role", ["staff", "manager"])
def test_staff_and_managers_of_the_property_may_view_and_edit(client, property_a, rows, role):
    _room_type, standalone, _ = rows[0]
    fill_days(rows, [day(3)])
    client.force_login(member(property_a, role))

    page = client.get(url("calendar", property_a), {"month": day(3).strftime("%Y-%m")})
    response = post_cell(client, property_a, kind="rate", target=standalone.pk, date=day(3).isoformat(), value="90000")

    assert page.status_code == 200
    assert page.context["can_edit"] is True
    assert response.json()["ok"] is True


def test_property_page_and_dashboard_link_to_the_grid(staff_client, property_a):
    calendar = url("calendar", property_a)

    assert calendar in staff_client.get(url("change", property_a)).content.decode()
    assert calendar in staff_client.get(reverse("admin:index")).content.decode()


def test_grid_of_an_empty_month_end(property_a):
    assert month_end(datetime.date(2028, 2, 1)) == datetime.date(2028, 2, 29)
    assert add_months(datetime.date(2027, 12, 1), 1) == datetime.date(2028, 1, 1)
    assert add_months(datetime.date(2027, 1, 1), -1) == datetime.date(2026, 12, 1)
