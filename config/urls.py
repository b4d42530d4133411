"""URL configuration of vendorhub."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from .health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
]

if settings.HUB_SANDBOX_ENABLED:
    urlpatterns.append(path("sandbox/", include("hubsandbox.urls")))
