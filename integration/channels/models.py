"""Sales channels of the hub."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class SalesChannel(models.Model):
    """A sales channel of the hub (its id is the hub's), on which rates and availability may differ."""

    class Type(models.TextChoices):
        HUB = "hub", _("Hub contract")
        CMS = "cms", _("Direct contract (CMS)")

    channel_id = models.PositiveIntegerField(_("hub channel id"), unique=True)
    name = models.CharField(_("name"), max_length=100)
    channel_type = models.CharField(_("channel type"), max_length=3, choices=Type.choices, default=Type.HUB)

    class Meta:
        verbose_name = _("sales channel")
        verbose_name_plural = _("sales channels")
        ordering = ["name"]
        constraints = [models.CheckConstraint(condition=Q(channel_id__gte=1), name="channel_id_positive")]

    def __str__(self):
        return f"{self.name} (#{self.channel_id})"
