from django.db import migrations

# The list searches a part of any of the four numbers or of the guest's name, whatever the case: Django's
# icontains, UPPER(field::text) LIKE UPPER('%term%') for each field, which reads every row without a
# trigram index. One GIN index holds the five columns' trigrams (a search ORs a scan of each; a column's
# entries are apart from the others'), so a create pays one index for the search, not five. PostgreSQL
# only: SQLite has no such index (and no table that size). It replaces 0002's index of the guest's name
# and the exact index of the gds number (the search reads the gds number through this one).
SEARCH_INDEX = "booking_search_trgm"
COLUMNS = (
    "vendor_booking_number",
    "channel_booking_number",
    "gds_booking_number",
    "gds_sub_booking_number",
    "guest_name",
)
GUEST_NAME_INDEX = "booking_guest_name_trgm"


def create_search_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    columns = ", ".join(f"UPPER({column}) gin_trgm_ops" for column in COLUMNS)
    schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {SEARCH_INDEX} ON bookings_booking USING gin ({columns})")
    schema_editor.execute(f"DROP INDEX IF EXISTS {GUEST_NAME_INDEX}")


def drop_search_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {GUEST_NAME_INDEX} ON bookings_booking USING gin (UPPER(guest_name) gin_trgm_ops)"
    )
    schema_editor.execute(f"DROP INDEX IF EXISTS {SEARCH_INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0008_booking_front_desk_indexes"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="booking", name="booking_gds_number"),
        migrations.RunPython(create_search_index, drop_search_index),
    ]
