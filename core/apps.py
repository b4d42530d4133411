"""App configuration for core."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Queueing by task name, durable jobs and heartbeats: what every app's background work stands on."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "vendorhub"
