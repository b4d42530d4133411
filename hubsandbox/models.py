"""What the sandbox hub holds: the content vendors pushed, and a log of every request it received."""

from django.db import models
from django.db.models import Q
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
    """A property at the sandbox hub (PropertyContent). Everything else a hub holds hangs under a
    property, so that its hub column keeps staging's and production's states apart (hubs.py)."""

    hub = models.CharField(_("hub"), max_length=12, default="staging")

    class Meta:
        verbose_name = _("hub property")
        verbose_name_plural = _("hub properties")
        ordering = ["hub", "vendor_id"]
        constraints = [models.UniqueConstraint(fields=["hub", "vendor_id"], name="hubsandbox_property_unique_id")]

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

    hub = models.CharField(_("hub"), max_length=12, default="staging")
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


# --- Rates, business days and availability (decision 0006) -----------------------------------------

#: channel_id of the values common to all channels. Hub channel ids are >= 1; storing 0 rather than null
#: lets one unique constraint (and the upserts that rely on it) cover the common values too.
COMMON_CHANNEL = 0


class SandboxRateDay(models.Model):
    """What the hub holds for a rate plan on one day, common to all channels or for one channel.

    A day holds rate (standalone plans) or rate_modify (package plans), and business_day; each is empty
    until an entry that carries it covers the day.
    """

    rateplan = models.ForeignKey(
        SandboxRateplan,
        verbose_name=_("rate plan"),
        on_delete=models.CASCADE,
        related_name="rate_days",
    )
    channel_id = models.PositiveIntegerField(_("channel id"), help_text=_("0: the values common to all channels."))
    date = models.DateField(_("date"))
    rate = models.FloatField(_("rate"), null=True, blank=True)
    rate_modify = models.FloatField(_("rate difference"), null=True, blank=True)
    business_day = models.BooleanField(_("business day"), null=True, blank=True)

    class Meta:
        verbose_name = _("hub rate day")
        verbose_name_plural = _("hub rate days")
        ordering = ["rateplan", "channel_id", "date"]
        constraints = [
            models.UniqueConstraint(fields=["rateplan", "channel_id", "date"], name="hubsandbox_rate_day_unique"),
        ]

    def __str__(self):
        return f"{self.rateplan_id}/{self.channel_id or '-'}/{self.date}"


class SandboxAvailDay(models.Model):
    """The number of rooms of a room type the hub holds for one day, common or for one channel."""

    roomtype = models.ForeignKey(
        SandboxRoomtype,
        verbose_name=_("room type"),
        on_delete=models.CASCADE,
        related_name="avail_days",
    )
    channel_id = models.PositiveIntegerField(_("channel id"), help_text=_("0: the values common to all channels."))
    date = models.DateField(_("date"))
    count = models.PositiveIntegerField(_("rooms"))

    class Meta:
        verbose_name = _("hub availability day")
        verbose_name_plural = _("hub availability days")
        ordering = ["roomtype", "channel_id", "date"]
        constraints = [
            models.UniqueConstraint(fields=["roomtype", "channel_id", "date"], name="hubsandbox_avail_day_unique"),
        ]

    def __str__(self):
        return f"{self.roomtype_id}/{self.channel_id or '-'}/{self.date}"


# --- Licenses (decision 0016) ------------------------------------------------------------------------


