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
        from .ari.resources import register_ari_resources
        from .channels.resources import register_channel_resources
        from .channels.signals import channel_opened
        from .content.resources import register_content_resources
        from .sync.signals import hub_learned, hub_switched

        # Content first: each content model is then its own kind by default.
        register_content_resources()
        register_ari_resources()
        register_channel_resources()
        # Registers the areas' Celery tasks in every process (the worker's autodiscovery looks only for
        # integration.tasks), so that the outbox can queue its task by name.
        from .ari import tasks as ari_tasks  # noqa: F401
        from .catalog import tasks as catalog_tasks  # noqa: F401
        from .channels import tasks as channel_tasks  # noqa: F401
        from .drift import tasks as drift_tasks  # noqa: F401
        from .sync import tasks as sync_tasks  # noqa: F401

        post_migrate.connect(_sync_role_groups, sender=self, dispatch_uid="integration.sync_role_groups")
        worker_ready.connect(_release_leases_of_previous_life, dispatch_uid="integration.sync_leases_release")
        channel_opened.connect(_channel_values_to_hub, dispatch_uid="integration.channel_values_to_hub")
        hub_switched.connect(_channels_of_the_old_hub, dispatch_uid="integration.channels_of_the_old_hub")
        hub_learned.connect(_channels_of_a_created_property, dispatch_uid="integration.channels_of_a_created_property")


def _sync_role_groups(sender, apps=global_apps, **kwargs):
    """After migrate or flush: the role groups exist with their permissions (flush sends no apps)."""
    from .access.roles import sync_role_groups

    sync_role_groups(apps)


def _channel_values_to_hub(sender, property, channel, **kwargs):
    """A channel that opened for a property: the property's own rates and caps for it go to the hub now
    (the channels area cannot call rates and availability, which build on it)."""
    from .ari.services.push import ari_channel_opened

    ari_channel_opened(property, channel)


def _channels_of_the_old_hub(sender, environment, **kwargs):
    """A hub switch: the channel statuses we hold were the old hub's (the engine cannot call the area)."""
    from .channels.services import property_channels_forget_hub

    property_channels_forget_hub()


def _channels_of_a_created_property(sender, state, **kwargs):
    """The hub created a property: its channel statuses may be read from it now (the engine cannot call the
    area)."""
    from .sync.models import ResourceKind

    if state.kind == ResourceKind.PROPERTY:
        from .channels.services import property_channels_after_create

        property_channels_after_create(property_id=state.object_id)


def _release_leases_of_previous_life(sender, **kwargs):
    """A Celery worker starting under a name frees the hub sync rows it held under that name before it
    died (Celery sends worker_ready before the worker takes its first message)."""
    from .sync.services.outbox import sync_leases_release

    sync_leases_release(owner=sender.hostname)
    connections.close_all()  # the main process keeps none open for the children it forks later
