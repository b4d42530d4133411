"""vendorhub's admin site: its titles and a dashboard of the user's properties."""

from django.contrib import admin
from django.urls import path
from django.utils.translation import gettext_lazy as _


class VendorhubAdminSite(admin.AdminSite):
    """The back office: the index is a dashboard showing each property the user works for, with the
    bookings it received today, today's arrivals and its pending holds."""

    site_header = _("vendorhub back office")
    site_title = _("vendorhub")
    index_title = _("Dashboard")
    index_template = "admin/vendorhub_index.html"
    # No public site stands behind the back office: no "View site" link (it led to a 404).
    site_url = None

    def get_urls(self):
        from accounts.views import enrol_view, verify_view

        return [
            path("second-factor/", self.admin_view(enrol_view), {"site": self}, name="second_factor"),
            path("second-factor/verify/", self.admin_view(verify_view), {"site": self}, name="second_factor_verify"),
            *super().get_urls(),
        ]

    def index(self, request, extra_context=None):
        from bookings.selectors import BookingCounts, booking_counts
        from integration.access.selectors import property_roles_for_user

        property_roles = property_roles_for_user(request.user)
        cards = [{"property": prop, "role": role} for prop, role in property_roles]
        if request.user.has_perm("bookings.view_booking"):
            counts = booking_counts([prop.pk for prop, _role in property_roles])
            for card in cards:
                card["bookings"] = counts.get(card["property"].pk, BookingCounts(0, 0, 0))
        context = {"property_cards": cards, **(extra_context or {})}
        if request.user.is_superuser:
            from .dashboard import activity_last_day
            from .health import health_sentences, system_health

            context["health"] = health_sentences(system_health(deep=True))
            context["activity"] = activity_last_day()
        return super().index(request, extra_context=context)