class SandboxLicense(models.Model):
    """A license request the hub received for a property: the document fields as sent, what the hub
    knows of the file (never the file itself: its format, size and digest), and the review."""

    class Type(models.TextChoices):
        PERMIT = "permit", _("permit")
        BUSINESS = "business", _("business")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        CONFIRM = "confirm", _("confirm")
        REJECT = "reject", _("reject")

    property = models.ForeignKey(
        SandboxProperty,
        verbose_name=_("property"),
        on_delete=models.CASCADE,
        related_name="licenses",
    )
    type = models.CharField(_("type"), max_length=10, choices=Type.choices)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    # null, as the hub answers it, is "none given", which an empty comment sent on purpose is not.
    reason = models.TextField(_("reason"), null=True, blank=True)  # noqa: DJ001
    comment = models.TextField(_("comment"), null=True, blank=True)  # noqa: DJ001
    data = models.JSONField(_("document fields"), default=dict, help_text=_("As sent, without the file."))
    file_format = models.CharField(_("file format"), max_length=4, blank=True)
    file_bytes = models.PositiveIntegerField(_("file size (bytes)"), default=0)
    file_sha256 = models.CharField(_("file SHA-256"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("hub license request")
        verbose_name_plural = _("hub license requests")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"#{self.pk} {self.type} ({self.status})"


class SandboxLicenseHistory(models.Model):
    """One step of a license request's review: its new status and the reason, when it happened."""

    license = models.ForeignKey(
        SandboxLicense,
        verbose_name=_("license request"),
        on_delete=models.CASCADE,
        related_name="histories",
    )
    status = models.CharField(_("status"), max_length=8, choices=SandboxLicense.Status.choices)
    reason = models.TextField(_("reason"), null=True, blank=True)  # noqa: DJ001 (null: no reason given)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("hub license history entry")
        verbose_name_plural = _("hub license history")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"#{self.license_id} {self.status}"


# --- Bookings the sandbox sold as the hub (decision 0011; operation 19) ------------------------------


class SettlementDrift(models.TextChoices):
    """How one of the sandbox's settlement records differs from the vendor's booking (fault injection)."""

    AMOUNT = "amount", _("amount differs")
    STATUS = "status", _("status differs")
    #: A phantom record: a booking the hub says it sold that the vendor never received.
    UNKNOWN = "unknown", _("never received by the vendor")
    #: The hub left this sale out of its lists: a booking the vendor holds that the hub never sent.
    UNSENT = "unsent", _("never sent by the hub")


class SandboxSale(models.Model):
    """A booking the sandbox sold through our vendor API, as the hub would: the last booking answer the
    vendor API gave for it. Only sales the vendor accepted (create answered 200) are stored."""

    rateplan = models.ForeignKey(
        SandboxRateplan,
        verbose_name=_("rate plan"),
        on_delete=models.CASCADE,
        related_name="sales",
    )
    vendor_booking_number = models.CharField(_("vendor booking number"), max_length=20, unique=True)
    gds_booking_number = models.CharField(_("hub booking number"), max_length=100)
    gds_sub_booking_number = models.CharField(_("hub sub-booking number"), max_length=100, unique=True)
    status = models.CharField(_("status"), max_length=16)
    booking = models.JSONField(_("vendor's answer"), default=dict, help_text=_("The last booking answer."))
    # The settlement list (operation 20) filters on these; copied from the create's answer.
    vendor_property_id = models.CharField(_("vendor property id"), max_length=40, blank=True)
    checkin = models.DateTimeField(_("check-in"), null=True, blank=True)
    checkout = models.DateTimeField(_("check-out"), null=True, blank=True)
    #: What the hub gave back to the guest after a cancel (its refund policy at the time of the cancel).
    refund_amount = models.DecimalField(_("refund amount"), max_digits=14, decimal_places=2, default=0)
    #: How the hub's settlement record differs from what the vendor answered (the settlement fault setting).
    drift = models.CharField(_("settlement drift"), max_length=8, choices=SettlementDrift.choices, blank=True)
    created_at = models.DateTimeField(_("sold at"), default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("hub sale")
        verbose_name_plural = _("hub sales")
        ordering = ["-created_at", "-id"]
        # The settlement list's filters, over the records it lists only: a page then skips its offset and
        # counts in the index alone, and comes in the list's order without sorting the period.
        indexes = [
            models.Index(fields=[*prefix, date], name=f"sandbox_sale_{name}", condition=~Q(drift="unsent"))
            for prefix, date, name in (
                ((), "checkin", "checkin"),
                ((), "checkout", "checkout"),
                (("vendor_property_id",), "checkin", "property_checkin"),
                (("vendor_property_id",), "checkout", "property_checkout"),
            )
        ]

    def __str__(self):
        return f"{self.vendor_booking_number} ({self.status})"


# --- Sales channels (decision 0009, operations 21-30) -----------------------------------------------


class SandboxChannel(models.Model):
    """A sales channel of the hub, and how the sandbox's reviewer answers a property's request to open it."""

    class Type(models.TextChoices):
        HUB = "hub", _("hub")
        CMS = "cms", _("cms")

    class AutoReview(models.TextChoices):
        APPROVE = "approve", _("approve after the delay")
        REJECT = "reject", _("reject after the delay")
        MANUAL = "manual", _("wait for the sandbox admin")

    channel_id = models.PositiveIntegerField(_("channel id"), unique=True)
    name = models.CharField(_("name"), max_length=100)
    channel_type = models.CharField(_("channel type"), max_length=3, choices=Type.choices)
    auto_review = models.CharField(
        _("automatic review"), max_length=8, choices=AutoReview.choices, default=AutoReview.APPROVE
    )
    reject_reason = models.CharField(_("rejection reason"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("hub sales channel")
        verbose_name_plural = _("hub sales channels")
        ordering = ["channel_id"]

    def __str__(self):
        return f"{self.name} (#{self.channel_id})"


class SandboxOpenRequest(models.Model):
    """A property's request to open a channel; the hub's reviewer approves it (the property is then open
    on the channel) or rejects it with a reason."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    property = models.ForeignKey(
        SandboxProperty, verbose_name=_("property"), on_delete=models.CASCADE, related_name="open_requests"
    )
    channel = models.ForeignKey(
        SandboxChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="open_requests"
    )
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(_("reason"), null=True, blank=True)  # noqa: DJ001 (null: none given)
    comment = models.TextField(_("comment"), null=True, blank=True)  # noqa: DJ001 (null: none sent)
    cms_account = models.JSONField(_("cms account"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("hub channel open request")
        verbose_name_plural = _("hub channel open requests")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"#{self.pk} {self.channel_id} ({self.status})"


class SandboxPropertyChannel(models.Model):
    """What a property open on a channel has set there: its sales settings and, for a cms channel, the
    mapping of its room types and rate plans to the channel's codes."""

    property = models.ForeignKey(
        SandboxProperty, verbose_name=_("property"), on_delete=models.CASCADE, related_name="channel_settings"
    )
    channel = models.ForeignKey(
        SandboxChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="property_settings"
    )
    settings = models.JSONField(_("sales settings"), default=dict)
    mappings = models.JSONField(_("mapping"), default=dict)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("hub channel of a property")
        verbose_name_plural = _("hub channels of properties")
        ordering = ["property__vendor_id", "channel__channel_id"]
        constraints = [
            models.UniqueConstraint(fields=["property", "channel"], name="hubsandbox_property_channel_unique"),
        ]

    def __str__(self):
        return f"{self.property_id}/{self.channel_id}"
