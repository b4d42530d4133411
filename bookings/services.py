"""What the vendor API does: create, confirm, modify and cancel bookings, look them up, compute the
refund policy, release holds the hub never confirmed, and remember the webhook-ids seen (replays are
refused). Each write is one short transaction with no network call inside, run again whole when the
database gives it up to a deadlock (core.transactions: the hub never gets 1000 for one); the
availability push to the hub is queued after the commit (integration.ari)."""

import datetime
import hashlib
import json
import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core.dates import KOREA
from core.periodic import for_each_row
from core.plain_sql import Columns, insert
from core.retention import purge_before, purge_older_than
from core.transactions import retried_on_conflict
from integration.ari.services.inventory import NoRoomsAvailable, inventory_hold, inventory_release, inventory_take
from integration.channels.policy import CMS_BOOKINGS_CONFIRMED_ON_CREATE
from integration.channels.services import property_channels_refresh_for_booking
from integration.content.choices import ContentStatus, RatePlanType
from integration.models import Property, PropertyChannel, RatePlan, RatePlanDay, RatePlanModel, RoomType, SalesChannel

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
    BookingError,
)
from .models import Booking, InboundCall, SeenWebhook
from .notifications import BookingEvent, booking_notify_on_commit
from .signals import booking_canceled


def content_digest(payload):
    """SHA-256 of the validated create body, independent of key order and number formatting."""
    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def stay_nights(*, checkin, checkout, stay_type):
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


#: What a booking reads of its room type, property, rate plan and rate plan model (none without a
#: rateplan_id), and of the channel selling it (the property's row on that channel and the channel
#: itself), in one plain SQL statement.
_PLAN = Columns(RatePlan, "rp", "vendor_id", "status", "property", "room_type", "model")
_PROPERTY = Columns(Property, "p", "vendor_id", "status", "refunds", "extra_adult_price")
_ROOM_TYPE = Columns(RoomType, "rt", "property", "vendor_id", "status", "standard_capacity", "max_capacity")
_MODEL = Columns(RatePlanModel, "m", "property", "type", "refundable", "channels")
_CHANNEL = Columns(SalesChannel, "sc", "channel_id", "channel_type")
_LINK = Columns(
    PropertyChannel,
    "pc",
    *("property", "channel", "status", "on_sale", "room_types", "rate_plans", "room_type_codes", "rate_plan_codes"),
)


@dataclass(frozen=True)
class _Sold:
    """What a booking sells, as _resolve read it: the room type (with its property), the rate plan (with
    its model) or None for a booking with no rate plan, and the property's row on the selling channel."""

    room_type: RoomType
    plan: RatePlan | None
    link: PropertyChannel | None

    @property
    def channel_sells(self):
        """Whether the channel sells it: the rate plan, or without one the room type (open, on sale, not
        switched off, mapped on a cms channel)."""
        if self.link is None:
            return False
        return self.link.sells(self.plan) if self.plan else self.link.sells_room_type(self.room_type)


