"""The hand-written SQL of rates and availability, in one place: each statement says why the ORM does not
write it. Table and column names come from the models (a renamed field or table follows; ours need no
quoting); values are always parameters. Every statement runs in the tests on SQLite and on PostgreSQL
(tests/integration/ari/test_ari_sql.py)."""

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from ..sync.models import SyncState
from .dates import DateRange
from .models import AriDirtyRange, RoomTypeDay

#: A statement and its parameters, as cursor.execute takes them.
Statement = tuple[str, list[Any]]


def _table(model: type[Model]) -> str:
    return model._meta.db_table


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    column = field.column if isinstance(field, Field) else None
    assert column is not None  # the statements name concrete fields only
    return column


def _dates(nights: Sequence[datetime.date]) -> list[Any]:
    return [connection.ops.adapt_datefield_value(night) for night in nights]


def nights_lock(room_type_id: int, nights: Sequence[datetime.date]) -> Statement:
    """The nights of a stay (date, available), locked in date order so that concurrent stays never
    deadlock. A locking read returns each row as its last writer committed it (not as of the statement's
    start, as one UPDATE's subquery would see it); SQLite locks the whole database instead.

    Not the ORM: every booking runs it, and building it through the ORM cost more CPU than the database
    spends on it."""
    day, available = _column(RoomTypeDay, "date"), _column(RoomTypeDay, "available")
    locks = " FOR UPDATE" if connection.features.has_select_for_update else ""
    statement = (
        f"SELECT {day}, {available} FROM {_table(RoomTypeDay)}"  # noqa: S608 (names from the model)
        f" WHERE {_column(RoomTypeDay, 'room_type')} = %s AND {day} IN ({', '.join(['%s'] * len(nights))})"
        f" ORDER BY 1 ASC{locks}"
    )
    return statement, [room_type_id, *_dates(nights)]


def nights_hold(room_type_id: int, nights: Sequence[datetime.date], rooms: int) -> Statement:
    """Hold rooms on the nights of a stay: held up, available down, in one statement.

    Not the ORM: every booking runs it, and it goes along with the outbox's statement (ari_mark_dirty's
    along), in one round trip on PostgreSQL."""
    held, available = _column(RoomTypeDay, "held"), _column(RoomTypeDay, "available")
    statement = (
        f"UPDATE {_table(RoomTypeDay)} SET {held} = {held} + %s, {available} = {available} - %s"  # noqa: S608
        f" WHERE {_column(RoomTypeDay, 'room_type')} = %s"
        f" AND {_column(RoomTypeDay, 'date')} IN ({', '.join(['%s'] * len(nights))})"
    )
    return statement, [rooms, rooms, room_type_id, *_dates(nights)]


def sync_state_of(kind: str, object_id: int) -> Statement:
    """The condition (over the outbox's columns) naming the outbox row of (kind, object_id), for
    integration.sync.services.outbox.sync_state_bump_statement.

    Not the ORM: that statement is SQL (it runs inside a WITH of the change on PostgreSQL)."""
    return f"{_column(SyncState, 'kind')} = %s AND {_column(SyncState, 'object_id')} = %s", [kind, object_id]


def _range_columns() -> str:
    return ", ".join(_column(AriDirtyRange, name) for name in ("state", "date_from", "date_to"))


def dirty_ranges_insert(state_id: int, ranges: Sequence[DateRange]) -> Statement:
    """Add ranges to the outbox row state_id (its bump already run), in one statement.

    Not the ORM: it is the second half of dirty_ranges_add_with, run apart where the database has no
    data-modifying WITH; one text for both keeps the two engines writing the same rows."""
    rows = " UNION ALL ".join("SELECT %s, %s, %s" for _ in ranges)
    params: list[Any] = []
    for date_range in ranges:
        params += [state_id, *_dates([date_range.start, date_range.end])]
    return f"INSERT INTO {_table(AriDirtyRange)} ({_range_columns()}) {rows}", params


def dirty_ranges_add_with(bump: Statement, ranges: Sequence[DateRange], along: Statement | None = None) -> Statement:
    """PostgreSQL: along (a statement of the change, or None), bump (the outbox row's update, RETURNING
    id and claimed) and the insert of ranges for that row, as one statement returning (id, claimed) or no
    row when the outbox has no such row.

    Not the ORM: the ORM has no data-modifying WITH, and every booking's hold saves two round trips."""
    change, change_params = (f"change AS ({along[0]}), ", along[1]) if along else ("", [])
    rows = " UNION ALL ".join("SELECT id, %s::date, %s::date FROM state" for _ in ranges)
    params: list[Any] = [*change_params, *bump[1]]
    for date_range in ranges:
        params += _dates([date_range.start, date_range.end])
    statement = (
        f"WITH {change}state AS ({bump[0]}),"  # noqa: S608 (names from the models)
        f" added AS (INSERT INTO {_table(AriDirtyRange)} ({_range_columns()}) {rows})"
        " SELECT id, claimed FROM state"
    )
    return statement, params
