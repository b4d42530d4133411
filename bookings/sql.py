"""The bookings area's hand-written SQL, each statement with why not the ORM. Table and column names come
from the models' _meta (core.db.plain_sql.Columns), never typed here: a renamed field or table follows."""

import datetime
import uuid
from typing import Any, cast

from django.db import connection
from django.db.models import Field

from core.db.plain_sql import Columns, column_name, insert
from integration.content.choices import RatePlanType
from integration.models import Property, PropertyChannel, RatePlan, RatePlanDay, RatePlanModel, RoomType, SalesChannel

from .models import Booking, SeenWebhook

#: What a booking reads of its room type, property, rate plan and rate plan model (none without a
#: rateplan_id), and of the channel selling it (the property's row on that channel and the channel
#: itself).
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
_SOLD = (_ROOM_TYPE, _PROPERTY, _PLAN, _MODEL, _CHANNEL, _LINK)

#: The days of a rate plan a booking prices; the standalone plans (and their models) of its room type.
_DAY = Columns(RatePlanDay, "d", "rate_plan", "date", "rate", "rate_modify", "business_day")
_STANDALONE = Columns(RatePlan, "s", "room_type", "model")
_STANDALONE_MODEL = Columns(RatePlanModel, "sm", "type")

#: The rows sold_rows() gives: room type, its property, rate plan, its model, channel, property's channel.
SoldRows = tuple[RoomType, Property, RatePlan | None, RatePlanModel | None, SalesChannel | None, PropertyChannel | None]


def sold_rows(
    *, property_id: str, roomtype_id: str, rateplan_id: str | None, channel_id: int | None
) -> SoldRows | None:
    """What a booking of these vendor ids sells, in one statement (every create and policy reads it; the
    ORM's query building costs more CPU than the database spends on it, bench.bookings); None when the
    property or room type is unknown. Without a rateplan_id, "= NULL" matches no plan: the same statement
    reads the room type alone; the rate plan, model, channel and link are None when none matched."""
    rt, p, rp, m, sc, pc = _SOLD
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(part.select() for part in _SOLD)} FROM {rt.table}"  # noqa: S608
            f" JOIN {p.table} ON {p.column('pk')} = {rt.column('property')}"
            f" LEFT JOIN {rp.table} ON {rp.column('property')} = {p.column('pk')}"
            f" AND {rp.column('vendor_id')} = %s AND {rp.column('room_type')} = {rt.column('pk')}"
            f" LEFT JOIN {m.table} ON {m.column('pk')} = {rp.column('model')}"
            f" LEFT JOIN {sc.table} ON {sc.column('channel_id')} = %s"
            f" LEFT JOIN {pc.table} ON {pc.column('property')} = {p.column('pk')}"
            f" AND {pc.column('channel')} = {sc.column('pk')}"
            f" WHERE {p.column('vendor_id')} = %s AND {rt.column('vendor_id')} = %s",
            [rateplan_id, channel_id, property_id, roomtype_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    found: list[Any] = []
    start = 0
    for part in _SOLD:
        found.append(part.build(row[start:]))
        start += len(part)
    room_type, prop, plan, model, channel, link = found
    return room_type, prop, plan, model, channel, link


def plan_days(*, plan: RatePlan, nights: list[datetime.date], package: bool) -> list[RatePlanDay]:
    """plan's days of these nights and, for a package, those of its room type's standalone plans too, in
    one statement (every priced create reads them; the ORM's OR of a subquery costs more CPU to build than
    the database spends on it, bench.bookings)."""
    d, s, sm = _DAY, _STANDALONE, _STANDALONE_MODEL
    plans = f"{d.column('rate_plan')} = %s"
    params: list[Any] = [plan.pk]
    if package:
        plans = (
            f"({plans} OR {d.column('rate_plan')} IN (SELECT {s.column('pk')} FROM {s.table}"  # noqa: S608
            f" JOIN {sm.table} ON {sm.column('pk')} = {s.column('model')}"
            f" WHERE {s.column('room_type')} = %s AND {sm.column('type')} = %s))"
        )
        params += [plan.room_type_id, RatePlanType.STANDALONE]
    dates = [connection.ops.adapt_datefield_value(night) for night in nights]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {d.select()} FROM {d.table} WHERE {plans}"  # noqa: S608
            f" AND {d.column('date')} IN ({', '.join(['%s'] * len(dates))})",
            [*params, *dates],
        )
        return [day for row in cursor.fetchall() if (day := d.build(row)) is not None]


def booking_insert(booking: Booking) -> Booking:
    """Insert a new booking in one plain INSERT (core.db.plain_sql.insert: Booking has no save receivers):
    the ORM's save() builds the same statement at a CPU cost every create pays (bench.bookings)."""
    return insert(booking)


def seen_webhook_insert(*, digest: uuid.UUID, at: datetime.datetime) -> bool:
    """Insert a webhook-id's digest unless it is there; whether it was inserted. One INSERT ... ON CONFLICT
    DO NOTHING: the ORM's bulk_create(ignore_conflicts=True) runs the same but does not say whether the row
    went in, and get_or_create would read first (two statements, and a race the primary key settles anyway)."""
    meta, quote = SeenWebhook._meta, connection.ops.quote_name
    fields = [cast("Field[Any, Any]", meta.get_field(name)) for name in ("digest", "created_at")]
    values = [field.get_db_prep_save(value, connection) for field, value in zip(fields, (digest, at), strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(column_name(field)) for field in fields)})"  # noqa: S608
            " VALUES (%s, %s) ON CONFLICT DO NOTHING",
            values,
        )
        return cursor.rowcount == 1
