"""The database itself keeps the spec's rules, whatever code writes to it."""

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from integration.models import RatePlanModel
from tests.factories import PropertyFactory, RatePlanFactory, RatePlanModelFactory, RoomTypeFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "fields",
    [
        {"min_stay": 5, "max_stay": 2},
        {"standard_capacity": 5, "max_capacity": 2},
        {"min_stay": 0},
        {"max_capacity": 0},
    ],
)
def test_room_type_limits_are_database_constraints(fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        RoomTypeFactory(**fields)


@pytest.mark.parametrize("fields", [{"min_los": 3, "max_los": 1}, {"min_los": 0}, {"type": "other"}])
def test_rate_plan_model_limits_are_database_constraints(fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        RatePlanModelFactory(**fields)


def test_one_standalone_model_per_property():
    prop = PropertyFactory()
    RatePlanModelFactory(property=prop, type="standalone")

    with pytest.raises(IntegrityError), transaction.atomic():
        RatePlanModelFactory(property=prop, type="standalone")
    RatePlanModelFactory(property=prop, type="package")
    RatePlanModelFactory(property=PropertyFactory(), type="standalone")


def test_vendor_ids_are_unique_per_property():
    room_type = RoomTypeFactory(vendor_id="ondol")
    RoomTypeFactory(vendor_id="ondol")  # another property may use the same id

    with pytest.raises(IntegrityError), transaction.atomic():
        RoomTypeFactory(vendor_id="ondol", property=room_type.property)


def test_one_rate_plan_per_room_type_and_model():
    plan = RatePlanFactory()

    with pytest.raises(IntegrityError), transaction.atomic():
        RatePlanFactory(room_type=plan.room_type, model=plan.model)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_standalone_models_leave_exactly_one():
    """Two staff save a standalone model for the same property at the same moment: the database lets
    exactly one in (a partial unique index), whichever Python checks passed first."""
    prop = PropertyFactory()
    barrier = threading.Barrier(6)
    outcomes = []

    def create(n):
        try:
            barrier.wait()
            with transaction.atomic():
                RatePlanModel.objects.create(property=prop, vendor_id=f"base-{n}", name="Base", type="standalone")
            outcomes.append("created")
        except IntegrityError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["created"] + ["refused"] * 5
    assert RatePlanModel.objects.filter(property=prop, type="standalone").count() == 1
