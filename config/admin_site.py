"""vendorhub's admin site: its titles and a dashboard of the user's properties."""

import datetime
import functools

from django.contrib import admin
from django.http import HttpResponseBadRequest
from django.urls import path
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

#: The longest query value the admin takes: a search or filter value is a few words, while 100 KB of
#: search makes SQLite give up ("LIKE pattern too complex"), a 500.
QUERY_VALUE_MAX_LENGTH = 1000


def hostile_query(request):
    """Whether request's query holds a value no list's filter, search or date can take and the database
    would refuse with an error: a NUL byte (PostgreSQL refuses it in any string), an over-long value, or
    a date hierarchy's year 1 (the day's start in the site's time zone is before year 1 in UTC)."""
    for key, values in request.GET.lists():
        for value in values:
            if "\x00" in value or len(value) > QUERY_VALUE_MAX_LENGTH:
                return True
            if key.endswith("__year") and value.strip().isdigit() and int(value) <= datetime.MINYEAR:
                return True
    return False


#: The apps whose screens the sidebar and the dashboard show as one menu, "Accounts and security": the failed
#: logins (django-axes), the authenticator apps and recovery codes (django-otp) and the audit trail.
SECURITY_APPS = ("axes", "otp_totp", "otp_static", "admin")


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

    def admin_view(self, view, cacheable=False):
        """Every admin page refuses a hostile query (hostile_query) with a 400 that says so, instead of the
        database's error and a 500."""

        @functools.wraps(view)
        def guarded(request, *args, **kwargs):
            if hostile_query(request):
                return HttpResponseBadRequest(
                    gettext(
                        "The address holds a value no list accepts "
                        "(a NUL byte, over 1000 characters, or a year out of range)."
                    ),
                    content_type="text/plain; charset=utf-8",
                )
            return view(request, *args, **kwargs)

        return super().admin_view(guarded, cacheable)

    def get_app_list(self, request, app_label=None):
        """The apps as Django lists them, with SECURITY_APPS' screens in one menu where the first of
        SECURITY_APPS stood (each app's own page still lists its own)."""
        app_list = super().get_app_list(request, app_label)
        security = [app for app in app_list if app["app_label"] in SECURITY_APPS]
        if app_label is not None or len(security) < 2:
            return app_list
        head = min(security, key=lambda app: SECURITY_APPS.index(app["app_label"]))
        models = sorted((model for app in security for model in app["models"]), key=lambda model: model["name"])
        menu = {**head, "name": gettext("Accounts and security"), "models": models}
        return [menu if app is head else app for app in app_list if app is head or app not in security]

    def index(self, request, extra_context=None):
        from .estate import dashboard_properties

        with_bookings = request.user.has_perm("bookings.view_booking")
        context = {
            **dashboard_properties(
                request.user,
                request.GET.get("page"),
                with_bookings=with_bookings,
                with_reports=request.user.has_perm("reports.view_dailyfigure"),
            ),
            **(extra_context or {}),
        }
        if request.user.is_superuser:
            from .dashboard import activity_last_day
            from .health import health_sentences, system_health

            context["health"] = health_sentences(system_health(deep=True))
            context["activity"] = activity_last_day()
        return super().index(request, extra_context=context)
