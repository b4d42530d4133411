"""vendorhub's admin site: its titles and a dashboard of the user's properties."""

from django.contrib import admin
from django.urls import path
from django.utils.translation import gettext_lazy as _


class VendorhubAdminSite(admin.AdminSite):
    """The back office: the index is a dashboard showing each property the user works for (a page of cards
    at a time, config.estate), with the bookings it received today, today's arrivals and its pending holds;
    a superuser's sums up the whole estate above them."""

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
        from .estate import dashboard_properties

        with_bookings = request.user.has_perm("bookings.view_booking")
        context = {
            **dashboard_properties(request.user, request.GET.get("page"), with_bookings=with_bookings),
            **(extra_context or {}),
        }
        if request.user.is_superuser:
            from .dashboard import activity_last_day
            from .health import health_sentences, system_health

            context["health"] = health_sentences(system_health(deep=True))
            context["activity"] = activity_last_day()
        return super().index(request, extra_context=context)
