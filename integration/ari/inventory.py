"""Inventory: the rooms bookings hold, take and release, night by night, and the availability push that
follows each change."""

from django.db import transaction
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
    """Hold rooms of room_type on every date for a pending booking: all nights or none. Each night is a
    conditional update (taken in date order, so concurrent stays never deadlock) that the database
    refuses once nothing is left; the availability push is queued for after the commit."""
    with transaction.atomic():
        for day in sorted(dates):
            held = RoomTypeDay.objects.filter(room_type=room_type, date=day, available__gte=rooms).update(
                held=F("held") + rooms, available=F("available") - rooms
            )
            if not held:
                raise NoRoomsAvailable(day)
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=dates)


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
