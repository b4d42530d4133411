"""App configuration for the inbox."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InboxConfig(AppConfig):
    """What needs attention at the user's properties, told by the apps below it through signals."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "inbox"
    verbose_name = _("Inbox")

    def ready(self):
        from .receivers import connect

        connect()
        # Registers the tasks in every process, so that the services can queue them by name.
        from . import tasks  # noqa: F401
