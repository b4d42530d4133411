"""The migration state of each release: a backup names it with the version (core.version), a restore compares
them with the code's, and the upgrade test migrates a database built at a release's state to today's."""

from django.db import connections
from django.db.migrations.executor import MigrationExecutor

#: {release: {app label: its last migration}}: the schema each release shipped with. A release adds its
#: line here; the upgrade test (tests/golive/test_upgrade.py) migrates from each one forward.
RELEASE_MIGRATIONS = {
    "1.0.0": {
        "admin": "0003_logentry_add_action_flag_choices",
        "auth": "0012_alter_user_first_name_max_length",
        "axes": "0010_accessattemptexpiration",
        "bookings": "0004_desk_marks",
        "contenttypes": "0002_remove_content_type_name",
        "core": "0003_job_lease_task",
        "hubsandbox": "0001_initial",
        "inbox": "0004_event_kinds",
        "integration": "0006_distribution_pause_and_urgent",
        "licenses": "0001_initial",
        "otp_static": "0003_add_timestamps",
        "otp_totp": "0003_add_timestamps",
        "reports": "0001_initial",
        "sessions": "0001_initial",
        "settlement": "0002_row_no_show",
    },
}


def upgrade_plan(using="default"):
    """What `migrate` would do to the database of using: ([(migration, reversible)] to apply, in order;
    [applied migrations this code does not know]: a database of a newer release, or of a removed one)."""
    executor = MigrationExecutor(connections[using])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    unknown = sorted(
        f"{app}.{name}"
        for app, name in executor.loader.applied_migrations
        if (app, name) not in executor.loader.graph.nodes
    )
    return [(migration, _reversible(migration)) for migration, _backwards in plan], unknown


def _reversible(migration):
    return all(operation.reversible for operation in migration.operations)
