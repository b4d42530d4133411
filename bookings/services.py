"""What the vendor API changes: create, confirm, modify and cancel bookings, release holds the hub never
confirmed, and remember the webhook-ids seen (replays are refused); its reads (a booking by number, the
refund policy, prices) are bookings.selectors. Each write is one short transaction with no network call
inside, run again whole when the database gives it up to a deadlock (core.db.transactions: the hub never
gets 1000 for one); the availability push to the hub is queued after the commit (integration.ari)."""

import datetime
import hashlib
import json
import uuid
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.background.periodic import for_each_row
from core.background.retention import purge_before, purge_older_than
from core.dates import KOREA, korea_today
from core.db.transactions import retried_on_conflict
from integration.ari.services.inventory import NoRoomsAvailable, inventory_hold, inventory_release, inventory_take
from integration.channels.policy import CMS_BOOKINGS_CONFIRMED_ON_CREATE
from integration.channels.services import property_channels_refresh_for_booking
from integration.content.choices import ContentStatus
from integration.models import RatePlan, RoomType

from . import sql
from .errors import (
    ALREADY_CANCELED,
    AMOUNT_DIFFERS,
    BAD_INPUT,
    CANNOT_CANCEL,
    CANNOT_CONFIRM,
    NO_ROOMS,
    NOT_FOUND,
    TOO_FEW_GUESTS,
    TOO_MANY_GUESTS,
    ApiError,
    BookingError,
)
from .models import Booking, DeskMark, InboundCall, RefusedCall, SeenWebhook
from .notifications import BookingEvent, booking_notify_on_commit
from .reports.figures import figures_booked, figures_canceled, figures_no_show
from .selectors import Sold, booking_repeated, booking_sold, checked_number, extra_charges, nightly_rates
from .signals import booking_canceled

#: A create's body as the vendor API's serializer validated it.
Payload = dict[str, Any]


def content_digest(payload: Payload) -> str:
    """SHA-256 of the validated create body, independent of key order and number formatting."""
    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def stay_nights(*, checkin: datetime.datetime, checkout: datetime.datetime, stay_type: str) -> list[datetime.date]:
    """The Korea dates a stay holds: each night from check-in to the day before check-out, or the
    check-in day for a day use. Raises 3000 when check-out is not after check-in. (The serializer has
    kept the stay within the API's window and MAX_NIGHTS: bookings.api.limits.)"""
    first = checkin.astimezone(KOREA).date()
    last = checkout.astimezone(KOREA).date()
    if checkout <= checkin:
        raise BookingError(BAD_INPUT)
    if stay_type == Booking.Type.DAYUSE:
        return [first]
    count = (last - first).days
    if count < 1:
        raise BookingError(BAD_INPUT)
    return [first + datetime.timedelta(days=n) for n in range(count)]


def _guest_error(room_type: RoomType, adults: int, children: int) -> ApiError | None:
    """The error of a party that does not fit room_type (4002 below one guest, 4003 above its maximum
    capacity), None when it fits."""
    guests = adults + children
    if guests < 1:
        return TOO_FEW_GUESTS
    if room_type.max_capacity is not None and guests > room_type.max_capacity:
        return TOO_MANY_GUESTS
    return None


def _json_rates(rates: list[dict[str, Any]] | None) -> list[dict[str, str]] | None:
    if not rates:
        return None
    return [{"date": rate["date"].isoformat(), "amount": str(rate["amount"])} for rate in rates]


@retried_on_conflict
def booking_create(*, payload: Payload) -> tuple[Booking, bool]:
    """Create a pending booking and hold one room per night (a cms channel's booking: confirmed, its rooms
    taken at once; see integration.hub.payloads). Returns (booking, created); a retry of an existing
    booking returns it with created False and holds nothing. Raises BookingError (3000, 4000 to 4003;
    4000 too when the channel is not open for the property or does not sell the rate plan, or without
    one the room type)."""
    digest = content_digest(payload)
    try:
        return _create_holding(payload, digest), True
    except (BookingError, IntegrityError) as error:
        # The database's unique constraints, not a lookup first, tell a new booking from a repeat: only
        # a create that failed can be one. A retry gets its booking whatever changed since, a number
        # reused with other content 3000, as before anything else is checked.
        existing = booking_repeated(payload, digest)
        if existing is not None:
            return existing, False
        if isinstance(error, IntegrityError):
            raise BookingError(BAD_INPUT) from None
        raise


