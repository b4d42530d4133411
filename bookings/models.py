"""Bookings the hub makes through the vendor API, and the log of every call the hub made to us."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from integration.content.names import display_name
from integration.models import Property, RatePlan, RoomType


def new_vendor_booking_number():
    """Our booking number: "VH" and 12 random upper-case hex digits (unique in the database)."""
    return "VH" + secrets.token_hex(6).upper()


class Booking(models.Model):
    """One room booked by the hub (one gds_sub_booking_number), with every field of the spec's Booking."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        # A context: a license request is "Confirmed" (approved) in another sense.
        CONFIRMED = "confirmed", pgettext_lazy("booking status", "Confirmed")
        CANCELED = "canceled", _("Canceled")

    class Type(models.TextChoices):
        DAYUSE = "dayuse", _("Day use")
        OVERNIGHT = "overnight", _("Overnight")

    class PaymentType(models.TextChoices):
        PREPAYMENT = "prepayment", _("Prepayment")
        POSTPAYMENT = "postpayment", _("Postpayment")

    class VisitType(models.TextChoices):
        WALK = "walk", _("On foot")
        CAR = "car", _("By car")

    class Desk(models.TextChoices):
        """Where the guest is, as the front desk marked it (bookings.front_desk holds the allowed steps)."""

        EXPECTED = "", _("Expected")
        CHECKED_IN = "checked_in", _("Checked in")
        CHECKED_OUT = "checked_out", _("Checked out")
        NO_SHOW = "no_show", _("No-show")

    vendor_booking_number = models.CharField(
        _("vendor booking number"), max_length=20, unique=True, default=new_vendor_booking_number, editable=False
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    type = models.CharField(_("type"), max_length=10, choices=Type.choices, default=Type.OVERNIGHT)
    channel_id = models.PositiveIntegerField(_("channel id"))
    channel_name = models.CharField(_("channel name"), max_length=200)
    # NULL, not "", when absent: the per-channel unique constraint applies only to given numbers.
    channel_booking_number = models.CharField(  # noqa: DJ001
        _("channel booking number"), max_length=100, null=True, blank=True
    )
    gds_booking_number = models.CharField(_("hub booking number"), max_length=100)
    gds_sub_booking_number = models.CharField(_("hub sub-booking number"), max_length=100, unique=True)
    # No index of its own: booking_property_created (property first) serves every lookup by property.
    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.PROTECT, related_name="+", db_index=False
    )
    room_type = models.ForeignKey(RoomType, verbose_name=_("room type"), on_delete=models.PROTECT, related_name="+")
    #: None for a booking the hub made without a rateplan_id (spec: "omitted for bookings with no mapping").
    rate_plan = models.ForeignKey(
        RatePlan, verbose_name=_("rate plan"), on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    checkin = models.DateTimeField(_("check-in"))
    checkout = models.DateTimeField(_("check-out"))
    #: The nights held (Korea dates, ISO strings, in order); a day use holds its check-in date.
    nights = models.JSONField(_("nights"), default=list, editable=False)
    currency = models.CharField(_("currency"), max_length=3)
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=2)
    rates = models.JSONField(_("nightly amounts"), null=True, blank=True)
    total_amount = models.DecimalField(_("total amount"), max_digits=14, decimal_places=2)
    net_price = models.DecimalField(_("net price"), max_digits=14, decimal_places=2)
    payment_type = models.CharField(_("payment type"), max_length=11, choices=PaymentType.choices)
    guest_name = models.CharField(_("guest name"), max_length=200)
    adults = models.PositiveSmallIntegerField(_("adults"))
    children = models.PositiveSmallIntegerField(_("children"))
    infants = models.PositiveSmallIntegerField(_("infants"))
    pets = models.PositiveSmallIntegerField(_("pets"))
    cars = models.PositiveSmallIntegerField(_("cars"))
    booker_name = models.CharField(_("booker name"), max_length=200)
    booker_email = models.CharField(_("booker email"), max_length=254)
    booker_phone = models.CharField(_("booker phone"), max_length=50)
    reserved_at = models.DateTimeField(_("reserved at"))
    special_comment = models.TextField(_("special comment"), blank=True)
    visit_type = models.CharField(_("visit type"), max_length=4, choices=VisitType.choices, blank=True)
    secondary_channel = models.CharField(_("secondary channel"), max_length=200, blank=True)
    #: SHA-256 of the create body as validated, to tell a retry from a different booking.
    content_digest = models.CharField(_("content digest"), max_length=64, editable=False)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    canceled_at = models.DateTimeField(_("canceled at"), null=True, blank=True)
    #: The front desk's last mark (who and when: its DeskMark rows). Ours only: the hub never reads it.
    desk_status = models.CharField(_("front desk"), max_length=11, choices=Desk.choices, default="", blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("booking")
        verbose_name_plural = _("bookings")
        ordering = ["-created_at"]
        constraints = [
            # The number first: this index also serves the list's search for a channel's number alone.
            models.UniqueConstraint(
                fields=["channel_booking_number", "channel_id"],
                condition=Q(channel_booking_number__isnull=False),
                name="booking_channel_number_unique_per_channel",
            ),
            models.CheckConstraint(
                condition=Q(checkout__gt=models.F("checkin")), name="booking_checkout_after_checkin"
            ),
            models.CheckConstraint(
                condition=Q(amount__gte=0) & Q(total_amount__gte=0) & Q(net_price__gte=0),
                name="booking_amounts_not_negative",
            ),
        ]
        # The list's order (newest first, then id), each of its filters with that order, check-in and
        # check-out ranges (the front desk's arrivals and departures, in their order; in house: the nights'
        # GIN index on PostgreSQL, in the migration). The search for a part of any number or of the guest's
        # name is one trigram index on PostgreSQL, in the migration too (bookings/migrations/0001_initial.py).
        # Every index is paid by every create: none twice.
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="booking_newest_first"),
            models.Index(fields=["status", "created_at"], name="booking_status_created"),
            models.Index(fields=["property", "-created_at"], name="booking_property_created"),
            models.Index(fields=["channel_id", "-created_at"], name="booking_channel_created"),
            models.Index(fields=["payment_type", "-created_at"], name="booking_payment_created"),
            models.Index(fields=["checkin"], name="booking_checkin"),
            models.Index(fields=["checkout"], name="booking_checkout"),
        ]

    def __str__(self):
        return self.vendor_booking_number

    def plan_name(self):
        """What staff read for the booked room (screens, print, e-mails): the rate plan as display_name
        names it (room type · model), or for a booking the hub made without one, the room type and "no
        rate plan"."""
        if self.rate_plan is None:
            return f"{display_name(self.room_type)} · {gettext('no rate plan')}"
        return display_name(self.rate_plan)


