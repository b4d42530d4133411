"""Prices per channel in a real browser, in Korean and English, at 1366 and 390 px: each channel's price,
expected commission and net; a rule previewed, its large move confirmed on the field, then applied."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from integration.ari.models_prices import ChannelPriceRule, PriceMethod
from integration.ari.services.price_rules import channel_commission_set, price_rule_set
from tests.browser.test_ari_history import log_in
from tests.factories import PropertyFactory, member
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {
        "prices": "채널별 가격",
        "confirm": "확인해야 저장됩니다",
        "saved": "규칙을 저장했습니다",
        "net": "목표 입금가",
    },
    "en": {
        "prices": "Prices per channel",
        "confirm": "confirm to save it",
        "saved": "The rule is saved",
        "net": "net target",
    },
}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_prices_per_channel_with_a_confirmed_rule(page, live_server, shots, language):
    prop = PropertyFactory()
    rows = ari_property(prop)
    fill_days(rows, [day(1), day(2), day(3)])
    net_channel = SalesChannelFactory(name="Travel Mall", open_for=prop)
    markup_channel = SalesChannelFactory(name="Hub OTA", open_for=prop)
    channel_commission_set(prop=prop, channel=net_channel, typed=Decimal(15))
    price_rule_set(prop=prop, channel=net_channel, rate_plan=None, method=PriceMethod.NET, value=None)
    texts = TEXTS[language]
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, member(prop, "staff"), language)

    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/")
    page.click("#vh-ari-prices-link")
    table = page.locator("#vh-prices-channels")
    expect(table).to_contain_text("117,700")  # 100,000 grossed up by 15 %
    expect(table).to_contain_text("17,655")
    expect(table).to_contain_text("100,045")
    expect(table).to_contain_text(texts["net"])
    page.screenshot(path=str(shots / f"prices-{language}-1366.png"), full_page=True)

    form = page.locator("#vh-price-rule-form")
    form.locator("#id_channel").select_option(str(markup_channel.pk))
    form.locator("#id_method").select_option("percent")
    form.locator("#id_value").fill("80")
    form.locator("input[name=preview]").click()
    form = page.locator("#vh-price-rule-form")
    expect(form.locator(".field-confirm_prices .errorlist")).to_contain_text(texts["confirm"])
    expect(page.locator("#vh-price-preview")).to_contain_text("180,000")
    page.screenshot(path=str(shots / f"prices-confirm-{language}-1366.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"prices-confirm-{language}-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling

    form.locator("#id_confirm_prices").check()
    form.locator("input[name=apply]").click()
    expect(page.locator(".messagelist")).to_contain_text(texts["saved"])
    expect(page.locator("#vh-price-history")).to_contain_text("+80 %")
    assert ChannelPriceRule.objects.get(channel=markup_channel).value == Decimal(80)
    page.screenshot(path=str(shots / f"prices-saved-{language}-390.png"), full_page=True)
