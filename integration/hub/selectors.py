"""Reads of which hub environment is active."""

from .environments import HubEnvironment
from .models import CONNECTION_PK, HubConnection


def hub_environment_active() -> HubEnvironment:
    """The hub environment every call goes to now (staging until a switch)."""
    value = HubConnection.objects.filter(pk=CONNECTION_PK).values_list("environment", flat=True).first()
    return HubEnvironment(value or HubEnvironment.STAGING)