def _create_holding(payload: Payload, digest: str) -> Booking:
    """The new booking, holding its nights; BookingError for what decision 0012 refuses, IntegrityError
    when its numbers are taken. Without a rateplan_id (the spec: "omitted for bookings with no mapping")
    the room type's nights are held all the same and everything but the rate plan is checked; the amount
    is the channel's, with no rate of ours to compare it with (no 4001)."""
    ids = (payload["property_id"], payload["roomtype_id"], payload.get("rateplan_id"), payload["channel_id"])
    sold = booking_sold(*ids)
    stay_type = payload.get("type") or Booking.Type.OVERNIGHT
    nights = stay_nights(checkin=payload["checkin"], checkout=payload["checkout"], stay_type=stay_type)
    # The channel's nightly amounts, when given, are one per night of this stay: no other date, none twice.
    if payload.get("rates") and sorted(rate["date"] for rate in payload["rates"]) != nights:
        raise BookingError(BAD_INPUT)
    sold = _sold_on_channel(sold, ids)
    _check_sellable(sold, payload["guest"])
    if sold.plan is not None:
        _check_amount(sold.plan, sold.room_type, payload, nights)
    assert sold.link is not None  # a channel sells nothing without its row (Sold.channel_sells)
    confirmed = sold.link.channel.is_cms and CMS_BOOKINGS_CONFIRMED_ON_CREATE
    booking = _new_booking(payload, sold, nights=nights, stay_type=stay_type, confirmed=confirmed, digest=digest)
    try:
        with transaction.atomic():
            sql.booking_insert(booking)
            inventory_hold(room_type=sold.room_type, dates=nights)
            if confirmed:
                inventory_take(room_type=sold.room_type, dates=nights)
                figures_booked(booking=booking)
                booking_notify_on_commit(booking=booking, event=BookingEvent.CREATED)
    except NoRoomsAvailable:
        raise BookingError(NO_ROOMS) from None
    return booking


def _sold_on_channel(sold: Sold, ids: tuple[str, str, str | None, int]) -> Sold:
    """sold (read by these vendor ids), on a channel that sells it; 4000 when the channel does not (after
    asking the hub once whether it opened there)."""
    if sold.channel_sells:
        return sold
    # The hub selling on a channel we hold as requested, or do not know, is news that it opened there.
    status = sold.link.status if sold.link is not None else None
    if property_channels_refresh_for_booking(property=sold.room_type.property, status=status):
        sold = booking_sold(*ids)
    if not sold.channel_sells:
        raise BookingError(NO_ROOMS)
    return sold


def _check_sellable(sold: Sold, guest: dict[str, Any]) -> None:
    """4002 or 4003 for a party that does not fit the room type, 4000 when the room type, its property or
    the rate plan is switched off."""
    room_type, plan = sold.room_type, sold.plan
    if error := _guest_error(room_type, guest["adults"], guest["children"]):
        raise BookingError(error)
    if ContentStatus.DISABLED in (room_type.status, room_type.property.status, plan and plan.status):
        raise BookingError(NO_ROOMS)


def _check_amount(plan: RatePlan, room_type: RoomType, payload: Payload, nights: list[datetime.date]) -> None:
    """4001 when the amount is not our rates of the nights plus the extra charges (4000 for a night
    without a rate)."""
    adults = payload["guest"]["adults"]
    expected = sum(nightly_rates(plan, nights).values()) + extra_charges(room_type, adults=adults, nights=len(nights))
    if Decimal(payload["amount"]) != expected:
        raise BookingError(AMOUNT_DIFFERS)


