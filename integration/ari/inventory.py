"""Inventory: the rooms bookings hold, take and release, night by night, and the availability push that
follows each change."""

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
    """Hold rooms of room_type on every date for a pending booking: all nights or none, in one statement
    whatever the stay's length. It locks the nights in date order (so concurrent stays never deadlock)
    and updates them only when every one has the rooms; the availability push is queued for after the
    commit. Raises NoRoomsAvailable (the first night short) having changed nothing."""
    nights = sorted(set(dates))
    values = [connection.ops.adapt_datefield_value(night) for night in nights]
    sql = _HOLD_SQL.format(nights=", ".join(["%s"] * len(nights)), lock=_lock_clause())
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(sql, [room_type.pk, *values, rooms, rooms, rooms, len(nights)])
        if cursor.fetchall():
            ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=nights)
            return
        # Nothing held: name the first night short, as the rows locked above show it.
        available = dict(
            RoomTypeDay.objects.filter(room_type=room_type, date__in=nights).values_list("date", "available")
        )
    raise NoRoomsAvailable(next(night for night in nights if available.get(night, 0) < rooms))


#: The nights locked in date order, then all updated if each has the rooms (a FOR UPDATE read returns
#: each row as its last committed writer left it), else none; RETURNING tells which.
_HOLD_SQL = f"""
WITH night AS MATERIALIZED (
    SELECT id, available FROM {RoomTypeDay._meta.db_table}
    WHERE room_type_id = %s AND date IN ({{nights}}) ORDER BY date{{lock}}
)
UPDATE {RoomTypeDay._meta.db_table} SET held = held + %s, available = available - %s
WHERE id IN (SELECT id FROM night) AND (SELECT COUNT(*) FROM night WHERE available >= %s) = %s
RETURNING id
"""  # noqa: S608


def _lock_clause():
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


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
