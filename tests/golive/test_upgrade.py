"""Upgrades: a database built at each recorded release's migration state (golive.releases), with a row in
every table written through that state's own (historical) models, migrates forward to this code's state
with its rows kept, and the product runs on it. For the first release the recorded state is today's; each
later release adds its line to RELEASE_MIGRATIONS and this test migrates from every one."""

import datetime
import decimal
import uuid
from datetime import timedelta
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connections, models
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from core.models import Heartbeat
from golive import backup
from golive.backup import BACKUP_HEARTBEAT
from golive.releases import RELEASE_MIGRATIONS, upgrade_plan

UPGRADED = "upgraded"

#: Values a field's type cannot suggest: {(app label, model name): {field: value}} (check constraints).
VALUES = {
    ("integration", "rateplanday"): {"rate_modify": None},
    ("integration", "channelrateday"): {"rate_modify": None},
    ("integration", "roomtypeday"): {"allotment": 1, "held": 0, "taken": 0, "available": 1},
    ("integration", "aricellchange"): {"room_type": None},
    ("integration", "channelavailrule"): {"kind": "cap", "value": 1},
    # A confirmed booking of one night: the reports' migration computes its figures.
    ("bookings", "booking"): {
        "checkin": datetime.datetime(2026, 1, 1, 6, tzinfo=datetime.UTC),
        "checkout": datetime.datetime(2026, 1, 2, 2, tzinfo=datetime.UTC),
        "status": "confirmed",
        "nights": ["2026-01-01"],
    },
}


@pytest.fixture
def upgraded_database(tmp_path):
    """An empty database beside the test database (a file on SQLite), as the alias UPGRADED."""
    default = connections["default"]
    source = default.settings_dict
    if default.vendor == "postgresql":
        name = f"{source['NAME']}_upgraded"
        with default.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}"')
    else:
        name = str(tmp_path / "upgraded.sqlite3")
    # Not among settings.DATABASES: a connection made in the test, which Django lets it use.
    connections[UPGRADED] = type(default)(source | {"NAME": name}, alias=UPGRADED)
    try:
        yield connections[UPGRADED]
    finally:
        connections[UPGRADED].close()
        del connections[UPGRADED]
        if default.vendor == "postgresql":
            with default.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _value(field, model, rows):
    """A value field accepts, from its type: its default, its first choice, a row of the model it refers to."""
    if field.is_relation:
        return rows[field.related_model._meta.label_lower] if field.related_model is not model else None
    if field.has_default():
        return field.get_default()
    if field.choices:
        return field.choices[0][0]
    for kind, value in (
        (models.EmailField, "ops@example.com"),
        (models.URLField, "https://example.com/"),
        (models.GenericIPAddressField, "127.0.0.1"),
        (models.FileField, "upgrade/file.pdf"),
        (models.CharField, "u"),
        (models.TextField, "upgrade"),
        (models.BooleanField, False),
        (models.DecimalField, decimal.Decimal("1")),
        (models.FloatField, 1.0),
        (models.IntegerField, 1),
        (models.DateTimeField, timezone.now()),
        (models.DateField, datetime.date(2026, 1, 1)),
        (models.TimeField, datetime.time(12)),
        (models.DurationField, datetime.timedelta(hours=1)),
        (models.UUIDField, uuid.uuid4()),
        (models.JSONField, {}),
        (models.BinaryField, b"u"),
    ):
        if isinstance(field, kind):
            return value
    raise AssertionError(f"no value for {model._meta.label}.{field.name} ({type(field).__name__})")


def _ordered(historical):
    """The models of a migration state, each after the models its required foreign keys refer to."""
    remaining = [model for model in historical.get_models(include_auto_created=True) if model._meta.managed]
    ordered = []
    while remaining:
        ready = [
            model
            for model in remaining
            if all(
                field.related_model in ordered or field.related_model is model
                for field in model._meta.concrete_fields
                if field.is_relation
            )
        ]
        assert ready, f"foreign keys in a cycle: {remaining}"
        ordered += ready
        remaining = [model for model in remaining if model not in ready]
    return ordered


def _fill(connection, state):
    """One row in every table of the migration state's models. Returns {table: 1}."""
    historical = MigrationExecutor(connection).loader.project_state(state).apps
    rows = {}
    for model in _ordered(historical):
        values = {
            field.name: _value(field, model, rows)
            for field in model._meta.concrete_fields
            if not (field.primary_key and isinstance(field, models.AutoField))
        }
        values |= VALUES.get((model._meta.app_label, model._meta.model_name), {})
        rows[model._meta.label_lower] = model.objects.using(connection.alias).create(**values)
    return {model._meta.db_table for model in _ordered(historical)}


@pytest.mark.parametrize("release", sorted(RELEASE_MIGRATIONS))
@pytest.mark.django_db(transaction=True)
def test_a_database_of_a_release_with_a_row_in_every_table_migrates_forward_and_runs(release, upgraded_database):
    state = [(app, name) for app, name in RELEASE_MIGRATIONS[release].items()]
    executor = MigrationExecutor(upgraded_database)
    state = [node for node in state if node in executor.loader.graph.nodes]  # hubsandbox only where installed
    executor.migrate(state)
    tables = _fill(upgraded_database, state)

    call_command("migrate", database=UPGRADED, interactive=False, stdout=StringIO())

    assert backup.migration_state(UPGRADED) == backup.code_migration_state()
    assert upgrade_plan(UPGRADED) == ([], [])
    counts = backup.table_counts(UPGRADED)
    assert {table for table in tables if counts.get(table, 0) == 0} == set(), "rows lost by a migration"
    # The product runs on it: its checks pass, and every model of today reads the rows of its table (a table
    # new since the release starts empty).
    call_command("check", databases=[UPGRADED], stdout=StringIO())
    unreadable = [
        model
        for model in apps.get_models()
        if model._meta.db_table in tables and not model.objects.using(UPGRADED).exists()
    ]
    assert unreadable == []


@pytest.mark.django_db(transaction=True)
def test_upgrade_check_lists_what_migrate_will_apply_and_asks_for_a_recent_backup(upgraded_database):
    MigrationExecutor(upgraded_database).migrate([("core", "0002_sent_mail")])
    out = StringIO()

    with pytest.raises(CommandError, match=r"The last backup finished never\. Back up first"):
        call_command("upgrade_check", database=UPGRADED, stdout=out)
    assert "  core.0003_job_lease_task\n" in out.getvalue()
    assert "  core.0002_sent_mail\n" not in out.getvalue()

    call_command("migrate", database=UPGRADED, interactive=False, stdout=StringIO())
    Heartbeat.objects.using(UPGRADED).create(name=BACKUP_HEARTBEAT, at=timezone.now() - timedelta(hours=2))
    out = StringIO()
    call_command("upgrade_check", database=UPGRADED, stdout=out)
    assert "the database is up to date, nothing to migrate" in out.getvalue()
    assert "The last backup finished 2.0 hours ago." in out.getvalue()

    MigrationRecorder(upgraded_database).record_applied("core", "9999_of_a_newer_release")
    with pytest.raises(CommandError, match=r"does not know: core\.9999_of_a_newer_release\. It is of a newer"):
        call_command("upgrade_check", database=UPGRADED, stdout=StringIO())
