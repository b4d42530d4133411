"""The Booking e-mails screen in a real browser, in Korean and in English: a manager finds it from the
dashboard, turns booking e-mails off for themselves, and sees who at their property receives them."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from bookings.models import NotificationPreference
from tests.browser.login import second_factor
from tests.factories import PASSWORD, member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {
        "screen": "예약 알림 메일",
        "receive": "예약 알림 메일 받기",
        "saved": "예약 알림 메일 설정을 저장했습니다.",
        "off": "수신 끔",
        "yes": "예",
        "no_address": "메일 주소 없음",
    },
    "en": {
        "screen": "Booking e-mails",
        "receive": "Receive booking e-mails",
        "saved": "Your booking e-mail settings were saved.",
        "off": "Turned off",
        "yes": "Yes",
        "no_address": "No e-mail address",
    },
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_manager_turns_booking_mails_off_and_sees_who_receives(page, live_server, property_a, language, shots):
    texts = TEXTS[language]
    manager = member(property_a, "manager", username="manager-kim", first_name="민지", last_name="김")
    member(property_a, "staff", username="front-desk", email="desk@example.com")
    member(property_a, "staff", username="night-shift", email="")
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", manager.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, manager)

    page.get_by_role("link", name=texts["screen"], exact=True).first.click()
    checkbox = page.get_by_label(texts["receive"])
    expect(checkbox).to_be_checked()
    # Offered the language the page is read in; until saved, mail goes in Korean, and the page says so.
    expect(page.locator("#id_language")).to_have_value(language)
    expect(page.locator(".vh-unsaved-language")).to_contain_text("한국어")
    rows = page.locator("#vh-recipients tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator("tr[data-username=night-shift]")).to_contain_text(texts["no_address"])
    expect(page.locator("tr[data-username=front-desk]")).to_contain_text(texts["yes"])
    page.screenshot(path=str(shots / f"booking-emails-{language}.png"), full_page=True)

    checkbox.uncheck()
    page.select_option("#id_language", "en")
    page.get_by_role("button", name={"ko": "저장", "en": "Save"}[language]).click()

    expect(page.locator(".messagelist")).to_contain_text(texts["saved"])
    expect(page.get_by_label(texts["receive"])).not_to_be_checked()
    own = page.locator("tr[data-username=manager-kim]")
    expect(own).to_contain_text(texts["off"])
    expect(own).to_contain_text("English")
    expect(own).to_contain_text("김")
    page.screenshot(path=str(shots / f"booking-emails-off-{language}.png"), full_page=True)
    preference = NotificationPreference.objects.get(user=manager)
    assert (preference.booking_emails, preference.language) == (False, "en")
