"""A superuser pauses distribution to the hub in a real browser, in Korean and in English, for an incident at
the hub: a change made meanwhile waits (nothing reaches the hub), the pause is said on the health page, and
the resume sends it (issue 41)."""

import pytest
from django.db import transaction
from playwright.sync_api import expect

from hubsandbox import state as hub_state
from integration.content.services import content_saved
from integration.sync.choices import SyncStatus
from integration.sync.models import SyncState
from tests.browser.login import log_in
from tests.factories import PropertyFactory, hub_content
from tests.hub_fixtures import all_synced, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {"pause": "전송 일시 중지", "resume": "전송 재개", "paused": "일시 중지되어 있습니다"},
    "en": {"pause": "Pause distribution", "resume": "Resume distribution", "paused": "is paused since"},
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_superuser_pauses_distribution_and_the_resume_sends_what_waited(
    page, live_server, worker, superuser, language
):
    prop = PropertyFactory(vendor_id=f"pause-{language}")
    hub_content(prop)
    with transaction.atomic():
        content_saved(obj=prop, created=True, user=superuser)
    wait_until(all_synced, message="the property at the hub")
    text = TEXTS[language]
    log_in(page, live_server, superuser, language, next_url="/admin/integration/hubswitch/")

    page.get_by_role("link", name=text["pause"]).click()
    page.check("#id_confirm")
    page.get_by_role("button", name=text["pause"]).click()
    expect(page.locator(".vh-distribution-paused")).to_contain_text(text["paused"])

    prop.phone = "02-765-4321"
    prop.save()
    with transaction.atomic():
        content_saved(obj=prop, created=False, user=superuser)
    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/health/")
    expect(page.locator(".vh-distribution-paused")).to_contain_text(text["paused"])
    assert SyncState.objects.get(kind="property", object_id=prop.pk).status == SyncStatus.PENDING
    assert hub_state.get_resource("property", prop.vendor_id).get("phone") != "02-765-4321"

    page.goto(f"{live_server.url}/admin/integration/hubswitch/distribution/")
    page.check("#id_confirm")
    page.get_by_role("button", name=text["resume"]).click()
    expect(page.locator(".vh-distribution-paused")).to_have_count(0)
    wait_until(all_synced, message="the change at the hub after the resume")
    assert hub_state.get_resource("property", prop.vendor_id)["phone"] == "02-765-4321"
