"""Rates, business days and availability per day (per sales channel where they differ), and the date
ranges still to be pushed to the hub."""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from ..channels.models import SalesChannel
from ..content.models import RatePlan, RoomType
from ..sync.models import SyncState


class RatePlanDay(models.Model):
    """A rate plan's rate (standalone) or difference from the standalone rate (package), and whether it
    sells, on one day."""

    rate_plan = models.ForeignKey(RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, related_name="days")
    date = models.DateField(_("date"))
    rate = models.PositiveIntegerField(_("rate (KRW)"), null=True, blank=True)
    rate_modify = models.IntegerField(_("difference from the base rate (KRW)"), null=True, blank=True)
    business_day = models.BooleanField(_("open for sale"), default=True)

    class Meta:
        verbose_name = _("rate plan day")
        verbose_name_plural = _("rate plan days")
        ordering = ["rate_plan", "date"]
        constraints = [
            models.UniqueConstraint(fields=["rate_plan", "date"], name="rateplanday_one_per_day"),
            models.CheckConstraint(
                condition=Q(rate__isnull=True) | Q(rate_modify__isnull=True), name="rateplanday_rate_or_modify"
            ),
        ]

    def __str__(self):
        return f"{self.rate_plan_id} {self.date}"


class RoomTypeDay(models.Model):
    """A room type's stock on one day: what staff allot, what bookings hold (pending) and have taken
    (confirmed), and what is left. The database keeps available = allotment - held - taken >= 0."""

    room_type = models.ForeignKey(RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="days")
    date = models.DateField(_("date"))
    allotment = models.PositiveIntegerField(_("rooms to sell"), default=0)
    held = models.PositiveIntegerField(_("held by pending bookings"), default=0)
    taken = models.PositiveIntegerField(_("taken by bookings"), default=0)
    available = models.PositiveIntegerField(_("available"), default=0)

    class Meta:
        verbose_name = _("room type day")
        verbose_name_plural = _("room type days")
        ordering = ["room_type", "date"]
        constraints = [
            models.UniqueConstraint(fields=["room_type", "date"], name="roomtypeday_one_per_day"),
            models.CheckConstraint(condition=Q(available__gte=0), name="roomtypeday_available_not_negative"),
            models.CheckConstraint(
                condition=Q(available=F("allotment") - F("held") - F("taken")),
                name="roomtypeday_available_is_what_is_left",
            ),
        ]

    def __str__(self):
        return f"{self.room_type_id} {self.date}: {self.available}/{self.allotment}"


class ChannelRateDay(models.Model):
    """A rate plan's rate (or difference) on one channel and day, instead of the common one; both empty
    means the channel sells at the common value."""

    rate_plan = models.ForeignKey(
        RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, related_name="channel_days"
    )
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE)
    date = models.DateField(_("date"))
    rate = models.PositiveIntegerField(_("rate (KRW)"), null=True, blank=True)
    rate_modify = models.IntegerField(_("difference from the base rate (KRW)"), null=True, blank=True)

    class Meta:
        verbose_name = _("channel rate")
        verbose_name_plural = _("channel rates")
        ordering = ["rate_plan", "channel", "date"]
        constraints = [
            models.UniqueConstraint(fields=["rate_plan", "channel", "date"], name="channelrateday_one_per_day"),
            models.CheckConstraint(
                condition=Q(rate__isnull=True) | Q(rate_modify__isnull=True), name="channelrateday_rate_or_modify"
            ),
        ]

    def __str__(self):
        return f"{self.rate_plan_id} @{self.channel_id} {self.date}"


class ChannelAvailDay(models.Model):
    """At most this many rooms of a room type sell on one channel and day (empty: no cap)."""

    room_type = models.ForeignKey(
        RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="channel_days"
    )
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE)
    date = models.DateField(_("date"))
    cap = models.PositiveIntegerField(_("channel cap"), null=True, blank=True)

    class Meta:
        verbose_name = _("channel availability cap")
        verbose_name_plural = _("channel availability caps")
        ordering = ["room_type", "channel", "date"]
        constraints = [
            models.UniqueConstraint(fields=["room_type", "channel", "date"], name="channelavailday_one_per_day")
        ]

    def __str__(self):
        return f"{self.room_type_id} @{self.channel_id} {self.date}"


class AriDirtyRange(models.Model):
    """Days of a rate plan's rates or a room type's availability that changed and are not yet at the
    hub; written in the same transaction as the change, removed once the hub has them."""

    state = models.ForeignKey(SyncState, on_delete=models.CASCADE, related_name="dirty_ranges")
    date_from = models.DateField()
    date_to = models.DateField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(date_from__lte=F("date_to")), name="aridirtyrange_from_before_to")
        ]

    def __str__(self):
        return f"{self.date_from}..{self.date_to}"
