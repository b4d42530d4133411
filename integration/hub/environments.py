"""The hub environments a vendor connects to (the spec's start-up order: staging first, then production),
and where each one's base URL and token are configured. Which one is active is in the database
(models.HubConnection).

Decision 0005: staging and production are two base URLs with two tokens, and what we know of one hub
never carries over to the other (integration.sync.services.switch starts everything over at the new one).
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class HubEnvironment(models.TextChoices):
    """A hub environment: the staging hub to verify on, then the production hub."""

    STAGING = "staging", _("Staging")
    PRODUCTION = "production", _("Production")


#: The settings naming each environment's base URL and token. HUB_BASE_URL and HUB_API_TOKEN are the
#: staging hub's: the hub a vendor starts with, and the only one before production credentials arrive.
_SETTINGS = {
    HubEnvironment.STAGING: ("HUB_BASE_URL", "HUB_API_TOKEN"),
    HubEnvironment.PRODUCTION: ("HUB_PRODUCTION_BASE_URL", "HUB_PRODUCTION_API_TOKEN"),
}


@dataclass(frozen=True)
class HubAddress:
    """Where an environment's hub is and the token it issued (read from the settings when asked)."""

    environment: HubEnvironment
    base_url: str
    token: str

    @property
    def configured(self) -> bool:
        """Whether both the base URL and the token are set."""
        return bool(self.base_url and self.token)


def hub_address(environment: HubEnvironment | str) -> HubAddress:
    """The base URL and token of an environment, as configured now."""
    environment = HubEnvironment(environment)
    url_setting, token_setting = _SETTINGS[environment]
    return HubAddress(
        environment=environment,
        base_url=getattr(settings, url_setting, "").rstrip("/"),
        token=getattr(settings, token_setting, ""),
    )
