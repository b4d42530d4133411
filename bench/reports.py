"""python -m bench.reports [bookings] (not in make bench): each report page (occupancy, ADR and RevPAR;
pickup; pace; channel mix; booking patterns) and the dashboard with 1,000 bookings and then with 1,000,000
(or the number given) in the same database: queries, the fastest of RUNS times per page, PostgreSQL's own
execution time of the page's queries, and their ratios. Goal: the same queries at both sizes and at most
1.5x the time, because reports read the daily figures, never the bookings. The bookings are made by
INSERT ... SELECT over generate_series (PostgreSQL only: DATABASE_URL), over two years of stay dates on
four channels, one in ten canceled; the figures are then computed by the upgrade's backfill
(bookings.reports.figures.figures_rebuild, which the reports' migration runs), whose time is reported
too. Writes var/bench/reports.json."""

import datetime
import json
import os
import platform
import sys
import time
from datetime import UTC

from bench.harness import BENCH_DIR, fresh_database, setup_django
from bench.pages import add_ratios, admin_client, comparison_lines, measure_page

SMALL = 1_000
LARGE = 1_000_000
#: Stay dates from a year ago to a year ahead; rooms to sell per room type and night (two room types).
DAYS = 730
ALLOTMENT = 2_000
RUNS = 9  # per page, after a warm-up; the fastest is reported


def main():
    large = int(sys.argv[1]) if len(sys.argv) > 1 else LARGE
    setup_django()
    from django.test import Client

    with fresh_database() as connection:
        if connection.vendor != "postgresql":
            raise SystemExit("bench.reports fills its tables with PostgreSQL's generate_series: set DATABASE_URL")
        prop = _estate(connection)
        client = admin_client(Client)
        figures = {
            "when": datetime.datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        }
        made = 0
        for label, size in (("small", SMALL), ("large", large)):
            started = time.perf_counter()
            _bookings(connection, prop, made, size)
            figures[f"{label}_fill_seconds"] = round(time.perf_counter() - started, 1)
            figures[f"{label}_rebuild_seconds"] = _rebuild(connection)
            figures[f"{label}_rows"] = {"bookings": size, "figures": _figure_rows(connection)}
            figures[label] = {
                name: measure_page(client, url, connection, RUNS, plan=True) for name, url in _pages(prop).items()
            }
            made = size
    add_ratios(figures)
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "reports.json").write_text(json.dumps(figures, indent=2) + "\n")


def _estate(connection):
    """A property with two room types, stock for every stay date, and the four channels named."""
    from integration.models import Property, RoomType, RoomTypeDay, SalesChannel

    prop = Property.objects.create(vendor_id="bench-reports", name="Bench reports")
    first = _first_day()
    for vendor_id in ("standard", "deluxe"):
        room = RoomType.objects.create(property=prop, vendor_id=vendor_id, name=vendor_id, max_capacity=4)
        RoomTypeDay.objects.bulk_create(
            RoomTypeDay(
                room_type=room, date=first + datetime.timedelta(days=n), allotment=ALLOTMENT, available=ALLOTMENT
            )
            for n in range(DAYS + 3)
        )
    SalesChannel.objects.bulk_create(SalesChannel(channel_id=n, name=f"Channel {n}") for n in range(1, 5))
    return prop


