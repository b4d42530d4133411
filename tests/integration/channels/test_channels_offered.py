"""Only channels open for the property are offered: a rate plan model's channel list, the calendar's
per-channel view and its edits."""

import pytest
from django.conf import settings
from django.urls import reverse

from integration.channels.choices import ChannelStatus
from integration.models import PropertyChannel, RatePlanModel, SalesChannel
from tests.admin_forms import changeform_data
from tests.factories import RatePlanModelFactory, korean

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager_client(client, manager_a):
    client.force_login(manager_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def staff_client(client, staff_a):
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def channels(property_a, property_b):
    open_a = SalesChannel.objects.create(channel_id=1, name="Open here")
    requested = SalesChannel.objects.create(channel_id=2, name="Requested here")
    open_b = SalesChannel.objects.create(channel_id=3, name="Open elsewhere")
    PropertyChannel.objects.create(property=property_a, channel=open_a, status=ChannelStatus.OPEN)
    PropertyChannel.objects.create(property=property_a, channel=requested, status=ChannelStatus.REQUESTED)
    PropertyChannel.objects.create(property=property_b, channel=open_b, status=ChannelStatus.OPEN)
    return open_a, requested, open_b


def test_a_rate_plan_models_channels_are_those_open_for_its_property(manager_client, property_a, channels):
    korean(property_a)
    model = RatePlanModelFactory(property=property_a, channels=[2])  # chosen before the channel closed
    korean(model)
    url = reverse("admin:integration_rateplanmodel_change", args=[model.pk])
    page = manager_client.get(url)
    offered = dict(page.context["adminform"].form.fields["channels"].choices)
    assert set(offered) == {1, 2}
    assert "not open" in str(offered[2])

    refused = manager_client.post(url, changeform_data(page, channels=["2"]))
    assert "Not open for this property: 2" in str(refused.context["adminform"].form.errors["channels"])
    saved = manager_client.post(url, changeform_data(page, channels=["1"]))
    assert saved.status_code == 302
    assert RatePlanModel.objects.get(pk=model.pk).channels == [1]
    manager_client.post(url, changeform_data(page, channels=[]))
    assert RatePlanModel.objects.get(pk=model.pk).channels in (None, [])  # every channel


def test_the_calendar_offers_only_open_channels(staff_client, property_a, channels):
    open_a, requested, open_b = channels
    calendar = reverse("admin:integration_property_calendar", args=[property_a.pk])
    page = staff_client.get(calendar)
    assert [channel.channel_id for channel in page.context["channels"]] == [1]
    assert staff_client.get(calendar, {"channel": open_a.pk}).status_code == 200
    assert staff_client.get(calendar, {"channel": requested.pk}).status_code == 404
    assert staff_client.get(calendar, {"channel": open_b.pk}).status_code == 404
    bulk = staff_client.get(reverse("admin:integration_property_ari_bulk", args=[property_a.pk]))
    assert list(bulk.context["form"].fields["channel"].queryset) == [open_a]
