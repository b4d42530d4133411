"""App configuration for hubsandbox."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HubSandboxConfig(AppConfig):
    """The hub sandbox."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "hubsandbox"
    verbose_name = _("Hub sandbox")

    def ready(self):
        from django.db.models.signals import post_migrate

        post_migrate.connect(_seed_channels, sender=self, dispatch_uid="hubsandbox.channels_seed")
        # Django's own servers (runserver, the tests' live server) pass the path as sent, as gunicorn does.
        from .paths import keep_request_target

        keep_request_target()
        # A mistyped HUB_SANDBOX_FAULTS stops start-up instead of failing every request later.
        from django.core.exceptions import ImproperlyConfigured

        from .faults import environment_injector

        try:
            environment_injector()
        except ValueError as error:
            raise ImproperlyConfigured(str(error)) from None


def _seed_channels(sender, apps=None, **kwargs):
    """After migrate or flush: the hub's sales channels exist (flush sends no apps: use the real models).
    Nothing after `migrate hubsandbox zero`, whose state has no sandbox tables left to seed."""
    from .channels import channels_seed

    if apps is None:
        channels_seed(None)
    elif "hubsandbox" in apps.app_configs:
        channels_seed(apps.get_model("hubsandbox", "SandboxChannel"))
