"""A superuser's dashboard over many properties (config/estate.py): the estate summed up, a page of cards
with the failed one first, pages to the rest; at 1366 px and on a phone, in Korean and English, in a real
browser (VH_SCREENSHOTS=folder keeps the screenshots). The property list beside it."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from config.estate import CARDS_PER_PAGE
from integration.models import SyncState
from integration.sync.services.outbox import sync_state_ensure
from tests.browser.login import log_in
from tests.browser.test_words_and_fit import fits
from tests.config.test_dashboard_estate import estate
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {
        "summary": "숙소 30곳",
        "failed": "허브 동기화 실패 1곳",
        "badge": "허브 동기화 실패",
        "page": "1 / 2 페이지",
    },
    "en": {
        "summary": "30 properties",
        "failed": "1 with a failed hub sync",
        "badge": "Hub sync failed",
        "page": "Page 1 of 2",
    },
}


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("width", [1366, 390])
def test_a_superuser_reads_a_large_estate_a_page_at_a_time(page, live_server, shots, language, width):
    stays = estate(CARDS_PER_PAGE + 6)
    failing = stays[-1]
    SyncState.objects.filter(pk=sync_state_ensure(failing).pk).update(status="failed")
    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 768})
    log_in(page, live_server, UserFactory(is_staff=True, is_superuser=True), language)

    texts = TEXTS[language]
    summary = page.locator(".estate-summary")
    expect(summary).to_contain_text(texts["summary"])
    expect(summary.locator(".estate-sync-failed")).to_have_text(texts["failed"])
    cards = page.locator(".property-card")
    expect(cards).to_have_count(CARDS_PER_PAGE)
    expect(cards.first).to_contain_text(failing.name)
    expect(cards.first.locator(".sync-failed-badge")).to_have_text(texts["badge"])
    expect(page.locator(".property-pages")).to_contain_text(texts["page"])
    page.locator(".property-dashboard").screenshot(path=shots / f"dashboard-estate-{language}-{width}.png")
    fits(page, width)

    page.locator(".property-pages a").first.click()
    expect(cards).to_have_count(6)
    fits(page, width)

    page.goto(live_server.url + reverse("admin:integration_property_changelist"))
    expect(page.locator("#result_list tbody tr")).to_have_count(CARDS_PER_PAGE + 6)
    page.screenshot(path=shots / f"property-list-{language}-{width}.png", full_page=True)
    if width == 1366:  # on a phone the admin's list scrolls in its own box
        fits(page, width)