def _new_booking(
    payload: Payload, sold: Sold, *, nights: list[datetime.date], stay_type: str, confirmed: bool, digest: str
) -> Booking:
    """The unsaved booking of a create (digest: its content_digest): confirmed at once (a cms channel's) or
    pending."""
    guest, booker = payload["guest"], payload["booker"]
    return Booking(
        status=Booking.Status.CONFIRMED if confirmed else Booking.Status.PENDING,
        confirmed_at=timezone.now() if confirmed else None,
        type=stay_type,
        channel_id=payload["channel_id"],
        channel_name=payload["channel_name"],
        channel_booking_number=payload.get("channel_booking_number") or None,
        gds_booking_number=payload["gds_booking_number"],
        gds_sub_booking_number=payload["gds_sub_booking_number"],
        property=sold.room_type.property,
        room_type=sold.room_type,
        rate_plan=sold.plan,
        checkin=payload["checkin"],
        checkout=payload["checkout"],
        nights=[night.isoformat() for night in nights],
        currency=payload["currency"],
        amount=payload["amount"],
        rates=_json_rates(payload.get("rates")),
        total_amount=payload["total_amount"],
        net_price=payload["net_price"],
        payment_type=payload["payment_type"],
        guest_name=guest["name"],
        adults=guest["adults"],
        children=guest["children"],
        infants=guest["infants"],
        pets=guest["pets"],
        cars=guest["cars"],
        booker_name=booker["name"],
        booker_email=booker["email"],
        booker_phone=booker["phone"],
        reserved_at=payload["reserved_at"],
        special_comment=payload.get("special_comment") or "",
        visit_type=payload.get("visit_type") or "",
        secondary_channel=payload.get("secondary_channel") or "",
        content_digest=digest,
    )


def _nights(booking: Booking) -> list[datetime.date]:
    return [datetime.date.fromisoformat(night) for night in booking.nights]


def _locked(number: str) -> Booking:
    number = checked_number(number)
    booking = Booking.objects.select_for_update(of=("self",)).filter(vendor_booking_number=number).first()
    if booking is None:
        raise BookingError(NOT_FOUND)
    return booking


def _hold_expired(booking: Booking, now: datetime.datetime | None = None) -> bool:
    cutoff = (now or timezone.now()) - datetime.timedelta(minutes=settings.BOOKING_HOLD_MINUTES)
    return booking.status == Booking.Status.PENDING and booking.created_at < cutoff


@retried_on_conflict
def booking_confirm(*, number: str) -> Booking:
    """Confirm a pending booking (its held rooms become taken); confirming again changes nothing.
    Raises 4004, or 4007 for a canceled booking or a hold older than BOOKING_HOLD_MINUTES (which is
    released on the spot, as the periodic task would)."""
    with transaction.atomic():
        booking = _locked(number)
        if booking.status == Booking.Status.CONFIRMED:
            return booking
        expired = _hold_expired(booking)
        if expired:
            _release(booking)
        elif booking.status == Booking.Status.PENDING:
            inventory_take(room_type=booking.room_type, dates=_nights(booking))
            booking.status = Booking.Status.CONFIRMED
            booking.confirmed_at = timezone.now()
            booking.save(update_fields=["status", "confirmed_at", "updated_at"])
            figures_booked(booking=booking)
            booking_notify_on_commit(booking=booking, event=BookingEvent.CREATED)
            return booking
    raise BookingError(CANNOT_CONFIRM)


MODIFIABLE_GUEST_FIELDS = ("name", "adults", "children", "infants", "pets", "cars")


