"""Which hub environment we talk to, and the switches from one to another."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .environments import HubEnvironment

#: The primary key of the one HubConnection row (created by the migration).
CONNECTION_PK = 1


class HubConnection(models.Model):
    """The hub environment every call goes to now: one row, locked by a switch so that two never run at once."""

    environment = models.CharField(
        _("hub environment"), max_length=12, choices=HubEnvironment.choices, default=HubEnvironment.STAGING
    )
    switched_at = models.DateTimeField(_("switched at"), null=True, blank=True)
    #: Since when distribution to the hub is paused (an incident at the hub): nothing is sent, changes
    #: queue up; None while it runs.
    paused_at = models.DateTimeField(_("distribution paused at"), null=True, blank=True)
    paused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("paused by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("hub connection")
        verbose_name_plural = _("hub connection")

    def __str__(self) -> str:
        return self.get_environment_display()


class HubSwitch(models.Model):
    """One switch from a hub environment to another: who made it, when, and how much it had to send."""

    from_environment = models.CharField(_("from environment"), max_length=12, choices=HubEnvironment.choices)
    to_environment = models.CharField(_("to environment"), max_length=12, choices=HubEnvironment.choices)
    switched_at = models.DateTimeField(_("switched at"), auto_now_add=True, db_index=True)
    switched_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("switched by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    resources = models.PositiveIntegerField(_("resources to send"), default=0)

    class Meta:
        verbose_name = _("hub environment switch")
        verbose_name_plural = _("hub environment switches")
        ordering = ["-switched_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_from_environment_display()} → {self.get_to_environment_display()}"


class HubBudgetWindow(models.Model):
    """The requests one request budget (decision 0022: a hub, a property, a kind) took in its last minute,
    where no Redis holds them: the row is locked while a slot is taken (integration.hub.budget)."""

    key = models.CharField(_("budget"), max_length=200, unique=True)
    #: The moments (Unix seconds) of the requests in the window, oldest first.
    times = models.JSONField(_("request times"), default=list)

    class Meta:
        verbose_name = _("hub request budget")
        verbose_name_plural = _("hub request budgets")

    def __str__(self) -> str:
        return self.key
