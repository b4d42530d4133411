"""The sandbox hub's sales channel endpoints (operations 21-30): each calls one function of hubsandbox.channels."""

from . import channels
from .views import HubView


class ChannelCollectionView(HubView):
    """GET /gds/vendor/channels: every channel of the hub."""

    def get(self, request):
        return channels.channel_list()


class ChannelView(HubView):
    """GET /gds/vendor/channels/{channel_id}: one channel, or 404."""

    def get(self, request, channel_id):
        return channels.channel_json(channels.channel_get(channel_id))


class PropertyChannelsView(HubView):
    """GET /gds/vendor/properties/{pid}/channels: the property's status on every channel."""

    def get(self, request, property_id):
        return channels.property_channel_statuses(property_id=property_id)


class OpenRequestCreateView(HubView):
    """POST /gds/vendor/properties/{pid}/channels/{channel_id}/open-requests."""

    def post(self, request, property_id, channel_id, body):
        created = channels.open_request_create(property_id=property_id, channel_id=channel_id, body=body)
        return channels.request_json(created)


class OpenRequestCollectionView(HubView):
    """GET /gds/vendor/properties/{pid}/open-requests: the property's requests, newest first."""

    def get(self, request, property_id):
        return channels.open_request_list(property_id=property_id)


class OpenRequestView(HubView):
    """GET /gds/vendor/properties/{pid}/open-requests/{id}."""

    def get(self, request, property_id, request_id):
        return channels.request_json(channels.open_request_get(property_id=property_id, request_id=request_id))


class ChannelSettingsView(HubView):
    """GET and PATCH /gds/vendor/properties/{pid}/channels/{channel_id}/settings."""

    def get(self, request, property_id, channel_id):
        return channels.settings_get(property_id=property_id, channel_id=channel_id)

    def patch(self, request, property_id, channel_id, body):
        return channels.settings_patch(property_id=property_id, channel_id=channel_id, body=body)


class ChannelMappingsView(HubView):
    """GET and PUT /gds/vendor/properties/{pid}/channels/{channel_id}/mappings (cms channels)."""

    def get(self, request, property_id, channel_id):
        return channels.mappings_get(property_id=property_id, channel_id=channel_id)

    def put(self, request, property_id, channel_id, body):
        return channels.mappings_put(property_id=property_id, channel_id=channel_id, body=body)
