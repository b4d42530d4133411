"""The channel screens: managers open channels, set what each sells and map cms channels; staff read;
another property's screens are a 404. Every change is an outbox row for the sync engine."""

import pytest
from django.urls import reverse

from integration.channels.choices import ChannelStatus
from integration.models import ChannelOpenRequest, PropertyChannel, ResourceKind, SalesChannel, SyncState
from tests.factories import PropertyFactory, hub_content, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def prop():
    prop = PropertyFactory(vendor_id="jeju-house", name="Jeju House")
    hub_content(prop)
    return prop


@pytest.fixture
def channels():
    return {
        "hub": SalesChannel.objects.create(channel_id=1, name="Hub OTA", channel_type="hub"),
        "cms": SalesChannel.objects.create(channel_id=3, name="Direct channel (CMS)", channel_type="cms"),
        "old": SalesChannel.objects.create(channel_id=4, name="Gone", listed=False),
    }


def login(client, prop, role):
    client.force_login(member(prop, role))
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def screen(prop, name="property", *args):
    return reverse(f"admin:integration_propertychannel_{name}", args=[prop.pk, *args])


def test_a_manager_opens_a_hub_and_a_cms_channel(client, prop, channels):
    login(client, prop, "manager")
    page = client.get(screen(prop))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Hub OTA" in html
    assert "Direct channel (CMS)" in html
    assert "Gone" not in html
    assert html.count("vh-channel-open") == 2

    # A hub channel asks for no account.
    form = client.get(screen(prop, "open", channels["hub"].pk)).content.decode()
    assert "cms_account_id" not in form
    assert client.post(screen(prop, "open", channels["hub"].pk), {"comment": "Hello"}).status_code == 302
    # A cms channel needs both fields: the form says so on the fields, nothing is stored.
    refused = client.post(screen(prop, "open", channels["cms"].pk), {"comment": ""})
    assert refused.status_code == 200
    assert set(refused.context["form"].errors) == {"cms_account_id", "cms_property_code"}
    assert ChannelOpenRequest.objects.count() == 1
    done = client.post(screen(prop, "open", channels["cms"].pk), {"cms_account_id": "A-1", "cms_property_code": "JEJU"})
    assert done.status_code == 302

    requests = {r.channel.channel_id: r for r in ChannelOpenRequest.objects.all()}
    assert (requests[1].comment, requests[3].cms_account_id, requests[3].cms_property_code) == ("Hello", "A-1", "JEJU")
    assert SyncState.objects.filter(kind=ResourceKind.CHANNEL_REQUEST).count() == 2
    statuses = set(PropertyChannel.objects.values_list("status", flat=True))
    assert statuses == {ChannelStatus.REQUESTED}
    # Requested: no second request.
    again = client.post(screen(prop, "open", channels["hub"].pk), {"comment": ""})
    assert "already Requested" in str(again.context["form"].non_field_errors())


def test_a_manager_sets_what_an_open_channel_sells_and_maps_a_cms_channel(client, prop, channels):
    login(client, prop, "manager")
    link = PropertyChannel.objects.create(property=prop, channel=channels["cms"], status=ChannelStatus.OPEN)
    room = prop.room_types.get()
    standalone, package = prop.rate_plans.order_by("model__type").reverse()  # standalone, package
    assert client.get(screen(prop, "settings", channels["cms"].pk)).status_code == 200
    saved = client.post(
        screen(prop, "settings", channels["cms"].pk),
        {"on_sale": "on", "room_types": [room.pk], "rate_plans": [standalone.pk]},
    )
    assert saved.status_code == 302
    link.refresh_from_db()
    assert (link.on_sale, link.room_types, link.rate_plans) == (True, {}, {package.vendor_id: False})
    assert SyncState.objects.filter(kind=ResourceKind.CHANNEL_SETTINGS, object_id=link.pk).exists()

    too_long = client.post(screen(prop, "mapping", channels["cms"].pk), {f"room_type_{room.pk}": "X" * 41})
    assert too_long.status_code == 200
    assert f"room_type_{room.pk}" in too_long.context["form"].errors
    mapped = client.post(
        screen(prop, "mapping", channels["cms"].pk),
        {f"room_type_{room.pk}": " DLX ", f"rate_plan_{standalone.pk}": "DLX-RO", f"rate_plan_{package.pk}": ""},
    )
    assert mapped.status_code == 302
    link.refresh_from_db()
    assert (link.room_type_codes, link.rate_plan_codes) == ({room.vendor_id: "DLX"}, {standalone.vendor_id: "DLX-RO"})
    assert SyncState.objects.filter(kind=ResourceKind.CHANNEL_MAPPING, object_id=link.pk).exists()
    html = client.get(screen(prop)).content.decode()
    assert "DLX-RO" in html
    assert package.vendor_id in html

    # A hub channel has no mapping; a channel not open has no settings.
    PropertyChannel.objects.create(property=prop, channel=channels["hub"])
    assert client.get(screen(prop, "mapping", channels["hub"].pk)).status_code == 404
    closed = client.post(screen(prop, "settings", channels["hub"].pk), {"on_sale": "on"})
    assert "is not open for this property" in str(closed.context["form"].non_field_errors())


