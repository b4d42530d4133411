"""What decides each channel's availability beyond the common stock, kept as rules rather than copied
values (a channel closed, capped or held back over dates; the same-day cut-off; lead days), the defaults
that open each new day of the horizon, and the days the hub acknowledged holding."""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from ..channels.models import SalesChannel
from ..content.models import Property, RatePlan, RoomType
from ..sync.models import SyncState

#: The most lead days a channel can ask for (the hub's window is two years).
MAX_LEAD_DAYS = 365


class ChannelAvailRuleKind(models.TextChoices):
    """What a rule does to a channel's rooms on its days."""

    CLOSE = "close", _("Close (stop-sell)")
    CAP = "cap", _("At most this many rooms")
    HOLD_BACK = "hold_back", _("Hold back this many rooms")


class ChannelAvailRule(models.Model):
    """A channel's availability over a date range, as a rule applied to the common stock whenever it is
    pushed: closed (0 rooms), capped (at most value rooms) or held back (value fewer rooms than are left).
    No room type: every room type of the property."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="channel_avail_rules"
    )
    room_type = models.ForeignKey(
        RoomType,
        verbose_name=_("room type"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="channel_avail_rules",
        help_text=_("Empty: every room type of the property."),
    )
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="+")
    date_from = models.DateField(_("from"))
    date_to = models.DateField(_("to"))
    kind = models.CharField(_("rule"), max_length=10, choices=ChannelAvailRuleKind.choices)
    value = models.PositiveIntegerField(
        _("rooms"), null=True, blank=True, help_text=_("The cap, or the rooms held back; empty for a close-out.")
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("channel availability rule")
        verbose_name_plural = _("channel availability rules")
        ordering = ["property", "channel", "date_from", "pk"]
        indexes = [models.Index(fields=["property", "date_to"], name="channelavailrule_property_to")]
        constraints = [
            models.CheckConstraint(condition=Q(date_from__lte=F("date_to")), name="channelavailrule_from_before_to"),
            models.CheckConstraint(
                condition=Q(kind=ChannelAvailRuleKind.CLOSE, value__isnull=True)
                | (~Q(kind=ChannelAvailRuleKind.CLOSE) & Q(value__isnull=False)),
                name="channelavailrule_value_unless_close",
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} @{self.channel_id} {self.date_from}..{self.date_to}"


class ChannelAvailRuleChange(models.Model):
    """One change of a property's channel availability rules (added, changed, removed, undone), with the
    rule before and after as field values: the history staff read and undo."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.SET_NULL, null=True, blank=True
    )
    rule = models.ForeignKey(
        ChannelAvailRule, verbose_name=_("rule"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: The rule's channel (before or after): it keeps its own entries at the hub once its rule is gone.
    channel = models.ForeignKey(
        SalesChannel, verbose_name=_("channel"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    undo_of = models.ForeignKey(
        "self", verbose_name=_("undoes"), on_delete=models.SET_NULL, null=True, blank=True, related_name="undos"
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("change of a channel availability rule")
        verbose_name_plural = _("changes of channel availability rules")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["property", "-created_at"], name="availrulechange_recent")]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} #{self.rule_id}"


class PropertyCutoff(models.Model):
    """A property's same-day cut-off: from this time (Korea time) today sells no more, on every channel
    or on the chosen ones only."""

    property = models.OneToOneField(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="cutoff"
    )
    cutoff_time = models.TimeField(_("same-day cut-off (Korea time)"), null=True, blank=True)
    channels = models.ManyToManyField(
        SalesChannel,
        verbose_name=_("channels closed at the cut-off"),
        blank=True,
        related_name="+",
        help_text=_("None chosen: every channel."),
    )
    #: The Korea date whose cut-off has been queued for the hub (the beat job queues each day once).
    pushed_on = models.DateField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("same-day cut-off")
        verbose_name_plural = _("same-day cut-offs")

    def __str__(self):
        return f"{self.property_id} {self.cutoff_time}"


class ChannelLeadDays(models.Model):
    """A channel sells a property's rooms only this many days or more before arrival: today and the next
    days - 1 days are closed on it."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE, related_name="+")
    days = models.PositiveSmallIntegerField(
        _("minimum days before arrival"), validators=[MaxValueValidator(MAX_LEAD_DAYS)]
    )

    class Meta:
        verbose_name = _("channel lead days")
        verbose_name_plural = _("channel lead days")
        ordering = ["property", "channel"]
        constraints = [models.UniqueConstraint(fields=["property", "channel"], name="channelleaddays_one_per_channel")]

    def __str__(self):
        return f"{self.property_id} @{self.channel_id}: {self.days}"


class RatePlanDefault(models.Model):
    """What a rate plan sells at on a day the horizon opens with no value yet: a price (or difference, for
    a package) per weekday, or the same weekday of the week before."""

    class Mode(models.TextChoices):
        WEEKDAY = "weekday", _("A price per weekday")
        LAST_WEEK = "last_week", _("As the same weekday last week")

    rate_plan = models.OneToOneField(
        RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, related_name="horizon_default"
    )
    mode = models.CharField(_("default"), max_length=10, choices=Mode.choices, default=Mode.LAST_WEEK)
    monday = models.IntegerField(_("Monday"), null=True, blank=True)
    tuesday = models.IntegerField(_("Tuesday"), null=True, blank=True)
    wednesday = models.IntegerField(_("Wednesday"), null=True, blank=True)
    thursday = models.IntegerField(_("Thursday"), null=True, blank=True)
    friday = models.IntegerField(_("Friday"), null=True, blank=True)
    saturday = models.IntegerField(_("Saturday"), null=True, blank=True)
    sunday = models.IntegerField(_("Sunday"), null=True, blank=True)

    WEEKDAY_FIELDS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

    class Meta:
        verbose_name = _("rate plan default")
        verbose_name_plural = _("rate plan defaults")

    def __str__(self):
        return f"{self.rate_plan_id}: {self.get_mode_display()}"

    def weekday_value(self, weekday: int) -> int | None:
        """The price (or difference) of a weekday, 0 = Monday."""
        return getattr(self, self.WEEKDAY_FIELDS[weekday])


class RoomTypeDefault(models.Model):
    """How many rooms of a room type sell on a day the horizon opens with no stock set yet."""

    room_type = models.OneToOneField(
        RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="horizon_default"
    )
    stock = models.PositiveIntegerField(_("default rooms to sell"))

    class Meta:
        verbose_name = _("room type default stock")
        verbose_name_plural = _("room type default stocks")

    def __str__(self):
        return f"{self.room_type_id}: {self.stock}"


class AriHubDays(models.Model):
    """Days of a rate plan's rates or a room type's availability that the hub acknowledged (2xx) holding:
    what the nightly horizon check compares with the days the hub should hold."""

    state = models.ForeignKey(SyncState, on_delete=models.CASCADE, related_name="hub_days")
    date_from = models.DateField()
    date_to = models.DateField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(date_from__lte=F("date_to")), name="arihubdays_from_before_to")
        ]

    def __str__(self):
        return f"{self.date_from}..{self.date_to}"


class AriHorizonCheck(models.Model):
    """The last nightly check of a property's horizon: how many days ahead the hub holds everything, and
    the days it should hold and did not (queued again)."""

    property = models.OneToOneField(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="horizon_check"
    )
    checked_at = models.DateTimeField(_("checked at"))
    held_until = models.DateField(_("the hub holds everything until"), null=True, blank=True)
    missing_days = models.PositiveIntegerField(_("days missing at the hub"), default=0)

    class Meta:
        verbose_name = _("horizon check")
        verbose_name_plural = _("horizon checks")

    def __str__(self):
        return f"{self.property_id}: {self.held_until}"
