"""*Compare with hub* on the bookings screen: the hub's view of a booking (operation 19) beside ours, field
by field, differences marked; from a booking's page, or for the bookings chosen on the list. A part of
the bookings screen (bookings.admin)."""

import dataclasses
from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext_lazy as _

from ..admin_display import booking_value_text
from . import services

if TYPE_CHECKING:
    # What the views use of the ModelAdmin they are mixed into (a real base would come before that
    # ModelAdmin in the composed admin's MRO).
    _ModelAdminBase = admin.ModelAdmin
else:
    _ModelAdminBase = object

#: The most bookings one compare from the list reads from the hub (one call each).
MAX_COMPARED = 20


def _as_shown(comparison):
    """The comparison with both sides' values read as the booking page shows them."""
    currency = comparison.booking.currency
    fields = tuple(
        dataclasses.replace(
            field,
            ours=booking_value_text(field.name, field.ours, currency),
            hub=booking_value_text(field.name, field.hub, currency),
        )
        for field in comparison.fields
    )
    return dataclasses.replace(comparison, fields=fields)


class BookingCompareViews(_ModelAdminBase):
    """The compare view and list action of BookingAdmin."""

    actions = ["compare_with_hub"]

    def get_urls(self):
        return [
            path(
                "<path:object_id>/compare/",
                self.admin_site.admin_view(self.compare_view),
                name="bookings_booking_compare",
            ),
            *super().get_urls(),
        ]

    def _render_comparisons(self, request, bookings):
        context = {
            **self.admin_site.each_context(request),
            "title": _("Compare with hub"),
            "opts": self.opts,
            "comparisons": [_as_shown(services.booking_compare_with_hub(booking=booking)) for booking in bookings],
            "has_view_permission": True,
        }
        return TemplateResponse(request, "admin/bookings/booking/compare.html", context)

    def compare_view(self, request, object_id):
        """One booking beside the hub's view of it."""
        booking = self.get_object(request, unquote(object_id))
        if booking is None or not self.has_view_permission(request, booking):
            raise Http404("No such booking among your properties.")
        return self._render_comparisons(request, [booking])

    @admin.action(description=_("Compare with hub"), permissions=["view"])
    def compare_with_hub(self, request, queryset):
        if queryset.count() > MAX_COMPARED:
            self.message_user(
                request,
                _("Choose at most %(count)d bookings to compare with the hub.") % {"count": MAX_COMPARED},
                messages.WARNING,
            )
            return None
        return self._render_comparisons(request, list(queryset.select_related("property", "room_type", "rate_plan")))
