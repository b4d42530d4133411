"""App configuration for hubsandbox."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HubSandboxConfig(AppConfig):
    """The hub sandbox."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "hubsandbox"
    verbose_name = _("Hub sandbox")

    def ready(self):
        # A mistyped HUB_SANDBOX_FAULTS stops start-up instead of failing every request later.
        from django.core.exceptions import ImproperlyConfigured

        from .faults import environment_injector

        try:
            environment_injector()
        except ValueError as error:
            raise ImproperlyConfigured(str(error)) from None
