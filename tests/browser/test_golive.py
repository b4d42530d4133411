"""A manager opens a property's health page from the dashboard card, then its go-live checklist, in
Korean and then in English, in a real browser (screenshots in test-results/golive/)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from integration.models import CodeMapping, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind
from tests.browser.login import second_factor
from tests.factories import PASSWORD, PropertyFactory, member
from tests.golive.readiness import make_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "golive"


def test_health_page_and_checklist_in_korean_and_english(page, live_server):
    prop = PropertyFactory(name="Seochon Hanok", vendor_id="seochon")
    room_type, *_ = make_ready(prop)
    # Two things keep it from going live: a code the catalog lacks, and the room type the hub refused.
    room_type.view_tags = ["our-sea"]
    room_type.save()
    SyncState.objects.filter(kind=ResourceKind.ROOM_TYPE, object_id=room_type.pk).update(
        status=SyncStatus.FAILED, last_error="HTTP 400: view_tags: our-sea is not a code of the catalog"
    )
    other = PropertyFactory(name="Not Mine")
    manager = member(prop, "manager")
    SHOTS.mkdir(parents=True, exist_ok=True)

    page.goto(f"{live_server.url}/admin/")
    page.fill("#id_username", manager.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, manager)
    expect(page.locator(".property-card")).to_have_count(1)
    page.click(".property-card-health")

    expect(page.locator("h1")).to_have_text("운영 상태: Seochon Hanok")
    expect(page.locator(".vh-health-checklist")).to_contain_text("7개 항목 중 5개 통과.")
    expect(page.locator(".vh-health-checklist")).to_contain_text("판매 개시 준비 안 됨")
    problem = page.locator(".vh-health-problems tbody tr")
    expect(problem).to_have_count(1)
    expect(problem).to_contain_text("HTTP 400: view_tags: our-sea is not a code of the catalog")
    expect(page.locator("body")).not_to_contain_text(other.name)
    expect(page.locator(".vh-health-horizon")).to_contain_text("365일 중 365일")
    page.screenshot(path=str(SHOTS / "health-ko.png"), full_page=True)

    page.click(".vh-health-checklist a")
    expect(page.locator("h1")).to_have_text("판매 개시 체크리스트: Seochon Hanok")
    codes = page.locator(".vh-check-codes")
    expect(codes).to_have_class("vh-check vh-check-codes vh-fail")
    expect(codes).to_contain_text("our-sea")
    expect(page.locator(".vh-check-standalone")).to_contain_text("통과")
    page.screenshot(path=str(SHOTS / "checklist-ko.png"), full_page=True)

    with page.expect_navigation():
        page.select_option("#language-switch", "en")
    expect(page.locator("h1")).to_have_text("Go-live checklist: Seochon Hanok")
    expect(page.locator(".vh-checklist-summary")).to_contain_text("5 of 7 items pass.")
    page.screenshot(path=str(SHOTS / "checklist-en.png"), full_page=True)

    # Fixed where the checklist links to: the code mapping table.
    CodeMapping.objects.create(group="view", vendor_code="our-sea", hub_code="ocean")
    page.reload()
    expect(codes).to_have_class("vh-check vh-check-codes vh-pass")

    page.click("text=Health")
    expect(page.locator("h1")).to_have_text("Health: Seochon Hanok")
    expect(page.locator(".vh-health-checklist")).to_contain_text("6 of 7 items pass.")
    expect(page.locator(".vh-health-problems")).to_contain_text("Failed")
    expect(page.locator(".vh-health-horizon")).to_contain_text("365 of 365 days")
    page.screenshot(path=str(SHOTS / "health-en.png"), full_page=True)
