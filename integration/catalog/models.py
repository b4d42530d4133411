"""The hub's code catalog as last fetched, and the vendor's own codes mapped to it."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from ..hub.environments import HubEnvironment
from .choices import CatalogGroup


class CatalogSnapshot(models.Model):
    """The code catalog (GET /meta) as fetched at one time."""

    fetched_at = models.DateTimeField(_("fetched at"), auto_now_add=True, db_index=True)
    #: The hub environment it was fetched from (a switch fetches the new hub's at once).
    environment = models.CharField(
        _("hub environment"), max_length=12, choices=HubEnvironment.choices, default=HubEnvironment.STAGING
    )
    #: {"ko-KR": {"classification": [nodes], ...}}: the hub's answer, its names in Korean (selectors.SNAPSHOT_LOCALE).
    data = models.JSONField(_("catalog"))

    class Meta:
        verbose_name = _("code catalog")
        verbose_name_plural = _("code catalogs")
        ordering = ["-fetched_at"]
        get_latest_by = "fetched_at"

    def __str__(self):
        return f"{_('code catalog')} {self.fetched_at:%Y-%m-%d %H:%M}"


class CodeMapping(models.Model):
    """One of the vendor's own codes and the hub code it stands for (the spec's start-up mapping table)."""

    group = models.CharField(_("catalog group"), max_length=16, choices=CatalogGroup.choices)
    vendor_code = models.CharField(_("our code"), max_length=100)
    hub_code = models.CharField(_("hub code"), max_length=100)
    note = models.CharField(_("note"), max_length=200, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("code mapping")
        verbose_name_plural = _("code mappings")
        ordering = ["group", "vendor_code"]
        constraints = [
            models.UniqueConstraint(fields=["group", "vendor_code"], name="codemapping_one_hub_code_per_vendor_code")
        ]

    def __str__(self):
        return f"{self.group}: {self.vendor_code} → {self.hub_code}"
