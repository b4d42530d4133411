"""Prices per channel kept as rules: a property's rounding rule, each channel's markup or net target over the
common rate, the commission each channel takes (typed, and measured from reconciled settlement records),
the price guard of each rate plan, and the history of rule changes (for their undo)."""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..channels.models import SalesChannel
from ..content.models import Property, RatePlan


class Rounding(models.TextChoices):
    """Which way a computed price goes to the property's rounding unit."""

    NEAREST = "nearest", _("To the nearest")
    UP = "up", _("Up")
    DOWN = "down", _("Down")


class PricingSettings(models.Model):
    """A property's rounding rule for computed channel prices, and how its channels' commissions are measured.
    A property without a row uses the defaults of the fields."""

    property = models.OneToOneField(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="pricing"
    )
    rounding_unit = models.PositiveIntegerField(
        _("round to (KRW)"), default=100, validators=[MinValueValidator(1), MaxValueValidator(100_000)]
    )
    rounding = models.CharField(_("rounding"), max_length=8, choices=Rounding.choices, default=Rounding.NEAREST)
    #: How many of a channel's last reconciled bookings its measured commission reads (and needs).
    commission_sample = models.PositiveIntegerField(
        _("bookings to measure a commission"), default=20, validators=[MinValueValidator(1), MaxValueValidator(1000)]
    )
    #: Percentage points between the measured and the typed commission that raise a warning.
    commission_drift = models.DecimalField(
        _("drift warning (percentage points)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(2),
        validators=[MinValueValidator(Decimal(0))],
    )

    class Meta:
        verbose_name = _("pricing settings")
        verbose_name_plural = _("pricing settings")

    def __str__(self):
        return str(self.property_id)


class PriceMethod(models.TextChoices):
    """How a channel's price follows the common rate."""

    PERCENT = "percent", _("Markup in percent")
    AMOUNT = "amount", _("Markup in KRW")
    #: The common rate is the net wanted per night; the channel's price grosses it up by the channel's commission.
    NET = "net", _("Net target (gross up by the commission)")


class ChannelPriceRule(models.Model):
    """How a channel's rates of a property follow the common rate (for one rate plan, or for all its
    standalone plans when rate_plan is empty). A channel's own rate on a day still wins over its rule."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="+")
    rate_plan = models.ForeignKey(
        RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    method = models.CharField(_("method"), max_length=8, choices=PriceMethod.choices)
    #: The markup (percent or KRW; may be negative for a discount); unused for a net target.
    value = models.DecimalField(_("markup"), max_digits=12, decimal_places=2, default=Decimal(0))
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("channel price rule")
        verbose_name_plural = _("channel price rules")
        ordering = ["property", "channel__name", "rate_plan"]
        constraints = [
            models.UniqueConstraint(
                fields=["property", "channel", "rate_plan"],
                condition=Q(rate_plan__isnull=False),
                name="pricerule_one_per_plan",
            ),
            models.UniqueConstraint(
                fields=["property", "channel"], condition=Q(rate_plan__isnull=True), name="pricerule_one_for_all_plans"
            ),
        ]

    def __str__(self):
        return f"{self.channel_id}/{self.rate_plan_id or '*'} {self.method} {self.value}"


class ChannelCommission(models.Model):
    """The commission a channel takes from a property's bookings: typed by staff, and measured from the
    reconciled settlement records (1 - net price / total amount over its last bookings)."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="+")
    typed = models.DecimalField(
        _("typed commission (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(0),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(90))],
    )
    measured = models.DecimalField(_("measured commission (%)"), max_digits=5, decimal_places=2, null=True, blank=True)
    sample_size = models.PositiveIntegerField(_("bookings measured"), default=0)
    sample_first = models.DateField(_("first booking measured"), null=True, blank=True)
    sample_last = models.DateField(_("last booking measured"), null=True, blank=True)
    measured_at = models.DateTimeField(_("measured at"), null=True, blank=True)

    class Meta:
        verbose_name = _("channel commission")
        verbose_name_plural = _("channel commissions")
        constraints = [models.UniqueConstraint(fields=["property", "channel"], name="channelcommission_unique")]

    def __str__(self):
        return f"{self.property_id}@{self.channel_id}"


class PriceGuard(models.Model):
    """The prices a rate plan may take (floor and ceiling, in KRW, what guests pay), and the share a change
    may move a price against its current value before staff must confirm it."""

    rate_plan = models.OneToOneField(
        RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, related_name="price_guard"
    )
    floor = models.PositiveIntegerField(_("floor (KRW)"), null=True, blank=True)
    ceiling = models.PositiveIntegerField(_("ceiling (KRW)"), null=True, blank=True)
    max_move = models.PositiveIntegerField(
        _("confirm a move above (%)"), default=50, validators=[MinValueValidator(1), MaxValueValidator(1000)]
    )

    class Meta:
        verbose_name = _("price guard")
        verbose_name_plural = _("price guards")
        constraints = [
            models.CheckConstraint(
                condition=Q(floor__isnull=True) | Q(ceiling__isnull=True) | Q(floor__lte=models.F("ceiling")),
                name="priceguard_floor_below_ceiling",
            )
        ]

    def __str__(self):
        return str(self.rate_plan_id)


class PriceRuleChange(models.Model):
    """One change of a channel's price rule (or its typed commission) as staff made it: the rule before
    (empty method: there was none) and after (empty: removed); its undo is a new change back."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="+")
    rate_plan = models.ForeignKey(
        RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.SET_NULL, null=True, blank=True
    )
    old_method = models.CharField(max_length=8, blank=True)
    old_value = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    new_method = models.CharField(max_length=8, blank=True)
    new_value = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    undo_of = models.ForeignKey(
        "self", verbose_name=_("undoes"), on_delete=models.SET_NULL, null=True, blank=True, related_name="undos"
    )
    #: Channel prices (rate plan and day) the change moved, for the history.
    cell_count = models.PositiveIntegerField(_("prices changed"), default=0)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("change of a channel price rule")
        verbose_name_plural = _("changes of channel price rules")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["property", "-created_at"], name="pricerulechange_recent")]

    def __str__(self):
        return f"{self.channel_id}/{self.rate_plan_id or '*'}: {self.old_method} -> {self.new_method}"
