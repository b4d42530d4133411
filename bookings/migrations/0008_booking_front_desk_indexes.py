from django.db import migrations, models

# The front desk's lists of a day: departures read a check-out range in check-out order (arrivals: the
# index on check-in). In house on PostgreSQL looks the day up in the nights a booking holds (a day use
# holds its date): a stay is a range of two columns, which no b-tree bounds on both sides, so a count of
# those in house would read every later stay; the nights' GIN index reads only those of that day.
NIGHTS_INDEX = "booking_nights_gin"


def create_nights_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {NIGHTS_INDEX} ON bookings_booking USING gin (nights jsonb_path_ops)"
        )


def drop_nights_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {NIGHTS_INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0007_request_id"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="booking",
            index=models.Index(fields=["checkout"], name="booking_checkout"),
        ),
        migrations.RunPython(create_nights_index, drop_nights_index),
    ]
