"""The bookings area's hand-written SQL (bookings.sql, bookings.settlement.sql), each statement run here on
the engine of the run (SQLite, or PostgreSQL with DATABASE_URL): what it reads or writes is what the ORM
reads back."""

import datetime
import uuid
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings import services, sql
from bookings.models import Booking, SeenWebhook
from bookings.settlement.choices import Category
from bookings.settlement.models import Reconciliation, ReconciliationRow
from bookings.settlement.sql import RowWriter
from tests.bookings.factories import CHANNEL_ID, MODIFY, RATE, create_body, sellable
from tests.integration.ari.factories import day

pytestmark = pytest.mark.django_db


def test_what_a_booking_sells_is_read_in_one_statement_with_its_rate_plan_and_channel(django_assert_num_queries):
    room_type, standalone, _package = sellable(nights=1)
    prop = room_type.property

    with django_assert_num_queries(1):
        rows = sql.sold_rows(
            property_id=prop.vendor_id,
            roomtype_id=room_type.vendor_id,
            rateplan_id=standalone.vendor_id,
            channel_id=CHANNEL_ID,
        )
    assert rows is not None
    read_room_type, read_property, plan, model, channel, link = rows
    assert (read_room_type.pk, read_property.pk) == (room_type.pk, prop.pk)
    assert (plan.pk, model.pk) == (standalone.pk, standalone.model_id)
    assert channel.channel_id == CHANNEL_ID
    assert (link.property_id, link.channel_id) == (prop.pk, channel.pk)
    assert read_property.refunds == prop.refunds  # JSON decoded as the ORM decodes it


def test_without_a_rate_plan_or_a_known_channel_the_room_type_is_read_alone():
    room_type, _standalone, _package = sellable(nights=1)
    prop = room_type.property

    rows = sql.sold_rows(property_id=prop.vendor_id, roomtype_id=room_type.vendor_id, rateplan_id=None, channel_id=99)
    assert rows is not None
    assert rows[0].pk == room_type.pk
    assert rows[2:] == (None, None, None, None)
    unknown = sql.sold_rows(property_id=prop.vendor_id, roomtype_id="nope", rateplan_id=None, channel_id=CHANNEL_ID)
    assert unknown is None


def test_a_packages_days_come_with_its_standalone_plans_days():
    _room_type, standalone, package = sellable(nights=3)
    nights = [day(1), day(3)]

    plain = sql.plan_days(plan=standalone, nights=nights, package=False)
    assert sorted((d.rate_plan_id, d.date, d.rate) for d in plain) == [(standalone.pk, n, RATE) for n in nights]
    both = sql.plan_days(plan=package, nights=nights, package=True)
    assert sorted((d.rate_plan_id, d.date) for d in both) == sorted(
        [(standalone.pk, n) for n in nights] + [(package.pk, n) for n in nights]
    )
    assert {d.rate_modify for d in both if d.rate_plan_id == package.pk} == {MODIFY}
    assert all(isinstance(d.date, datetime.date) for d in both)


def test_a_booking_inserted_by_plain_sql_reads_back_as_it_was_built():
    _room_type, standalone, _package = sellable(nights=2)
    booking, created = services.booking_create(payload=_validated(create_body(standalone, nights=2)))

    assert created
    saved = Booking.objects.get(pk=booking.pk)
    assert saved.vendor_booking_number  # the database's default, read back
    assert saved.nights == [day(1).isoformat(), day(2).isoformat()]
    assert saved.amount == Decimal(2 * RATE)
    assert saved.created_at is not None
    assert saved.content_digest == booking.content_digest


def test_a_webhook_id_is_inserted_once():
    digest, now = uuid.uuid4(), timezone.now()

    assert sql.seen_webhook_insert(digest=digest, at=now)
    assert not sql.seen_webhook_insert(digest=digest, at=now)
    assert SeenWebhook.objects.get().digest == digest


def test_reconciliation_rows_written_by_executemany_read_back_through_the_orm():
    room_type, _standalone, _package = sellable(nights=1)
    prop = room_type.property
    reconciliation = Reconciliation.objects.create(date_from=day(0), date_to=day(30))
    writer = RowWriter()
    the_day = datetime.date(2026, 12, 24)

    writer.write(
        [
            writer.row(
                reconciliation, prop, Category.HUB_ONLY, "V-1", None, the_day, ("확정", Decimal("10.5"), None), None
            ),
            writer.row(reconciliation, prop, Category.MATCHED, "V-2", None, the_day, None, ("confirmed", 1, 2)),
        ]
    )

    rows = ReconciliationRow.objects.filter(reconciliation=reconciliation).order_by("vendor_booking_number")
    first, second = rows
    assert (first.category, first.hub_status, first.hub_total_amount, first.our_status) == (
        Category.HUB_ONLY,
        "확정",
        Decimal("10.50"),
        "",
    )
    assert (first.date, first.month, first.property_id) == (the_day, datetime.date(2026, 12, 1), prop.pk)
    assert (second.our_total_amount, second.our_net_price, second.hub_total_amount) == (Decimal(1), Decimal(2), None)


def _validated(body):
    from bookings.api.serializers import BookingCreateSerializer

    serializer = BookingCreateSerializer(data=body)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
