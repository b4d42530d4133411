"""The calendar that starts today, in a real browser, in Korean and English: a block of cells dragged over
opens the bulk edit with those days and rows (no weekday ticked), a number typed on a cell saves it, the
window moves by its span; and the copy of a period previewed then applied. Screenshots at 1366 and 390 px."""

import datetime
import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from integration.ari.dates import DateRange
from integration.ari.services.copy import AriCopy
from integration.models import AriChangeSet, AriSeason, AriSeasonRange, RatePlanDay
from tests.browser.login import second_factor
from tests.factories import PASSWORD, PropertyFactory, member
from tests.integration.ari.factories import ari_property, day, fill_days

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {"today": "오늘", "bulk": "이 셀들 일괄 편집", "copied": "복사합니다"},
    "en": {"today": "Today", "bulk": "Bulk edit these cells", "copied": "is copied onto"},
}


def log_in(page, live_server, user, language):
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)


def cell(page, prefix, target, date):
    return page.locator(f"#c-{prefix}-{target.pk}-{date.isoformat()}")


@pytest.fixture
def setup():
    prop = PropertyFactory()
    rows = ari_property(prop)
    ((room_type, standalone, (package,)),) = rows
    fill_days(rows, [day(n) for n in range(30)], rate=100_000, modify=20_000, allotment=5)
    return prop, room_type, standalone, package


@pytest.mark.parametrize("language", ["ko", "en"])
def test_drag_a_block_of_cells_to_open_the_bulk_edit_on_it(page, live_server, setup, shots, language):
    prop, room_type, standalone, package = setup
    log_in(page, live_server, member(prop, "staff"), language)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/?start={day(2)}&days=14")
    expect(page.locator("#vh-ari-days")).to_have_value("14")
    expect(page.locator(".vh-ari-grid thead th.vh-day")).to_have_count(14)

    # From the rooms to sell of the 3rd day down to the package of the 5th: three rows, three days.
    start = cell(page, "al", room_type, day(3)).bounding_box()
    end = cell(page, "rp", package, day(5)).bounding_box()
    page.mouse.move(start["x"] + 5, start["y"] + 5)
    page.mouse.down()
    page.mouse.move(start["x"] + 40, start["y"] + 20, steps=4)
    page.mouse.move(end["x"] + 5, end["y"] + 5, steps=8)
    page.mouse.up()

    expect(page.locator("#vh-ari-editor")).to_be_hidden()
    expect(page.locator(".vh-cell.vh-selected")).to_have_count(9)
    bar = page.locator("#vh-ari-selection")
    expect(bar).to_be_visible()
    expect(bar.locator(".vh-selection-count")).to_have_text("9")
    page.screenshot(path=str(shots / f"calendar-selection-{language}-1366.png"), full_page=True)

    page.get_by_role("link", name=TEXTS[language]["bulk"]).click()
    expect(page.locator("#id_ranges_0_from")).to_have_value(day(3).isoformat())
    expect(page.locator("input[name=ranges_to]").first).to_have_value(day(5).isoformat())
    for target in (f"rt:{room_type.pk}", f"rp:{standalone.pk}", f"rp:{package.pk}"):
        expect(page.locator(f"input[name=targets][value='{target}']")).to_be_checked()
    # No weekday ticked: a raise of these days changes every one of them.
    expect(page.locator("input[name=weekdays]:checked")).to_have_count(0)
    page.screenshot(path=str(shots / f"bulk-from-selection-{language}-1366.png"), full_page=True)


@pytest.mark.parametrize("language", ["ko", "en"])
def test_type_a_number_on_a_cell_to_save_it(page, live_server, setup, shots, language):
    prop, _room_type, standalone, package = setup
    log_in(page, live_server, member(prop, "staff"), language)
    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/")
    # The calendar starts today and shows 30 days.
    expect(page.locator(".vh-ari-grid thead th.vh-day").first).to_have_class(re.compile(r"\bvh-today\b"))
    expect(page.locator(".vh-ari-grid thead th.vh-day")).to_have_count(30)

    target = cell(page, "rp", standalone, day(4))
    target.focus()
    page.keyboard.type("95000")
    editor = page.locator("#vh-ari-editor")
    expect(editor).to_be_visible()
    expect(editor.locator("input[name=value]")).to_have_value("95000")
    page.keyboard.press("Enter")

    expect(editor).to_be_hidden()
    expect(target.locator(".vh-v")).to_have_text("95,000")
    expect(cell(page, "rp", package, day(4)).locator(".vh-v")).to_have_text("115,000")
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(4)).rate == 95_000
    # Focus is back on the cell: the arrows move on, another number edits the next day.
    page.keyboard.press("ArrowRight")
    page.keyboard.type("8")
    expect(editor.locator("input[name=value]")).to_have_value("8")
    page.keyboard.press("Escape")
    expect(editor).to_be_hidden()
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(5)).rate == 100_000

    # The window moves by its span, and "Today" comes back.
    page.locator("a[rel=next]").click()
    expect(page.locator(".vh-ari-grid thead th.vh-day").first).to_have_attribute("title", re.compile(r"."))
    assert f"start={day(30).isoformat()}" in page.url
    page.get_by_role("link", name=TEXTS[language]["today"], exact=True).click()
    assert f"start={day(0).isoformat()}" in page.url


@pytest.mark.parametrize("language", ["ko", "en"])
def test_copy_a_period_then_see_it_on_the_calendar(page, live_server, setup, shots, language):
    prop, _room_type, standalone, _package = setup
    AriSeasonRange.objects.create(
        season=AriSeason.objects.create(property=prop, name="Peak"), date_from=day(40), date_to=day(50)
    )
    log_in(page, live_server, member(prop, "staff"), language)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/copy/")
    page.fill("#id_source_from", day(1).isoformat())
    page.fill("#id_source_to", day(14).isoformat())
    onto = day(1) + datetime.timedelta(weeks=8)
    page.fill("#id_target_from", onto.isoformat())
    page.check(f"input[name=targets][value='rp:{standalone.pk}']")
    page.click("input[name=preview]")

    expect(page.locator("#vh-copy-days")).to_contain_text(TEXTS[language]["copied"])
    expect(page.locator(".vh-bulk-cells tbody tr")).to_have_count(14)
    page.screenshot(path=str(shots / f"copy-preview-{language}-1366.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / f"copy-preview-{language}-390.png"), full_page=True)
    page.click("input[name=apply]")

    expect(page.locator(".messagelist")).to_be_visible()
    # Back on the calendar, from the first day the copy wrote.
    target = AriCopy(DateRange(day(1), day(14)), onto).target
    expect(page.locator(".vh-ari-grid thead th.vh-day").first).to_have_attribute("title", re.compile(r"."))
    assert f"start={target.start.isoformat()}" in page.url
    expect(cell(page, "rp", standalone, target.start).locator(".vh-v")).to_have_text("100,000")
    assert AriChangeSet.objects.get().source == "copy"
    page.screenshot(path=str(shots / f"calendar-{language}-390.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/seasons/")
    expect(page.locator("#vh-seasons")).to_contain_text("Peak")
    page.screenshot(path=str(shots / f"seasons-{language}-1366.png"), full_page=True)
