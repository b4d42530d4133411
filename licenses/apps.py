"""App configuration for licenses."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LicensesConfig(AppConfig):
    """License uploads and the hub's review of them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "licenses"
    verbose_name = _("Licenses")

    def ready(self):
        # License requests are a kind of hub resource: the sync engine delivers their submissions.
        from integration.sync.resources import register

        from .resources import LICENSE_RESOURCE

        register(LICENSE_RESOURCE)
        # Registers the tasks in every process (not only the worker's), so that the services can queue
        # them by name.
        from . import tasks  # noqa: F401