@retried_on_conflict
@transaction.atomic
def booking_modify(*, number: str, changes: dict[str, Any]) -> Booking:
    """Change the guest, booker, special_comment, visit_type or total_amount of a booking. Raises 4004,
    4005 for a canceled booking, and 3000 for a guest count outside the room type's capacity: decision 0012
    allows no other business code on modify, and the booking stays as it was."""
    booking = _locked(number)
    if booking.status == Booking.Status.CANCELED:
        raise BookingError(ALREADY_CANCELED)
    for key, value in (changes.get("guest") or {}).items():
        setattr(booking, "guest_name" if key == "name" else key, value)
    for key, value in (changes.get("booker") or {}).items():
        setattr(booking, f"booker_{key}", value)
    for key in ("special_comment", "visit_type", "total_amount"):
        if key in changes:
            setattr(booking, key, changes[key] if changes[key] is not None else "")
    if _guest_error(booking.room_type, booking.adults, booking.children):
        raise BookingError(BAD_INPUT)
    booking.save()
    booking_notify_on_commit(booking=booking, event=BookingEvent.MODIFIED)
    return booking


@retried_on_conflict
@transaction.atomic
def booking_cancel(*, number: str) -> Booking:
    """Cancel a booking and give its nights back. Raises 4004, 4005 when it is already canceled, 4006
    when its stay is over."""
    booking = _locked(number)
    if booking.status == Booking.Status.CANCELED:
        raise BookingError(ALREADY_CANCELED)
    if booking.checkout <= timezone.now():
        raise BookingError(CANNOT_CANCEL)
    _release(booking)
    booking_notify_on_commit(booking=booking, event=BookingEvent.CANCELED)
    booking_canceled.send(sender=Booking, booking=booking)
    return booking


def _release(booking: Booking) -> None:
    """Cancel booking and give its nights back (taken ones, and the reports' figures, for a confirmed one)."""
    taken = booking.status == Booking.Status.CONFIRMED
    inventory_release(room_type=booking.room_type, dates=_nights(booking), taken=taken)
    booking.status = Booking.Status.CANCELED
    booking.canceled_at = timezone.now()
    booking.save(update_fields=["status", "canceled_at", "updated_at"])
    if taken:
        figures_canceled(booking=booking)


def bookings_release_expired(*, now: datetime.datetime | None = None) -> int:
    """Cancel pending bookings older than BOOKING_HOLD_MINUTES and give their nights back, each in its
    own short transaction (rows another transaction holds are left for the next run; a row that fails is
    logged and skipped). Returns how many."""
    cutoff = (now or timezone.now()) - datetime.timedelta(minutes=settings.BOOKING_HOLD_MINUTES)
    ids = list(
        Booking.objects.filter(status=Booking.Status.PENDING, created_at__lt=cutoff).values_list("pk", flat=True)
    )
    return for_each_row(ids, lambda pk: _release_expired(pk, cutoff), what="release of an expired hold")


def _release_expired(pk: int, cutoff: datetime.datetime) -> bool:
    """Release booking pk if it is still an expired hold and nobody else holds its row; whether it was."""
    booking = (
        Booking.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(pk=pk, status=Booking.Status.PENDING, created_at__lt=cutoff)
        .first()
    )
    if booking is None:
        return False
    _release(booking)
    return True


def inbound_calls_purge(*, now: datetime.datetime | None = None) -> int:
    """Delete the call log's rows (the refused calls' too) older than VENDOR_API_CALL_LOG_DAYS (0 keeps
    them). Returns how many."""
    days = settings.VENDOR_API_CALL_LOG_DAYS
    return purge_older_than(InboundCall.objects.all(), days=days, now=now) + purge_older_than(
        RefusedCall.objects.all(), days=days, now=now
    )


#: A webhook-timestamp further than this from now, either way, is refused (seconds; decision 0015).
WEBHOOK_TIMESTAMP_TOLERANCE = 300
#: A webhook-id is kept as long as a call carrying it can pass that check (from its timestamp's earliest
#: acceptance to its latest): twice the tolerance.
WEBHOOK_IDS_KEPT = datetime.timedelta(seconds=2 * WEBHOOK_TIMESTAMP_TOLERANCE)


