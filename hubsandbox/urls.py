"""URLs of the hub sandbox, mounted at /sandbox/ when HUB_SANDBOX_ENABLED is set.

The paths are the hub's (decision 0001) without the base URL, routed as sent (paths.py).
The catch-all must stay last: it answers any other path with the hub's JSON 404.
"""

from django.urls import path, re_path, register_converter

from . import views, views_ari, views_bookings, views_channels, views_licenses
from .paths import HubIdConverter

app_name = "hubsandbox"

# Ids in paths may hold any character, "/" included, as sent (paths.py).
register_converter(HubIdConverter, "hubid")

_PROPERTY = "gds/vendor/properties/<hubid:property_id>"

urlpatterns = [
    path("gds/vendor/meta", views.CatalogView.as_view(), name="meta"),
    path("gds/vendor/properties", views.PropertyCollectionView.as_view(), name="properties"),
    path(_PROPERTY, views.PropertyView.as_view(), name="property"),
    path(f"{_PROPERTY}/roomtypes", views.RoomtypeCollectionView.as_view(), name="roomtypes"),
    path(f"{_PROPERTY}/roomtypes/<hubid:roomtype_id>", views.RoomtypeView.as_view(), name="roomtype"),
    path(f"{_PROPERTY}/rateplan-models", views.RateplanModelCollectionView.as_view(), name="rateplan-models"),
    path(f"{_PROPERTY}/rateplan-models/<hubid:model_id>", views.RateplanModelView.as_view(), name="rateplan-model"),
    path(
        f"{_PROPERTY}/roomtypes/<hubid:roomtype_id>/rateplans",
        views.RateplanCollectionView.as_view(),
        name="rateplans",
    ),
    path(
        f"{_PROPERTY}/roomtypes/<hubid:roomtype_id>/rateplans/<hubid:rateplan_id>",
        views.RateplanView.as_view(),
        name="rateplan",
    ),
    path(
        f"{_PROPERTY}/roomtypes/<hubid:roomtype_id>/rateplans/<hubid:rateplan_id>/ari",
        views_ari.RatesView.as_view(),
        name="rateplan-ari",
    ),
    path(
        f"{_PROPERTY}/roomtypes/<hubid:roomtype_id>/ari/avails", views_ari.AvailsView.as_view(), name="roomtype-avails"
    ),
    path(f"{_PROPERTY}/licenses", views_licenses.LicenseCollectionView.as_view(), name="licenses"),
    path(f"{_PROPERTY}/licenses/<int:license_id>", views_licenses.LicenseView.as_view(), name="license"),
    path("gds/vendor/channels", views_channels.ChannelCollectionView.as_view(), name="channels"),
    path("gds/vendor/channels/<hubid:channel_id>", views_channels.ChannelView.as_view(), name="channel"),
    path(f"{_PROPERTY}/channels", views_channels.PropertyChannelsView.as_view(), name="property-channels"),
    path(
        f"{_PROPERTY}/channels/<hubid:channel_id>/open-requests",
        views_channels.OpenRequestCreateView.as_view(),
        name="open-request-create",
    ),
    path(f"{_PROPERTY}/open-requests", views_channels.OpenRequestCollectionView.as_view(), name="open-requests"),
    path(f"{_PROPERTY}/open-requests/<int:request_id>", views_channels.OpenRequestView.as_view(), name="open-request"),
    path(
        f"{_PROPERTY}/channels/<hubid:channel_id>/settings",
        views_channels.ChannelSettingsView.as_view(),
        name="channel-settings",
    ),
    path(
        f"{_PROPERTY}/channels/<hubid:channel_id>/mappings",
        views_channels.ChannelMappingsView.as_view(),
        name="channel-mappings",
    ),
    path("gds/vendor/booking/<hubid:number>", views_bookings.BookingLookupView.as_view(), name="booking"),
    path("gds/vendor/bookings", views_bookings.SettlementListView.as_view(), name="settlement"),
    re_path(r"^.*$", views.UnknownPathView.as_view(), name="unknown"),
]
