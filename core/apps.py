"""App configuration for core."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Queueing by task name, durable jobs and heartbeats: what every app's background work stands on."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "vendorhub"

    def ready(self):
        from django.core.signals import request_finished

        from core.request_id import request_finished as request_id_clear

        request_finished.connect(request_id_clear, dispatch_uid="core.request_id.request_finished")
