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

from integration.content.names import display_name

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
#: What the comparisons name (the property, room type and rate plan), read with the bookings.
COMPARED_RELATED = ("property", "room_type", "rate_plan__room_type", "rate_plan__model")
COMPARED_NAMES = ("room_type__translations", "rate_plan__room_type__translations", "rate_plan__model__translations")


def _names(booking):
    """{field: (our vendor id, its name)} of the property, room type and rate plan the booking holds."""
    names = {
        "property": (booking.property.vendor_id, booking.property.name),
        "room_type": (booking.room_type.vendor_id, display_name(booking.room_type)),
    }
    if booking.rate_plan is not None:
        names["rate_plan"] = (booking.rate_plan.vendor_id, display_name(booking.rate_plan))
    return names


def _shown(name, value, currency, names):
    """A value as the booking page shows it; an id of ours by its name and the id (an id the hub holds
    that is not the booking's stays as sent: it differs)."""
    if name in names and value == names[name][0]:
        return f"{names[name][1]} ({value})"
    return booking_value_text(name, value, currency)


def _as_shown(comparison):
    """The comparison with both sides' values read as the booking page shows them."""
    booking = comparison.booking
    names = _names(booking)
    fields = tuple(
        dataclasses.replace(
            field,
            ours=_shown(field.name, field.ours, booking.currency, names),
            hub=_shown(field.name, field.hub, booking.currency, names),
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
        return self._render_comparisons(
            request, list(queryset.select_related(*COMPARED_RELATED).prefetch_related(*COMPARED_NAMES))
        )
