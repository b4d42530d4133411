"""URL configuration of vendorhub."""

from django.conf import settings
from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from .docs import docs_page
from .health import healthz
from .metrics import metrics


def favicon(request):
    """Browsers ask every site for /favicon.ico: the back office's icon, from the static files."""
    return HttpResponsePermanentRedirect(static("vendorhub/favicon.ico"))


urlpatterns = [
    # No public site: the address alone leads to the back office's dashboard (or its login).
    path("", RedirectView.as_view(pattern_name="admin:index"), name="home"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),
    path("favicon.ico", favicon, name="favicon"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-docs"),
    path("docs/", docs_page, name="docs"),
    path("docs/<path:path>", docs_page, name="docs-page"),
    path("", include("bookings.urls")),
]

if settings.HUB_SANDBOX_ENABLED:
    # The sandbox as two hubs with separate states (hubsandbox/hubs.py): production's prefix first, as
    # the staging one's catch-all would answer for it otherwise.
    urlpatterns += [
        path(
            "sandbox/production/",
            include(("hubsandbox.urls", "hubsandbox"), namespace="hubsandbox-production"),
            {"hub": "production"},
        ),
        path("sandbox/", include("hubsandbox.urls")),
    ]

handler403 = "config.errors.permission_denied"
