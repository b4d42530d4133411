"""A manager checks a property against the hub, reads the drift report and re-sends, in Korean and then in
English, in a real browser; the worker, the queue and the sandbox are real."""

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from integration.drift.models import DriftCheck
from tests.browser.login import second_factor
from tests.factories import PASSWORD, member
from tests.hub_fixtures import all_synced, wait_until
from tests.integration.drift.helpers import synced_content

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"


def log_in(page, live_server, user):
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)


def run_check(page, live_server, prop, *, button):
    """Queue a check of prop from the screen, wait for the worker, and open its report."""
    page.goto(f"{live_server.url}/admin/integration/driftcheck/")
    page.click(".vh-drift-check-link")
    page.select_option("#id_property", str(prop.pk))
    page.click(f"input[value='{button}']")
    expect(page.locator(".messagelist .success")).to_be_visible()
    wait_until(lambda: not DriftCheck.objects.filter(finished_at__isnull=True).exists(), message="the check")
    page.goto(f"{live_server.url}/admin/integration/driftcheck/{DriftCheck.objects.latest('pk').pk}/change/")


def test_report_and_resend_in_korean_and_english(page, live_server, worker, hub, settings, property_a):
    settings.HUB_DRIFT_RATE = 1000.0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    room_type, *_ = synced_content(property_a)
    manager = member(property_a, "manager")
    hub.alter_resource("property", "prop-a", patch={"email": "hub@example.com"})
    hub.alter_resource("roomtype", "prop-a", room_type.vendor_id, patch={"max_capacity": 9})
    log_in(page, live_server, manager)

    # Korean: the report lists both fields; one row is re-sent.
    run_check(page, live_server, property_a, button="지금 점검")
    expect(page.locator("h1")).to_have_text("불일치 보고서: Property A (prop-a)")
    expect(page.locator(".vh-drift-rows thead")).to_contain_text("허브 값")
    email_row = page.locator(".vh-drift-row[data-field='email']")
    expect(email_row).to_contain_text("hub@example.com")
    expect(email_row).to_contain_text("front@example.com")
    expect(page.locator(".vh-drift-row[data-field='max_capacity']")).to_contain_text("9")
    page.screenshot(path=SCREENSHOTS / "drift-report-ko.png", full_page=True)

    email_row.locator("button.vh-drift-resend").click()
    expect(page.locator(".messagelist .success")).to_contain_text("리소스 1개를 허브에 다시 보냅니다")
    expect(page.locator(".vh-drift-row[data-field='email']")).to_contain_text("재전송함")
    expect(page.locator(".vh-drift-open")).to_have_text("1")
    wait_until(all_synced, message="the re-send")
    assert hub.get_resource("property", "prop-a")["email"] == "front@example.com"
    assert hub.get_resource("roomtype", "prop-a", room_type.vendor_id)["max_capacity"] == 9

    # English: a refund the hub added; "Re-send all" repairs everything left (the map goes empty).
    with page.expect_navigation():
        page.select_option("#language-switch", "en")
    hub.alter_resource("property", "prop-a", patch={"refunds": {"3d": 50}})
    run_check(page, live_server, property_a, button="Check now")
    expect(page.locator("h1")).to_have_text("Drift report: Property A (prop-a)")
    refund_row = page.locator(".vh-drift-row[data-field='refunds.3d']")
    expect(refund_row).to_contain_text("not present")
    expect(refund_row).to_contain_text("50")
    page.screenshot(path=SCREENSHOTS / "drift-report-en.png", full_page=True)

    page.click("text=Re-send all (ours wins)")
    expect(page.locator(".messagelist .success")).to_contain_text("2 resources will be sent to the hub again")
    expect(page.locator(".vh-drift-open")).to_have_text("0")
    wait_until(all_synced, message="the re-sends")
    assert hub.get_resource("property", "prop-a")["refunds"] == {}
    assert hub.get_resource("roomtype", "prop-a", room_type.vendor_id)["max_capacity"] == room_type.max_capacity
    page.screenshot(path=SCREENSHOTS / "drift-resent-en.png", full_page=True)

    page.goto(f"{live_server.url}/admin/integration/driftcheck/")
    expect(page.locator("#result_list tbody tr")).to_have_count(2)
    expect(page.locator("#result_list")).to_contain_text("Done")
    page.screenshot(path=SCREENSHOTS / "drift-checks-en.png", full_page=True)
