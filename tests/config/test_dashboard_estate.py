"""The dashboard over many properties (issue 28, item 3; config/estate.py): the cards a page at a time,
those needing attention first, a superuser's summary of the whole estate, the same queries whatever its
size; a property's staff keep their one card."""

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config.estate import CARDS_PER_PAGE
from integration.models import Property, SyncState
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory, member

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("admin:index")


def estate(size, start=0):
    """size properties named in order ("Stay 000", ...), every fourth disabled."""
    return Property.objects.bulk_create(
        Property(vendor_id=f"stay-{n}", name=f"Stay {n:03d}", status="disabled" if n % 4 == 3 else "enabled")
        for n in range(start, start + size)
    )


def queries(client, **query):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(DASHBOARD, query)
    assert response.status_code == 200
    return len(captured), response


def test_a_superusers_dashboard_costs_the_same_queries_with_a_few_properties_or_many(admin_client):
    estate(3)
    queries(admin_client)  # sessions and caches settle
    few, _page = queries(admin_client)

    estate(3 * CARDS_PER_PAGE, start=3)
    many, page = queries(admin_client)

    assert many == few
    assert len(page.context["property_cards"]) == CARDS_PER_PAGE


def test_the_cards_page_with_those_needing_attention_first_and_the_estate_is_summed_up(admin_client):
    stays = estate(CARDS_PER_PAGE + 6)
    failing = stays[-1]  # "Stay 029": last by name
    state = sync_state_ensure(failing)
    SyncState.objects.filter(pk=state.pk).update(status="failed")
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    first = admin_client.get(DASHBOARD)
    cards = first.context["property_cards"]
    assert cards[0]["property"] == failing
    assert cards[0]["sync_failed"]
    assert [card["property"].name for card in cards[1:3]] == ["Stay 000", "Stay 001"]
    text = first.content.decode()
    assert "Hub sync failed" in text
    assert "Page 1 of 2" in text
    assert f"{CARDS_PER_PAGE + 6} properties" in text
    assert "Enabled 23" in text
    assert "Disabled 7" in text
    assert "1 with a failed hub sync" in text

    second = admin_client.get(DASHBOARD, {"page": 2})
    names = [card["property"].name for card in second.context["property_cards"]]
    assert names == [f"Stay {n:03d}" for n in range(CARDS_PER_PAGE - 1, CARDS_PER_PAGE + 5)]

    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    korean = admin_client.get(DASHBOARD).content.decode()
    assert "허브 동기화 실패" in korean
    assert "1 / 2 페이지" in korean


def test_a_propertys_staff_keep_their_one_card_without_pages_or_summary(client):
    prop = PropertyFactory()
    estate(CARDS_PER_PAGE + 1)
    client.force_login(member(prop, "staff"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    page = client.get(DASHBOARD)

    assert [card["property"] for card in page.context["property_cards"]] == [prop]
    assert "estate" not in page.context
    assert "Page 1 of" not in page.content.decode()


def test_a_failure_at_an_earlier_hub_needs_no_attention(admin_client):
    stays = estate(3)
    state = sync_state_ensure(stays[-1])
    SyncState.objects.filter(pk=state.pk).update(status="failed", environment="production")  # not the active hub

    page = admin_client.get(DASHBOARD)

    assert [card["property"] for card in page.context["property_cards"]] == stays
    assert page.context["estate"].sync_failed == 0
