"""The daily figures the reports read: kept as bookings change (bookings.reports.figures), so that a
report reads days, never bookings, and costs the same with a thousand bookings or a million."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from integration.models import Property


class DailyFigure(models.Model):
    """One property's figures of one stay date on one channel. The room nights and revenue are those of
    the confirmed bookings that hold the night and are not canceled; the booking counts (arrivals,
    cancellations, no-shows, nights and lead days) are those of the confirmed bookings arriving that date."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    date = models.DateField(_("stay date"))
    channel_id = models.PositiveIntegerField(_("channel id"))
    rooms = models.IntegerField(_("room nights sold"), default=0)
    revenue = models.DecimalField(_("room revenue"), max_digits=16, decimal_places=2, default=0)
    net = models.DecimalField(_("net revenue"), max_digits=16, decimal_places=2, default=0)
    arrivals = models.IntegerField(_("bookings arriving"), default=0)
    canceled = models.IntegerField(_("canceled bookings"), default=0)
    no_shows = models.IntegerField(_("no-shows"), default=0)
    #: The nights and the days booked ahead of the bookings arriving, summed (their averages' numerators).
    stay_nights = models.IntegerField(_("nights of the arrivals"), default=0)
    lead_days = models.IntegerField(_("lead days of the arrivals"), default=0)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        # The key the figures are added to, property and date first: every report reads a date range of
        # some properties.
        constraints = [
            models.UniqueConstraint(fields=["property", "date", "channel_id"], name="dailyfigure_one_per_day"),
        ]

    def __str__(self):
        return f"{self.property_id} {self.date} {self.channel_id}"


class PickupFigure(models.Model):
    """The room nights of one property's stay date booked and canceled on one day (the day the channel
    received the booking, the day it was canceled): pickup reads a window of stay dates by that day, pace
    what was on the books for a window at a given day."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    date = models.DateField(_("stay date"))
    day = models.DateField(_("day booked or canceled"))
    rooms_booked = models.IntegerField(_("room nights booked"), default=0)
    revenue_booked = models.DecimalField(_("revenue booked"), max_digits=16, decimal_places=2, default=0)
    #: Counted on the arrival date's row only: a booking is one however many nights it holds.
    bookings_booked = models.IntegerField(_("bookings received"), default=0)
    rooms_canceled = models.IntegerField(_("room nights canceled"), default=0)
    revenue_canceled = models.DecimalField(_("revenue canceled"), max_digits=16, decimal_places=2, default=0)
    bookings_canceled = models.IntegerField(_("bookings canceled"), default=0)

    class Meta:
        verbose_name = _("pickup figure")
        verbose_name_plural = _("pickup figures")
        constraints = [
            models.UniqueConstraint(fields=["property", "date", "day"], name="pickupfigure_one_per_day"),
        ]
        # The dashboard's pickup of this month reads a property's days received, whatever the stay dates.
        indexes = [models.Index(fields=["property", "day"], name="pickupfigure_property_day")]

    def __str__(self):
        return f"{self.property_id} {self.date} {self.day}"
