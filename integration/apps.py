"""App configuration for integration."""

from celery.signals import worker_ready
from django.apps import AppConfig
from django.apps import apps as global_apps
from django.db import connections
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class IntegrationConfig(AppConfig):
    """Properties, memberships, content and the hub sync."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "integration"
    verbose_name = _("Properties and hub sync")

    def ready(self):
        from .sync.ari_push import register_ari_resources

        register_ari_resources()
        post_migrate.connect(_sync_role_groups, sender=self, dispatch_uid="integration.sync_role_groups")
        worker_ready.connect(_release_leases_of_previous_life, dispatch_uid="integration.sync_leases_release")


def _sync_role_groups(sender, apps=global_apps, **kwargs):
    """After migrate or flush: the role groups exist with their permissions (flush sends no apps)."""
    from .roles import sync_role_groups

    sync_role_groups(apps)


def _release_leases_of_previous_life(sender, **kwargs):
    """A Celery worker starting under a name frees the hub sync rows it held under that name before it
    died (Celery sends worker_ready before the worker takes its first message)."""
    from .sync.outbox import sync_leases_release

    sync_leases_release(owner=sender.hostname)
    connections.close_all()  # the main process keeps none open for the children it forks later
