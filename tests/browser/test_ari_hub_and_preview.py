"""The rates screens in a real browser, in Korean and English: the bulk preview lists the package prices
that follow the standalone rate (before and after) and counts the updates to the hub in words; the
calendar shows where each row stands with the hub, underlines the days not there yet and follows them
until the hub has them; arrow keys move between cells; the cell editor stays inside a phone's window;
the change history says what each change changed and filters by row."""

import re

import pytest
from playwright.sync_api import expect

from core.dates import korea_today
from integration.ari.dates import DateRange, add_months, month_start
from integration.ari.services.bulk import ari_change_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.models import AriChangeSource, AriDirtyRange, ResourceKind, SyncState
from integration.sync.choices import SyncStatus
from tests.browser.login import log_in
from tests.factories import PropertyFactory, member
from tests.integration.ari.factories import ari_property, fill_days, month_dates

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {
        "derived": "기본 요금을 따라 바뀌는 패키지 판매가 6개",
        "updates": "허브 업데이트 1건",
        "pending": "전송 대기",
        "failed": "실패",
        "synced": "허브 반영됨",
        "none": "전송 전",
        "details": "상세",
    },
    "en": {
        "derived": "6 package prices follow the standalone rates",
        "updates": "1 update to the hub",
        "pending": "Pending",
        "failed": "Failed",
        "synced": "At the hub",
        "none": "Not sent",
        "details": "Details",
    },
}
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def setup():
    prop = PropertyFactory()
    rows = ari_property(prop, room_types=1, packages=2)
    month = add_months(month_start(korea_today()), 1)
    dates = month_dates(month)[:7]
    fill_days(rows, dates, rate=100_000, modify=20_000)
    return prop, rows[0], month, dates


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_bulk_preview_lists_the_package_prices_that_follow_and_the_updates_in_words(
    page, live_server, setup, shots, language
):
    prop, (_room_type, standalone, packages), _month, dates = setup
    texts = TEXTS[language]
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, member(prop, "staff"), language)

    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/bulk/?from={dates[0]}&to={dates[2]}")
    page.check(f"input[name=targets][value='rp:{standalone.pk}']")
    page.select_option("#id_operation", "increase_amount")
    page.fill("#id_value", "10000")
    page.click("input[name=preview]")

    preview = page.locator("#vh-bulk-preview")
    expect(preview.locator(".vh-bulk-cells tbody tr")).to_have_count(3)
    expect(preview.locator("#vh-bulk-derived-heading")).to_have_text(texts["derived"])
    derived = preview.locator(".vh-bulk-derived tbody tr")
    expect(derived).to_have_count(3 * len(packages))
    expect(derived.first).to_contain_text("120,000")
    expect(derived.first).to_contain_text("130,000")
    expect(derived.first).to_contain_text("+20,000")
    expect(preview.locator(".vh-hub-updates-heading")).to_have_text(texts["updates"])
    expect(preview).not_to_contain_text("POST /")
    page.screenshot(path=str(shots / f"rates-preview-{language}-1366.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"rates-preview-{language}-390.png"), full_page=True)


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_calendar_shows_each_rows_hub_standing_and_follows_it_until_the_hub_has_it(
    page, live_server, setup, shots, language
):
    prop, (room_type, standalone, (package, other)), month, dates = setup
    texts = TEXTS[language]
    pending = SyncState.objects.create(kind=ResourceKind.ARI_RATES, object_id=standalone.pk, property=prop)
    AriDirtyRange.objects.create(state=pending, date_from=dates[1], date_to=dates[2])
    failed = SyncState.objects.create(
        kind=ResourceKind.ARI_RATES,
        object_id=package.pk,
        property=prop,
        status=SyncStatus.FAILED,
        failures=1,
        last_error="400: rate_modify out of range",
    )
    SyncState.objects.create(
        kind=ResourceKind.ARI_AVAILS, object_id=room_type.pk, property=prop, status=SyncStatus.SYNCED
    )
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, member(prop, "staff"), language)

    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/?month={month:%Y-%m}")
    expect(page.locator(f"#hub-rp-{standalone.pk} .vh-hub-badge")).to_have_text(texts["pending"])
    expect(page.locator(f"#hub-rp-{package.pk} .vh-hub-badge")).to_have_text(texts["failed"])
    expect(page.locator(f"#hub-rp-{package.pk} .vh-hub-reason")).to_have_text("400: rate_modify out of range")
    link = page.locator(f"#hub-rp-{package.pk} a.vh-hub-log")
    expect(link).to_have_text(texts["details"])
    expect(link).to_have_attribute("href", f"/admin/integration/syncattempt/?state__id__exact={failed.pk}")
    expect(page.locator(f"#hub-rp-{other.pk} .vh-hub-badge")).to_have_text(texts["none"])
    expect(page.locator(f"#hub-al-{room_type.pk} .vh-hub-badge")).to_have_text(texts["synced"])
    unsent = page.locator(".vh-cell.vh-unsent")
    expect(unsent).to_have_count(2)
    expect(page.locator(f"#c-rp-{standalone.pk}-{dates[1].isoformat()}")).to_have_class(re.compile(r"\bvh-unsent\b"))
    page.screenshot(path=str(shots / f"rates-hub-{language}-1366.png"))

    # The hub takes the days: the page follows by itself, no reload.
    AriDirtyRange.objects.filter(state=pending).delete()
    SyncState.objects.filter(pk=pending.pk).update(status=SyncStatus.SYNCED)
    expect(page.locator(f"#hub-rp-{standalone.pk} .vh-hub-badge")).to_have_text(texts["synced"], timeout=20_000)
    expect(unsent).to_have_count(0)

    # Arrow keys, Home and End move between editable cells.
    first = page.locator(f"#c-rp-{standalone.pk}-{dates[1].isoformat()}")
    first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(f"#c-rp-{standalone.pk}-{dates[2].isoformat()}")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator(f"#c-rp-{package.pk}-{dates[2].isoformat()}")).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator(f"#c-al-{room_type.pk}-{dates[2].isoformat()}")).to_be_focused()
    page.keyboard.press("End")
    last = month_dates(month)[-1]
    expect(page.locator(f"#c-al-{room_type.pk}-{last.isoformat()}")).to_be_focused()
    page.keyboard.press("Home")
    expect(page.locator(f"#c-al-{room_type.pk}-{month_dates(month)[0].isoformat()}")).to_be_focused()

    # On a phone, the editor and a cell's history stay inside the window.
    page.set_viewport_size(PHONE)
    target = page.locator(f"#c-rp-{package.pk}-{dates[3].isoformat()}")
    target.scroll_into_view_if_needed()
    target.click()
    editor = page.locator("#vh-ari-editor")
    expect(editor).to_be_visible()
    expect(editor.locator(".vh-editor-title")).not_to_contain_text(texts["failed"])
    page.click("#vh-ari-editor .vh-editor-history")
    expect(editor.locator(".vh-editor-history-list")).to_be_visible()
    box = editor.bounding_box()
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(shots / f"rates-hub-{language}-390.png"))


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_change_history_says_what_changed_and_filters_by_row(page, live_server, setup, shots, language):
    prop, (_room_type, standalone, (package, _other)), _month, dates = setup
    staff = member(prop, "staff")
    for plans, value in (([standalone], 110_000), ([package], 150_000)):
        edit = AriEdit((DateRange(dates[0], dates[-1]),), Operation.SET, value, rate_plans=tuple(plans))
        ari_change_apply(prop=prop, edit=edit, source=AriChangeSource.BULK, user=staff)
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, staff, language)

    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/changes/")
    rows = page.locator("#vh-ari-changes tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(1).locator(".vh-change-what li")).to_have_count(3)
    expect(rows.nth(1).locator(".vh-change-what li").first).to_contain_text("100,000 → 110,000")
    expect(rows.nth(1).locator(".vh-change-more")).to_contain_text("4")
    page.select_option("#id_row", f"rp:{package.pk}")
    page.click("#vh-changes-filter input[type=submit]")
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".vh-change-what li").first).to_contain_text("+20,000 → +40,000")
    page.screenshot(path=str(shots / f"rates-history-{language}-1366.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"rates-history-{language}-390.png"), full_page=True)