class DeskMark(models.Model):
    """One mark the front desk put on a booking (checked in, checked out, no-show): who, and when."""

    booking = models.ForeignKey(Booking, verbose_name=_("booking"), on_delete=models.CASCADE, related_name="marks")
    status = models.CharField(_("front desk"), max_length=11, choices=Booking.Desk.choices)
    #: Who marked it; None once that person's account is deleted (the mark stays).
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("marked by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    marked_at = models.DateTimeField(_("marked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("front desk mark")
        verbose_name_plural = _("front desk marks")
        ordering = ["marked_at", "pk"]

    def __str__(self):
        return f"{self.booking_id}: {self.status}"


class InboundCall(models.Model):
    """One call the hub made to the vendor API: the request (tokens and signatures removed), our answer,
    its status and how long it took. A call refused by authentication is a RefusedCall instead."""

    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=500)
    request_headers = models.JSONField(_("request headers"), default=dict)
    request_body = models.TextField(_("request body"), blank=True)
    #: The body's size as its Content-Length declared it: a refused call's body is never read.
    body_size = models.PositiveIntegerField(_("body size (bytes)"), null=True, blank=True)
    #: The caller's address (behind DJANGO_PROXY_COUNT proxies, the one the nearest trusted proxy saw).
    address = models.CharField(_("address"), max_length=64, blank=True)
    status = models.PositiveSmallIntegerField(_("status"))
    response_body = models.TextField(_("response body"), blank=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"))
    #: The contract's code of an error answer ("" for a booking or policy answered).
    code = models.CharField(_("answer code"), max_length=4, blank=True)
    #: The call's X-Request-ID, or the id we gave it (core.request_id): it joins the call's log lines.
    request_id = models.CharField(_("request id"), max_length=128, blank=True)
    booking = models.ForeignKey(
        Booking, verbose_name=_("booking"), on_delete=models.SET_NULL, null=True, blank=True, related_name="calls"
    )
    booking_number = models.CharField(_("booking number"), max_length=100, blank=True, db_index=True)
    created_at = models.DateTimeField(_("received at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("inbound call")
        verbose_name_plural = _("inbound calls")
        ordering = ["-created_at"]
        # The list's filters with its order (newest first; created_at has its own index).
        indexes = [
            models.Index(fields=["status", "-created_at"], name="inboundcall_status_created"),
            models.Index(fields=["method", "-created_at"], name="inboundcall_method_created"),
        ]

    def __str__(self):
        return f"{self.method} {self.path} {self.status}"


class RefusedCall(models.Model):
    """A call to the vendor API refused by authentication: what a refusal must keep (method, path, address,
    answer, declared size) and nothing its sender chose beyond the path, in a table of its own so that a
    flood from many addresses costs the call log about a hundred and fifty bytes a call, its indexes
    included (InboundCall's row and six indexes cost some 370)."""

    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=500)
    #: The caller's address (behind DJANGO_PROXY_COUNT proxies, the one the nearest trusted proxy saw).
    address = models.CharField(_("address"), max_length=64, blank=True)
    status = models.PositiveSmallIntegerField(_("status"))
    #: The contract's code of the refusal.
    code = models.CharField(_("answer code"), max_length=4, blank=True)
    #: The body's size as its Content-Length declared it: the body is never read.
    body_size = models.PositiveIntegerField(_("body size (bytes)"), null=True, blank=True)
    # Its one index besides the key: the list's order, the purge, the growth figures.
    created_at = models.DateTimeField(_("received at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("refused call")
        verbose_name_plural = _("refused calls")
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.method} {self.path} {self.status}"


class SeenWebhook(models.Model):
    """A webhook-id the vendor API accepted: the same id again is a replay (decision 0015), refused
    while a call carrying it could still pass the timestamp check; older rows are purged hourly."""

    # The id's 128-bit BLAKE2b digest: a fixed-size key (PostgreSQL's uuid, one index to write) whatever
    # the hub puts in the header.
    digest = models.UUIDField(_("webhook-id digest"), primary_key=True)
    # No index: each call would pay it, and the hourly purge reads a table of one window's calls.
    created_at = models.DateTimeField(_("first seen"))

    class Meta:
        verbose_name = _("seen webhook-id")
        verbose_name_plural = _("seen webhook-ids")

    def __str__(self):
        return str(self.digest)


class NotificationPreference(models.Model):
    """A person's choice about booking e-mails: whether they receive them and in which language. A member
    without a row receives them in Korean (bookings.notifications)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="notification_preference",
    )
    booking_emails = models.BooleanField(
        _("receive booking e-mails"),
        default=True,
        help_text=_("New, changed and canceled bookings of the properties you work for."),
    )
    language = models.CharField(_("e-mail language"), max_length=8, choices=settings.LANGUAGES, default="ko")
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("booking e-mail setting")
        verbose_name_plural = _("booking e-mails")

    def __str__(self):
        return str(self.user)
