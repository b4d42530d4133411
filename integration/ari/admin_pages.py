"""What the rates and availability screens share (integration.ari.admin and its parts): the calendar's URL
and the context of a page below the property, on top of the property admin they are mixed into."""

from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.http import urlencode

if TYPE_CHECKING:
    from ..content import admin as content_admin

    # What the screens use of the property admin they are mixed into (a real base would put the ModelAdmin
    # before the screens in the composed admin's MRO, and drop their URLs).
    _PropertyAdminBase = content_admin.PropertyAdmin
else:
    _PropertyAdminBase = object


class AriPageViews(_PropertyAdminBase):
    """The base of the rates and availability screens, mixed into the property admin (golive.admin)."""

    def _calendar_url(self, prop, *, start=None, days=None, channel=None):
        """The grid of prop from start (a date; today when None) for days days, on channel's values."""
        query = {}
        if start:
            query["start"] = start.isoformat()
        if days:
            query["days"] = days
        if channel is not None:
            query["channel"] = channel.pk
        url = reverse("admin:integration_property_calendar", args=[prop.pk])
        return f"{url}?{urlencode(query)}" if query else url

    def _context(self, request, prop, title, **context):
        calendar_url = reverse("admin:integration_property_calendar", args=[prop.pk])
        seasons_url = reverse("admin:integration_property_ari_seasons", args=[prop.pk])
        return self.page_context(request, prop, title, calendar_url=calendar_url, seasons_url=seasons_url, **context)
