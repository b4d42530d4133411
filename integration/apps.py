"""App configuration for integration."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IntegrationConfig(AppConfig):
    """Properties, memberships, content and the hub sync."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "integration"
    verbose_name = _("Properties and hub sync")
