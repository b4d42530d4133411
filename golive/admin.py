"""The property admin, composed once: content's property admin with the screens the areas hang below a
property (rates and availability; the health page and the go-live checklist, here), registered once.

The health page and the checklist sit below the property's own admin URL
(/admin/integration/property/<id>/health/ and .../checklist/), so that the property admin's scoping
applies: a property the user holds no role at is a 404. Anyone who may view the property sees both.
"""

from typing import TYPE_CHECKING

from django.contrib import admin
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _

from integration.ari.admin import AriCalendarViews
from integration.content import admin as content_admin
from integration.content.models import Property

from .checklist import property_checklist
from .selectors import property_health

if TYPE_CHECKING:
    # What the views use of the property admin they are mixed into (a real base would put the ModelAdmin
    # before the rates-and-availability views in the composed admin's MRO, and drop their URLs).
    _PropertyAdminBase = content_admin.PropertyAdmin
else:
    _PropertyAdminBase = object


class GoLiveViews(_PropertyAdminBase):
    """The health page and the go-live checklist, mixed into the property admin."""

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<path:object_id>/health/", view(self.health_view), name="integration_property_health"),
            path("<path:object_id>/checklist/", view(self.checklist_view), name="integration_property_checklist"),
            *super().get_urls(),
        ]

    def _golive_context(self, request, prop, title, **context):
        return self.page_context(
            request,
            prop,
            title,
            health_url=reverse("admin:integration_property_health", args=[prop.pk]),
            checklist_url=reverse("admin:integration_property_checklist", args=[prop.pk]),
            **context,
        )

    def health_view(self, request, object_id):
        """GET: the property's health on one screen."""
        prop = self.page_property(request, object_id)
        health = property_health(prop, with_bookings=request.user.has_perm("bookings.view_booking"))
        context = self._golive_context(
            request,
            prop,
            _("Health: %(property)s") % {"property": prop.name},
            health=health,
            bookings_url=reverse("admin:bookings_booking_changelist"),
        )
        return TemplateResponse(request, "admin/integration/property/health.html", context)

    def checklist_view(self, request, object_id):
        """GET: the property's go-live checklist, computed now."""
        prop = self.page_property(request, object_id)
        context = self._golive_context(
            request,
            prop,
            _("Go-live checklist: %(property)s") % {"property": prop.name},
            checklist=property_checklist(prop),
        )
        return TemplateResponse(request, "admin/integration/property/checklist.html", context)


@admin.register(Property)
class PropertyAdmin(GoLiveViews, AriCalendarViews, content_admin.PropertyAdmin):
    """Properties with every screen below them: going live's, rates and availability's, content's own."""
