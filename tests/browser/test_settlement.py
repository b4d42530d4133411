"""A manager runs a settlement reconciliation in a real browser and reads it, in Korean then in English
(issue 13)."""

import datetime

import pytest
from playwright.sync_api import expect

from bookings.models import Booking
from core.dates import korea_today
from hubsandbox import sales
from hubsandbox.faults import inject_faults
from tests.factories import member
from tests.hubsandbox.test_sales import seed

from .test_content import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_manager_runs_and_reads_a_reconciliation_in_korean_and_english(page, live_server, worker, settings, tmp_path):
    settings.HUB_SANDBOX_VENDOR_URL = live_server.url
    _room_type, plan, _package = seed(rooms=9)
    for drift in (None, None, "amount", "status", "unsent", "unknown"):
        options = {"settlement_drift_rate": 1.0, "settlement_drift": (drift,)} if drift else {}
        with inject_faults(**options):
            assert sales.sell(rateplan_id=plan.vendor_id).ok
    prop = plan.room_type.property
    log_in(page, live_server, member(prop, "manager"))
    today = korea_today()

    page.goto(f"{live_server.url}/admin/settlement/reconciliation/")
    page.click("a.settlement-run")
    expect(page.locator("#content h1")).to_have_text("정산 대사 실행")
    page.fill("#id_date_from", today.isoformat())
    page.fill("#id_date_to", (today + datetime.timedelta(days=30)).isoformat())
    page.click("input[name=run]")

    # The report page follows the run, then shows the totals (it reloads itself when the run is done).
    expect(page.locator("#settlement-totals")).to_be_visible(timeout=60_000)
    totals = page.locator("#settlement-totals tbody")
    expect(totals.locator("tr.settlement-total-matched td.num").first).to_have_text("3")
    expect(totals.locator("tr.settlement-total-status")).to_contain_text("상태 불일치")
    expect(totals.locator("tr.settlement-total-amount td.num").first).to_have_text("1")
    expect(totals.locator("tr.settlement-total-hub_only td.num").first).to_have_text("1")
    expect(totals.locator("tr.settlement-total-ours_only td.num").first).to_have_text("1")
    expect(page.locator(".settlement-bar span")).to_have_count(5)
    page.screenshot(path=tmp_path / "settlement-report-ko.png", full_page=True)

    # Only the differing rows, then the amount row's booking.
    page.select_option("select[name=category]", "amount")
    page.click("#settlement-filters input[type=submit]")
    rows = page.locator("#settlement-rows tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.locator("td.mismatch")).to_have_count(4)
    number = rows.locator("td").first.inner_text()

    page.select_option("#language-switch", "en")
    expect(page.locator("#settlement-totals tr.settlement-total-status")).to_contain_text("Status differs")
    expect(page.locator("#settlement-rows thead")).to_contain_text("Total amount at the hub")
    page.screenshot(path=tmp_path / "settlement-report-en.png", full_page=True)
    with page.expect_download() as download:
        page.click("a.settlement-csv")
    assert download.value.suggested_filename.endswith(".csv")
    assert download.value.path().read_bytes().startswith(b"\xef\xbb\xbf")

    page.click(f"#settlement-rows a:text('{number}')")
    booking = Booking.objects.get(vendor_booking_number=number)
    expect(page).to_have_url(f"{live_server.url}/admin/bookings/booking/{booking.pk}/change/")
    page.click("a.compare-with-hub")
    expect(page.locator(f"#compare-{number} tr.differs")).to_have_count(2)
    expect(page.locator(f"#compare-{number} tr.differs").first).to_contain_text("Total amount")
    page.screenshot(path=tmp_path / "compare-en.png", full_page=True)
