"""The hub environment switch in the admin: superusers only, a confirmation page, the progress against
the new hub, and the environment badge on every admin page, in Korean and English."""

import pytest
from django.urls import reverse
from django.utils import timezone

from integration.hub.environments import HubEnvironment
from integration.hub.models import HubSwitch
from integration.hub.selectors import hub_environment_active
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.switch import hub_environment_switch
from tests.factories import PropertyFactory, hub_content, member

pytestmark = pytest.mark.django_db(transaction=True)

SWITCH = reverse("admin:integration_hubswitch_switch")


def page(client, url, language, **kwargs):
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language, **kwargs).content.decode()


def test_only_superusers_may_switch(client, property_a):
    client.force_login(member(property_a, "manager"))
    assert client.get(SWITCH).status_code == 403
    assert client.post(SWITCH, {"to": "production", "confirm": "on"}).status_code == 403
    assert client.get(reverse("admin:integration_hubswitch_changelist")).status_code == 403
    assert hub_environment_active() == HubEnvironment.STAGING


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("ko", ["운영 허브로 전환", "기본 URL", "확인했습니다", "허브: 스테이징"]),
        ("en", ["Switch to the Production hub", "Base URL", "I understand", "Hub: Staging"]),
    ],
)
def test_the_confirmation_page_says_what_the_switch_does(client, superuser, production_hub, language, texts):
    client.force_login(superuser)
    html = page(client, SWITCH, language)
    for text in texts:
        assert text in html
    assert "/sandbox/production" in html


def test_the_switch_needs_the_box_ticked(client, superuser, production_hub):
    client.force_login(superuser)
    response = client.post(SWITCH, {"to": "production"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "Tick the box to confirm the switch." in response.content.decode()
    assert hub_environment_active() == HubEnvironment.STAGING
    assert not HubSwitch.objects.exists()


def test_an_unconfigured_environment_cannot_be_chosen(client, superuser, settings):
    settings.HUB_PRODUCTION_BASE_URL = ""
    client.force_login(superuser)
    html = page(client, SWITCH, "en")
    assert "The Production hub has no base URL or token configured" in html
    response = client.post(SWITCH, {"to": "production", "confirm": "on"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "The Production hub has no base URL or token configured" in response.content.decode()
    assert hub_environment_active() == HubEnvironment.STAGING


def test_a_confirmed_switch_shows_the_progress_against_the_new_hub(client, superuser, production_hub):
    hub_content(PropertyFactory(vendor_id="admin-switch"))
    client.force_login(superuser)

    response = client.post(SWITCH, {"to": "production", "confirm": "on"}, HTTP_ACCEPT_LANGUAGE="en")

    switch = HubSwitch.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("admin:integration_hubswitch_progress", args=[switch.pk])
    assert (switch.to_environment, switch.switched_by, switch.resources) == ("production", superuser, 9)
    # No worker runs here: everything waits, and the page says so and refreshes itself.
    html = page(client, response.url, "en")
    assert '<span data-count="pending">9</span>' in html
    assert 'http-equiv="refresh"' in html
    assert "Hub: Production" in html

    SyncState.objects.update(status=SyncStatus.SYNCED)
    SyncState.objects.filter(kind="rateplan").update(status=SyncStatus.FAILED, last_error="rate plan refused")
    html = page(client, response.url, "ko")
    assert "개요" in html
    assert "전환 시점의 리소스 9개: 7개 연동, 2개 실패" in html
    assert "rate plan refused" in html
    assert 'http-equiv="refresh"' not in html

    # Rows made after the switch (a channel's settings, new content) keep the switch's own count.
    SyncState.objects.bulk_create(
        SyncState(
            kind=state.kind,
            object_id=state.object_id + 1000,
            property=state.property,
            environment="production",
            status=SyncStatus.SYNCED,
        )
        for state in SyncState.objects.filter(environment="production", kind="rateplan")
    )
    html = page(client, response.url, "en")
    assert "the 9 resources of the switch, and 2 added since: 9 synced, 2 failed." in html


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", ["2 resources are waiting to be sent again", "Waiting to be sent again", "Connection refused"]),
        ("ko", ["리소스 2개가 재전송을 기다리고 있습니다", "재전송 대기", "Connection refused"]),
    ],
)
def test_the_progress_says_what_pending_rows_wait_for(client, superuser, production_hub, language, texts):
    """A hub that cannot be reached must not look like a slow one: the rows retrying show their last error
    and their next try."""
    hub_content(PropertyFactory(vendor_id="admin-switch"))
    client.force_login(superuser)
    switch = hub_environment_switch(to=HubEnvironment.PRODUCTION, user=superuser)
    retrying = SyncState.objects.order_by("pk")[:2]
    SyncState.objects.filter(pk__in=[state.pk for state in retrying]).update(
        failures=3, last_error="ConnectionError: Connection refused", next_attempt_at=timezone.now()
    )

    html = page(client, reverse("admin:integration_hubswitch_progress", args=[switch.pk]), language)

    for text in texts:
        assert text in html
    assert html.count("<td>3</td>") == 2  # the tries of each


@pytest.mark.parametrize(
    ("language", "staging", "production"),
    [("ko", "허브: 스테이징", "허브: 운영"), ("en", "Hub: Staging", "Hub: Production")],
)
def test_every_admin_page_shows_the_hub_badge(client, property_a, production_hub, language, staging, production):
    staff = member(property_a, "staff")
    pages = [reverse("admin:index"), reverse("admin:integration_property_changelist"), reverse("admin:login")]

    def badges():
        shown = []
        for url in pages:
            if url == reverse("admin:login"):
                client.logout()
            else:
                client.force_login(staff)
            shown.append(page(client, url, language))
        return shown

    for html in badges():
        assert f'class="hub-env hub-env-staging" id="hub-environment">{staging}<' in html
    hub_environment_switch(to=HubEnvironment.PRODUCTION)
    for html in badges():
        assert f'class="hub-env hub-env-production" id="hub-environment">{production}<' in html