def _resolve(property_id, roomtype_id, rateplan_id=None, channel_id=None):
    """What a booking of these vendor ids sells (_Sold); 3000 when the room type, or the rate plan when
    rateplan_id is given, is unknown."""
    parts = (_ROOM_TYPE, _PROPERTY, _PLAN, _MODEL, _CHANNEL, _LINK)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(part.select() for part in parts)} FROM {_ROOM_TYPE.table}"  # noqa: S608
            f" JOIN {_PROPERTY.table} ON p.id = rt.property_id"
            # Without a rateplan_id, "= NULL" matches no plan: the same statement reads the room type alone.
            f" LEFT JOIN {_PLAN.table} ON rp.property_id = p.id AND rp.vendor_id = %s AND rp.room_type_id = rt.id"
            f" LEFT JOIN {_MODEL.table} ON m.id = rp.model_id"
            f" LEFT JOIN {_CHANNEL.table} ON sc.channel_id = %s"
            f" LEFT JOIN {_LINK.table} ON pc.property_id = p.id AND pc.channel_id = sc.id"
            " WHERE p.vendor_id = %s AND rt.vendor_id = %s",
            [rateplan_id, channel_id, property_id, roomtype_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise BookingError(BAD_INPUT)
    found, start = [], 0
    for part in parts:
        found.append(part.build(row[start:]))
        start += len(part)
    room_type, room_type.property, plan, model, channel, link = found
    if rateplan_id is not None and plan is None:
        raise BookingError(BAD_INPUT)
    if plan is not None:
        plan.property, plan.room_type, plan.model = room_type.property, room_type, model
    if link is not None:
        link.property, link.channel = room_type.property, channel
    return _Sold(room_type, plan, link)


def _guest_error(room_type, adults, children):
    """The error of a party that does not fit room_type (4002 below one guest, 4003 above its maximum
    capacity), None when it fits."""
    guests = adults + children
    if guests < 1:
        return TOO_FEW_GUESTS
    if room_type.max_capacity is not None and guests > room_type.max_capacity:
        return TOO_MANY_GUESTS
    return None


def extra_charges(room_type, *, adults, nights):
    """The extra charges of a stay that we can compute (OURS, the contract's 4001 rule; the spec: amount
    is the per-night amounts plus extra charges): each adult over the room type's standard capacity at
    the property's extra_adult_price (KRW), for each night (a day use: once). The spec prices extra
    adults only, so children and infants add nothing; without a standard capacity or a price, nothing."""
    price, standard = room_type.property.extra_adult_price, room_type.standard_capacity
    if not price or standard is None or adults <= standard:
        return Decimal(0)
    return Decimal((adults - standard) * price * nights)


#: The days of a rate plan a booking prices, read by plain SQL (see _resolve).
_DAY = Columns(RatePlanDay, "d", "rate_plan", "date", "rate", "rate_modify", "business_day")


def nightly_rates(plan, nights):
    """Our rate of plan on each night ({date: Decimal}); 4000 when a night has no rate or is not a business
    day. A package's rate is the standalone plan's rate of the same room type and day plus the package's
    difference."""
    package = plan.model.type == RatePlanType.PACKAGE
    # One statement: the plan's days and, for a package, its room type's standalone plan's days too.
    plans, params = "d.rate_plan_id = %s", [plan.pk]
    if package:
        plans = (
            f"({plans} OR d.rate_plan_id IN (SELECT s.id FROM {RatePlan._meta.db_table} s"  # noqa: S608
            f" JOIN {RatePlanModel._meta.db_table} sm ON sm.id = s.model_id"
            " WHERE s.room_type_id = %s AND sm.type = %s))"
        )
        params += [plan.room_type_id, RatePlanType.STANDALONE]
    dates = [connection.ops.adapt_datefield_value(night) for night in nights]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_DAY.select()} FROM {_DAY.table} WHERE {plans}"  # noqa: S608
            f" AND d.date IN ({', '.join(['%s'] * len(dates))})",
            [*params, *dates],
        )
        rows = [_DAY.build(row) for row in cursor.fetchall()]
    days = {day.date: day for day in rows if day.rate_plan_id == plan.pk}
    base = {day.date: day.rate for day in rows if day.rate_plan_id != plan.pk}
    rates = {}
    for night in nights:
        day = days.get(night)
        if day is None or not day.business_day:
            raise BookingError(NO_ROOMS)
        if package:
            if base.get(night) is None or day.rate_modify is None:
                raise BookingError(NO_ROOMS)
            rate = base[night] + day.rate_modify
        else:
            if day.rate is None:
                raise BookingError(NO_ROOMS)
            rate = day.rate
        rates[night] = Decimal(rate)
    return rates


def _duplicate(payload, digest):
    """The existing booking this create repeats (same gds_sub_booking_number, same content), None when
    it is new; 3000 when it reuses a sub-booking number with other content or a channel's number."""
    existing = Booking.objects.filter(gds_sub_booking_number=payload["gds_sub_booking_number"]).first()
    if existing is not None:
        if existing.content_digest == digest:
            return existing
        raise BookingError(BAD_INPUT)
    number = payload.get("channel_booking_number")
    if number and Booking.objects.filter(channel_id=payload["channel_id"], channel_booking_number=number).exists():
        raise BookingError(BAD_INPUT)
    return None


def _json_rates(rates):
    if not rates:
        return None
    return [{"date": rate["date"].isoformat(), "amount": str(rate["amount"])} for rate in rates]


@retried_on_conflict
def booking_create(*, payload):
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
        existing = _duplicate(payload, digest)
        if existing is not None:
            return existing, False
        if isinstance(error, IntegrityError):
            raise BookingError(BAD_INPUT) from None
        raise


