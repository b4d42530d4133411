"""The code catalog's admin: the fetched catalogs, read-only, and the "Fetch catalog now" button."""

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from hubsandbox.catalog import valid_codes
from integration.catalog.choices import CatalogGroup
from integration.models import CatalogSnapshot
from tests.factories import UserFactory
from tests.integration.catalog.data import store_catalog

from .test_catalog import CLOSED_PORT, path

CHANGELIST = reverse("admin:integration_catalogsnapshot_changelist")
FETCH = reverse("admin:integration_catalogsnapshot_fetch")


def english(client, user):
    """client logged in as user, the admin in English."""
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def messages_of(response):
    return [(message.level_tag, str(message)) for message in get_messages(response.wsgi_request)]


@pytest.mark.django_db
def test_staff_see_the_catalogs_with_the_codes_per_group_and_the_fetch_button(client, staff_a):
    store_catalog()

    response = english(client, staff_a).get(CHANGELIST)

    assert response.status_code == 200
    page = response.content.decode()
    assert "Fetch catalog now" in page
    assert f'<form method="post" action="{FETCH}"' in page
    assert 'name="csrfmiddlewaretoken"' in page
    for group in CatalogGroup:
        assert f"column-count_{group}" in page
    assert '<td class="field-count_classification">6</td>' in page
    assert '<td class="field-count_view">2</td>' in page


@pytest.mark.django_db
def test_a_catalog_shows_every_code_with_its_name_and_cannot_be_edited(client, staff_a):
    snapshot = store_catalog()
    english(client, staff_a)

    page = client.get(reverse("admin:integration_catalogsnapshot_change", args=[snapshot.pk])).content.decode()

    assert "<code>pension.pool_villa.private</code>" in page
    assert f"<td>{path('펜션', '풀빌라', '독채')}</td>" in page
    assert 'name="_save"' not in page
    assert client.get(reverse("admin:integration_catalogsnapshot_add")).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_the_button_fetches_the_catalog_from_the_hub(client, staff_a, hub):
    response = english(client, staff_a).post(FETCH)

    assert response.status_code == 302
    assert response["Location"] == CHANGELIST
    total = sum(len(valid_codes(group)) for group in CatalogGroup)
    assert messages_of(response) == [("success", f"Fetched the code catalog: {total} codes.")]
    assert CatalogSnapshot.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_button_shows_the_hubs_message_when_the_hub_refuses(client, staff_a, hub, settings):
    settings.HUB_BASE_URL += "/nowhere"

    response = english(client, staff_a).post(FETCH, follow=True)

    assert response.status_code == 200
    page = response.content.decode()
    assert (
        '<li class="error">The code catalog could not be fetched: no hub endpoint GET /nowhere/gds/vendor/meta' in page
    )
    assert not CatalogSnapshot.objects.exists()


@pytest.mark.django_db
def test_the_button_shows_an_error_when_the_hub_cannot_be_reached(client, staff_a, settings):
    settings.HUB_BASE_URL = CLOSED_PORT

    response = english(client, staff_a).post(FETCH)

    assert response.status_code == 302
    [(level, text)] = messages_of(response)
    assert level == "error"
    assert text.startswith("The code catalog could not be fetched: The hub could not be reached")
    assert not CatalogSnapshot.objects.exists()


@pytest.mark.django_db
def test_fetching_needs_a_post_with_the_csrf_token(staff_a, settings):
    settings.HUB_BASE_URL = CLOSED_PORT
    client = english(Client(enforce_csrf_checks=True), staff_a)

    assert client.get(FETCH).status_code == 405
    assert client.post(FETCH).status_code == 403


@pytest.mark.django_db
def test_fetching_needs_the_view_permission(client, settings):
    settings.HUB_BASE_URL = CLOSED_PORT
    client.force_login(UserFactory(is_staff=True))

    assert client.post(FETCH).status_code == 403
    assert client.get(CHANGELIST).status_code == 403
