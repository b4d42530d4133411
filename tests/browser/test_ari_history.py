"""Safe edits in a real browser, in Korean and English: a bulk change undone from its page (previewed,
then applied), a cell's history opened from the calendar, a cell saved over someone else's change in a
second browser context refused with the new value, and rooms above the room count confirmed."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from core.dates import korea_today
from integration.ari.dates import add_months, month_start
from integration.models import AriChangeSet, RatePlanDay, RoomTypeDay
from tests.browser.login import second_factor
from tests.factories import PASSWORD, PropertyFactory, member
from tests.integration.ari.factories import ari_property, fill_days, month_dates

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {"undone": "되돌렸습니다", "see": "이 변경 보기·되돌리기", "bulk": "일괄 수정", "undo": "되돌리기"},
    "en": {"undone": "Undone", "see": "See or undo this change", "bulk": "bulk edit", "undo": "undo"},
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
    ((room_type, standalone, _packages),) = rows
    month = add_months(month_start(korea_today()), 1)
    dates = month_dates(month)[:7]
    fill_days(rows, dates, rate=100_000, allotment=5)
    return prop, room_type, standalone, month, dates


@pytest.mark.parametrize("language", ["ko", "en"])
def test_undo_a_bulk_change_then_read_a_cells_history(page, live_server, setup, shots, language):
    prop, _room_type, standalone, month, dates = setup
    texts = TEXTS[language]
    staff = member(prop, "staff")
    log_in(page, live_server, staff, language)
    base = f"{live_server.url}/admin/integration/property/{prop.pk}/calendar"

    # A bulk change of the week's rate...
    page.goto(f"{base}/bulk/?from={dates[0]}&to={dates[-1]}")
    page.check(f"input[name=targets][value='rp:{standalone.pk}']")
    page.select_option("#id_operation", "set")
    page.fill("#id_value", "130000")
    page.click("input[name=preview]")
    page.click("input[name=apply]")
    expect(cell(page, "rp", standalone, dates[0]).locator(".vh-v")).to_have_text("130,000")

    # ... opened from the message, its undo previewed, then applied.
    page.click(f".messagelist a:has-text('{texts['see']}')")
    expect(page.locator("#vh-change-summary")).to_contain_text(texts["bulk"])
    expect(page.locator("#vh-change-summary")).to_contain_text(staff.username)
    page.click("input[name=preview]")
    preview = page.locator("#vh-undo-preview")
    expect(preview.locator(".vh-undo-cells tbody tr")).to_have_count(len(dates))
    expect(preview.locator(".vh-undo-cells tbody tr").first).to_contain_text("130,000")
    expect(preview.locator(".vh-undo-cells tbody tr").first).to_contain_text("100,000")
    expect(preview.locator(".vh-bulk-requests tbody tr")).to_have_count(1)
    page.screenshot(path=str(shots / f"undo-preview-{language}.png"), full_page=True)
    assert set(RatePlanDay.objects.filter(rate_plan=standalone).values_list("rate", flat=True)) == {130_000}
    page.click("input[name=apply]")
    expect(page.locator(".messagelist")).to_contain_text(texts["undone"])
    expect(page.locator("#vh-change-summary")).to_contain_text(texts["undo"])
    page.screenshot(path=str(shots / f"undo-applied-{language}.png"), full_page=True)
    assert set(RatePlanDay.objects.filter(rate_plan=standalone).values_list("rate", flat=True)) == {100_000}

    # The calendar: a cell's history lists both changes, newest first, with who and through which screen.
    page.goto(f"{base}/?month={month:%Y-%m}")
    target = cell(page, "rp", standalone, dates[2])
    expect(target.locator(".vh-v")).to_have_text("100,000")
    target.click()
    page.click("#vh-ari-editor .vh-editor-history")
    history = page.locator("#vh-ari-editor .vh-editor-history-list tbody tr")
    expect(history).to_have_count(2)
    expect(history.nth(0)).to_contain_text(texts["undo"])
    expect(history.nth(0)).to_contain_text("130,000")
    expect(history.nth(1)).to_contain_text(texts["bulk"])
    expect(history.nth(1)).to_contain_text(staff.username)
    page.screenshot(path=str(shots / f"cell-history-{language}.png"), full_page=True)
    assert AriChangeSet.objects.filter(property=prop).count() == 2


def test_a_cell_saved_over_a_change_from_another_browser_is_refused_and_rooms_above_the_count_confirmed(
    page, browser, live_server, setup, shots
):
    prop, room_type, standalone, month, dates = setup
    room_type.room_count = 10
    room_type.save()
    log_in(page, live_server, member(prop, "staff"), "en")
    calendar = f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/?month={month:%Y-%m}"
    page.goto(calendar)
    expect(cell(page, "rp", standalone, dates[1]).locator(".vh-v")).to_have_text("100,000")

    # A second member of staff, in their own browser, saves the cell first.
    other_context = browser.new_context(locale="ko-KR")
    other = other_context.new_page()
    log_in(other, live_server, member(prop, "staff"), "ko")
    other.goto(calendar)
    cell(other, "rp", standalone, dates[1]).click()
    other.fill("#vh-ari-editor input[name=value]", "110000")
    other.press("#vh-ari-editor input[name=value]", "Enter")
    expect(cell(other, "rp", standalone, dates[1]).locator(".vh-v")).to_have_text("110,000")
    other_context.close()

    # The first page still shows 100,000: its save is refused and the cell shows what it holds now.
    cell(page, "rp", standalone, dates[1]).click()
    editor = page.locator("#vh-ari-editor")
    editor.locator("input[name=value]").fill("95000")
    editor.locator("input[name=value]").press("Enter")
    expect(editor.locator(".vh-editor-error")).to_contain_text("it now holds 110,000")
    expect(cell(page, "rp", standalone, dates[1]).locator(".vh-v")).to_have_text("110,000")
    page.screenshot(path=str(shots / "cell-stale-en.png"), full_page=True)
    assert RatePlanDay.objects.get(rate_plan=standalone, date=dates[1]).rate == 110_000
    editor.locator("button[type=submit]").click()  # saved again, knowingly
    expect(editor).to_be_hidden()
    expect(cell(page, "rp", standalone, dates[1]).locator(".vh-v")).to_have_text("95,000")

    # Rooms far above the room count: the editor asks, a checkbox confirms.
    cell(page, "al", room_type, dates[3]).click()
    editor.locator("input[name=value]").fill("40")
    editor.locator("button[type=submit]").click()
    expect(editor.locator(".vh-editor-error")).to_contain_text("confirm to sell that many")
    expect(editor.locator(".vh-editor-confirm")).to_be_visible()
    page.screenshot(path=str(shots / "cell-confirm-en.png"), full_page=True)
    assert RoomTypeDay.objects.get(room_type=room_type, date=dates[3]).allotment == 5
    editor.locator("input[name=confirm]").check()
    editor.locator("button[type=submit]").click()
    expect(editor).to_be_hidden()
    expect(cell(page, "al", room_type, dates[3]).locator(".vh-v")).to_have_text("40")
