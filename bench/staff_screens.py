"""python -m bench.staff_screens [properties] [settlement rows] (not in make bench): the staff screens that
grow with the estate, with a page of properties (100, and a report of 5,000 rows) and then with many (by
default 1,000 properties and a report of 100,000 rows) in the same database: the property list, the
superuser's dashboard (its cards paged, the estate summed up), the dashboard of one property's staff and
the settlement report (whole, one category, a number searched). Queries, the fastest of RUNS times per page
(and the median), PostgreSQL's own execution time of the page's queries (EXPLAIN ANALYZE), and their ratio.
Goal: the same queries at both sizes, at most 1.5x the time. PostgreSQL only (DATABASE_URL): rows are made
by INSERT ... SELECT over generate_series. Writes var/bench/staff_screens.json."""

import json
import os
import platform
import sys
import time
from datetime import UTC, date, datetime

from bench.harness import BENCH_DIR, fresh_database, setup_django
from bench.pages import add_ratios, admin_client, comparison_lines, measure_page

#: Properties and settlement rows: the small estate fills a page of each list (100 properties, a hundred
#: rows of the report's smallest measured category), so that both sizes show as many rows and the ratio is
#: the estate's, not the page's (5 properties against a page of 100 measure Django's rendering of 95 rows).
SMALL = (100, 5_000)
LARGE = (1_000, 100_000)
#: Bookings per property (a few each: the dashboard's counts read them, the bench is about properties).
BOOKINGS_PER_PROPERTY = 10
RUNS = 9  # per page, after a warm-up; the fastest is reported (the page's cost, least disturbed by a shared machine)


def main():
    large = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else LARGE
    setup_django()
    from django.test import Client
    from django.urls import reverse

    with fresh_database() as connection:
        if connection.vendor != "postgresql":
            raise SystemExit("bench.staff_screens fills its tables with PostgreSQL's generate_series: set DATABASE_URL")
        superuser = admin_client(Client)
        figures = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        }
        made = (0, 0)
        staff = reconciliation = None
        for label, size in (("small", SMALL), ("large", large)):
            started = time.perf_counter()
            _fill(connection, made[0], size[0])
            if staff is None:
                staff, reconciliation = _staff_client(Client), _reconciliation()
            _fill_settlement(connection, reconciliation, made[1], size[1])
            figures[f"{label}_rows"] = {"properties": size[0], "settlement_rows": size[1]}
            figures[f"{label}_fill_seconds"] = round(time.perf_counter() - started, 1)
            figures[label] = {
                name: measure_page(client, url, connection, RUNS)
                for name, (client, url) in _pages(reverse, superuser, staff, reconciliation).items()
            }
            made = size
    add_ratios(figures)
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "staff_screens.json").write_text(json.dumps(figures, indent=2) + "\n")