def webhook_first_use(webhook_id: str) -> bool:
    """True the first time webhook_id is seen (within WEBHOOK_IDS_KEPT), False for a replay. One INSERT
    ... ON CONFLICT DO NOTHING, committed at once (authentication runs before any transaction): of
    concurrent calls with the same id, the primary key lets exactly one in."""
    digest = uuid.UUID(bytes=hashlib.blake2b(webhook_id.encode(), digest_size=16).digest())
    return sql.seen_webhook_insert(digest=digest, at=timezone.now())


def seen_webhooks_purge(*, now: datetime.datetime | None = None) -> int:
    """Delete the webhook-ids seen longer than WEBHOOK_IDS_KEPT ago: no call carrying them passes the
    timestamp check any more. Returns how many."""
    return purge_before(SeenWebhook.objects.all(), (now or timezone.now()) - WEBHOOK_IDS_KEPT)


# --- The front desk ---------------------------------------------------------------------------------------

#: The marks the front desk may put on a booking, from each mark it has: a guest who was marked a no-show
#: may still come late; nothing follows a check-out. Every mark needs a confirmed booking whose check-in
#: day (Korea) has come.
DESK_STEPS: dict[str, tuple[str, ...]] = {
    Booking.Desk.EXPECTED: (Booking.Desk.CHECKED_IN, Booking.Desk.NO_SHOW),
    Booking.Desk.NO_SHOW: (Booking.Desk.CHECKED_IN,),
    Booking.Desk.CHECKED_IN: (Booking.Desk.CHECKED_OUT,),
    Booking.Desk.CHECKED_OUT: (),
}


class DeskRefused(Exception):
    """A front desk mark the booking cannot take; message says why, in the user's language."""

    def __init__(self, message: str | Promise) -> None:
        super().__init__(str(message))
        self.message = message


def desk_refusal(booking: Booking, status: str, *, today: datetime.date | None = None) -> str | Promise | None:
    """Why booking cannot be marked status now, or None when it can (the page offers only the marks that
    pass)."""
    if booking.status == Booking.Status.CANCELED:
        return _("The booking is canceled: the guest is not coming.")
    if booking.status != Booking.Status.CONFIRMED:
        return _("The booking is not confirmed yet.")
    if status not in DESK_STEPS[booking.desk_status]:
        return _("A booking marked “%(current)s” cannot be marked “%(new)s”.") % {
            "current": Booking.Desk(booking.desk_status).label,
            "new": Booking.Desk(status).label,
        }
    if booking.checkin.astimezone(KOREA).date() > (today or korea_today()):
        return _("The guest's check-in day has not come yet.")
    return None


def desk_marks_allowed(booking: Booking) -> list[str]:
    """The marks the front desk may put on booking now, in DESK_STEPS' order."""
    return [status for status in DESK_STEPS[booking.desk_status] if desk_refusal(booking, status) is None]


@retried_on_conflict
@transaction.atomic
def booking_desk_mark(*, booking_id: int, status: str, user: User) -> Booking:
    """Mark the booking checked in, checked out or a no-show, keeping who and when (a DeskMark). Raises
    DeskRefused for a step DESK_STEPS does not allow, a booking not confirmed, or before its check-in day;
    the booking's row is locked, so that two people at the desk cannot both step from the same mark."""
    booking = Booking.objects.select_for_update(of=("self",)).get(pk=booking_id)
    if status not in Booking.Desk.values or status == Booking.Desk.EXPECTED:
        raise DeskRefused(_("Unknown front desk mark."))
    if refusal := desk_refusal(booking, status):
        raise DeskRefused(refusal)
    previous, booking.desk_status = booking.desk_status, status
    booking.save(update_fields=["desk_status", "updated_at"])
    DeskMark.objects.create(booking=booking, status=status, marked_by=user)
    if Booking.Desk.NO_SHOW in (status, previous):  # the reports count a no-show; a late check-in undoes it
        figures_no_show(booking=booking, undone=status != Booking.Desk.NO_SHOW)
    return booking
