"""A superuser switches from the staging hub to the production hub in a real browser, in Korean and in
English, follows the progress and sees every resource re-created at the production hub (the sandbox under
/sandbox/production/, which knew nothing before)."""

import pytest
from django.db import transaction
from playwright.sync_api import expect

from hubsandbox import state as hub_state
from integration.content.services import content_saved
from integration.hub.environments import HubEnvironment
from integration.hub.selectors import hub_environment_active
from tests.browser.login import second_factor
from tests.factories import PASSWORD, PropertyFactory, hub_content
from tests.hub_fixtures import all_synced, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {
        "staging": "허브: 스테이징",
        "production": "허브: 운영",
        "switch": "허브 환경 전환",
        "confirm": "운영(으)로 전환",
        "summary": "개요",
        "done": "전환 시점의 리소스 9개: 9개 연동, 0개 실패",
    },
    "en": {
        "staging": "Hub: Staging",
        "production": "Hub: Production",
        "switch": "Switch the hub environment",
        "confirm": "Switch to Production",
        "summary": "Summary",
        "done": "the 9 resources of the switch: 9 synced, 0 failed",
    },
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_superuser_switches_to_production_and_sees_everything_recreated(
    page, live_server, worker, production_hub, superuser, language, tmp_path
):
    prop = PropertyFactory(vendor_id=f"golive-{language}")
    room_type, standalone, package, plans = hub_content(prop)
    with transaction.atomic():
        for obj in (prop, room_type, standalone, package, *plans):
            content_saved(obj=obj, created=True, user=superuser)
    wait_until(all_synced, message="the property at the staging hub")
    assert hub_state.list_resources("rateplan", prop.vendor_id, hub="production") == []
    text = TEXTS[language]

    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", superuser.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, superuser)
    badge = page.locator("#hub-environment")
    expect(badge).to_have_text(text["staging"])
    expect(badge).to_have_class("hub-env hub-env-staging")

    badge.click()
    page.get_by_role("link", name=text["switch"], exact=True).click()
    expect(page.locator(".vh-switch-url")).to_have_text(f"{live_server.url}/sandbox/production")
    page.get_by_role("button", name=text["confirm"]).click()  # the box is required: the browser stops there
    expect(page.locator("#id_confirm:invalid")).to_have_count(1)
    assert hub_environment_active() == HubEnvironment.STAGING
    page.screenshot(path=str(tmp_path / f"hub-switch-confirm-{language}.png"), full_page=True)
    page.check("#id_confirm")
    page.get_by_role("button", name=text["confirm"]).click()

    # The progress page refreshes itself until nothing is pending, then shows the summary.
    expect(page.locator("#switch-summary")).to_have_text(text["summary"], timeout=60_000)
    expect(page.locator("#content-main")).to_contain_text(text["done"])
    expect(page.locator("#hub-environment")).to_have_text(text["production"])
    expect(page.locator("#hub-environment")).to_have_class("hub-env hub-env-production")
    page.screenshot(path=str(tmp_path / f"hub-switch-{language}.png"), full_page=True)

    for kind, ids in (
        ("property", [prop.vendor_id]),
        ("roomtype", [prop.vendor_id, room_type.vendor_id]),
        ("rateplan_model", [prop.vendor_id, standalone.vendor_id]),
        ("rateplan_model", [prop.vendor_id, package.vendor_id]),
        *(("rateplan", [prop.vendor_id, room_type.vendor_id, plan.vendor_id]) for plan in plans),
    ):
        assert hub_state.get_resource(kind, *ids, hub="production") == hub_state.get_resource(kind, *ids)