def _fill(connection, properties_made, properties):
    """Properties up to size (those made before are kept), each with its hub sync state (one in twenty
    failed, one in ten pending) and BOOKINGS_PER_PROPERTY bookings (received over the last days, one a
    pending hold, some arriving today), then VACUUM ANALYZE."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO integration_property (vendor_id, name, status, email, phone, sms_phone, website, refunds,
                classifications, property_tags, facility_tags, service_tags, attraction_tags, created_at,
                updated_at)
            SELECT 'bench-' || n, 'Bench stay ' || lpad(n::text, 4, '0'),
                (ARRAY['enabled', 'enabled', 'enabled', 'disabled'])[1 + n %% 4], '', '', '', '', '{}',
                '[]', '[]', '[]', '[]', '[]', now(), now()
            FROM generate_series(%s, %s) AS n
            """,
            [properties_made, properties - 1],
        )
        cursor.execute(
            """
            INSERT INTO integration_syncstate (kind, object_id, property_id, status, version, sent_version,
                failures, last_error, known_to_hub, environment, updated_at)
            SELECT 'property', p.id, p.id,
                CASE WHEN p.id % 20 = 0 THEN 'failed' WHEN p.id % 10 = 5 THEN 'pending' ELSE 'synced' END,
                1, 1, 0, CASE WHEN p.id % 20 = 0 THEN 'HTTP 500' ELSE '' END, true, 'staging', now()
            FROM integration_property p
            WHERE NOT EXISTS (SELECT 1 FROM integration_syncstate s WHERE s.kind = 'property' AND s.object_id = p.id)
            """
        )
        cursor.execute(
            """
            INSERT INTO integration_roomtype (property_id, vendor_id, name, status, room_count, min_stay, max_stay,
                standard_capacity, max_capacity, size, single_beds, double_beds, bunk_beds, details,
                roomtype_tags, amenity_tags, view_tags, created_at, updated_at)
            SELECT p.id, 'room', 'Room', 'enabled', 10, 1, 30, 2, 4, 20, 0, 1, 0, '{}', '[]', '[]', '[]', now(), now()
            FROM integration_property p
            WHERE NOT EXISTS (SELECT 1 FROM integration_roomtype r WHERE r.property_id = p.id)
            """
        )
        cursor.execute(
            f"""
            INSERT INTO bookings_booking (
                vendor_booking_number, status, type, channel_id, channel_name, channel_booking_number,
                gds_booking_number, gds_sub_booking_number, property_id, room_type_id, checkin,
                checkout, nights, currency, amount, total_amount, net_price, payment_type, guest_name, adults,
                children, infants, pets, cars, booker_name, booker_email, booker_phone, reserved_at,
                special_comment, visit_type, secondary_channel, content_digest, created_at, updated_at)
            SELECT 'SS' || r.property_id || '-' || n, CASE n WHEN 3 THEN 'pending' WHEN 4 THEN 'canceled'
                    ELSE 'confirmed' END, 'overnight', 1, 'Channel 1', 'CH-' || r.property_id || '-' || n,
                'G-' || r.property_id || '-' || n, 'G-' || r.property_id || '-' || n || '-1', r.property_id, r.id,
                date_trunc('day', now()) + (n % 3) * interval '1 day' + interval '6 hours',
                date_trunc('day', now()) + (1 + n % 3) * interval '1 day' + interval '2 hours', '[]',
                'KRW', 100000, 110000, 95000, 'prepayment', 'Guest ' || n, 2, 0, 0, 0, 0, 'Booker',
                'booker@example.com', '010-1234-5678', now(), '', '', '', '', now() - n * interval '5 hours',
                now()
            FROM integration_roomtype r, generate_series(0, {BOOKINGS_PER_PROPERTY - 1}) AS n
            WHERE r.property_id NOT IN (SELECT DISTINCT property_id FROM bookings_booking)
            """  # noqa: S608
        )
        for table in ("integration_property", "integration_syncstate", "integration_roomtype", "bookings_booking"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def _staff_client(client_class):
    """A client logged in as the staff member of the first property (no second factor: staff may go
    without), in English."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from integration.access.services import membership_grant
    from integration.models import Property

    user = get_user_model().objects.create_user("bench-staff", "", "bench-password-1", is_staff=True)
    membership_grant(user=user, property=Property.objects.order_by("pk").first(), role="staff")
    client = client_class(HTTP_HOST="localhost")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _reconciliation():
    """A done reconciliation of the first properties, whose rows _fill_settlement makes."""
    from bookings.settlement.models import Reconciliation
    from integration.models import Property

    reconciliation = Reconciliation.objects.create(
        date_from=date(2026, 1, 1), date_to=date(2026, 12, 31), status="done"
    )
    reconciliation.properties.set(Property.objects.order_by("pk")[: SMALL[0]])
    return reconciliation


def _fill_settlement(connection, reconciliation, made, rows):
    """The reconciliation's rows up to rows (over its properties and the year, 2 % differing), with its
    totals per category and month as a finished run writes them, then VACUUM ANALYZE."""
    from bookings.settlement.choices import Category

    properties = list(reconciliation.properties.values_list("pk", flat=True))
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO settlement_reconciliationrow (reconciliation_id, category, vendor_booking_number,
                property_id, date, month, hub_status, our_status, hub_total_amount, our_total_amount,
                hub_net_price, our_net_price)
            SELECT %s, CASE WHEN n %% 50 = 7 THEN 'amount' WHEN n %% 50 = 17 THEN 'hub_only' ELSE 'matched' END,
                'VH' || upper(lpad(to_hex(n), 12, '0')), (ARRAY{properties})[1 + n %% {len(properties)}],
                date '2026-01-01' + n %% 365, date_trunc('month', date '2026-01-01' + n %% 365)::date,
                'CONFIRMED', 'confirmed', 110000, CASE WHEN n %% 50 = 7 THEN 100000 ELSE 110000 END, 95000, 95000
            FROM generate_series(%s, %s) AS n
            """,  # noqa: S608
            [reconciliation.pk, made, rows - 1],
        )
        cursor.execute(
            "SELECT category, count(*), sum(hub_total_amount), sum(our_total_amount)"
            " FROM settlement_reconciliationrow WHERE reconciliation_id = %s GROUP BY category",
            [reconciliation.pk],
        )
        totals = {
            category: {"count": count, "hub_total": float(hub or 0), "our_total": float(ours or 0)}
            for category, count, hub, ours in cursor.fetchall()
        }
        cursor.execute(
            "SELECT to_char(month, 'YYYY-MM'), category, count(*) FROM settlement_reconciliationrow"
            " WHERE reconciliation_id = %s GROUP BY 1, 2 ORDER BY 1",
            [reconciliation.pk],
        )
        monthly = {}
        for month, category, count in cursor.fetchall():
            monthly.setdefault(month, {"month": month, **dict.fromkeys(Category.values, 0)})[category] = count
        cursor.execute("VACUUM ANALYZE settlement_reconciliationrow")
    reconciliation.totals, reconciliation.monthly = totals, list(monthly.values())
    reconciliation.save(update_fields=["totals", "monthly"])


