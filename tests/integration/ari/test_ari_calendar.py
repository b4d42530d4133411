"""The calendar that starts today: the grid's window of 14, 30 or 60 days from any date, its navigation,
and the bulk edit it opens (a block of cells' days and rows chosen, no weekday ticked)."""

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from core.dates import korea_today
from integration.ari.dates import grid_window
from integration.ari.forms import AriBulkEditForm
from integration.models import RatePlanDay
from tests.integration.ari.factories import ari_property, day, fill_days

pytestmark = pytest.mark.django_db

D = datetime.date


def url(name, prop):
    return reverse(f"admin:integration_property_{name}", args=[prop.pk])


@pytest.fixture
def staff_client(client, staff_a):
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


# --- The window's dates -----------------------------------------------------------------------


def test_the_grid_opens_on_30_days_from_today():
    window = grid_window(None, None, today=D(2026, 11, 28))
    assert (window.first, window.last, window.days) == (D(2026, 11, 28), D(2026, 12, 27), 30)
    # On the 28th the days before today of this month are still there to read; the next span follows on.
    assert window.previous == D(2026, 11, 1)
    assert window.next == D(2026, 12, 28)


@pytest.mark.parametrize(
    ("start", "days", "first", "last"),
    [
        ("2026-12-20", "14", D(2026, 12, 20), D(2027, 1, 2)),
        ("2026-12-20", "60", D(2026, 12, 20), D(2027, 2, 17)),
        # Across a leap day: 14 days from 2028-02-20 end on 2028-03-04, 29 February included.
        ("2028-02-20", "14", D(2028, 2, 20), D(2028, 3, 4)),
        # Unreadable or out of range: today and 30 days; before this month: its first day.
        ("soon", "7000", D(2026, 11, 28), D(2026, 12, 27)),
        ("2026-10-01", "14", D(2026, 11, 1), D(2026, 11, 14)),
        # Near the end of the hub's window (today + 730 days) the span stops at its last day.
        ("2028-11-27", "30", D(2028, 11, 27), D(2028, 11, 27)),
    ],
)
def test_the_window_asked_for(start, days, first, last):
    window = grid_window(start, days, today=D(2026, 11, 28))
    assert (window.first, window.last) == (first, last)


def test_previous_and_next_move_by_the_span_and_stop_at_the_ends():
    today = D(2026, 11, 28)
    window = grid_window("2026-11-10", "14", today=today)
    assert (window.previous, window.next) == (D(2026, 11, 1), D(2026, 11, 24))
    assert grid_window("2026-11-01", "14", today=today).previous is None
    assert grid_window("2028-11-20", "14", today=today).next is None


def test_a_month_link_shows_that_calendar_month():
    window = grid_window(None, None, "2028-02", today=D(2026, 11, 28))
    assert (window.first, window.last, window.days) == (D(2028, 2, 1), D(2028, 2, 29), 29)


def test_the_calendar_page_shows_the_window_and_links_the_next(staff_client, property_a):
    ari_property(property_a)
    start = day(3)

    response = staff_client.get(url("calendar", property_a), {"start": start.isoformat(), "days": "14"})

    assert response.status_code == 200
    grid = response.context["grid"]
    assert [grid_day.date for grid_day in grid.days] == [start + datetime.timedelta(days=n) for n in range(14)]
    assert f"start={(start + datetime.timedelta(days=14)).isoformat()}&days=14" in response.context["next_url"]
    assert f"start={korea_today().isoformat()}" in response.context["today_url"]
    html = response.content.decode()
    assert 'data-bulk-url="' in html
    assert 'id="vh-ari-selection"' in html


def test_the_default_page_starts_today(staff_client, property_a):
    ari_property(property_a)
    grid = staff_client.get(url("calendar", property_a)).context["grid"]
    assert grid.days[0].date == korea_today()
    assert len(grid.days) == 30


def test_hub_standing_answers_for_the_window(staff_client, property_a):
    ari_property(property_a)
    response = staff_client.get(url("ari_hub", property_a), {"start": day(1).isoformat(), "days": "14"})
    assert response.status_code == 200
    assert set(response.json()) == {"rows", "unsent", "waiting"}


# --- The bulk edit it opens ------------------------------------------------------------------


def test_the_bulk_edit_starts_with_no_weekday_ticked(staff_client, property_a):
    ari_property(property_a)
    html = staff_client.get(url("ari_bulk", property_a)).content.decode()
    weekday_boxes = re.findall(r'<input type="checkbox" name="weekdays"[^>]*>', html)
    assert len(weekday_boxes) == 7
    assert not [box for box in weekday_boxes if "checked" in box]


def test_no_weekday_ticked_edits_every_day_of_the_dates(staff_client, property_a):
    rows = ari_property(property_a)
    _room_type, standalone, _packages = rows[0]
    dates = [day(10 + n) for n in range(7)]
    fill_days(rows, dates)

    response = staff_client.post(
        url("ari_bulk", property_a),
        {
            "ranges_from": [dates[0].isoformat()],
            "ranges_to": [dates[-1].isoformat()],
            "targets": [f"rp:{standalone.pk}"],
            "operation": "set",
            "value": "90000",
            "preview": "1",
        },
    )

    assert response.status_code == 200
    assert response.context["preview"]["changed_count"] == 7


def test_the_form_keeps_no_weekday_as_every_day(property_a):
    rows = ari_property(property_a)
    _room_type, standalone, _packages = rows[0]
    data = {"ranges_from": [day(5).isoformat()], "ranges_to": [day(11).isoformat()]}
    data |= {"targets": [f"rp:{standalone.pk}"], "operation": ["set"], "value": ["1"]}
    form = AriBulkEditForm(MultiValueDict(data), property=property_a)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["edit"].weekdays is None
    assert len(form.cleaned_data["edit"].dates()) == 7


def test_a_block_of_cells_opens_the_bulk_edit_with_its_days_and_rows(staff_client, property_a):
    rows = ari_property(property_a)
    room_type, standalone, (package,) = rows[0]
    targets = [f"rp:{standalone.pk}", f"rt:{room_type.pk}"]
    query = {"from": day(2).isoformat(), "to": day(4).isoformat(), "targets": targets}

    html = staff_client.get(url("ari_bulk", property_a), query).content.decode()

    assert re.search(rf'value="rp:{standalone.pk}"[^>]*checked', html)
    assert re.search(rf'value="rt:{room_type.pk}"[^>]*checked', html)
    assert not re.search(rf'value="rp:{package.pk}"[^>]*checked', html)
    assert f'value="{day(2).isoformat()}"' in html
    assert f'value="{day(4).isoformat()}"' in html
    assert not RatePlanDay.objects.exists()