def test_staff_read_and_never_edit(client, prop, channels):
    PropertyChannel.objects.create(property=prop, channel=channels["cms"], status=ChannelStatus.OPEN)
    login(client, prop, "staff")
    page = client.get(screen(prop))
    assert page.status_code == 200
    assert b"vh-channel-open" not in page.content
    assert b"vh-channel-settings" not in page.content
    assert client.get(screen(prop, "open", channels["hub"].pk)).status_code == 403
    assert client.post(screen(prop, "settings", channels["cms"].pk), {"on_sale": "on"}).status_code == 403
    assert client.post(screen(prop, "mapping", channels["cms"].pk), {}).status_code == 403
    assert not SyncState.objects.filter(kind__startswith="channel_").exists()
    # The hub's list: staff read it, without the refresh button.
    listing = client.get(reverse("admin:integration_saleschannel_changelist"))
    assert listing.status_code == 200
    assert b"vh-channels-refresh" not in listing.content
    assert client.post(reverse("admin:integration_saleschannel_refresh")).status_code == 403


def test_another_property_is_a_404(client, prop, channels):
    other = PropertyFactory()
    login(client, other, "manager")
    assert client.get(screen(prop)).status_code == 404
    assert client.post(screen(prop, "open", channels["hub"].pk), {}).status_code == 404
    assert client.post(screen(prop, "refresh")).status_code == 404
    # Their own single property: the list goes straight to its screen.
    assert client.get(reverse("admin:integration_propertychannel_changelist")).url == screen(other)


def test_a_code_too_long_is_shown_whole_with_its_count_never_cut_by_the_browser(client, prop, channels):
    login(client, prop, "manager")
    PropertyChannel.objects.create(property=prop, channel=channels["cms"], status=ChannelStatus.OPEN)
    room = prop.room_types.get()
    code = "R" * 41

    form = client.get(screen(prop, "mapping", channels["cms"].pk)).content.decode()
    opened = client.get(screen(prop, "open", channels["cms"].pk)).content.decode()
    refused = client.post(screen(prop, "mapping", channels["cms"].pk), {f"room_type_{room.pk}": code})

    assert "maxlength" not in form
    assert "cms_property_code" in opened
    assert 'maxlength="40"' not in opened
    assert refused.context["form"].errors[f"room_type_{room.pk}"] == ["At most 40 characters: this one has 41."]
    assert f'value="{code}"' in refused.content.decode()


def test_a_channel_card_says_what_it_sells(client, prop, channels):
    login(client, prop, "manager")
    link = PropertyChannel.objects.create(property=prop, channel=channels["cms"], status=ChannelStatus.OPEN)

    everything = client.get(screen(prop)).content.decode()
    package = prop.rate_plans.get(model__type="package")
    link.rate_plans = {package.vendor_id: False}
    link.save()
    some = client.get(screen(prop)).content.decode()

    assert "<dt>Sells</dt>" in everything
    assert "Every room type and rate plan" in everything
    assert "Not sold" not in everything
    assert "Everything except:" in some
    assert package.vendor_id in some.split("Everything except:")[1].split("</dd>")[0]


@pytest.mark.parametrize(
    ("language", "shown", "hidden"), [("en", "Ocean suite", "바다 스위트"), ("ko", "바다 스위트", "Ocean suite")]
)
def test_channel_cards_settings_and_mapping_name_rooms_in_the_readers_language(
    client, prop, channels, language, shown, hidden
):
    login(client, prop, "manager")
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    room = prop.room_types.first()
    room.name = "바다 스위트"
    room.save()
    room.translations.create(locale="en-US", name="Ocean suite")
    link = PropertyChannel.objects.create(property=prop, channel=channels["cms"], status=ChannelStatus.OPEN)
    link.room_types = {room.vendor_id: False}
    link.save()

    pages = [
        client.get(screen(prop)).content.decode(),
        client.get(screen(prop, "settings", channels["cms"].pk)).content.decode(),
        client.get(screen(prop, "mapping", channels["cms"].pk)).content.decode(),
    ]

    for page in pages:
        assert f"{shown} ({room.vendor_id})" in page
        assert hidden not in page
