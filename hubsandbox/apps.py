"""App configuration for hubsandbox."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HubSandboxConfig(AppConfig):
    """The hub sandbox."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "hubsandbox"
    verbose_name = _("Hub sandbox")
