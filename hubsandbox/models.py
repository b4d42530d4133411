"""What the sandbox hub holds: the content vendors pushed, and a log of every request it received."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RateplanModelType(models.TextChoices):
    """The two kinds of rate plan model."""

    STANDALONE = "standalone", _("standalone")
    PACKAGE = "package", _("package")


class HubContent(models.Model):
    """A content resource the hub holds: the vendor's id and the fields the hub accepted, as JSON.

    `content` holds the body fields (merged across PATCHes) except the id, the parents and, for a rate
    plan model, its type; the read shape the hub answers is built from it by as_hub_json().
    """

    vendor_id = models.CharField(_("vendor id"), max_length=40)
    content = models.JSONField(_("content"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        abstract = True

    def __str__(self):
        return self.vendor_id


class SandboxProperty(HubContent):
    """A property at the sandbox hub (PropertyContent)."""

    class Meta:
        verbose_name = _("hub property")
        verbose_name_plural = _("hub properties")
        ordering = ["vendor_id"]
        constraints = [models.UniqueConstraint(fields=["vendor_id"], name="hubsandbox_property_unique_id")]

    def as_hub_json(self) -> dict:
        """The property's read shape: settings.extra_adult_price is always present, null when unset."""
        settings = {"extra_adult_price": self.content.get("settings", {}).get("extra_adult_price")}
        return {"id": self.vendor_id, **self.content, "settings": settings}


class SandboxRoomtype(HubContent):
    """A room type of a property at the sandbox hub."""

    property = models.ForeignKey(
        SandboxProperty,
        verbose_name=_("property"),
        on_delete=models.CASCADE,
        related_name="roomtypes",
    )

    class Meta:
        verbose_name = _("hub room type")
        verbose_name_plural = _("hub room types")
        ordering = ["property__vendor_id", "vendor_id"]
        constraints = [
            models.UniqueConstraint(fields=["property", "vendor_id"], name="hubsandbox_roomtype_unique_id"),
        ]

    def as_hub_json(self) -> dict:
        """The room type's read shape."""
        return {"id": self.vendor_id, **self.content}


class SandboxRateplanModel(HubContent):
    """A rate plan model of a property at the sandbox hub."""

    property = models.ForeignKey(
        SandboxProperty,
        verbose_name=_("property"),
        on_delete=models.CASCADE,
        related_name="rateplan_models",
    )
    # A column rather than a content key, so that the database itself keeps one standalone model per property.
    type = models.CharField(_("type"), max_length=16, choices=RateplanModelType.choices)

    class Meta:
        verbose_name = _("hub rate plan model")
        verbose_name_plural = _("hub rate plan models")
        ordering = ["property__vendor_id", "vendor_id"]
        constraints = [
            models.UniqueConstraint(fields=["property", "vendor_id"], name="hubsandbox_model_unique_id"),
            models.UniqueConstraint(
                fields=["property"],
                condition=models.Q(type=RateplanModelType.STANDALONE),
                name="hubsandbox_one_standalone_model",
            ),
        ]

    def as_hub_json(self) -> dict:
        """The model's read shape; channels is absent when the model is sold on all channels."""
        return {"id": self.vendor_id, "vendor_property_id": self.property.vendor_id, "type": self.type, **self.content}


class SandboxRateplan(HubContent):
    """A rate plan (room type x rate plan model) at the sandbox hub; its ids are unique within the property."""

    property = models.ForeignKey(
        SandboxProperty,
        verbose_name=_("property"),
        on_delete=models.CASCADE,
        related_name="rateplans",
    )
    roomtype = models.ForeignKey(
        SandboxRoomtype,
        verbose_name=_("room type"),
        on_delete=models.CASCADE,
        related_name="rateplans",
    )
    rateplan_model = models.ForeignKey(
        SandboxRateplanModel,
        verbose_name=_("rate plan model"),
        on_delete=models.PROTECT,
        related_name="rateplans",
    )

    class Meta:
        verbose_name = _("hub rate plan")
        verbose_name_plural = _("hub rate plans")
        ordering = ["property__vendor_id", "vendor_id"]
        constraints = [
            models.UniqueConstraint(fields=["property", "vendor_id"], name="hubsandbox_rateplan_unique_id"),
            models.UniqueConstraint(fields=["roomtype", "rateplan_model"], name="hubsandbox_rateplan_one_per_pair"),
        ]

    def as_hub_json(self) -> dict:
        """The rate plan's read shape; type is the current type of its model."""
        return {
            "id": self.vendor_id,
            "vendor_property_id": self.property.vendor_id,
            "vendor_roomtype_id": self.roomtype.vendor_id,
            "vendor_rateplan_model_id": self.rateplan_model.vendor_id,
            "status": self.content["status"],
            "type": self.rateplan_model.type,
        }


class SandboxRequest(models.Model):
    """One request the sandbox hub received, with what it answered; for tests, benchmarks and the admin."""

    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=500, help_text=_("The hub path, without the sandbox's prefix."))
    query = models.CharField(_("query string"), max_length=1000, blank=True)
    request_body = models.TextField(_("request body"), blank=True)
    request_bytes = models.PositiveIntegerField(_("request bytes"))
    response_status = models.PositiveSmallIntegerField(
        _("response status"),
        null=True,
        help_text=_("Empty when the connection was dropped without an answer."),
    )
    response_body = models.TextField(_("response body"), blank=True)
    response_bytes = models.PositiveIntegerField(_("response bytes"), default=0)
    fault = models.CharField(
        _("injected fault"),
        max_length=16,
        blank=True,
        help_text=_("The fault the sandbox injected instead of a normal answer, if any."),
    )
    duration_ms = models.FloatField(_("duration (ms)"))
    received_at = models.DateTimeField(_("received at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("hub request")
        verbose_name_plural = _("hub requests")
        ordering = ["-received_at", "-id"]

    def __str__(self):
        return f"{self.method} {self.path} -> {self.response_status or '-'}"
