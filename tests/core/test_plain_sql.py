"""Model instances from plain SQL (core.db.plain_sql): the values the ORM would give, the fields not
read deferred, and no instance for an outer join that matched nothing; a row inserted as save() would,
and never for a model whose saves something listens to."""

import datetime

import pytest
from django.db import connection
from django.db.models.signals import post_save, pre_save

from core.db.plain_sql import Columns, HasSaveReceivers, RowWithParents, insert
from integration.models import PropertyChannel, RatePlanDay, SalesChannel
from tests.bookings.factories import open_channel, sellable
from tests.integration.ari.factories import day

pytestmark = pytest.mark.django_db

LINK = Columns(PropertyChannel, "pc", "property", "channel", "on_sale", "room_types")
DAY = Columns(RatePlanDay, "d", "rate_plan", "date", "rate", "business_day")


def rows(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def test_columns_are_converted_as_the_orm_converts_them():
    room_type, standalone, _package = sellable(nights=2)
    link = open_channel(room_type.property, room_types={room_type.vendor_id: False})
    RatePlanDay.objects.filter(rate_plan=standalone, date=day(2)).update(business_day=False)

    (row,) = rows(f"SELECT {LINK.select()} FROM {LINK.table} WHERE pc.id = %s", [link.pk])  # noqa: S608
    built = LINK.build(row)
    assert (built.pk, built.property_id, built.channel_id) == (link.pk, link.property_id, link.channel_id)
    assert built.on_sale is True
    assert built.room_types == {room_type.vendor_id: False}  # JSON decoded, not its text

    found = rows(
        f"SELECT {DAY.select()} FROM {DAY.table} WHERE d.rate_plan_id = %s ORDER BY d.date",  # noqa: S608
        [standalone.pk],
    )
    days = [DAY.build(row) for row in found]
    assert [(d.date, d.rate, d.business_day) for d in days] == [(day(1), 100_000, True), (day(2), 100_000, False)]
    assert all(isinstance(d.date, datetime.date) for d in days)  # SQLite gives the text, converted


def test_fields_not_read_load_on_first_use(django_assert_num_queries):
    room_type, _standalone, _package = sellable(nights=1)
    link = PropertyChannel.objects.get(property=room_type.property)
    (row,) = rows(f"SELECT {LINK.select()} FROM {LINK.table} WHERE pc.id = %s", [link.pk])  # noqa: S608
    built = LINK.build(row)

    assert built.get_deferred_fields() >= {"status", "rate_plans", "updated_at"}
    with django_assert_num_queries(1):
        assert built.status == link.status


def test_an_outer_join_that_matched_nothing_builds_none():
    room_type, _standalone, _package = sellable(nights=1)
    channel = SalesChannel.objects.create(channel_id=99, name="Not open here")
    columns = Columns(SalesChannel, "sc", "channel_id")
    (row,) = rows(
        f"SELECT {columns.select()}, {LINK.select()} FROM {columns.table}"  # noqa: S608
        f" LEFT JOIN {LINK.table} ON pc.channel_id = sc.id AND pc.property_id = %s WHERE sc.id = %s",
        [room_type.property_id, channel.pk],
    )
    assert columns.build(row).channel_id == 99
    assert LINK.build(row[len(columns) :]) is None


def test_a_row_is_inserted_with_what_save_would_write():
    room_type, _standalone, _package = sellable(nights=1)
    channel = SalesChannel(channel_id=42, name="Forty-two")  # its channel_type by default

    assert insert(channel) is channel
    assert channel.pk is not None
    assert not channel._state.adding
    saved = SalesChannel.objects.get(pk=channel.pk)
    assert (saved.channel_id, saved.name, saved.channel_type) == (42, "Forty-two", SalesChannel().channel_type)

    link = insert(PropertyChannel(property=room_type.property, channel=saved, room_types={"r": True}))
    saved = PropertyChannel.objects.get(pk=link.pk)
    assert saved.room_types == {"r": True}  # JSON, as the ORM writes it
    assert saved.status == PropertyChannel().status  # a default
    assert saved.updated_at is not None  # auto_now


@pytest.mark.parametrize("signal", [pre_save, post_save], ids=["pre_save", "post_save"])
def test_a_model_with_save_receivers_is_refused(signal):
    def receiver(**kwargs):
        raise AssertionError("a plain INSERT does not send save signals")

    signal.connect(receiver, sender=SalesChannel, weak=False, dispatch_uid="test_plain_sql")
    try:
        with pytest.raises(HasSaveReceivers):
            insert(SalesChannel(channel_id=43, name="Listened to"))
    finally:
        signal.disconnect(sender=SalesChannel, dispatch_uid="test_plain_sql")
    assert not SalesChannel.objects.filter(channel_id=43).exists()
    assert insert(SalesChannel(channel_id=43, name="Not listened to")).pk is not None


def test_a_row_with_its_parents_is_read_in_one_statement_as_select_related_reads_it(django_assert_num_queries):
    from integration.models import RatePlan

    _room_type, standalone, _package = sellable(nights=1)
    reader = RowWithParents(RatePlan, ("property", "room_type", "model"))
    expected = RatePlan.objects.select_related("property", "room_type", "model").get(pk=standalone.pk)

    with django_assert_num_queries(1):
        found = reader.get(standalone.pk)
        parents = (found.property, found.room_type, found.model)  # in place: no query each
    assert found == expected
    assert [field.value_from_object(found) for field in RatePlan._meta.concrete_fields] == [
        field.value_from_object(expected) for field in RatePlan._meta.concrete_fields
    ]
    assert parents == (expected.property, expected.room_type, expected.model)
    assert parents[1].name == expected.room_type.name
    assert reader.get(standalone.pk + 1000) is None
