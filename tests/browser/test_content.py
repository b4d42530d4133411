"""A manager creates a property with a translation and a photo in a real browser and sees it synced."""

import pytest
from playwright.sync_api import expect

from hubsandbox import state as hub_state
from tests.browser.login import second_factor
from tests.factories import PASSWORD, PropertyFactory, member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, user):
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)


def test_create_a_property_with_a_translation_and_a_photo_and_see_it_synced(page, live_server, worker):
    manager = member(PropertyFactory(), "manager")
    log_in(page, live_server, manager)

    page.goto(f"{live_server.url}/admin/integration/property/add/")
    page.fill("#id_vendor_id", "bukchon-house")
    page.fill("#id_name", "Bukchon House")
    page.fill("#id_translations-0-name", "북촌 하우스")
    page.fill("#id_translations-0-address", "서울 종로구 계동길 5")
    page.fill("#id_photos-0-url", "https://img.example.com/bukchon.jpg")
    page.click("input[name=_continue]")

    expect(page.locator(".messagelist")).to_be_visible()
    badge = page.locator(".field-hub_sync .sync-badge")
    for _ in range(60):
        if "sync-synced" in (badge.get_attribute("class") or ""):
            break
        page.wait_for_timeout(250)
        page.reload()
    expect(badge).to_have_class("sync-badge sync-synced")
    expect(page.locator(".photo-thumbnail")).to_have_count(1)

    held = hub_state.get_resource("property", "bukchon-house")
    assert held["i18n"] == [{"locale": "ko-KR", "name": "북촌 하우스", "address": "서울 종로구 계동길 5"}]
    assert held["photos"] == [{"url": "https://img.example.com/bukchon.jpg", "order": 0}]
