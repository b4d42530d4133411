"""The bookings list and a booking's page in a real browser, in Korean and English: the list fits a
1366 px screen without scrolling sideways and breaks Korean names only between words; the page shows its
groups, the nightly table, a closed technical section, and prints without the admin around it."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from bookings.models import Booking
from integration.access.choices import MembershipRole
from integration.models import RoomType
from tests.bookings.factories import RATE, create_body, sellable
from tests.bookings.signing import HubClient
from tests.browser.login import second_factor
from tests.factories import PASSWORD, member
from tests.integration.ari.factories import day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = pytest.mark.parametrize("language", ["ko", "en"])
ROOM = {"ko": "대청마루 스위트 온돌 가족실", "en": "Daecheong family suite with ondol floor"}
TEXTS = {
    "ko": {"groups": ["투숙객", "예약자", "숙박", "금액", "채널", "기술 정보"], "print": "인쇄", "night": "숙박일"},
    "en": {
        "groups": ["Guest", "Booker", "Stay", "Money", "Channel", "Technical details"],
        "print": "Print",
        "night": "night",
    },
}


@pytest.fixture
def desk():
    """A front desk member and a dozen bookings of a room type with a long Korean name (and an English
    one), made by the hub through the vendor API: confirmed ones, pending holds, long Korean guest names."""
    room_type, standalone, package = sellable(allotment=20, nights=20)
    RoomType.objects.filter(pk=room_type.pk).update(name=ROOM["ko"])
    room_type.translations.create(locale="en-US", name=ROOM["en"])
    hub = HubClient(Client())
    guests = ["남궁민수", "김민지", "황보하늘별", "Alexander Montgomery-Smith", "선우예린"]
    numbers = []
    for n in range(12):
        plan = package if n % 3 == 0 else standalone
        nights = 1 + n % 4
        rates = (
            [{"date": day(1 + n + i).isoformat(), "amount": RATE} for i in range(nights)]
            if plan == standalone
            else None
        )
        body = create_body(
            plan,
            first=1 + n,
            nights=nights,
            total_amount=RATE * 10 * nights + 12_345,
            guest={"name": guests[n % len(guests)], "adults": 2, "children": n % 2, "infants": 0, "pets": 0, "cars": 1},
            **({"rates": rates} if rates else {}),
        )
        number = hub.post("/bookings", body).json()["vendor_booking_number"]
        if n % 4:
            hub.put(f"/bookings/{number}/confirm")
        numbers.append(number)
    return member(room_type.property, MembershipRole.STAFF), numbers


def log_in(page, live_server, user, language):
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)
    expect(page.locator("#user-tools")).to_be_visible()


#: For each word of an element's text, how many lines it spans (broken inside, two; a hyphen may end a line).
WORD_LINES = """element => {
  const spans = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/[^\\s-]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      spans.push([match[0], tops.size]);
    }
  }
  return spans;
}"""


@LANGUAGES
def test_the_list_fits_1366_px_and_keeps_korean_words_whole(page, live_server, desk, shots, language):
    user, numbers = desk
    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, live_server, user, language)
    page.goto(f"{live_server.url}/admin/bookings/booking/")

    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(len(numbers))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366  # no sideways scrolling
    # Nor inside the list's own scrolling box: every column, the total's too, is in view.
    assert page.locator("#changelist .results").evaluate("e => e.scrollWidth <= e.clientWidth")
    total = page.locator("#result_list td.field-total").first.bounding_box()
    box = page.locator("#changelist .results").bounding_box()
    assert total["x"] + total["width"] <= box["x"] + box["width"]
    confirmed = page.locator("#result_list tbody tr", has_text=numbers[1])
    expect(confirmed.locator("td.field-room")).to_contain_text(ROOM[language])
    expect(confirmed.locator("td.field-total")).to_have_text(f"{RATE * 10 * 2 + 12_345:,} KRW")
    expect(confirmed.locator("td.field-nights_count")).to_have_text("2")
    for column in ("room", "guest"):
        cells = page.locator(f"#result_list td.field-{column}")
        assert cells.first.evaluate("e => getComputedStyle(e).wordBreak") == "keep-all"
        for index in range(cells.count()):
            broken = [word for word, lines in cells.nth(index).evaluate(WORD_LINES) if lines > 1]
            assert broken == [], f"words broken inside: {broken}"
    page.screenshot(path=str(shots / f"bookings-list-1366-{language}.png"), full_page=True)


@LANGUAGES
def test_the_booking_page_groups_a_nightly_table_a_closed_technical_section_and_print(
    page, live_server, desk, shots, language
):
    user, numbers = desk
    texts = TEXTS[language]
    booking = Booking.objects.get(vendor_booking_number=numbers[1])
    page.set_viewport_size({"width": 1366, "height": 900})
    # The print dialog would block a headless browser: the button's call is recorded instead.
    page.add_init_script("window.print = () => { window.printed = (window.printed || 0) + 1; };")
    log_in(page, live_server, user, language)
    page.goto(f"{live_server.url}/admin/bookings/booking/{booking.pk}/change/")

    expect(page.locator("fieldset.module h2")).to_have_text(texts["groups"])
    nights = page.locator("table.booking-nights")
    expect(nights.locator("thead th").first).to_have_text(texts["night"])
    expect(nights.locator("tbody tr")).to_have_count(2)
    expect(nights.locator("tbody tr").first.locator("td.booking-amount")).to_have_text(f"{RATE:,} KRW")
    digest = page.get_by_text(booking.content_digest)
    expect(digest).to_be_hidden()  # the technical section starts closed
    page.screenshot(path=str(shots / f"booking-page-{language}.png"), full_page=True)
    page.locator(".booking-technical summary").click()
    expect(digest).to_be_visible()
    page.locator(".booking-technical summary").click()

    page.get_by_role("button", name=texts["print"]).click()
    assert page.evaluate("window.printed") == 1
    page.emulate_media(media="print")
    expect(page.locator("#header")).to_be_hidden()
    expect(page.locator(".object-tools")).to_be_hidden()
    expect(page.locator(".booking-technical")).to_be_hidden()
    expect(page.locator(".form-row.field-calls")).to_be_hidden()  # a link is no use on paper
    expect(page.locator("fieldset.module h2").first).to_be_visible()
    expect(nights).to_be_visible()
    page.screenshot(path=str(shots / f"booking-print-{language}.png"), full_page=True)