def _pages(reverse, superuser, staff, reconciliation):
    """{name: (client, url)} of the measured pages."""
    properties = reverse("admin:integration_property_changelist")
    report = reverse("admin:settlement_reconciliation_change", args=[reconciliation.pk])
    return {
        "property list": (superuser, properties),
        "property list, one status": (superuser, f"{properties}?status__exact=enabled"),
        "dashboard (superuser)": (superuser, reverse("admin:index")),
        "dashboard (a property's staff)": (staff, reverse("admin:index")),
        "settlement report": (superuser, report),
        "settlement report, a category": (superuser, f"{report}?category=amount"),
        "settlement report, a number": (superuser, f"{report}?q=VH{500:012X}"),
    }


def report(figures):
    """The figures as a table for a terminal."""
    small, large = figures["small_rows"], figures["large_rows"]
    lines = [
        f"Staff screens benchmark: {figures['database']}, Python {figures['python']}, {figures['cpus']} CPUs;"
        f" filled in {figures['small_fill_seconds']} s and {figures['large_fill_seconds']} s",
        f"  {'':32}{'small: ' + format(small['properties'], ',') + ' / ' + format(small['settlement_rows'], ','):>36}"
        f"{'large: ' + format(large['properties'], ',') + ' / ' + format(large['settlement_rows'], ','):>40}",
        *comparison_lines(
            figures,
            name_header="page (properties / settlement rows)",
            name_width=32,
            extra=("KB", "kb", 9),
            ratios=(("x time", "time_ratio", 9), ("x db", "db_ratio", 8)),
        ),
    ]
    lines.append(
        "  ms: the fastest of each page's runs; goal: the same queries at both sizes, at most 1.5x the time"
        " (db ms: the database's own share)"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
