"""python -m bench.ari_import [rows] (not part of make bench): a rates and availability CSV file of about
165,000 rows (made here, never kept), checked the old way (the dry run of one request, without progress)
against the import's check job (progress recorded, the error and change lines stored for paging and the
error file). Prints both times, their ratio and the longest stretch without a progress step.
PostgreSQL when DATABASE_URL names one, else SQLite."""

import datetime
import itertools
import sys
import time

from bench.harness import fresh_database, setup_django

ROWS = 165_000
ROOM_TYPES = 30
MODELS = 5  # one standalone, four packages
#: Every BAD_EVERY-th row has a value no import takes; days past the hub's window are errors too.
BAD_EVERY = 10


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else ROWS
    setup_django()
    with fresh_database() as connection:
        prop, user = _prepare()
        text = _file(prop, rows)
        print(
            f"CSV import benchmark: {connection.vendor}, {rows:,} rows, {len(text.encode()) / 1e6:.1f} MB",
            flush=True,
        )
        dry_run, counts = _dry_run(prop, text)
        job, steps, stored = _job(prop, user, text)
    print(f"  rows: {counts['change']:,} change, {counts['unchanged']:,} unchanged, {counts['error']:,} with errors")
    print(f"  dry run in one request (no progress, nothing kept)  {dry_run:>8.2f} s")
    print(f"  check job (progress, {stored:,} lines kept)        {job:>8.2f} s   ({job / dry_run:.2f}x)")
    longest, after = max(steps, key=lambda step: step[0])
    print(f"  progress steps {len(steps)}, longest stretch without one {longest:.2f} s (after {after} ‰)")


def _prepare():
    """A property of ROOM_TYPES room types x MODELS rate plans with a year of values, and its staff."""
    from django.contrib.auth import get_user_model

    from core.dates import korea_today
    from integration.content.choices import RatePlanType
    from integration.models import Property, RatePlan, RatePlanDay, RatePlanModel, RoomType, RoomTypeDay

    prop = Property.objects.create(vendor_id="bench-import", name="bench-import")
    models = [
        RatePlanModel.objects.create(
            property=prop,
            vendor_id=f"model-{n}",
            name=f"Model {n}",
            type=RatePlanType.STANDALONE if n == 0 else RatePlanType.PACKAGE,
        )
        for n in range(MODELS)
    ]
    today = korea_today()
    days = [today + datetime.timedelta(days=n) for n in range(365)]
    for r in range(ROOM_TYPES):
        room = RoomType.objects.create(property=prop, vendor_id=f"room-{r}", name=f"Room {r}")
        RoomTypeDay.objects.bulk_create(RoomTypeDay(room_type=room, date=d, allotment=5, available=5) for d in days)
        for model in models:
            plan = RatePlan.objects.create(
                property=prop, room_type=room, model=model, vendor_id=f"room-{r}-{model.vendor_id}"
            )
            standalone = model.type == RatePlanType.STANDALONE
            RatePlanDay.objects.bulk_create(
                RatePlanDay(
                    rate_plan=plan,
                    date=d,
                    rate=100_000 if standalone else None,
                    rate_modify=None if standalone else 20_000,
                )
                for d in days
            )
    user = get_user_model().objects.create_superuser("bench", "bench@example.com", "bench")
    return prop, user


def _file(prop, count):
    """count rows over the days from tomorrow on: every room type's rooms and every plan's rate, a day
    at a time; odd days change, even ones repeat what is stored; every BAD_EVERY-th row has a bad value,
    and the days past the hub's window (730 days) are errors."""
    from core.dates import korea_today
    from integration.ari.csv_parse import ARI_CSV_COLUMNS

    lines = [",".join(ARI_CSV_COLUMNS)]
    day = korea_today()
    while len(lines) <= count:
        day += datetime.timedelta(days=1)
        change = day.toordinal() % 2
        for r in range(ROOM_TYPES):
            lines.append(f"availability,room-{r},,,{day},{5 + change},")
            for m in range(MODELS):
                kind, value = ("rate", 100_000 + change * 5000) if m == 0 else ("rate_modify", 20_000 - change * 1000)
                lines.append(f"{kind},room-{r},room-{r}-model-{m},,{day},{value},")
    lines = lines[: count + 1]
    for n in range(BAD_EVERY, len(lines), BAD_EVERY):
        lines[n] = lines[n].rsplit(",", 2)[0] + ",many,"
    return "\n".join(lines) + "\n"


def _dry_run(prop, text):
    """The old import's work in its request: read and plan every row."""
    from integration.ari.csv_parse import ari_csv_read
    from integration.ari.services.csv_import import ari_csv_plan

    started = time.perf_counter()
    plan = ari_csv_plan(prop, ari_csv_read(text))
    return time.perf_counter() - started, plan.counts


def _job(prop, user, text):
    """The import's check as its job runs it, with the time between progress steps."""
    from integration.ari.services import imports
    from integration.models import AriImport, AriImportLine

    ari_import = imports.ari_import_start(property=prop, user=user, file_name="bench.csv", text=text, language="en")
    marks = []
    recorded = imports._progress_save

    def progress(*args, **kwargs):
        marks.append((time.perf_counter(), kwargs.get("permille")))
        recorded(*args, **kwargs)

    imports._progress_save = progress
    started = time.perf_counter()
    imports.ari_import_check(import_id=ari_import.pk)
    ended = time.perf_counter()
    imports._progress_save = recorded
    points = [(started, 0), *marks, (ended, 1000)]
    steps = [(later - earlier, where) for (earlier, where), (later, _) in itertools.pairwise(points)]
    assert AriImport.objects.get(pk=ari_import.pk).status == "checked"
    return ended - started, steps, AriImportLine.objects.filter(ari_import=ari_import).count()


if __name__ == "__main__":
    main()
