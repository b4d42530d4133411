"""The hand-written statements of rates and availability (integration.ari.sql), each run on the engine
of the test run (SQLite, and PostgreSQL with DATABASE_URL): what they read and write, with the table and
column names the models give."""

import datetime

import pytest
from django.db import connection

from core.dates import korea_today
from integration.ari import sql
from integration.ari.dates import DateRange
from integration.ari.services.push import ari_mark_dirty
from integration.models import AriDirtyRange, RoomTypeDay, SyncState
from integration.sync.services.outbox import sync_state_bump_statement
from tests.factories import PropertyFactory, hub_content

pytestmark = pytest.mark.django_db


def day(n):
    return korea_today() + datetime.timedelta(days=n)


@pytest.fixture
def room_type():
    room_type, *_ = hub_content(PropertyFactory())
    RoomTypeDay.objects.bulk_create(
        RoomTypeDay(room_type=room_type, date=day(n), allotment=n + 1, available=n + 1) for n in (1, 2, 3)
    )
    return room_type


def run(statement):
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return cursor.fetchall() if cursor.description else None


def test_nights_lock_reads_the_nights_asked_in_date_order(room_type):
    rows = run(sql.nights_lock(room_type.pk, [day(3), day(1)]))

    assert [(str(date)[:10], available) for date, available in rows] == [(str(day(1)), 2), (str(day(3)), 4)]


def test_nights_hold_moves_rooms_from_available_to_held_on_those_nights_only(room_type):
    run(sql.nights_hold(room_type.pk, [day(1), day(2)], 2))

    assert list(RoomTypeDay.objects.order_by("date").values_list("held", "available")) == [(2, 0), (2, 1), (0, 4)]


def test_the_outbox_row_statement_names_the_row_of_its_kind_and_object(room_type):
    ari_mark_dirty(room_type, kind="ari_avails", dates=[day(1)])
    state = SyncState.objects.get(kind="ari_avails", object_id=room_type.pk)

    found = run(sync_state_bump_statement(*sql.sync_state_of("ari_avails", room_type.pk)))
    missing = run(sync_state_bump_statement(*sql.sync_state_of("ari_rates", room_type.pk)))

    assert [row[0] for row in found] == [state.pk]
    assert missing == []


def test_dirty_ranges_insert_adds_each_range_to_the_outbox_row(room_type):
    ari_mark_dirty(room_type, kind="ari_avails", dates=[day(1)])
    state = SyncState.objects.get(kind="ari_avails", object_id=room_type.pk)

    run(sql.dirty_ranges_insert(state.pk, [DateRange(day(3), day(4)), DateRange(day(6), day(6))]))

    assert sorted(AriDirtyRange.objects.values_list("date_from", "date_to")) == [
        (day(1), day(1)),
        (day(3), day(4)),
        (day(6), day(6)),
    ]


@pytest.mark.postgres
def test_dirty_ranges_add_with_runs_the_change_the_bump_and_the_insert_as_one_statement(room_type):
    ari_mark_dirty(room_type, kind="ari_avails", dates=[day(1)])
    state = SyncState.objects.get(kind="ari_avails", object_id=room_type.pk)
    bump = sync_state_bump_statement(*sql.sync_state_of("ari_avails", room_type.pk))
    along = sql.nights_hold(room_type.pk, [day(2)], 1)

    rows = run(sql.dirty_ranges_add_with(bump, [DateRange(day(2), day(2))], along))
    no_row = sync_state_bump_statement(*sql.sync_state_of("ari_rates", room_type.pk))
    none = run(sql.dirty_ranges_add_with(no_row, [DateRange(day(5), day(5))]))

    assert [row[0] for row in rows] == [state.pk]
    assert none == []
    assert RoomTypeDay.objects.get(date=day(2)).held == 1
    assert sorted(AriDirtyRange.objects.values_list("date_from", flat=True)) == [day(1), day(2)]


def test_the_statements_take_their_names_from_the_models(room_type):
    table = RoomTypeDay._meta.db_table
    column = RoomTypeDay._meta.get_field("room_type").column

    statement, params = sql.nights_lock(room_type.pk, [day(1)])

    assert f"FROM {table}" in statement
    assert f"WHERE {column} = %s" in statement
    assert params[0] == room_type.pk
