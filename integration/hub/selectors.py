"""Reads of which hub environment is active, and whether distribution to it is paused."""

from datetime import datetime

from .environments import HubEnvironment
from .models import CONNECTION_PK, HubConnection


def hub_environment_active() -> HubEnvironment:
    """The hub environment every call goes to now (staging until a switch)."""
    value = HubConnection.objects.filter(pk=CONNECTION_PK).values_list("environment", flat=True).first()
    return HubEnvironment(value or HubEnvironment.STAGING)


def hub_distribution_paused_since() -> datetime | None:
    """When distribution to the hub was paused (an incident at the hub), or None while it runs: one read of
    the connection's row, which every send makes."""
    return HubConnection.objects.filter(pk=CONNECTION_PK).values_list("paused_at", flat=True).first()


def hub_distribution_pause_read() -> HubConnection | None:
    """The connection's row with who paused distribution, while it is paused (for the screens); else None."""
    return HubConnection.objects.select_related("paused_by").filter(pk=CONNECTION_PK, paused_at__isnull=False).first()