def _first_day():
    from core.dates import korea_today

    return korea_today() - datetime.timedelta(days=DAYS // 2)


def _bookings(connection, prop, made, size):
    """Bookings made + 1 to size of prop: 1 to 3 nights over two years of stay dates, received 0 to 119 days
    ahead (and before today: none was received today, as on a quiet day), on four channels, one in ten
    canceled a day after it was received; then VACUUM ANALYZE."""
    from integration.models import RoomType

    room = RoomType.objects.filter(property=prop).order_by("pk").first()
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO bookings_booking (
                vendor_booking_number, status, type, channel_id, channel_name, channel_booking_number,
                gds_booking_number, gds_sub_booking_number, property_id, room_type_id, checkin, checkout,
                nights, currency, amount, total_amount, net_price, payment_type, guest_name, adults, children,
                infants, pets, cars, booker_name, booker_email, booker_phone, reserved_at, special_comment,
                visit_type, secondary_channel, content_digest, confirmed_at, canceled_at, created_at, updated_at)
            SELECT 'RB' || n, CASE WHEN n %% 10 = 9 THEN 'canceled' ELSE 'confirmed' END, 'overnight',
                1 + n %% 4, 'Channel ' || (1 + n %% 4), NULL, 'G-' || n, 'G-' || n || '-1', %(property)s,
                %(room)s, s.checkin, s.checkin + (1 + n %% 3) * interval '1 day' - interval '4 hours',
                (SELECT jsonb_agg(to_char(s.first + k, 'YYYY-MM-DD')) FROM generate_series(0, n %% 3) AS k),
                'KRW', 100000 * (1 + n %% 3), 110000 * (1 + n %% 3), 85000 * (1 + n %% 3), 'prepayment',
                'Guest', 2, 0, 0, 0, 0, 'Booker', 'booker@example.com', '010-1234-5678', s.reserved, '', '', '',
                '', s.reserved, CASE WHEN n %% 10 = 9 THEN s.reserved + interval '1 day' END, s.reserved,
                s.reserved
            FROM generate_series(%(start)s, %(end)s) AS n,
                LATERAL (SELECT %(first)s::date + n %% %(days)s AS first) AS f,
                LATERAL (SELECT f.first, (f.first + time '15:00') AT TIME ZONE 'Asia/Seoul' AS checkin,
                    LEAST((f.first + time '10:00') AT TIME ZONE 'Asia/Seoul' - (n * 7 %% 120) * interval '1 day',
                        now() - (1 + n %% 90) * interval '1 day') AS reserved) AS s
            """,
            {
                "property": prop.pk,
                "room": room.pk,
                "start": made + 1,
                "end": size,
                "first": _first_day(),
                "days": DAYS,
            },
        )
        cursor.execute("VACUUM ANALYZE bookings_booking")


def _rebuild(connection):
    """The backfill's seconds (every figure computed from the bookings), then VACUUM ANALYZE of the figures."""
    from bookings.reports.figures import figures_rebuild

    started = time.perf_counter()
    figures_rebuild()
    seconds = round(time.perf_counter() - started, 1)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE reports_dailyfigure")
        cursor.execute("VACUUM ANALYZE reports_pickupfigure")
    return seconds


def _figure_rows(connection):
    from bookings.reports.models import DailyFigure, PickupFigure

    return {"daily": DailyFigure.objects.count(), "pickup": PickupFigure.objects.count()}


def _pages(prop):
    """{name: url} of the measured pages: each report of the next 30 days, by day, and the dashboard."""
    from django.urls import reverse

    from core.dates import korea_today

    page = reverse("admin:reports_dailyfigure_changelist")
    today = korea_today()
    dates = f"property={prop.pk}&start={today}&end={today + datetime.timedelta(days=29)}&grouping=day"
    return {
        **{
            f"report: {kind}": f"{page}?report={kind}&{dates}"
            for kind in ("performance", "pickup", "pace", "channels", "bookings")
        },
        "report: performance, all properties, by month": f"{page}?start={today.replace(month=1, day=1)}"
        f"&end={today.replace(month=12, day=31)}&grouping=month",
        "dashboard": reverse("admin:index"),
    }


def report(figures):
    """The figures as text: a line per page at both sizes, with the ratios."""
    small, large = figures["small_rows"], figures["large_rows"]
    lines = [
        f"Reports, {small['bookings']:,} against {large['bookings']:,} bookings ({figures['database']},"
        f" {figures['cpus']} CPUs)",
        f"  daily figures {small['figures']['daily']:,} / {large['figures']['daily']:,} rows,"
        f" pickup figures {small['figures']['pickup']:,} / {large['figures']['pickup']:,} rows",
        f"  bookings made in {figures['small_fill_seconds']} s / {figures['large_fill_seconds']} s;"
        f" backfill (reports_rebuild) {figures['small_rebuild_seconds']} s / {figures['large_rebuild_seconds']} s",
        "",
        *comparison_lines(
            figures,
            name_width=46,
            extra=("kB", "kb", 7),
            ratios=(("time", "time_ratio", 7), ("db", "db_ratio", 7)),
        ),
        "",
        "Goal: the same queries at both sizes and a time ratio of 1.5 at most.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
