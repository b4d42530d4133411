"""Staff open the rates and availability grid, edit a cell inline, bulk-edit a weekend pattern and see the
cells change, in a real browser."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from core.dates import korea_today
from integration.ari.dates import add_months, month_start
from integration.models import RatePlanDay
from tests.browser.login import second_factor
from tests.factories import PASSWORD, PropertyFactory, member
from tests.integration.ari.factories import ari_property, fill_days, month_dates

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, user):
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)


def cell(page, target, date):
    return page.locator(f"#c-rp-{target.pk}-{date.isoformat()}")


def test_edit_a_cell_then_raise_weekend_rates_by_20_percent(page, live_server):
    prop = PropertyFactory()
    ((room_type, standalone, (package,)),) = ari_property(prop)
    month = add_months(month_start(korea_today()), 1)
    dates = month_dates(month)
    fill_days([(room_type, standalone, [package])], dates, rate=100_000, modify=20_000)
    saturday = next(date for date in dates if date.weekday() == 5)
    monday = saturday + datetime.timedelta(days=2)
    log_in(page, live_server, member(prop, "staff"))

    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/?month={month:%Y-%m}")
    expect(cell(page, standalone, saturday)).to_have_class(re.compile(r"\bvh-sat\b"))
    expect(cell(page, package, saturday).locator(".vh-v")).to_have_text("120,000")
    expect(cell(page, package, saturday).locator(".vh-diff")).to_have_text("+20,000")

    # Inline: the Monday's standalone rate; the package's price that day follows.
    cell(page, standalone, monday).click()
    editor = page.locator("#vh-ari-editor")
    expect(editor).to_be_visible()
    editor.locator("input[name=value]").fill("90000")
    editor.locator("input[name=value]").press("Enter")
    expect(editor).to_be_hidden()
    expect(cell(page, standalone, monday).locator(".vh-v")).to_have_text("90,000")
    expect(cell(page, package, monday).locator(".vh-v")).to_have_text("110,000")

    # A refused edit shows the hub's rule on the editor, and keeps the value.
    cell(page, standalone, monday).click()
    editor.locator("input[name=value]").fill("-5")
    editor.locator("button[type=submit]").click()
    expect(editor.locator(".vh-editor-error")).to_be_visible()
    editor.locator(".vh-editor-cancel").click()
    expect(cell(page, standalone, monday).locator(".vh-v")).to_have_text("90,000")

    # Bulk: weekends of the month, the standalone plan, +20%.
    page.click("#vh-ari-bulk-link")
    page.click(".vh-weekday-tools [data-weekdays='5,6']")
    page.check(f"input[name=targets][value='rp:{standalone.pk}']")
    page.select_option("#id_operation", "increase_percent")
    page.fill("#id_value", "20")
    page.click("input[name=preview]")
    preview = page.locator("#vh-bulk-preview")
    expect(preview).to_be_visible()
    weekend_days = [date for date in dates if date.weekday() >= 5 and date >= korea_today()]
    expect(preview.locator(".vh-bulk-cells tbody tr")).to_have_count(len(weekend_days))
    expect(preview.locator(".vh-bulk-requests tbody tr")).to_have_count(1)
    page.click("input[name=apply]")

    expect(page.locator(".messagelist")).to_be_visible()
    expect(cell(page, standalone, saturday).locator(".vh-v")).to_have_text("120,000")
    expect(cell(page, standalone, saturday + datetime.timedelta(days=1)).locator(".vh-v")).to_have_text("120,000")
    expect(cell(page, package, saturday).locator(".vh-v")).to_have_text("140,000")
    expect(cell(page, standalone, monday).locator(".vh-v")).to_have_text("90,000")
    expect(cell(page, standalone, saturday - datetime.timedelta(days=1)).locator(".vh-v")).to_have_text("100,000")
    stored = dict(RatePlanDay.objects.filter(rate_plan=standalone).values_list("date", "rate"))
    assert {date for date, rate in stored.items() if rate == 120_000} == set(weekend_days)