def _create_holding(payload, digest):
    """The new booking, holding its nights; BookingError for what the contract refuses, IntegrityError
    when its numbers are taken. Without a rateplan_id (the spec: "omitted for bookings with no mapping")
    the room type's nights are held all the same and everything but the rate plan is checked; the amount
    is the channel's, with no rate of ours to compare it with (no 4001)."""
    ids = (payload["property_id"], payload["roomtype_id"], payload.get("rateplan_id"), payload["channel_id"])
    sold = _resolve(*ids)
    stay_type = payload.get("type") or Booking.Type.OVERNIGHT
    nights = stay_nights(checkin=payload["checkin"], checkout=payload["checkout"], stay_type=stay_type)
    # The channel's nightly amounts, when given, are one per night of this stay: no other date, none twice.
    if payload.get("rates") and sorted(rate["date"] for rate in payload["rates"]) != nights:
        raise BookingError(BAD_INPUT)
    if not sold.channel_sells:
        # The hub selling on a channel we hold as requested, or do not know, is news that it opened there.
        status = sold.link.status if sold.link is not None else None
        if property_channels_refresh_for_booking(property=sold.room_type.property, status=status):
            sold = _resolve(*ids)
        if not sold.channel_sells:
            raise BookingError(NO_ROOMS)
    plan, room_type, link = sold.plan, sold.room_type, sold.link
    guest, booker = payload["guest"], payload["booker"]
    if error := _guest_error(room_type, guest["adults"], guest["children"]):
        raise BookingError(error)
    if ContentStatus.DISABLED in (room_type.status, room_type.property.status, plan and plan.status):
        raise BookingError(NO_ROOMS)
    if plan is not None:
        expected = sum(nightly_rates(plan, nights).values()) + extra_charges(
            room_type, adults=guest["adults"], nights=len(nights)
        )
        if Decimal(payload["amount"]) != expected:
            raise BookingError(AMOUNT_DIFFERS)
    confirmed = link.channel.is_cms and CMS_BOOKINGS_CONFIRMED_ON_CREATE
    try:
        with transaction.atomic():
            booking = insert(
                Booking(
                    status=Booking.Status.CONFIRMED if confirmed else Booking.Status.PENDING,
                    confirmed_at=timezone.now() if confirmed else None,
                    type=stay_type,
                    channel_id=payload["channel_id"],
                    channel_name=payload["channel_name"],
                    channel_booking_number=payload.get("channel_booking_number") or None,
                    gds_booking_number=payload["gds_booking_number"],
                    gds_sub_booking_number=payload["gds_sub_booking_number"],
                    property=room_type.property,
                    room_type=room_type,
                    rate_plan=plan,
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
            )
            inventory_hold(room_type=room_type, dates=nights)
            if confirmed:
                inventory_take(room_type=room_type, dates=nights)
                booking_notify_on_commit(booking=booking, event=BookingEvent.CREATED)
    except NoRoomsAvailable:
        raise BookingError(NO_ROOMS) from None
    return booking


def _nights(booking):
    return [datetime.date.fromisoformat(night) for night in booking.nights]


def _checked_number(number):
    """number, or 4004 when no booking can have it (too long, a NUL byte, not valid text)."""
    try:
        number.encode("utf-8")
    except UnicodeEncodeError:
        raise BookingError(NOT_FOUND) from None
    if not number or len(number) > 100 or "\x00" in number:
        raise BookingError(NOT_FOUND)
    return number


def _locked(number):
    number = _checked_number(number)
    booking = Booking.objects.select_for_update(of=("self",)).filter(vendor_booking_number=number).first()
    if booking is None:
        raise BookingError(NOT_FOUND)
    return booking


def _hold_expired(booking, now=None):
    cutoff = (now or timezone.now()) - datetime.timedelta(minutes=settings.BOOKING_HOLD_MINUTES)
    return booking.status == Booking.Status.PENDING and booking.created_at < cutoff


@retried_on_conflict
def booking_confirm(*, number):
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
            booking_notify_on_commit(booking=booking, event=BookingEvent.CREATED)
            return booking
    raise BookingError(CANNOT_CONFIRM)


MODIFIABLE_GUEST_FIELDS = ("name", "adults", "children", "infants", "pets", "cars")


@retried_on_conflict
@transaction.atomic
def booking_modify(*, number, changes):
    """Change the guest, booker, special_comment, visit_type or total_amount of a booking. Raises 4004,
    4005 for a canceled booking, and 3000 for a guest count outside the room type's capacity: the contract
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
def booking_cancel(*, number):
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


def _release(booking):
    inventory_release(
        room_type=booking.room_type, dates=_nights(booking), taken=booking.status == Booking.Status.CONFIRMED
    )
    booking.status = Booking.Status.CANCELED
    booking.canceled_at = timezone.now()
    booking.save(update_fields=["status", "canceled_at", "updated_at"])


def bookings_release_expired(*, now=None):
    """Cancel pending bookings older than BOOKING_HOLD_MINUTES and give their nights back, each in its
    own short transaction (rows another transaction holds are left for the next run; a row that fails is
    logged and skipped). Returns how many."""
    cutoff = (now or timezone.now()) - datetime.timedelta(minutes=settings.BOOKING_HOLD_MINUTES)
    ids = list(
        Booking.objects.filter(status=Booking.Status.PENDING, created_at__lt=cutoff).values_list("pk", flat=True)
    )
    return for_each_row(ids, lambda pk: _release_expired(pk, cutoff), what="release of an expired hold")


def _release_expired(pk, cutoff):
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


def inbound_calls_purge(*, now=None):
    """Delete the call log's rows older than VENDOR_API_CALL_LOG_DAYS (0 keeps them). Returns how many."""
    return purge_older_than(InboundCall.objects.all(), days=settings.VENDOR_API_CALL_LOG_DAYS, now=now)


#: A webhook-timestamp further than this from now, either way, is refused (seconds; contract section 4).
WEBHOOK_TIMESTAMP_TOLERANCE = 300
#: A webhook-id is kept as long as a call carrying it can pass that check (from its timestamp's earliest
#: acceptance to its latest): twice the tolerance.
WEBHOOK_IDS_KEPT = datetime.timedelta(seconds=2 * WEBHOOK_TIMESTAMP_TOLERANCE)


def webhook_first_use(webhook_id):
    """True the first time webhook_id is seen (within WEBHOOK_IDS_KEPT), False for a replay. One INSERT
    ... ON CONFLICT DO NOTHING, committed at once (authentication runs before any transaction): of
    concurrent calls with the same id, the primary key lets exactly one in."""
    seen = SeenWebhook._meta
    digest = uuid.UUID(bytes=hashlib.blake2b(webhook_id.encode(), digest_size=16).digest())
    values = [
        seen.get_field("digest").get_db_prep_save(digest, connection),
        seen.get_field("created_at").get_db_prep_save(timezone.now(), connection),
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {seen.db_table} (digest, created_at) VALUES (%s, %s) ON CONFLICT DO NOTHING",  # noqa: S608
            values,
        )
        return cursor.rowcount == 1


def seen_webhooks_purge(*, now=None):
    """Delete the webhook-ids seen longer than WEBHOOK_IDS_KEPT ago: no call carrying them passes the
    timestamp check any more. Returns how many."""
    return purge_before(SeenWebhook.objects.all(), (now or timezone.now()) - WEBHOOK_IDS_KEPT)


LOOKUP_TYPES = ("vendor_booking_number", "channel_booking_number", "gds_sub_booking_number")


def booking_get(*, number, lookup="vendor_booking_number", channel_id=None):
    """The booking with this number of the given kind (a channel number narrowed by channel_id when
    given); 4004 when there is none, or several."""
    number = _checked_number(number)
    bookings = Booking.objects.select_related("property", "room_type", "rate_plan").filter(**{lookup: number})
    if channel_id is not None and lookup == "channel_booking_number":
        bookings = bookings.filter(channel_id=channel_id)
    found = list(bookings[:2])
    if len(found) != 1:
        raise BookingError(NOT_FOUND)
    return found[0]


def refund_policy(*, property_id, roomtype_id, rateplan_id=None, checkin):
    """{"refundable", "policies"}: for each "<n>d" of the property's refunds map, the percent refunded
    for a cancellation until the end of the Korea day n days before check-in; none when the rate plan's
    model is not refundable (without a rate plan, the property's map alone). Raises 3000 for an unknown
    room type or rate plan."""
    sold = _resolve(property_id, roomtype_id, rateplan_id)
    if sold.plan is not None and not sold.plan.model.refundable:
        return {"refundable": False, "policies": []}
    checkin_day = checkin.astimezone(KOREA).date() if isinstance(checkin, datetime.datetime) else checkin
    policies = []
    refunds = sold.room_type.property.refunds or {}
    for key in sorted(refunds, key=lambda key: -int(key[:-1])):
        day = checkin_day - datetime.timedelta(days=int(key[:-1]))
        until = datetime.datetime.combine(day, datetime.time(23, 59, 59), tzinfo=KOREA)
        percent = refunds[key]
        policies.append({"until": until.isoformat(), "percent": int(percent) if percent == int(percent) else percent})
    return {"refundable": True, "policies": policies}
