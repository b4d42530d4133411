"""Inventory: the rooms bookings hold, take and release, night by night, and the availability push that
follows each change."""

import datetime
from collections.abc import Collection

from django.db import connection, transaction
from django.db.models import F

from ...content.models import RoomType
from ...sync.models import ResourceKind
from .. import sql
from ..models import RoomTypeDay
from .push import ari_mark_dirty


class NoRoomsAvailable(Exception):
    """Some night of a stay has no room left to hold; nothing was held."""

    def __init__(self, date: datetime.date) -> None:
        super().__init__(f"no room available on {date}")
        self.date = date


def inventory_hold(*, room_type: RoomType, dates: Collection[datetime.date], rooms: int = 1) -> None:
    """Hold rooms of room_type on every date for a pending booking: all nights or none, in two statements
    whatever the stay's length (on PostgreSQL): one read locking the nights in date order (so concurrent
    stays never deadlock), then, when every night has the rooms, one update of them all that also adds
    them to the outbox (the availability push, queued for after the commit). Raises NoRoomsAvailable
    (the first night short) having changed nothing."""
    nights = sorted(set(dates))
    # No savepoint: nothing is written before the check, and a database error aborts the caller's
    # transaction anyway (all-or-nothing is the transaction of the booking that holds).
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(*sql.nights_lock(room_type.pk, nights))
        locked = {_as_date(day): available for day, available in cursor.fetchall()}
        short = next((night for night in nights if locked.get(night, 0) < rooms), None)
        if short is None:
            # The update goes with the outbox's statement (one round trip on PostgreSQL).
            update = sql.nights_hold(room_type.pk, nights, rooms)
            ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=nights, along=update)
    if short is not None:
        raise NoRoomsAvailable(short)


def _as_date(value: datetime.date | str) -> datetime.date:
    """A date column's value as a date (SQLite's driver gives the stored text)."""
    return value if isinstance(value, datetime.date) else datetime.date.fromisoformat(value)


def inventory_take(*, room_type: RoomType, dates: Collection[datetime.date], rooms: int = 1) -> None:
    """A confirmed booking takes the rooms it held (what is left does not change)."""
    with transaction.atomic():
        for day in sorted(dates):
            RoomTypeDay.objects.filter(room_type=room_type, date=day).update(
                held=F("held") - rooms, taken=F("taken") + rooms
            )
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=dates)


def inventory_release(
    *, room_type: RoomType, dates: Collection[datetime.date], rooms: int = 1, taken: bool = False
) -> None:
    """A cancelled or expired booking gives its rooms back (held ones, or taken ones if confirmed)."""
    counter = "taken" if taken else "held"
    with transaction.atomic():
        for day in sorted(dates):
            RoomTypeDay.objects.filter(room_type=room_type, date=day).update(
                **{counter: F(counter) - rooms}, available=F("available") + rooms
            )
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=dates)
