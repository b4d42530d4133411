"""A manager opens a cms channel in a real browser, sees the hub approve it, sets what it sells and maps
it; in Korean and in English. Screenshots go to var/screenshots/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from hubsandbox import state
from integration.models import ChannelOpenRequest
from integration.sync.services.batch import sync_pending
from integration.sync.services.outbox import sync_mark_changed
from tests.factories import PropertyFactory, hub_content, member
from tests.hub_fixtures import wait_until

from .test_content import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

TEXT = {
    "ko-KR": {
        "open": "이 채널 열기",
        "send": "요청 보내기",
        "refresh": "허브에서 상태 읽기",
        "open_status": "열림",
        "requested": "요청됨",
        "sells": "판매 설정",
        "mapping": "매핑",
        "save": "저장",
        "yes": "예",
    },
    "en-US": {
        "open": "Open this channel",
        "send": "Send the request",
        "refresh": "Read the statuses from the hub",
        "open_status": "Open",
        "requested": "Requested",
        "sells": "What it sells",
        "mapping": "Mapping",
        "save": "Save",
        "yes": "Yes",
    },
}


@pytest.fixture(params=["ko-KR", "en-US"])
def locale(request):
    return request.param


@pytest.fixture
def browser_context_args(browser_context_args, locale):
    return {**browser_context_args, "locale": locale}


def test_a_manager_opens_a_cms_channel_sees_it_approved_sets_what_it_sells_and_maps_it(
    page, live_server, worker, settings, locale
):
    settings.HUB_SANDBOX_CHANNEL_REVIEW_SECONDS = -1  # the sandbox admin reviews, below
    text = TEXT[locale]
    prop = PropertyFactory(vendor_id=f"gahoe-{locale.lower()}", name="Gahoe Hanok")
    room_type, _standalone, _package, (room_only, breakfast) = hub_content(prop)
    for obj in [prop, room_type, *prop.rate_plan_models.all(), room_only, breakfast]:
        sync_mark_changed(obj)
    sync_pending(property=prop)
    from integration.channels.services import sales_channels_refresh

    sales_channels_refresh()
    manager = member(prop, "manager")
    log_in(page, live_server, manager)

    # The property's channel screen: open the cms channel with its account fields.
    page.goto(f"{live_server.url}/admin/integration/propertychannel/")
    card = page.locator("#channel-3")
    expect(card).to_have_attribute("data-status", "closed")
    card.get_by_role("link", name=text["open"]).click()
    page.fill("#id_cms_account_id", "gahoe-77")
    page.fill("#id_cms_property_code", "GAHOE")
    page.fill("#id_comment", "한옥 직계약 채널입니다.")
    page.get_by_role("button", name=text["send"]).click()
    expect(page.locator(".messagelist")).to_be_visible()
    expect(card.locator(".channel-badge").first).to_have_text(text["requested"])

    # The request reaches the hub; its admin approves it; "read the statuses" brings the approval back.
    wait_until(lambda: ChannelOpenRequest.objects.filter(hub_id__isnull=False).exists(), message="the request sent")
    state.review_open_request(ChannelOpenRequest.objects.get().hub_id, "approved")
    page.get_by_role("button", name=text["refresh"]).click()
    for _ in range(60):
        if page.locator("#channel-3").get_attribute("data-status") == "open":
            break
        page.wait_for_timeout(250)
        page.reload()
    expect(card.locator("h2 .channel-badge")).to_have_text(text["open_status"])
    expect(card.locator(".channel-request .channel-badge")).to_have_class("channel-badge channel-approved")
    page.screenshot(path=str(SHOTS / f"channels-approved-{locale}.png"), full_page=True)

    # What it sells: on sale, without the breakfast plan.
    card.get_by_role("link", name=text["sells"]).click()
    page.check("#id_on_sale")
    page.uncheck(f"input[name=rate_plans][value='{breakfast.pk}']")
    page.screenshot(path=str(SHOTS / f"channels-settings-{locale}.png"), full_page=True)
    page.get_by_role("button", name=text["save"]).click()
    expect(card.locator(".channel-on-sale")).to_have_text(text["yes"])

    # The mapping: the channel's codes of the room type and the room-only plan.
    card.get_by_role("link", name=text["mapping"], exact=True).click()
    page.fill(f"#id_room_type_{room_type.pk}", "GH-ROOM")
    page.fill(f"#id_rate_plan_{room_only.pk}", "GH-RO")
    page.get_by_role("button", name=text["save"]).click()
    expect(card.locator(".channel-mapping")).to_contain_text("GH-RO")

    def at_hub():
        held = state.channel_settings_of(prop.vendor_id, 3)
        return held and held["settings"]["on_sale"] and held["mappings"]["rateplans"]

    wait_until(at_hub, message="the settings and mapping at the hub")
    held = state.channel_settings_of(prop.vendor_id, 3)
    assert held["settings"]["rateplans"] == {breakfast.vendor_id: False}
    assert held["mappings"]["rateplans"] == [{"vendor_rateplan_id": room_only.vendor_id, "channel_code": "GH-RO"}]
    page.reload()
    expect(card.locator(".channel-settings-sync .sync-badge")).to_have_class("sync-badge sync-synced")
    page.screenshot(path=str(SHOTS / f"channels-done-{locale}.png"), full_page=True)
