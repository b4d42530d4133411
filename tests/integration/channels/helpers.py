"""Helpers for tests that sell rooms: a property open and on sale on a channel at the sandbox hub and here."""

from hubsandbox import channels as hub_channels
from hubsandbox.models import SandboxChannel
from integration.channels.choices import ChannelStatus
from integration.models import PropertyChannel, SalesChannel


def open_everywhere(prop, channel_id=1):
    """The hub approved prop (which it knows) on a hub channel, which sells everything, and we know it."""
    held = hub_channels.open_request_create(property_id=prop.vendor_id, channel_id=channel_id, body={})
    hub_channels.open_request_review(request_id=held.pk, status="approved")
    hub_channels.settings_patch(property_id=prop.vendor_id, channel_id=channel_id, body={"on_sale": True})
    at_hub = SandboxChannel.objects.get(channel_id=channel_id)
    channel, _created = SalesChannel.objects.get_or_create(
        channel_id=channel_id, defaults={"name": at_hub.name, "channel_type": at_hub.channel_type}
    )
    return PropertyChannel.objects.update_or_create(
        property=prop, channel=channel, defaults={"status": ChannelStatus.OPEN, "on_sale": True}
    )[0]
