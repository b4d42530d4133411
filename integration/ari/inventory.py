"""Inventory: the rooms bookings hold, take and release, night by night, and the availability push that
follows each change."""

import datetime

from django.db import connection, transaction
from django.db.models import F

from ..sync.models import ResourceKind
from .models import RoomTypeDay
from .services import ari_mark_dirty


class NoRoomsAvailable(Exception):
    """Some night of a stay has no room left to hold; nothing was held."""

    def __init__(self, date):
        super().__init__(f"no room available on {date}")
        self.date = date


def inventory_hold(*, room_type, dates, rooms=1):
    """Hold rooms of room_type on every date for a pending booking: all nights or none, in two statements
    whatever the stay's length (on PostgreSQL): one read locking the nights in date order (so concurrent
    stays never deadlock), then, when every night has the rooms, one update of them all that also adds
    them to the outbox (the availability push, queued for after the commit). Raises NoRoomsAvailable
    (the first night short) having changed nothing."""
    nights = sorted(set(dates))
    # Plain SQL, not the ORM: every booking runs these statements, and building them through the ORM
    # cost more CPU than the database spends on them.
    ops, table = connection.ops, RoomTypeDay._meta.db_table
    days = ", ".join(["%s"] * len(nights))
    params = [room_type.pk, *(ops.adapt_datefield_value(night) for night in nights)]
    # No savepoint: nothing is written before the check, and a database error aborts the caller's
    # transaction anyway (all-or-nothing is the transaction of the booking that holds).
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        # A locking read returns each row as its last writer committed it (not as of the statement's
        # start, as one UPDATE's subquery would see it). SQLite locks the whole database instead.
        locks = " FOR UPDATE" if connection.features.has_select_for_update else ""
        cursor.execute(
            f"SELECT date, available FROM {table} WHERE room_type_id = %s AND date IN ({days})"  # noqa: S608
            f" ORDER BY 1 ASC{locks}",
            params,
        )
        locked = {_as_date(day): available for day, available in cursor.fetchall()}
        short = next((night for night in nights if locked.get(night, 0) < rooms), None)
        if short is None:
            # The update goes with the outbox's statement (one round trip on PostgreSQL).
            update = (
                f"UPDATE {table} SET held = held + %s, available = available - %s"  # noqa: S608
                f" WHERE room_type_id = %s AND date IN ({days})"
            )
            ari_mark_dirty(
                room_type, kind=ResourceKind.ARI_AVAILS, dates=nights, along=(update, [rooms, rooms, *params])
            )
    if short is not None:
        raise NoRoomsAvailable(short)


def _as_date(value):
    """A date column's value as a date (SQLite's driver gives the stored text)."""
    return value if isinstance(value, datetime.date) else datetime.date.fromisoformat(value)


def inventory_take(*, room_type, dates, rooms=1):
    """A confirmed booking takes the rooms it held (what is left does not change)."""
    with transaction.atomic():
        for day in sorted(dates):
            RoomTypeDay.objects.filter(room_type=room_type, date=day).update(
                held=F("held") - rooms, taken=F("taken") + rooms
            )
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=dates)


def inventory_release(*, room_type, dates, rooms=1, taken=False):
    """A cancelled or expired booking gives its rooms back (held ones, or taken ones if confirmed)."""
    counter = "taken" if taken else "held"
    with transaction.atomic():
        for day in sorted(dates):
            RoomTypeDay.objects.filter(room_type=room_type, date=day).update(
                **{counter: F(counter) - rooms}, available=F("available") + rooms
            )
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=dates)
