"""A member of staff logs in, switches the language and opens their property, in a real browser."""

import pytest
from playwright.sync_api import expect

from tests.browser.login import second_factor
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_log_in_switch_language_and_open_a_property(page, live_server, staff_a, property_a, property_b):
    page.goto(f"{live_server.url}/admin/")
    expect(page.locator("#site-name")).to_contain_text("vendorhub 백오피스")

    page.fill("#id_username", staff_a.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, staff_a)
    expect(page.locator("#property-dashboard-title")).to_have_text("담당 숙소")
    expect(page.locator(".property-card")).to_have_count(1)

    with page.expect_navigation():
        page.select_option("#language-switch", "en")
    expect(page.locator("#property-dashboard-title")).to_have_text("Your properties")

    page.click(f"text={property_a.name}")
    expect(page.locator("#id_name")).to_have_value(property_a.name)
    expect(page.locator("body")).not_to_contain_text(property_b.name)
