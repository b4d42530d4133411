"""What the migrations create beside the models' tables. The role groups and their permissions are checked
in tests/integration/access/test_roles.py, the search's trigram index in tests/bookings/test_front_desk_lists.py."""

import importlib

import pytest
from django.apps import apps as django_apps
from django.db import connection

from integration.hub.environments import HubEnvironment
from integration.hub.models import CONNECTION_PK, HubConnection


@pytest.mark.django_db
def test_migrate_creates_the_one_hub_connection_on_staging():
    initial = importlib.import_module("integration.migrations.0001_initial")
    assert any(
        getattr(operation, "code", None) is initial.create_connection for operation in initial.Migration.operations
    )
    # Run here rather than read what migrate left: a transactional test's flush, earlier on the same xdist
    # worker, removes the row.
    HubConnection.objects.all().delete()
    initial.create_connection(django_apps, None)
    assert HubConnection.objects.get(pk=CONNECTION_PK).environment == HubEnvironment.STAGING


@pytest.mark.postgres
@pytest.mark.django_db
def test_bookings_have_the_nights_index_and_no_text_pattern_copy_of_a_number():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('bookings_booking', 'bookings_inboundcall')"
        )
        indexes = dict(cursor.fetchall())

    assert "USING gin (nights jsonb_path_ops)" in indexes["booking_nights_gin"]
    assert {name for name, definition in indexes.items() if "pattern_ops" in definition} == set()
