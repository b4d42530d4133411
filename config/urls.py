"""URL configuration of vendorhub."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from .health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("bookings.urls")),
]

if settings.HUB_SANDBOX_ENABLED:
    urlpatterns.append(path("sandbox/", include("hubsandbox.urls")))
