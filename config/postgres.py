"""Reading PostgreSQL dates and timestamps that Python cannot hold.

PostgreSQL stores years from 4713 BC to 294276 AD and +/-infinity; Python's datetime holds years 1 to
9999, and psycopg refuses the rest ("timestamp too small"), failing the whole query. One such value,
stored before the input was checked, would make every list and task that reads its row fail. These
loaders read it instead as the earliest or latest value Python holds, a day inside its range so that
converting it to any time zone still works; the value shows as year 1 or 9999 and the row can be handled.
"""

import datetime
import logging
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import psycopg
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg.types.datetime import DateLoader, TimestampLoader

if TYPE_CHECKING:
    from psycopg.adapt import Loader as _LoaderBase
else:
    _LoaderBase = object

logger = logging.getLogger(__name__)

EARLIEST = datetime.datetime.min + datetime.timedelta(days=1)
LATEST = datetime.datetime.max - datetime.timedelta(days=1)


class _Clamped(_LoaderBase):
    """A loader that reads a value out of Python's range as EARLIEST or LATEST (see clamp)."""

    # Each loader's own: the date or timestamp it returns for EARLIEST or LATEST.
    clamp: Any

    def load(self, data):
        try:
            # A mixin: the loader it is mixed into (DateLoader, TimestampLoader, ...) has the body.
            return super().load(data)  # type: ignore[safe-super]
        except psycopg.DataError:
            text = bytes(data).decode("ascii", "replace")
            # A BC date ends with " BC" (DateStyle ISO, as Django sets it); "-infinity" is the other early one.
            early = text.endswith(" BC") or text.startswith("-")
            logger.warning("read the out-of-range value %r as year %s", text, 1 if early else 9999)
            return self.clamp(EARLIEST if early else LATEST)


class ClampedDateLoader(_Clamped, DateLoader):
    def clamp(self, value):
        return value.date()


class ClampedTimestampLoader(_Clamped, TimestampLoader):
    def clamp(self, value):
        return value


class ClampedTimestamptzLoader(_Clamped, BaseTzLoader):
    """Django's loader of timestamptz (in the connection's time zone), clamped."""

    def clamp(self, value):
        return value.replace(tzinfo=self.timezone)


@lru_cache
def _timestamptz_loader(timezone):
    # Django checks the loader's timezone before each cursor and replaces a loader that disagrees.
    return type("ClampedTimestamptzLoader", (ClampedTimestamptzLoader,), {"timezone": timezone})


def register_clamped_loaders(sender, connection, **kwargs):
    """connection_created receiver: install the clamped loaders on each new PostgreSQL connection."""
    if connection.vendor != "postgresql":
        return
    adapters = connection.connection.adapters
    adapters.register_loader("date", ClampedDateLoader)
    adapters.register_loader("timestamp", ClampedTimestampLoader)
    adapters.register_loader("timestamptz", _timestamptz_loader(connection.timezone))
