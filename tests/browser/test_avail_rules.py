"""Staff close a channel over three days in a real browser: the form, its preview of each channel's counts,
the saved rule and its history; in Korean and in English, wide and narrow. Screenshots go to var/screenshots/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from integration.models import ChannelAvailRule, ChannelAvailRuleChange
from tests.factories import PropertyFactory, member
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days

from .test_content import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

TEXT = {
    "ko-KR": {"save": "저장", "close": "판매 중지", "preview": "규칙 미리보기", "requests": "재고 요청 1건"},
    "en-US": {
        "save": "Save",
        "close": "Close (stop-sell)",
        "preview": "Preview of the rule",
        "requests": "1 availability request",
    },
}


@pytest.fixture(params=["ko-KR", "en-US"])
def locale(request):
    return request.param


@pytest.fixture(params=[1366, 390])
def width(request):
    return request.param


@pytest.fixture
def browser_context_args(browser_context_args, locale, width):
    return {**browser_context_args, "locale": locale, "viewport": {"width": width, "height": 900}}


def test_staff_close_a_channel_with_a_preview_and_find_it_in_the_history(page, live_server, locale, width):
    text = TEXT[locale]
    prop = PropertyFactory(name="Seochon Hanok")
    rows = ari_property(prop, room_types=1, packages=0)
    fill_days(rows, [day(n) for n in range(10)], allotment=5)
    channel = SalesChannelFactory(open_for=prop, name="Hub OTA")
    log_in(page, live_server, member(prop, "staff"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = f"avail-rule-{locale}-{width}"

    page.goto(f"{live_server.url}/admin/integration/channelavailrule/add/")
    page.select_option("#id_property", str(prop.pk))
    page.select_option("#id_channel", str(channel.pk))
    page.select_option("#id_kind", "close")
    page.fill("#id_date_from", day(2).isoformat())
    page.fill("#id_date_to", day(4).isoformat())
    page.screenshot(path=SHOTS / f"{name}-form.png", full_page=True)
    page.locator("input[name=_save]").click()

    expect(page.locator("h1")).to_contain_text(text["preview"])
    expect(page.locator("#content-main")).to_contain_text(text["requests"])
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    page.screenshot(path=SHOTS / f"{name}-preview.png", full_page=True)
    assert not ChannelAvailRule.objects.exists()
    page.locator("input[name=_save]").click()

    expect(page.locator("#result_list")).to_contain_text(text["close"])
    page.screenshot(path=SHOTS / f"{name}-list.png", full_page=True)
    assert ChannelAvailRule.objects.get().kind == "close"
    page.goto(f"{live_server.url}/admin/integration/channelavailrulechange/")
    expect(page.locator("#result_list")).to_contain_text("Hub OTA")
    page.screenshot(path=SHOTS / f"{name}-history.png", full_page=True)
    assert ChannelAvailRuleChange.objects.count() == 1
