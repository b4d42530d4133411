"""The property list of a large estate (issue 28, item 3): the same queries for a few properties or a
thousand's first page, one count, each property's own hub status, and the action checkbox written as
Django's widget writes it."""

import pytest
from django import forms
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import format_html

from integration.models import Property, SyncState
from integration.sync.services.outbox import sync_state_ensure

pytestmark = pytest.mark.django_db

PROPERTIES = reverse("admin:integration_property_changelist")


def estate(size, start=0):
    Property.objects.bulk_create(
        Property(vendor_id=f"stay-{n}", name=f"Stay {n:04d}") for n in range(start, start + size)
    )


def sqls(client, query=None):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(PROPERTIES, query or {}).status_code == 200
    return [entry["sql"] for entry in captured.captured_queries]


@pytest.mark.parametrize("query", [None, {"status__exact": "enabled"}])
def test_a_page_of_many_properties_costs_the_queries_of_a_few_and_counts_once(admin_client, query):
    estate(3)
    sqls(admin_client, query)
    few = sqls(admin_client, query)

    estate(150, start=3)
    many = sqls(admin_client, query)

    assert len(many) == len(few)
    assert len([sql for sql in many if "COUNT(" in sql.upper() and "integration_property" in sql]) == 1


def test_the_action_checkbox_is_djangos(admin_client):
    estate(1)
    prop = Property.objects.get()
    label = format_html("Select this object for an action - {}", str(prop))
    django_widget = forms.CheckboxInput({"class": "action-select", "aria-label": label}, lambda value: False)

    page = admin_client.get(PROPERTIES, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert django_widget.render(ACTION_CHECKBOX_NAME, str(prop.pk)) in page


def test_each_property_shows_its_own_hub_status(admin_client):
    estate(3)
    failing = Property.objects.get(vendor_id="stay-2")
    SyncState.objects.filter(pk=sync_state_ensure(failing).pk).update(status="failed")

    rows = admin_client.get(PROPERTIES).context["cl"].result_list

    assert {prop.vendor_id: prop.sync_status for prop in rows} == {"stay-0": None, "stay-1": None, "stay-2": "failed"}
